"""Terminals that run a command string: ``script -c``, ``tmux`` (its commands, keys typed into a pane),
``screen``, ``watch``, ``su -c``; read like ``sh -c``.

To add a rule: add the program's handler here (signature ``(r, prog, args, metas, ctx, acc, stdin)``: ``r`` the
reader, ``args`` the words after the program, ``metas`` what each word's substitutions printed, ``acc`` the
verdict to raise, ``stdin`` the pipeline value it reads; it returns what it prints) and its programs to
``HANDLERS`` at the end, or a row to its table in :mod:`core.policy.tables`; test it in
``tests/core/policy/test_terminals.py``. A handler of another family is called through the registry
(``r.call("h_name", …)``), never imported.
"""

from __future__ import annotations

from core.policy import tables as T
from core.policy.shell.families import handlers
from core.policy.shell.options import first_value, getopts
from core.policy.shell.state import OTHER
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL


def h_script(r, prog, args, metas, ctx, acc, stdin):
    """``script [-c CMD] [FILE [CMD …]]`` records a terminal session to FILE; ``-c CMD`` (and, in the BSD
    spelling, the words after FILE) is a command it runs, read like ``sh -c``."""
    o = getopts(args, frozenset("cTBIOEmo"), frozenset(("--command", "--log-timing", "--log-io", "--log-in",
                                                          "--log-out", "--echo", "--logging-format",
                                                          "--output-limit")))
    cmd = first_value(o, "c", "--command")
    logs = [v for ch in "TBIO" for v in o.vals.get(ch, ())]
    logs += [v for nm in ("--log-timing", "--log-io", "--log-in", "--log-out")
             if isinstance(v := o.longs.get(nm), str)]
    for f in (o.pos[:1] or ["typescript"]) + logs:
        r.write_path(f, ctx, acc, "record the session to")
    if cmd is not None:
        acc.add(M, "shell.inline", f"{prog} -c (runs a command)")
        r.run_text(cmd, ctx, acc)
    if len(o.pos) > 1:
        # BSD: script [-aq] FILE CMD …, the command's own options not read as script's
        words = getopts(args, frozenset("t"), stop_at_pos=True).pos[1:]
        acc.add(M, "shell.inline", f"{prog} runs a command")
        r.run_argv(words, [None] * len(words), ctx, acc, None)
    return OTHER


def _typed_text(keys: list, names: dict) -> str:
    """Keys typed into a terminal (``tmux send-keys``): key names read as the characters they type, Enter as a
    line break; other key names (``C-c``, ``Up``) type nothing."""
    out = []
    for k in keys:
        if k in T.TMUX_ENTER_KEYS:
            out.append("\n")
        elif k in names:
            out.append(names[k])
        elif len(k) > 1 and (k[:2] in ("C-", "M-", "S-") or k[0] == "^" or k in _SILENT_KEYS):
            continue
        else:
            out.append(k)
    return "".join(out)


_KEY_NAMES = {"Space": " ", "Tab": "\t"}


_SILENT_KEYS = frozenset(("Up", "Down", "Left", "Right", "BSpace", "BTab", "DC", "Delete", "End", "Escape", "Home",
                          "IC", "Insert", "NPage", "PageDown", "PgDn", "PPage", "PageUp", "PgUp") +
                         tuple(f"F{k}" for k in range(1, 13)))


def h_tmux(r, prog, args, metas, ctx, acc, stdin):
    """``tmux [-c CMD] COMMAND …``: the commands that start a shell command (``new-session``, ``split-window``,
    ``run-shell`` …, table ``TMUX_RUNS``) and ``send-keys`` (keys typed into a pane) are read like ``sh -c``."""
    acc.add(L, "shell.program", f"{prog} (not known to be read-only)")
    i, n = 0, len(args)
    while i < n and args[i].startswith("-") and len(args[i]) > 1:
        a = args[i]
        i += 1
        if a == "--":
            break
        for j, ch in enumerate(a[1:], 1):
            if ch in "cfLST":
                v = a[j + 1:]
                if not v and i < n:
                    v, i = args[i], i + 1
                if ch == "c":
                    acc.add(M, "shell.inline", f"{prog} -c (runs a command)")
                    r.run_text(v, ctx, acc)
                break
    # a command sequence: COMMAND … ; COMMAND … (`\;` in the shell)
    cmds: list = [[]]
    for a in args[i:]:
        if a == ";":
            cmds.append([])
        elif a.endswith(";") and not a.endswith("\\;") and len(a) > 1:
            cmds[-1].append(a[:-1])
            cmds.append([])
        else:
            cmds[-1].append(a)
    if not any(cmds):
        cmds = [["new-session"]]  # (bare tmux: a new session, attached)
    for cmd in cmds[:32]:
        if not cmd:
            continue
        name, rest = cmd[0], cmd[1:]
        with_arg = T.TMUX_RUNS.get(name)
        if with_arg is not None:
            o = getopts(rest, frozenset(with_arg), stop_at_pos=True)
            if not o.pos and name in _TMUX_ATTACHED and "d" not in o.flags:
                acc.add(M, "shell.interactive", f"{prog} {name} starts an interactive shell: it runs whatever it "
                                                f"is fed later")
                continue
            if not o.pos or ("C" in o.flags and name in ("run-shell", "run")):
                continue
            acc.add(M, "shell.inline", f"{prog} {name} runs a command")
            if len(o.pos) == 1 or name in ("if-shell", "if"):
                r.run_text(o.pos[0], ctx, acc)
            else:
                r.run_argv(o.pos, [None] * len(o.pos), ctx, acc, None)
        elif name in T.TMUX_TYPES:
            o = getopts(rest, frozenset("cNt"), stop_at_pos=True)
            if "X" in o.flags or not o.pos:
                continue
            text = _typed_text(o.pos, {} if "l" in o.flags else _KEY_NAMES)
            if text.strip():
                acc.add(M, "shell.typed", f"{prog} {name} types a command into a terminal")
                r.run_text(text, ctx, acc)
    return OTHER


#: tmux commands that, without a command, start a shell in the terminal the agent is attached to
_TMUX_ATTACHED = frozenset(("new-session", "new", "display-popup", "popup"))


def h_screen(r, prog, args, metas, ctx, acc, stdin):
    """``screen [-dmS NAME] CMD …`` runs CMD in a new session; ``screen -X stuff TEXT`` types TEXT into one and
    ``-X exec``/``-X screen CMD`` run CMD: read like ``sh -c``. ``screen -ls``, ``-r`` … run nothing."""
    acc.add(L, "shell.program", f"{prog} (not known to be read-only)")
    i, n = 0, len(args)
    xcmd = None
    flags: set = set()
    while i < n:
        a = args[i]
        if a == "--":
            i += 1
            break
        if not a.startswith("-") or a == "-":
            break
        i += 1
        if a in ("-ls", "-list", "-wipe", "-version", "-Logfile", "-logfile"):
            if a in ("-Logfile", "-logfile") and i < n:
                r.write_path(args[i], ctx, acc, "record the session to")
                i += 1
            continue
        for j, ch in enumerate(a[1:], 1):
            flags.add(ch)
            if ch in "SceEhpTtsX":
                v = a[j + 1:]
                if not v and i < n:
                    v, i = args[i], i + 1
                if ch == "X":
                    xcmd = v
                break
    rest = args[i:]
    if xcmd is not None:
        words = xcmd.split() + rest
        if words and words[0] == "stuff":
            text = " ".join(words[1:]).replace("\\r", "\n").replace("\\n", "\n").replace("^M", "\n")
            if text.strip():
                acc.add(M, "shell.typed", f"{prog} -X stuff types a command into a terminal")
                r.run_text(text, ctx, acc)
        elif len(words) > 1 and words[0] in ("exec", "screen"):
            acc.add(M, "shell.inline", f"{prog} -X {words[0]} runs a command")
            r.run_argv(words[1:], [None] * (len(words) - 1), ctx, acc, None)
        return OTHER
    if rest and "m" not in flags and not flags.isdisjoint("rxRDd"):
        return OTHER  # -r/-x/-d SESSION: attaches to (or detaches) a session, runs nothing
    if rest:
        acc.add(M, "shell.inline", f"{prog} runs a command")
        r.run_argv(rest, metas[i:] if len(metas) >= n else [None] * len(rest), ctx, acc, None)
    elif flags.isdisjoint("rxRDdmvQ") and not any(a in ("-ls", "-list", "-wipe", "-version") for a in args):
        acc.add(M, "shell.interactive", f"{prog} starts an interactive shell: it runs whatever it is fed later")
    return OTHER


def h_watch(r, prog, args, metas, ctx, acc, stdin):
    """``watch [-n N] CMD …``: CMD read as a command (run again and again)."""
    o = getopts(args, frozenset("nq"), frozenset(("--interval", "--differences")), stop_at_pos=True)
    if o.pos:
        r.run_text(" ".join(o.pos), ctx, acc)
    return OTHER


def h_su(r, prog, args, metas, ctx, acc, stdin):
    """``su [-c CMD]``: MEDIUM (switches user), CMD read as a command."""
    o = getopts(args, frozenset("csgG"), frozenset(("--command", "--shell", "--group")))
    acc.add(M, "shell.su", "su (switches user)")
    cmd = first_value(o, "c", "--command")
    if cmd:
        r.run_text(cmd, ctx, acc)
    return OTHER


#: program -> handler (merged into the reader's map by core.policy.shell.registry)
HANDLERS = handlers(
    (("script",), h_script),
    (("tmux",), h_tmux),
    (("screen",), h_screen),
    (("watch",), h_watch),
    (("su",), h_su),
)
