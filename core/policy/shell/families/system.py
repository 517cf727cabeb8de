"""The system: power (``shutdown``, ``loginctl``, ``init``), processes (``kill``, ``pkill``), services
(``systemctl``, ``service``, other service managers read by their action word, D-Bus calls), scheduled commands
(``crontab``, ``at``), firewalls, user accounts, kernel parameters and the network configuration.

To add a rule: add the program's handler here (signature ``(r, prog, args, metas, ctx, acc, stdin)``: ``r`` the
reader, ``args`` the words after the program, ``metas`` what each word's substitutions printed, ``acc`` the
verdict to raise, ``stdin`` the pipeline value it reads; it returns what it prints) and its programs to
``HANDLERS`` at the end, or a row to its table in :mod:`core.policy.tables`; test it in
``tests/core/policy/test_system.py``. A handler of another family is called through the registry
(``r.call("h_name", …)``), never imported.
"""

from __future__ import annotations

from core.policy import _paths as P
from core.policy import tables as T
from core.policy.shell.families import handlers
from core.policy.shell.options import getopts
from core.policy.shell.state import DECODED, DOWNLOAD, OTHER, SECRET, TextInput
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL


def h_power(r, prog, args, metas, ctx, acc, stdin):
    """``shutdown``, ``reboot``, ``halt``, ``poweroff``: CRITICAL (``shutdown -c`` cancels: LOW)."""
    if prog == "shutdown" and any(a in ("-c", "--cancel", "-k") for a in args):
        acc.add(L, "shell.power.cancel", "shutdown -c (cancels a pending shutdown)")
    else:
        acc.add(C, f"shell.power.{prog}", f"{prog} of the machine")
    return OTHER


def h_loginctl(r, prog, args, metas, ctx, acc, stdin):
    """``loginctl``/``kexec``: power verbs CRITICAL, sleep and ending sessions HIGH, listings SAFE."""
    pos = [a for a in args if not a.startswith("-")]
    verb = pos[0] if pos else ""
    if prog == "kexec":
        if any(a in ("-e", "--exec") for a in args):
            acc.add(C, "shell.power.kexec", "kexec -e (reboots into another kernel)")
        else:
            acc.add(H, "shell.kexec", "kexec (loads a kernel to boot)")
        return OTHER
    if verb in ("poweroff", "reboot", "halt", "kexec", "soft-reboot"):
        acc.add(C, f"shell.power.{verb}", f"{prog} {verb} of the machine")
    elif verb in ("suspend", "hibernate", "hybrid-sleep", "suspend-then-hibernate"):
        acc.add(H, f"shell.power.{verb}", f"{prog} {verb}")
    elif verb in ("terminate-user", "kill-user", "terminate-session", "kill-session", "terminate-seat"):
        acc.add(H, "shell.loginctl.terminate", f"{prog} {verb} (ends user sessions)")
    elif not verb or verb.startswith(("list", "show", "session-status", "user-status", "seat-status")):
        acc.add(S, "shell.loginctl.read", f"{prog} {verb}".strip())
    else:
        acc.add(M, "shell.loginctl", f"{prog} {verb}")
    return OTHER


def h_init(r, prog, args, metas, ctx, acc, stdin):
    """``init``/``telinit LEVEL``: 0 and 6 CRITICAL, single-user HIGH, other runlevels MEDIUM."""
    lvl = args[0] if args else ""
    if lvl in ("0", "6"):
        acc.add(C, "shell.power.init", f"{prog} {lvl} ({'power off' if lvl == '0' else 'reboot'})")
    elif lvl in ("1", "s", "S", "single"):
        acc.add(H, "shell.init.single", f"{prog} {lvl} (single-user mode)")
    elif lvl in ("q", "Q", "u", "U", "") or lvl.startswith("-"):
        acc.add(L, "shell.init", prog)
    else:
        acc.add(M, "shell.init", f"{prog} {lvl} (runlevel change)")
    return OTHER


def h_kill(r, prog, args, metas, ctx, acc, stdin):
    """``kill``: ``-1`` (every process) CRITICAL, pid 1 HIGH, named processes MEDIUM, ``-l`` SAFE."""
    i, n = 0, len(args)
    if n and (args[0] in ("-l", "-L", "--list", "--table") or args[0].startswith("-l")):
        acc.add(S, "shell.kill.list", "kill -l (lists signal names)")
        return OTHER
    if i < n and args[i] in ("-s", "-n", "--signal"):
        i += 2
    elif i < n and args[i].startswith("-") and args[i] != "--":
        i += 1
    if i < n and args[i] == "--":
        i += 1
    targets = args[i:]
    if any(t == "-1" for t in targets):
        acc.add(C, "shell.kill.all", "kill -1 (signals every process)")
    elif any(t == "1" for t in targets):
        acc.add(H, "shell.kill.init", "kill of pid 1 (init)")
    else:
        acc.add(M, "shell.kill", "kill of named processes")
    return OTHER


def h_pkill(r, prog, args, metas, ctx, acc, stdin):
    """``pkill``/``killall``: every process of a user HIGH, named processes MEDIUM; ``killall5`` CRITICAL."""
    if prog == "killall5":
        acc.add(C, "shell.kill.all", "killall5 (signals every process)")
        return OTHER
    if prog == "killall" and any(a in ("-l", "--list") for a in args):
        acc.add(S, "shell.kill.list", "killall -l")
        return OTHER
    if prog in ("pkill", "pgrep"):
        o = getopts(args, frozenset("uUgGPstF"), frozenset(("--signal", "--euid", "--uid", "--pgroup", "--group",
                                                               "--parent", "--session", "--terminal", "--pidfile")))
    else:
        o = getopts(args, frozenset("usoyY"), frozenset(("--user", "--signal", "--older-than", "--younger-than",
                                                             "--context")))
    pos = [a for a in o.pos if not (a.startswith("-"))]
    by_user = o.flags & {"u", "U"} or o.any("--user", "--euid", "--uid")
    if by_user and not pos:
        acc.add(H, "shell.kill.user", f"{prog} -u: every process of a user")
    else:
        acc.add(M, "shell.kill.name", f"{prog} of named processes")
    return OTHER


def h_systemctl(r, prog, args, metas, ctx, acc, stdin):
    """``systemctl VERB UNIT…``: the verb's tier (table SYSTEMCTL_TIERS); power targets reached now CRITICAL."""
    o = getopts(args, frozenset("HMtps"), frozenset(("--host", "--machine", "--type", "--property", "--state",
                                                         "--signal", "--kill-whom", "--root", "--lines",
                                                         "--output", "--job-mode")))
    verb = o.pos[0] if o.pos else ""
    if not verb:
        acc.add(S, "shell.systemctl.list", "systemctl (lists units)")
        return OTHER
    t = T.SYSTEMCTL_TIERS.get(verb, M)
    acc.add(t, f"shell.systemctl.{verb}", f"systemctl {verb} {' '.join(o.pos[1:3])}".rstrip())
    if verb in T.SYSTEMCTL_ACTIVATE:
        for unit in o.pos[1:]:
            name = unit if "." in unit else unit + ".target"
            tt = T.SYSTEMD_POWER_TARGETS.get(name)
            if tt is not None:
                acc.add(tt, "shell.power" if tt == C else f"shell.systemctl.{verb}",
                        f"systemctl {verb} {name} ({'powers off or cuts off the machine' if tt == C else 'sleep'})")
    return OTHER


def h_service(r, prog, args, metas, ctx, acc, stdin):
    """``service NAME ACTION`` (and ``/etc/init.d/NAME ACTION``): the action's tier (table SERVICE_ACTION_TIERS)."""
    if args and args[0] == "--status-all":
        acc.add(S, "shell.service.status", "service --status-all")
        return OTHER
    pos = [a for a in args if not a.startswith("-")]
    if len(pos) < 2:
        acc.add(L, "shell.service", prog)
        return OTHER
    name, action = pos[0], pos[1]
    t = T.SERVICE_ACTION_TIERS.get(action, M)
    acc.add(t, f"shell.service.{action}", f"service {name} {action}")
    return OTHER


def h_verb_table(r, prog, args, metas, ctx, acc, stdin):
    """Programs read by their action words (table :data:`VERB_TABLES`): ``launchctl stop``, ``sv down``,
    ``update-rc.d NAME remove``, ``chkconfig NAME off``, ``mysqladmin drop DB``; the highest action decides."""
    with_arg, index, tiers, default, what = T.VERB_TABLES[prog]
    pos: list = []
    hits: list = []
    i, n = 0, len(args)
    while i < n:
        a = args[i]
        if a == "--":
            pos.extend(args[i + 1:])
            break
        if a.startswith("-") and len(a) > 1:
            k = a.split("=", 1)[0]
            if k in tiers:
                hits.append((tiers[k], k))
            if a in with_arg:
                i += 1
        else:
            pos.append(a)
        i += 1
    acts = pos if index is None else pos[index:index + 1]
    hits.extend((tiers.get(v, default), v) for v in acts)
    if not hits:
        hits.append((tiers.get("", default), ""))
    t, word = max(hits, key=lambda h: h[0])
    effect = T.VERB_EFFECTS.get(prog, {}).get(word) if prog in T.VERB_EFFECTS else T.SERVICE_EFFECTS.get(t)
    label = f"{prog} {word}".strip()
    acc.add(t, f"shell.{prog}.{word or 'none'}"[:40],
            f"{label} ({effect})" if effect else f"{label} ({what}, read-only)" if t == S else f"{label} ({what})")
    return OTHER


def h_dbus(r, prog, args, metas, ctx, acc, stdin):
    """D-Bus calls (``dbus-send … org.freedesktop.login1.Manager.PowerOff``, ``busctl call … Reboot``): the
    method named decides (table :data:`DBUS_METHODS`), other calls are LOW."""
    best = None
    for a in args:
        for w in a.replace("=", " ").split():
            name = w.rsplit(".", 1)[-1]
            t = T.DBUS_METHODS.get(name)
            if t is not None and (best is None or t > best[0]):
                best = (t, name)
    if best is None:
        acc.add(L, "shell.program", f"{prog} (not known to be read-only)")
    else:
        acc.add(best[0], f"shell.dbus.{best[1]}"[:40], f"{prog} calls {best[1]} over D-Bus")
    return OTHER


def h_crontab(r, prog, args, metas, ctx, acc, stdin):
    """``crontab``: ``-r`` HIGH, ``-l`` SAFE, installing MEDIUM with every job read as its command."""
    o = getopts(args, frozenset("u"))
    if "r" in o.flags:
        acc.add(H, "shell.crontab.remove", "crontab -r (removes every scheduled job)")
    elif "l" in o.flags:
        acc.add(S, "shell.crontab.list", "crontab -l (lists jobs)")
    elif "e" in o.flags:
        acc.add(M, "shell.crontab.edit", "crontab -e (edits scheduled jobs)")
    else:
        acc.add(M, "shell.crontab.install", "installs a crontab (scheduled commands)")
        text = None
        files = [a for a in o.pos if a != "-"]
        if files:
            text = ctx.written.get(P.normalize(files[0], ctx.cwd))
        elif type(stdin) is TextInput:
            text = stdin.text
        elif stdin in (DOWNLOAD, DECODED):
            acc.add(H, "shell.crontab.generated", "installs a crontab made from downloaded or decoded text")
        if text:
            # every job counts as the command it runs
            for line in text.split("\n")[:64]:
                job = _cron_command(line)
                if job:
                    r.run_text(job, ctx.child(), acc)
    return OTHER


def _cron_command(line: str):
    line = line.strip()
    if not line or line[0] == "#":
        return None
    if line[0] == "@":
        parts = line.split(None, 1)
        return parts[1] if len(parts) > 1 else None
    head = line.split(None, 1)[0]
    if "=" in head and not head[0].isdigit() and head[0] not in "*":
        return None  # VAR=value
    parts = line.split(None, 5)
    return parts[5] if len(parts) > 5 else None


def h_at(r, prog, args, metas, ctx, acc, stdin):
    """``at``/``batch``: scheduling MEDIUM with the commands read (text piped that is not known: HIGH); ``atq``,
    ``-l`` SAFE."""
    if any(a in ("-l", "-r", "-d", "-c") for a in args) or prog == "atq":
        acc.add(S if "-l" in args or prog == "atq" else L, "shell.at", prog)
        return OTHER
    acc.add(M, "shell.at", f"{prog} schedules commands")
    if type(stdin) is TextInput:
        r.run_text(stdin.text, ctx, acc)
    elif stdin is not None and stdin != OTHER:
        acc.add(H, "shell.pipe_exec", f"text piped into {prog}")
    return OTHER


def h_firewall(r, prog, args, metas, ctx, acc, stdin):
    """Firewalls (iptables, nft, ufw, firewall-cmd, pfctl …): flushes and rule changes HIGH, listings SAFE."""
    if prog in ("iptables", "ip6tables", "iptables-legacy", "iptables-nft", "ebtables", "arptables"):
        o = getopts(args, frozenset("tjAIDRNXPFZEsdiopm"), frozenset(("--table",)))
        changing = o.flags & {"A", "I", "D", "R", "N", "X", "P", "F", "Z", "E"} or o.any(
            "--append", "--insert", "--delete", "--replace", "--new-chain", "--delete-chain", "--policy", "--flush",
            "--zero", "--rename-chain")
        if o.flags & {"F"} or o.any("--flush"):
            acc.add(H, "shell.firewall.flush", f"{prog} -F (removes every firewall rule)")
        elif changing:
            acc.add(H, "shell.firewall.change", f"{prog}: firewall rule change")
        else:
            acc.add(S, "shell.firewall.list", f"{prog} (lists rules)")
        return OTHER
    if prog.endswith("-restore"):
        if any(a in ("-t", "--test") for a in args):
            acc.add(L, "shell.firewall.test", f"{prog} --test (checks rules only)")
        else:
            acc.add(H, "shell.firewall.restore", f"{prog} (replaces the firewall rules)")
        return OTHER
    pos = [a for a in args if not a.startswith("-")]
    verb = pos[0] if pos else ""
    if prog == "ufw":
        if verb in ("status", "show", "version", "app") or not verb:
            acc.add(S, "shell.firewall.list", "ufw status")
        else:
            acc.add(H, f"shell.firewall.{verb}"[:40], f"ufw {verb}: firewall change")
        return OTHER
    if prog == "nft":
        if verb in ("list", "-a") or not verb or any(a in ("-j", "--json") for a in args) and verb == "list":
            acc.add(S, "shell.firewall.list", "nft list")
        else:
            acc.add(H, "shell.firewall.change", "nft: firewall change")
        return OTHER
    if prog == "firewall-cmd":
        if all(a.startswith(("--list", "--get", "--state", "--query", "--info", "--zone")) for a in args):
            acc.add(S, "shell.firewall.list", "firewall-cmd (reads)")
        else:
            acc.add(H, "shell.firewall.change", "firewall-cmd: firewall change")
        return OTHER
    if prog == "pfctl" and any(a.startswith("-s") for a in args):
        acc.add(S, "shell.firewall.list", "pfctl -s")
        return OTHER
    acc.add(H, "shell.firewall.change", f"{prog}: firewall change")
    return OTHER


def h_user_admin(r, prog, args, metas, ctx, acc, stdin):
    """User and group administration (useradd, passwd, visudo …): HIGH."""
    acc.add(H, "shell.user_admin", f"{prog}: user account change")
    return OTHER


def h_sysctl(r, prog, args, metas, ctx, acc, stdin):
    """``sysctl``: writing kernel parameters HIGH, reading SAFE."""
    if any(a in ("-w", "--write", "-p", "--load", "--system") for a in args) or any(
            "=" in a and not a.startswith("-") for a in args):
        acc.add(H, "shell.sysctl.write", "sysctl changes kernel parameters")
    else:
        acc.add(S, "shell.read_only", "sysctl (reads)")
    return OTHER


def h_ip(r, prog, args, metas, ctx, acc, stdin):
    """``ip``, ``ifconfig``, ``route``, ``hostname``, ``nmcli``: configuration changes HIGH (hostname, nmcli MEDIUM),
    showing SAFE."""
    if prog == "ip":
        pos = [a for a in args if not a.startswith("-")]
        if any(v in ("add", "del", "delete", "flush", "set", "change", "replace", "append", "prepend", "exec")
               for v in pos[1:3]):
            acc.add(H, "shell.network.change", "ip: network configuration change")
        else:
            acc.add(S, "shell.read_only", "ip (shows)")
        return OTHER
    if prog in ("ifconfig", "route"):
        pos = [a for a in args if not a.startswith("-")]
        if (prog == "ifconfig" and len(pos) > 1) or (prog == "route" and pos[:1] and pos[0] in ("add", "del")):
            acc.add(H, "shell.network.change", f"{prog}: network configuration change")
        else:
            acc.add(S, "shell.read_only", f"{prog} (shows)")
        return OTHER
    if prog == "hostname":
        if [a for a in args if not a.startswith("-")]:
            acc.add(M, "shell.hostname.set", "hostname change")
        else:
            acc.add(S, "shell.read_only", "hostname")
        return OTHER
    if prog == "nmcli":
        if any(a in ("show", "status", "list", "monitor") for a in args) or not args:
            acc.add(S, "shell.read_only", "nmcli (shows)")
        else:
            acc.add(M, "shell.network.change", "nmcli: network change")
        return OTHER
    acc.add(L, "shell.program", prog)
    return OTHER


#: program -> handler (merged into the reader's map by core.policy.shell.registry)
def h_ps(r, prog, args, metas, ctx, acc, stdin):
    """``ps``: SAFE (lists processes), but the BSD-style ``e`` option (``ps eww``, ``ps auxe``) and ``-o`` of
    ``environ``/``env`` print every process's environment: a secret read (MEDIUM)."""
    for k, a in enumerate(args[:32]):
        bsd = a[:1] != "-" and a.isalpha() and "e" in a and not (k and args[k - 1] in ("-o", "-O", "-p", "-u",
                                                                                      "-U", "-C", "-G", "-t"))
        fmt = k and args[k - 1] in ("-o", "-O", "o", "O", "--format") and any(
            w in ("env", "environ", "environment") for w in a.replace(",", " ").split())
        if bsd or fmt:
            acc.add(M, "shell.secret_read", f"{prog} {a} prints the environment of processes (secrets) into the "
                                            "agent's context")
            return SECRET
    acc.add(S, "shell.read_only", f"{prog} (read-only)")
    return OTHER


HANDLERS = handlers(
    (("ps",), h_ps),
    (T.POWER_PROGRAMS, h_power),
    (("loginctl", "kexec"), h_loginctl),
    (("init", "telinit"), h_init),
    (("kill",), h_kill),
    (("pkill", "killall", "killall5"), h_pkill),
    (("systemctl",), h_systemctl),
    (("service", "rc-service", "invoke-rc.d"), h_service),  # (and /etc/init.d/NAME: dispatch)
    (T.VERB_TABLES, h_verb_table),
    (T.DBUS_CLIENTS, h_dbus),
    (("crontab",), h_crontab),
    (("at", "batch", "atq"), h_at),
    (T.FIREWALLS, h_firewall),
    (T.USER_ADMIN, h_user_admin),
    (("sysctl",), h_sysctl),
    (("ip", "ifconfig", "route", "hostname", "nmcli"), h_ip),
)
