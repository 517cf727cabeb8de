"""Editors and debuggers: files edited, ex/vim commands read from the input (``vim -es < script``), gdb's
inline commands (``-ex 'shell CMD'``). Options that run commands (``vim -c '!CMD'``) are option effects
(:mod:`core.policy.shell.effects.options`).

To add a rule: add the program's handler here (signature ``(r, prog, args, metas, ctx, acc, stdin)``: ``r`` the
reader, ``args`` the words after the program, ``metas`` what each word's substitutions printed, ``acc`` the
verdict to raise, ``stdin`` the pipeline value it reads; it returns what it prints) and its programs to
``HANDLERS`` at the end, or a row to its table in :mod:`core.policy.tables`; test it in
``tests/core/policy/test_editors.py``. A handler of another family is called through the registry
(``r.call("h_name", …)``), never imported.
"""

from __future__ import annotations

import re
import shlex

from core.policy import tables as T
from core.policy.shell.effects.options import ex_line_effects
from core.policy.shell.effects.shells import shell_named
from core.policy.shell.families import handlers
from core.policy.shell.options import parse_fx
from core.policy.shell.state import OTHER, TextInput
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL


_EX_MODE = frozenset(("ed", "red", "ex"))


#: editors' names for their read-only mode (`view` is `vim -R`)
_VIEWERS = frozenset(("view", "rview", "nview", "gview"))
_VI_READ_ONLY = ("-R", "-M")
_READ_ONLY_FLAGS = {"vim": _VI_READ_ONLY, "vi": _VI_READ_ONLY, "nvim": _VI_READ_ONLY, "gvim": _VI_READ_ONLY,
                    "ex": _VI_READ_ONLY, "nano": ("-v", "--view")}


def h_editor(r, prog, args, metas, ctx, acc, stdin):
    """Editors: the files named are written (``edit (vim)``); ex/vim commands read from the input (``vim -es <
    script``) count as what they do."""
    spec = T.OPTION_EFFECTS.get(prog)
    files = parse_fx(spec, args)[1] if spec else [a for a in args if not a.startswith(("-", "+"))]
    if type(stdin) is TextInput and spec is not None and "-" not in files:
        # commands read from the input: ed/ex (and vim -e/-es) read ex commands, vim reads keys (`:` lines)
        ex_mode = prog in _EX_MODE or any(a in ("-e", "-E", "-es", "-Es") for a in args)
        r.ex_effects(prog, "input", ex_line_effects(stdin.text, lines_are_keys=not ex_mode), ctx, acc)
    files = [f for f in files if f != "-"]
    if prog in _VIEWERS or any(a in _READ_ONLY_FLAGS.get(prog, ()) for a in args):
        # read-only mode (view, vim -R, nvim -M): the files are shown, not written
        r.read_secret_check(prog, files, ctx, acc)
        acc.add(L, "shell.editor.view", f"{prog} (read-only)")
        return OTHER
    for f in files:
        r.write_path(f, ctx, acc, f"edit ({prog})")
    if not files:
        acc.add(L, "shell.editor", prog)
    return OTHER


#: gdb commands that run something beyond the program being debugged (a shell, code in another language, a
#: file of commands, a user-defined command)
_GDB_CODE = {"python": "python", "py": "python", "pi": "python", "python-interactive": "python", "guile": None,
             "gu": None, "compile": None, "source": None, "define": None, "eval": None, "jit-reader-load": None,
             "add-auto-load-safe-path": None, "pipe": None, "|": None, "shell": None,
             # lldb: its Python, a command file, its own shell command
             "script": "python", "command": None}
_GDB_CALLS = re.compile(r"\b(?:system|execl?p?e?|execv[pe]*|popen|dlopen|posix_spawnp?|fork)\s*\(")


def h_gdb(r, prog, args, metas, ctx, acc, stdin):
    """gdb -ex CMD / --eval-command=CMD: debugger commands given inline. Plain debugger commands (``bt``, ``info``,
    ``run``, ``print x``) are LOW like running the program; ``shell CMD``/``!CMD`` and ``pipe … | CMD`` run the
    command they name, ``python``/``guile``/``source``/``define``/``eval`` run code (MEDIUM), ``dump … FILE``
    writes FILE, and an expression that calls ``system``/``exec…``/``popen``/``dlopen`` in the debuggee is MEDIUM
    and read. Attaching to a running process (``-p PID``, ``attach PID``) reads its memory: MEDIUM."""
    cmds = []
    for k, a in enumerate(args):
        if a in ("-ex", "-iex", "--ex", "--eval-command", "-eval-command") and k + 1 < len(args):
            cmds.append(args[k + 1])
        elif a.startswith(("--eval-command=", "-eval-command=")):
            cmds.append(a.split("=", 1)[1])
        elif a in ("-p", "--pid") or a.startswith("--pid="):
            acc.add(M, "shell.gdb.attach", f"{prog} attaches to a running process (it can read its memory and secrets)")
    if not cmds:
        acc.add(L, "shell.program", f"{prog} (not known to be read-only)")
        return OTHER
    acc.add(L, "shell.gdb", f"{prog} runs debugger commands")
    for c in cmds:
        c = c.strip()
        head = c.split(None, 1)[0] if c else ""
        if c.startswith("!") or head == "shell" or c.startswith("platform shell"):
            acc.add(M, "shell.inline_code", f"{prog} runs a shell command")
            cmd = c[1:] if c.startswith("!") else c.split("shell", 1)[1]
            r.run_text(cmd.strip() or "sh", ctx.child(), acc)  # (`shell` alone: an interactive shell)
        elif head in ("pipe", "|"):
            acc.add(M, "shell.inline_code", f"{prog} pipes output into a shell command")
            if "|" in c[len(head):]:
                r.run_text(c[len(head):].rsplit("|", 1)[1], ctx.child(), acc)
        elif head in _GDB_CODE:
            acc.add(M, "shell.inline_code", f"{prog} runs {head} code")
            r.scan_code(c[len(head):], ctx, acc, _GDB_CODE[head])
        elif head in ("dump", "append"):
            # dump [FORMAT] memory|value FILE …: FILE is written
            try:
                words = shlex.split(c)
            except ValueError:
                words = c.split()
            if "memory" in words or "value" in words:
                k = words.index("memory") if "memory" in words else words.index("value")
                if k + 1 < len(words):
                    r.write_path(words[k + 1], ctx, acc, f"{prog} {head} writes")
        elif head == "set" and c.split(None, 2)[1:2] in (["environment"], ["env"]) and "=" in c:
            # set environment VAR=VALUE: the debugged program starts with it (LD_PRELOAD=… loads a library)
            name, _, val = c.split(None, 2)[2].partition("=")
            r.set_var(name.strip(), val.strip(), ctx, acc)
        elif head == "attach":
            acc.add(M, "shell.gdb.attach", f"{prog} attaches to a running process (it can read its memory and secrets)")
        elif _GDB_CALLS.search(c) or shell_named(c) is not None:
            acc.add(M, "shell.inline_code", f"{prog} makes the debugged program run a command")
            r.scan_code(c, ctx, acc, None)
    return OTHER


#: program -> handler (merged into the reader's map by core.policy.shell.registry)
HANDLERS = handlers(
    (("vim", "vi", "nvim", "nano", "emacs", "ed", "red", "pico", "micro", "sudoedit", "ex", "view", "vimdiff", "gvim",
      "rvim"), h_editor),
    (("gdb",), h_gdb),
)
