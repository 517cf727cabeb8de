"""Options and variables that write a file, run a command or change the system, whatever their program is
otherwise (table OPTION_EFFECTS: ``sort -o /etc/passwd``, ``less +'!CMD'``, ``man -P CMD``, ``tar
--to-command=CMD``; COMMAND_VARS, CODE_VARS: ``GIT_SSH_COMMAND=…``, ``LD_PRELOAD=…``), and the small command
languages those options carry: ex/vim/ed command lines (:func:`ex_line_effects`), ``!CMD`` commands
(:func:`_bang_commands`), makefiles (:func:`_makefile_commands`), Emacs Lisp shell calls.

:class:`OptionEffects` is a mixin of :class:`core.policy.shell.walker.ShellReader`: handlers call
``r.option_command(prog, opt, cmd, ctx, acc)``, ``r.ex_effects(…)``, ``r.set_var(…)``.

To add a rule: an option with an effect goes into the program's entry of OPTION_EFFECTS
(``core/policy/tables/effects.py``); a new effect kind (``FX_…``) gets its branch in :meth:`option_effects`.
"""

from __future__ import annotations

import re
import shlex

from core.policy import _paths as P
from core.policy import tables as T
from core.policy.shell.common import show, unescape
from core.policy.shell.options import parse_fx
from core.policy.shell.state import MARK, MAX_FX, Acc, Ctx, TextInput, is_downloaded
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL


_EX_RANGE = re.compile(r"(?:[%.$,;+\-\d\s]|'[a-zA-Z<>\[\]]|/(?:[^/\\]|\\.)*/|\?(?:[^?\\]|\\.)*\?)*")


_EX_NAME = re.compile(r"([A-Za-z]*)(!?)[ \t]*")


_EX_MODIFIERS = frozenset(("sil", "sile", "silen", "silent", "keepalt", "keepj", "keepjumps", "noa", "noautocmd",
                           "verb", "verbose", "uns", "unsilent", "confirm", "conf", "lockm", "lockmarks", "hide",
                           "keepp", "keeppatterns", "keepmarks", "kee", "vert", "vertical", "tab", "bo", "botright",
                           "to", "topleft", "lefta", "leftabove", "abo", "aboveleft", "rightb", "rightbelow",
                           "bel", "belowright", "sandbox", "san", "windo", "bufdo", "argdo", "tabdo", "cdo", "ldo",
                           "g", "global", "v", "vglobal", "try", "if", "while", "for", "el", "else", "elsei",
                           "elseif", "exe", "exec", "execute"))


_EX_SHELL_ARG = frozenset(("r", "re", "rea", "read", "w", "wr", "wri", "writ", "write", "e", "ed", "edi", "edit",
                           "E", "up", "upd", "update", "wq", "x", "xi", "xit", "exi", "exit", "sav", "saveas",
                           "W", "wa", "wn", "wp", "wN"))


_EX_WRITE = frozenset(("w", "wr", "wri", "writ", "write", "wq", "x", "xi", "xit", "exi", "exit", "sav", "saveas",
                       "up", "upd", "update", "W", "wn", "wN", "wp"))


_EX_TERMINAL = frozenset(("ter", "term", "termi", "termin", "termina", "terminal", "sh", "she", "shel", "shell"))


_EX_CODE = {"py": "python", "python": "python", "py3": "python", "python3": "python", "pyx": "python",
            "pythonx": "python", "lua": "lua", "perl": "perl", "pe": "perl", "rub": "ruby", "ruby": "ruby"}


_EX_CALLS = re.compile(r"\b(?:system|systemlist|jobstart|job_start|termopen|term_start|execute)\s*\(\s*(?:\[\s*)?"
                       r"""(?:'([^'\n]{0,1024})'|"((?:[^"\\\n]|\\.){0,1024})")?""")


def ex_line_effects(text: str, lines_are_keys: bool = False):
    """What ex/vim/ed command lines do: ``("cmd", CMD)`` (a shell command run), ``("dyn", name)`` (a command
    built at run time), ``("write", FILE)``, ``("code", LANG, CODE)``. ``lines_are_keys``: keystrokes (vim reading
    stdin): only ``:`` lines are commands."""
    out: list = []
    text_mode = False
    for line in text.split("\n")[:256]:
        if text_mode:  # ed's a/i/c text (up to a line with a lone dot) is data
            if line.strip() == ".":
                text_mode = False
            continue
        if lines_are_keys:
            if not line.lstrip().startswith(":"):
                continue
        for m in _EX_CALLS.finditer(line[:4096]):
            if len(out) >= MAX_FX:
                return out
            lit = m.group(1) if m.group(1) is not None else m.group(2)
            if lit is None:
                out.append(("dyn", "system()"))
            elif m.group(0).startswith("execute"):
                out.extend(e for e in ex_line_effects(lit) if e[0] != "write")
            else:
                out.append(("cmd", lit))
        s = line
        for _ in range(16):  # commands separated by |
            s = s.lstrip(" \t:")
            s = s[_EX_RANGE.match(s).end():].lstrip(" \t:")
            if not s:
                break
            if s[0] == "!":
                out.append(("cmd", s[1:]))
                break
            m = _EX_NAME.match(s)
            name, bang, rest = m.group(1), m.group(2), s[m.end():]
            if not name:
                break
            if name in _EX_MODIFIERS:
                if name in ("exe", "exec", "execute"):
                    q = rest.strip()
                    if len(q) > 1 and q[0] in "'\"" and q[-1] == q[0]:
                        out.extend(ex_line_effects(q[1:-1]))
                    break
                s = rest
                continue
            if name in ("a", "i", "c", "append", "insert", "change") and not rest.strip():
                text_mode = True
                break
            if name in _EX_SHELL_ARG:
                if rest.startswith("!") or (bang and name in ("r", "re", "rea", "read")):
                    out.append(("cmd", rest[1:] if rest.startswith("!") else rest))
                    break
                fname = rest.split("|", 1)[0].strip()
                if fname and name in _EX_WRITE:
                    out.append(("write", fname))
            elif name in _EX_TERMINAL:
                cmd = rest
                while cmd.startswith("++"):
                    cmd = cmd.split(None, 1)[1] if " " in cmd else ""
                out.append(("cmd", cmd if cmd.strip() else "sh"))  # (`:shell` alone: an interactive shell)
                break
            elif name in _EX_CODE:
                out.append(("code", _EX_CODE[name], rest))
                break
            elif name in ("pyf", "pyfile", "py3f", "py3file", "luafile", "rubyf", "rubyfile", "so", "source"):
                out.append(("code", None, ""))
                break
            k = rest.find("|")
            if k < 0:
                break
            s = rest[k + 1:]
    return out[:MAX_FX]


def _bang_commands(text: str, pipes: bool) -> list:
    """Commands in a less/dc command string: ``!CMD`` up to the end of the line (less: also ``|XCMD``, X a mark)."""
    out = []
    for line in text.split("\n")[:64]:
        k = line.find("!")
        p = line.find("|") if pipes else -1
        if p >= 0 and (k < 0 or p < k):
            if len(line) > p + 2:
                out.append(line[p + 2:])
        elif k >= 0:
            out.append(line[k + 1:])
    return out[:MAX_FX]


_ELISP_SHELL = re.compile(r"\((?:shell-command(?:-to-string)?|async-shell-command|call-process(?:-shell-command)?|"
                          r"start-process(?:-shell-command)?|process-lines|compile)\s+"
                          r"""(?:"[^"\n]{0,256}"\s+nil\s+)?(?:nil\s+)?"((?:[^"\\\n]|\\.){0,1024})"([^)\n]{0,1024})""")


def _makefile_commands(text: str) -> list:
    """The commands of a makefile: recipe lines (after a tab) and ``$(shell …)``."""
    out = []
    for line in text.split("\n")[:512]:
        if line.startswith("\t"):
            out.append(line[1:].lstrip("@-+ \t").replace("$$", "$"))
        k = line.find("$(shell ")
        if k >= 0:
            out.append(line[k + 8:].rsplit(")", 1)[0].replace("$$", "$"))
    return out[:MAX_FX * 4]


class OptionEffects:
    """Options and variables that write files or run commands (needs the reader's ``run_text``, ``write_path``
    and ``scan_code``)."""

    def command_var(self, name: str, val: str, ctx: Ctx, acc: Acc) -> None:
        """``GIT_SSH_COMMAND=…``, ``PAGER=…``: a variable some program runs as a command."""
        if MARK in val:
            acc.add(M, "shell.command_var", f"{name} set to a command decided at run time")
            return
        self.run_text(val, ctx.child(), acc)

    # ------------------------------------------------ options that write or run commands, code variables
    def option_effects(self, prog: str, spec: tuple, args: list, ctx: Ctx, acc: Acc, stdin) -> list:
        """Options (and output operands) that write a file, run a command or change the system (table
        OPTION_EFFECTS); returns the operands."""
        found, pos = parse_fx(spec, args)
        k = 0
        for fx, opt, val in found:
            if fx is None:
                continue
            k += 1
            if k > MAX_FX:
                acc.add(M, "shell.option.many", f"{prog}: too many command options to read")
                break
            if type(fx) is tuple:
                acc.add(fx[0], f"shell.{prog}.change"[:40], f"{prog} {opt} {fx[1]}")
            elif val is None or val == "":
                continue
            elif fx == T.FX_WRITE:
                if val != "-":
                    self.write_path(val, ctx, acc, f"{prog} {opt} writes")
            elif fx == T.FX_RUN:
                if prog == "zip":
                    val = val.replace("{}", pos[0] if pos else MARK)
                self.option_command(prog, opt, val, ctx, acc)
            elif fx == T.FX_BANG:
                for cmd in _bang_commands(val, prog in ("less", "zless")):
                    self.option_command(prog, opt, cmd, ctx, acc)
            elif fx == T.FX_EX:
                self.ex_effects(prog, opt, ex_line_effects(val), ctx, acc)
            elif fx == T.FX_TAR_ACTION:
                for act in val.split(","):
                    if act.startswith("exec="):
                        self.option_command(prog, opt, act[5:], ctx, acc)
            elif fx == T.FX_KEYBIND:
                cmd = val.split(":", 1)[1] if ":" in val else ""
                if cmd.strip():
                    self.option_command(prog, opt, cmd.strip().strip("'\""), ctx, acc)
            elif fx == T.FX_ELISP:
                acc.add(M, "shell.elisp", f"{prog} {opt} runs Lisp code")
                for m in _ELISP_SHELL.finditer(val[:8192]):
                    cmd = " ".join([m.group(1)] + re.findall(r'"([^"\n]{0,256})"', m.group(2)))
                    self.option_command(prog, opt, unescape(cmd), ctx, acc)
            elif fx == T.FX_MAKEFILE:
                text = None
                if opt in ("--eval", "-E"):
                    text = unescape(val)
                elif val in ("-", "/dev/stdin", "/proc/self/fd/0"):
                    if type(stdin) is TextInput:
                        acc.add(M, "shell.heredoc", f"makefile read by {prog} from its input")
                        text = stdin.text
                    elif stdin is not None:
                        acc.add(H, "shell.pipe_exec", f"makefile piped into {prog}")
                elif MARK not in val and P.normalize(val, ctx.cwd) in ctx.written:
                    text = ctx.written[P.normalize(val, ctx.cwd)]
                elif MARK not in val and is_downloaded(ctx, P.normalize(val, ctx.cwd)):
                    acc.add(H, "shell.download_exec", f"{prog} runs the downloaded makefile {show(val)}")
                if text:
                    for cmd in _makefile_commands(text):
                        self.run_text(cmd, ctx, acc)
        outputs = spec[4]
        for k in outputs:
            if k < len(pos) and pos[k] != "-":
                self.write_path(pos[k], ctx, acc, f"{prog} writes")
        sub = T.SUBCOMMAND_EFFECTS.get(prog)
        if sub and pos:
            fx = sub.get(pos[0])
            if fx is not None and len(pos) > fx[2]:
                acc.add(fx[0], f"shell.{prog}.{pos[0]}"[:40], f"{prog} {pos[0]} {fx[1]}")
        return pos

    def option_command(self, prog: str, opt: str, cmd: str, ctx: Ctx, acc: Acc) -> None:
        """A command string given in an option (``man -P CMD``, ``less +'!CMD'``): read as a command."""
        what = f"{prog} {opt}" if opt != "+" else f"{prog} +"
        if MARK in cmd:
            acc.add(M, "shell.option_command", f"{what} runs a command decided at run time")
            return
        acc.add(S, "shell.option_command", f"{what} runs a command")
        self.run_text(cmd, ctx.child(), acc)

    def ex_effects(self, prog: str, opt: str, effects: list, ctx: Ctx, acc: Acc) -> None:
        """Apply what ex/vim command lines do (:func:`ex_line_effects`): commands run, files written, code run."""
        for e in effects:
            if e[0] == "cmd":
                self.option_command(prog, opt, e[1], ctx, acc)
            elif e[0] == "dyn":
                acc.add(H, "shell.editor.system", f"{prog} runs a command built at run time ({e[1]})")
            elif e[0] == "write":
                self.write_path(e[1], ctx, acc, f"{prog} writes")
            elif e[0] == "code":
                acc.add(M, "shell.editor.code", f"{prog} runs {e[1] or 'script'} code")
                if e[1] and e[2].strip():
                    self.scan_code(e[2], ctx, acc, e[1])

    def code_var(self, name: str, val: str, ctx: Ctx, acc: Acc) -> None:
        """Variables that make programs run code: a library injected (``LD_PRELOAD``), a start-up file
        (``BASH_ENV``), code options (``NODE_OPTIONS=--require …``), command substitutions in a prompt (``PS4``),
        an exported function (``BASH_FUNC_x%%``)."""
        spec = T.CODE_VARS.get(name)
        if spec is not None:
            words = spec[2]
            if words is None or any(w.startswith(t) or t in w and t in ("/", "~", ".sh")
                                    for w in val.replace("=", " ").split() for t in words):
                acc.add(spec[0], f"shell.code_var.{name}"[:40], f"{name}={show(val)} {spec[1]}")
            return
        if name in T.PROMPT_VARS:
            if "$(" in val or "`" in val:
                acc.add(M, "shell.prompt_command", f"{name} runs commands each time it is shown")
                self.run_text(': "' + val.replace("\\", "\\\\").replace('"', '\\"') + '"', ctx.child(), acc)
            return
        if name.startswith("BASH_FUNC_") and val.lstrip().startswith("()"):
            acc.add(M, "shell.exported_function", f"{name} defines a function for the shells it starts")
            self.run_text("f" + val.lstrip(), ctx.child(), acc)

    def set_var(self, name: str, val: str, ctx: Ctx, acc: Acc) -> None:
        """A variable given a value: those some program runs as a command or that inject code are read."""
        if not val.strip():
            return
        if name in T.COMMAND_VARS:
            self.command_var(name, val, ctx, acc)
        elif name in T.OPTION_VARS:
            prog = T.OPTION_VARS[name]  # (the program reads its options from it: LESS='+!CMD', MANOPT='-P CMD')
            spec = T.OPTION_EFFECTS.get(prog)
            if spec is not None and ("-" in val or "+" in val):
                head, plus, cmd = val.partition("+") if prog == "less" else (val, "", "")
                try:
                    words = shlex.split(head)
                except ValueError:
                    words = head.split()
                if plus:  # (less: a +COMMAND runs to the end of the value, spaces and all)
                    words.append("+" + cmd)
                self.option_effects(prog, spec, words[:64], ctx, acc, None)
        elif name in T.CODE_VARS or name in T.PROMPT_VARS or name.startswith("BASH_FUNC_"):
            self.code_var(name, val, ctx, acc)
