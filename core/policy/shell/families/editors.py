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

from core.policy import tables as T
from core.policy.shell.effects.options import ex_line_effects
from core.policy.shell.families import handlers
from core.policy.shell.options import parse_fx
from core.policy.shell.state import OTHER, TextInput
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL


_EX_MODE = frozenset(("ed", "red", "ex"))


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
    for f in files:
        r.write_path(f, ctx, acc, f"edit ({prog})")
    if not files:
        acc.add(L, "shell.editor", prog)
    return OTHER


def h_gdb(r, prog, args, metas, ctx, acc, stdin):
    """gdb -ex CMD / --eval-command=CMD: debugger commands given inline (MEDIUM like ``python -c``); ``shell
    CMD``/``!CMD`` and calls such as ``call system("…")`` run the command they name."""
    cmds = []
    for k, a in enumerate(args):
        if a in ("-ex", "-iex", "--ex", "--eval-command", "-eval-command") and k + 1 < len(args):
            cmds.append(args[k + 1])
        elif a.startswith(("--eval-command=", "-eval-command=")):
            cmds.append(a.split("=", 1)[1])
    if not cmds:
        acc.add(L, "shell.program", f"{prog} (not known to be read-only)")
        return OTHER
    acc.add(M, "shell.inline_code", f"{prog} -ex runs inline debugger commands")
    for c in cmds:
        c = c.strip()
        if c.startswith("!") or c.startswith("shell "):
            r.run_text(c[1:] if c.startswith("!") else c[6:], ctx, acc)
        else:
            r.scan_code(c, ctx, acc, None)
    return OTHER


#: program -> handler (merged into the reader's map by core.policy.shell.registry)
HANDLERS = handlers(
    (("vim", "vi", "nvim", "nano", "emacs", "ed", "red", "pico", "micro", "sudoedit", "ex", "view", "vimdiff", "gvim",
      "rvim"), h_editor),
    (("gdb",), h_gdb),
)
