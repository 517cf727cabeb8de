"""Command tier: the system family (``core/policy/shell/families/system.py``): power, processes, services, scheduled
commands, firewalls, users, kernel and network settings.

Each row is ``(action, command, tier)``: the tier ``classify(action, command)`` must give. A row lives in
the file of the family whose handler reads the command (its outermost one: ``bash -c 'rm -rf /'`` is
the interpreters family's, ``sudo rm -rf /`` the files family's); rows no handler decides are in
test_walker, test_dispatch, test_options, test_secrets and test_actions.
"""

from __future__ import annotations

import pytest

from core.policy import classify
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL

CASES = [
    # quoting, escapes, substitutions
    ("terminal", 'echo "$(reboot)"', C),
    # disks, power, processes
    ("terminal", "shutdown -h now", C),
    ("terminal", "reboot", C),
    ("terminal", "halt", C),
    ("terminal", "poweroff", C),
    ("terminal", "init 0", C),
    ("terminal", "telinit 6", C),
    ("terminal", "systemctl reboot", C),
    ("terminal", "systemctl kexec", C),
    ("terminal", "kill -9 -1", C),
    ("terminal", "kill -s KILL -1", C),
    ("terminal", "kill -- -1", C),
    ("terminal", "killall5", C),
    ("terminal", "kill -1 1234", M),
    ("terminal", "kill -l", S),
    ("terminal", "pkill -f worker", M),
    ("terminal", "pkill -u bob", H),
    ("terminal", "killall -u bob php-fpm", M),
    # services, git, docker, k8s, iac
    ("terminal", "systemctl stop nginx", H),
    ("terminal", "systemctl restart nginx", M),
    ("terminal", "systemctl status nginx", S),
    ("terminal", "service nginx stop", H),
    ("terminal", "crontab -r", H),
    ("terminal", "crontab -l", S),
    ("terminal", "iptables -F", H),
    ("terminal", "iptables -L", S),
    ("terminal", "ufw disable", H),
    # read-only and unknown
    ("terminal", "iptables -L -n", S),
    # found while hardening the classifier (a prompt-injected agent's tricks), with their over-flag checks
    ('terminal', "echo 'rm -rf /' | at now", C),
    ('terminal', "at now <<< 'rm -rf /'", C),
    ('terminal', "echo '* * * * * rm -rf /' | crontab -", C),
    ('terminal', "crontab - <<< '* * * * * rm -rf ~'", C),
    ('terminal', "(crontab -l; echo '@reboot rm -rf /') | crontab -", C),
    ('terminal', 'kill -9 -1', C),
    ('terminal', 'kill -KILL -1', C),
    ('terminal', 'kill -s 9 -1', C),
    ('terminal', 'kill -- -1', C),
    ('terminal', 'pkill -9 -u root', H),
    ('terminal', 'killall -u bob', H),
    ('terminal', 'shutdown now', C),
    ('terminal', 'sudo systemctl reboot', C),
    ('terminal', 'systemctl --force poweroff', C),
    ('terminal', 'loginctl poweroff', C),
    ('terminal', 'telinit 6', C),
    ('terminal', 'halt -p', C),
    ('terminal', 'init 0', C),
    ('run_code', "import os; os.system('reboot')", C),
    ('execute_code', "import os; os.system('reboot')", C),
    ('python', "import os; os.system('reboot')", C),
    ('jupyter_execute', "import os; os.system('reboot')", C),
    ('python_repl', "import os; os.system('reboot')", C),
    ('ipython', "import os; os.system('reboot')", C),
    ('str_replace_editor', '/etc/passwd', H),
    ('terminal', 'crontab -l', S),
    ('terminal', "echo '0 3 * * * /usr/local/bin/backup.sh' | crontab -", M),
    ('terminal', 'loginctl list-sessions', S),
    ('terminal', 'kexec -l /boot/vmlinuz', H),
    # process substitution inside a word (`--file=<(cmd)`) and as a redirect target (`< <(cmd)`), as bash reads them
    ('terminal', 'cat < <(reboot)', C),
    # an option's value read as the subcommand: global options (table GLOBAL_OPTS) are read first, and an
    # unknown option followed by a word counts both ways (the higher tier decides)
    ('terminal', 'systemctl --unknown-opt status stop nginx', H),
    ('terminal', 'loginctl -H host poweroff', C),
    # ... and their harmless look-alikes stay where they were
    ('terminal', 'systemctl --no-pager status nginx', S),
    # service control, database server admin, firewall, D-Bus power calls
    ('terminal', 'launchctl stop com.openssh.sshd', H),
    ('terminal', 'launchctl unload -w /System/Library/LaunchDaemons/com.openssh.sshd.plist', H),
    ('terminal', 'launchctl bootout system/com.apple.something', H),
    ('terminal', 'launchctl load -w ~/Library/LaunchAgents/com.x.plist', M),
    ('terminal', 'sv stop nginx', H),
    ('terminal', 'sv down nginx', H),
    ('terminal', 'update-rc.d -f ssh remove', H),
    ('terminal', 'chkconfig sshd off', H),
    ('terminal', 'chkconfig --del sshd', H),
    ('terminal', 'launchctl list', S),
    ('terminal', 'sv status nginx', S),
    ('terminal', 'chkconfig --list', S),
    ('terminal', 'mysqladmin -u root drop production -f', H),
    ('terminal', 'mysqladmin -u root -f drop app', H),
    ('terminal', 'mysqladmin -u root status', S),
    ('terminal', 'iptables-restore < /dev/null', H),
    ('terminal', 'iptables-restore --test rules.v4', L),
    ('terminal', 'dbus-send --system --print-reply --dest=org.freedesktop.login1 /org/freedesktop/login1 '
                 'org.freedesktop.login1.Manager.PowerOff boolean:true', C),
    ('terminal', 'busctl call org.freedesktop.login1 /org/freedesktop/login1 org.freedesktop.login1.Manager '
                 'Reboot b true', C),
    ('terminal', 'busctl list', L),
    # red team 3, smaller spec gaps: an octal mode after `=`/`+` is world-writable like 777; setuid is HIGH,
    # setgid MEDIUM (choice); builds that push publish; glab reads like gh; rpm -i/-U/-e installs; inline code
    # of bun, ipython, irb and gdb -ex; systemd power targets reached now are power operations; role privileges
    # in ALTER/CREATE ROLE are grants; COPY … PROGRAM with dollar quoting
    ('terminal', 'systemctl start reboot.target', C),
    ('terminal', 'systemctl start poweroff.target', C),
    ('terminal', 'systemctl isolate halt', C),
    ('terminal', 'systemctl isolate rescue.target', C),
    ('terminal', 'systemctl start suspend.target', H),
    ('terminal', 'systemctl start nginx', M),
    ('terminal', 'systemctl restart multi-user.target', M),
]


@pytest.mark.parametrize(("action", "command", "expected"), CASES)
def test_system(action: str, command: str, expected: Tier) -> None:
    got = classify(action, command)
    assert got.tier is expected, (action, command, got)
