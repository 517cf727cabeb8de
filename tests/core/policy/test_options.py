"""Command tier: option effects (``core/policy/shell/effects/options.py``, table OPTION_EFFECTS): options and variables
that write a file, run a command or change the system, whatever their program.

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
    # the shell history rewritten is no read (what ran is hidden)
    ('terminal', 'history -c', L),
    # read-only programs with options that write files or run commands (table OPTION_EFFECTS): a write goes
    # through the path rules of any write, a command string is read as a command
    ('terminal', 'sort -o /etc/passwd x', H),
    ('terminal', 'sort -rno/etc/passwd x', H),
    ('terminal', 'uniq x /etc/passwd', H),
    ('terminal', 'uniq -f 1 x /etc/passwd', H),
    ('terminal', 'xxd -r hex /etc/passwd', H),
    ('terminal', 'xxd -ps in ~/.bashrc', H),
    ('terminal', 'less -o /etc/passwd file', H),
    ('terminal', 'less --log-file=/etc/passwd file', H),
    ('terminal', 'tree -o /etc/cron.d/x', H),
    ('terminal', 'iconv -f latin1 -t utf8 -o /etc/hosts x', H),
    ('terminal', "date -s '2000-01-01'", M),
    ('terminal', "date --set='2000-01-01'", M),
    ('terminal', 'hostnamectl set-hostname evil', M),
    ('terminal', 'hostnamectl hostname evil', M),
    ('terminal', 'journalctl --vacuum-time=1s', H),
    ('terminal', 'journalctl --rotate --vacuum-size=1K', H),
    ('terminal', 'dmesg -c', M),
    ('terminal', 'dmesg --clear', M),
    ('terminal', 'ss -K dst 10.0.0.1', M),
    # ... and the same programs reading, writing in the workspace, or running harmless commands
    ('terminal', 'sort -o out.txt in.txt', L),
    ('terminal', 'uniq -c in.txt out.txt', L),
    ('terminal', 'xxd -r -p in.hex out.bin', L),
    ('terminal', 'man -P cat ls', S),
    # builtins and variables that run code later or elsewhere: trap's command, aliases, coproc, injected
    # libraries and start-up files (table CODE_VARS), prompt strings, exported functions
    ('terminal', 'LD_PRELOAD=/tmp/evil.so ls', M),
    ('terminal', 'env LD_PRELOAD=/tmp/evil.so ls', M),
    ('terminal', 'DYLD_INSERT_LIBRARIES=/tmp/e.dylib ls', M),
    ('terminal', 'BASH_ENV=/tmp/evil bash script.sh', M),
    ('terminal', 'ENV=/tmp/evil sh', M),
    ('terminal', 'PYTHONSTARTUP=/tmp/evil.py python3', M),
    ('terminal', "NODE_OPTIONS='--require /tmp/evil.js' node app.js", M),
    ('terminal', 'PERL5OPT=-Mevil perl x.pl', M),
    # editors and archivers that run commands
    ('terminal', "vim -c 'w /etc/passwd' f", H),
    ('terminal', "vim -c 'call system(g:x)' f", H),
    ('terminal', "emacs --batch --eval '(message \"hi\")'", M),
    # ... and their harmless look-alikes
    ('terminal', 'zip -r out.zip src', L),
]


@pytest.mark.parametrize(("action", "command", "expected"), CASES)
def test_options(action: str, command: str, expected: Tier) -> None:
    got = classify(action, command)
    assert got.tier is expected, (action, command, got)
