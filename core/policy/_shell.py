"""Command tier (tiers.md, "Command tier"): the parsed shell text is walked with a little data flow
(``cd``, assignments, ``for`` loops, pipes, downloads) and every simple command is matched against
the program tables of :mod:`core.policy._tables`.
"""

from __future__ import annotations

import re
import shlex
from itertools import repeat

from core.policy import _paths as P
from core.policy import tables as T
from core.policy._overflow import scan_overflow
from core.policy.shell.common import is_secret_name, show
from core.policy.shell.effects.options import OptionEffects
from core.policy.shell.effects.paths import PathEffects
from core.policy.shell.effects.secrets import (
    SECRET_HINT,
    SecretEffects,
    meta_outputs,
)
from core.policy.shell.families.builtins import h_read_only
from core.policy.shell.families.disks import (
    h_mkfs,
)
from core.policy.shell.families.interpreters import (
    _scan_code,
)
from core.policy.shell.families.network import (
    h_http_method,
)
from core.policy.shell.families.system import (
    h_service,
)
from core.policy.shell.options import (
    TARS,
    tar_old_style,
)
from core.policy.shell.registry import NAMED, build_handlers
from core.policy.shell.state import (
    DECODED,
    DOWNLOAD,
    MARK,
    MAX_ARGS,
    MAX_COMBOS,
    MAX_DEPTH,
    MAX_STACK,
    MAX_VALUE,
    OTHER,
    SECRET,
    Acc,
    Ctx,
    FileInput,
    ProcOutput,
    TextInput,
    held_text,
    is_downloaded,
)
from core.policy.shell.syntax import (
    LIT,
    LOOP_END,
    LOOP_HEAD,
    VAR,
    ForLoop,
    FuncDef,
    Group,
    Parser,
    Simple,
)
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL
class ShellReader(OptionEffects, SecretEffects, PathEffects):
    """Reads command text as a shell does and returns its tier."""

    def call(self, name: str, prog: str, args: list, metas: list, ctx: Ctx, acc: Acc, stdin):
        """Call the handler ``name`` of another family (``bun install``: the interpreters family's handler calls
        the packages family's ``h_pkg``)."""
        return NAMED[name](self, prog, args, metas, ctx, acc, stdin)

    def scan_code(self, code: str, ctx: Ctx, acc: Acc, lang: str | None = None) -> None:
        """Inline code (``python -c``, vim ``:py``, gdb): the calls it makes, read by the interpreters family."""
        _scan_code(self, code, ctx, acc, lang)

    def __init__(self, read_only_extra=()):
        self.read_only = T.READ_ONLY | frozenset(read_only_extra)
        self.handlers = build_handlers()

    # ------------------------------------------------------------------ entry
    def classify(self, text: str, cwd: str | None = None, acc: Acc | None = None,
                 ctx: Ctx | None = None) -> tuple[Acc, bool]:
        """Classify ``text``; returns the verdict and whether the text was damaged (unparseable)."""
        acc = acc or Acc()
        if ctx is None:
            ws = None
            user = None
            if cwd and (cwd.startswith("/") or cwd.startswith("~")):
                ws = P.normalize(cwd, None)
                parts = ws.split("/")
                if len(parts) > 2 and parts[1] in ("home", "Users"):
                    user = parts[2]
            ctx = Ctx(ws, ws, user)
            ctx.secretish = SECRET_HINT.search(text) is not None
        if len(text) < 512 and not _NOT_PLAIN.search(text):
            done = self._plain_list(text, ctx, acc)
            if done:
                return acc, False
        p = Parser(text, 0, ctx.budget)
        script = p.parse()
        self.run_script(script, ctx, acc)
        damaged = p.damaged
        if damaged and ctx.budget.unread:
            # damaged and too long: the overflow scan (which drops quotes and splits at every bracket) reads
            # the whole text instead of a second, loose parse
            ctx.budget.unread.insert(0, text)
            acc.add(L, "shell.unparseable", "text that cannot be read fully as shell")
        elif damaged:
            # read the text loosely too: quotes and brackets removed, so nothing hides behind damage
            loose = _loose(text)
            p2 = Parser(loose, 0, ctx.budget)
            script2 = p2.parse()
            ctx2 = ctx.child()
            self.run_script(script2, ctx2, acc)
            acc.add(L, "shell.unparseable", "text that cannot be read fully as shell")
        if ctx.budget.unread:
            scan_overflow(self, ctx.budget.unread, ctx, acc)
        return acc, damaged

    def _plain_list(self, text: str, ctx: Ctx, acc: Acc) -> bool:
        """Fast path for a short list of plain commands (words, single- or double-quoted literals without
        expansions, joined by ``&& || ; | &``): the same walk as the parser's, without building its nodes.
        False (nothing done) when the text is not that."""
        cmds: list = []
        ops: list = []
        cur: list = []
        pos, n = 0, len(text)
        match = _PQ_TOKEN.match
        while pos < n:
            m = match(text, pos)
            if m is None:
                if text[pos:].strip(" \t"):
                    return False
                break
            pos = m.end()
            w = m.group(1)
            if w is not None:
                if not cur:
                    if w in _PLAIN_STOP or "=" in w or "'" in w or '"' in w:
                        return False
                elif "'" in w or '"' in w:
                    w = _PQ_QUOTED.sub(_unquote, w)
                cur.append(w)
                continue
            if not cur:
                return False
            cmds.append(cur)
            ops.append(m.group(2))
            cur = []
        if not cur:
            return False
        cmds.append(cur)
        budget = ctx.budget
        stdin = None
        last = len(cmds) - 1
        for k, ws in enumerate(cmds):
            if acc.tier >= 4:
                break  # CRITICAL is final
            budget.nodes -= 1
            stdin = self.run_argv(ws, [None] * len(ws), ctx, acc, stdin)
            if k < last and ops[k] != "|":
                stdin = None
        return True

    def run_text(self, text: str, ctx: Ctx, acc: Acc):
        """Read a nested script (``sh -c``, ``ssh host …``, ``eval``)."""
        if ctx.depth >= MAX_DEPTH:
            acc.add(M, "shell.too_deep", "scripts nested too deep to read")
            return OTHER
        p = Parser(text, 0, ctx.budget)
        script = p.parse()
        c = ctx.child(deeper=True)
        out = self.run_script(script, c, acc)
        if p.damaged:
            loose = _loose(text)
            self.run_script(Parser(loose, 0, ctx.budget).parse(), ctx.child(deeper=True), acc)
            acc.add(L, "shell.unparseable", "text that cannot be read fully as shell")
        return out

    # --------------------------------------------------------------- walking
    def run_script(self, script: list, ctx: Ctx, acc: Acc):
        out = None
        pipe: list = []
        feeds = _loop_inputs(script)
        fed: list = []  # loops being read with their input (``while read l; do …; done < file``): (end, input)
        feed = None
        for k, (node, op) in enumerate(script):
            if acc.tier >= 4:
                return out  # CRITICAL is final: nothing later can change the verdict or its reason
            if feeds is not None:
                while fed and k > fed[-1][0]:
                    fed.pop()
                if k in feeds:
                    end, inputs = feeds[k]
                    fed.append((end, self._redirects(inputs, ctx, acc, None)))
                feed = fed[-1][1] if fed else None
                if fed and k == fed[-1][0] and not pipe and op != "|":
                    # the loop's `done`: its input was read at the loop's start (not read twice)
                    out = self._loop_end(node, feed, ctx, acc)
                    continue
            pipe.append(node)
            if op == "|":
                continue
            out = self.run_pipeline(pipe, ctx, acc, feed)
            pipe = []
        if pipe:
            out = self.run_pipeline(pipe, ctx, acc, feed)
        return out

    def _loop_end(self, node: Simple, stdin, ctx: Ctx, acc: Acc):
        """``done < file > out``: the input (read already, ``stdin``) is a read by the loop; other redirects
        are checked as usual."""
        budget = ctx.budget
        budget.nodes -= 1
        rest = [rd for rd in node.redirs if rd.op not in ("<", "<<<", "<<", "<<-")]
        if rest:
            self._redirects(rest, ctx, acc, None)
        if type(stdin) is FileInput:
            self.read_secret_check("the loop", [stdin.path], ctx, acc)
        return None

    def run_pipeline(self, nodes: list, ctx: Ctx, acc: Acc, stdin=None):
        for node in nodes:
            stdin = self.run_node(node, ctx, acc, stdin)
        return stdin

    def run_node(self, node, ctx: Ctx, acc: Acc, stdin):
        t = type(node)
        if t is Simple:
            return self.run_simple(node, ctx, acc, stdin)
        if t is Group:
            c = ctx.child() if node.subshell else ctx
            out = self.run_script(node.body, c, acc)
            if node.redirs:
                self._redirects(node.redirs, ctx, acc, None)
            return out
        if t is FuncDef:
            ctx.funcs.add(node.name)
            if _calls_itself(node.body, node.name):
                acc.add(C, "shell.fork_bomb", "fork bomb (a function that starts copies of itself)")
            self.run_script(node.body, ctx.child(), acc)
            return None
        if t is ForLoop:
            values: list = []
            for w in node.words:
                fields, _ = self.expand(w, ctx, acc)
                values.extend(fields)
            if len(values) == 1:
                ctx.env[node.var] = values[0]
            elif values:
                ctx.env[node.var] = values[:MAX_COMBOS]
            else:
                ctx.env[node.var] = MARK
            return None
        return None

    # ------------------------------------------------------------- expansion
    def _lookup(self, name: str, ctx: Ctx, pick: dict):
        v = ctx.env.get(name)
        if v is None:
            if name == "HOME":
                return "~"
            if name == "PWD":
                return ctx.cwd or "."
            if name == "IFS":
                return " \t\n"  # the default: unquoted, it breaks words like a space
            if name in ("USER", "LOGNAME") and ctx.user:
                return ctx.user
            return MARK
        if isinstance(v, list):
            return v[pick.get(name, 0) % len(v)]
        return v

    def expand(self, word, ctx: Ctx, acc: Acc, pick: dict | None = None, split: bool = True):
        """Expand one word; returns ``(fields, meta)`` with meta ``(sub_out, secret_var, sub_prog)``."""
        parts = word.parts
        if word.lit is not None:
            lit = word.lit
            if "{" in lit and not word.quoted and "}" in lit:
                return _brace_expand(lit), None
            return [lit], None
        pick = pick or {}
        fields = [""]
        breaks = False
        sub_out = None
        sub_prog = None
        secret = False
        for p in parts:
            k = p[0]
            if k == LIT:
                fields[-1] += p[1]
            elif k == VAR:
                name = p[1]
                if is_secret_name(name):
                    secret = True
                if name in ctx.tainted and sub_out is None:
                    sub_out = SECRET
                val = self._lookup(name, ctx, pick)
                if val == MARK and len(p) > 3:
                    val = p[3]  # ${X:-default}
                if len(fields[-1]) > MAX_VALUE:
                    fields[-1] = MARK
                    continue
                if (p[2] and name != "@" and name != "*") or not split or val == MARK:
                    fields[-1] += val
                else:
                    ifs = ctx.env.get("IFS")
                    if not isinstance(ifs, str) or MARK in ifs:
                        ifs = " \t\n"
                    if val and any(ch in val for ch in ifs):
                        # split into fields; a separator at either end breaks the word there too
                        # (`rm${IFS}-rf${IFS}/` is `rm -rf /`): marked, and the fields cut at the end
                        breaks = True
                        fields[-1] += (_BRK if val[0] in ifs else "") + _BRK.join(_split_ifs(val, ifs)) + (
                            _BRK if val[-1] in ifs else "")
                    else:
                        fields[-1] += val
            else:  # SUB
                out = self.run_script(p[1], ctx.child(deeper=True), acc)
                sub_prog = _first_prog(p[1])
                if len(p) > 3:  # <(cmd): a file holding cmd's output
                    fields[-1] += MARK
                    sub_out = ProcOutput(out)
                elif (type(out) is TextInput or type(out) is FileInput) and MARK not in held_text(out):
                    text = held_text(out).rstrip("\n")
                    if p[2] or not split:
                        fields[-1] += text
                    else:
                        pieces = text.split()
                        if pieces:
                            fields[-1] += pieces[0]
                            fields.extend(pieces[1:])
                else:
                    fields[-1] += MARK
                    sub_out = out
        if breaks:
            fields = [f for field in fields for f in field.split(_BRK) if f]
        if not word.quoted and fields == [""]:
            fields = []
        if sub_out is None and not secret and sub_prog is None:
            return fields, None
        return fields, (sub_out, secret, sub_prog)

    def expand_words(self, words: list, ctx: Ctx, acc: Acc, pick: dict | None = None):
        argv: list = []
        metas: list = []
        for w in words:
            fields, meta = self.expand(w, ctx, acc, pick)
            argv.extend(fields)
            metas.extend([meta] * len(fields))
        return argv, metas

    # --------------------------------------------------------------- commands
    def run_simple(self, node: Simple, ctx: Ctx, acc: Acc, stdin):
        budget = ctx.budget
        budget.nodes -= 1
        if budget.nodes < 0:
            # past the budget: the command is left to the overflow scan (which also sets the MEDIUM floor)
            if len(budget.unread) < 4096:
                budget.unread.append(_node_text(node))
            return OTHER
        if node.test:
            for w in node.words:
                if w.lit is None:
                    self.expand(w, ctx, acc)
            return None
        for name, w in node.assigns:
            fields, meta = self.expand(w, ctx, acc, split=False)
            val = "".join(fields)
            ctx.env[name] = val if len(val) <= MAX_VALUE else MARK
            if meta is not None and meta[0] == SECRET:
                ctx.tainted.add(name)
            elif ctx.tainted:
                ctx.tainted.discard(name)
            self.set_var(name, val, ctx, acc)
        if node.redirs:
            stdin = self._redirects(node.redirs, ctx, acc, stdin)
        if not node.words:
            if type(stdin) is FileInput and any(rd.op == "<" for rd in node.redirs):
                # `$(< file)` is `$(cat file)`; `done < file` feeds a loop (its commands were read with it)
                self.read_secret_check("the loop" if node.loop == LOOP_END else "`<`", [stdin.path], ctx, acc)
                return SECRET if self.is_secret_path(stdin.path, ctx) else OTHER
            return None
        if node.plain:
            # literal words only (no assignments, redirects, quotes or expansions): without braces to expand,
            # the words are the arguments
            argv = [w.lit for w in node.words]
            if "{" not in " ".join(argv):
                return self.run_argv(argv, [None] * len(argv), ctx, acc, stdin)
        # loop variables with several values: read the command once per value
        multi = None
        for w in node.words:
            if w.lit is None:
                for p in w.parts:
                    if p[0] == VAR and isinstance(ctx.env.get(p[1]), list):
                        multi = p[1]
                        break
            if multi:
                break
        if multi is None:
            argv, metas = self.expand_words(node.words, ctx, acc)
            if not argv:
                return None
            out = self.run_argv(argv, metas, ctx, acc, stdin)
            if node.redirs and (type(out) is TextInput or type(out) is FileInput or out is DOWNLOAD
                                or out is DECODED):
                self._note_output_file(node.redirs, out, ctx)
            return out
        out = None
        for k in range(len(ctx.env[multi])):
            argv, metas = self.expand_words(node.words, ctx, acc, {multi: k})
            if argv:
                out = self.run_argv(argv, metas, ctx, acc, stdin)
        return out

    def _note_output_file(self, redirs: list, out, ctx: Ctx) -> None:
        """A command's output sent to a file (``> f``): literal text is remembered (``echo … > f; sh f``), a
        download marks the file as downloaded code (``curl URL > a.py && python3 a.py``)."""
        for rd in redirs:
            if rd.op in (">", ">>", ">|") and rd.fd in (None, "1") and rd.target is not None and rd.target.lit:
                key = P.normalize(rd.target.lit, ctx.cwd)
                if out == DOWNLOAD or out == DECODED:  # (decoded data run later is HIGH like `| sh`)
                    if len(ctx.downloaded) < 64:
                        ctx.downloaded.add(key)
                elif len(ctx.written) < 64:
                    prev = ctx.written.get(key, "") if rd.op == ">>" else ""
                    ctx.written[key] = (prev + held_text(out))[:MAX_VALUE * 4]

    def _redirects(self, redirs: list, ctx: Ctx, acc: Acc, stdin):
        for r in redirs:
            op = r.op
            if op == "<<" or op == "<<-":
                stdin = TextInput(r.body or "", True)
                if r.subs:
                    for sub in r.subs:
                        if self.run_script(sub, ctx.child(deeper=True), acc) == SECRET:
                            stdin = SECRET
                elif "$" in stdin.text and ctx.tainted and any("$" + v in stdin.text or "${" + v in stdin.text
                                                               for v in ctx.tainted):
                    stdin = SECRET
                continue
            fields, meta = self.expand(r.target, ctx, acc, split=False) if r.target is not None else ([], None)
            target = "".join(fields)
            if meta is not None and type(meta[0]) is ProcOutput:
                if op == "<":
                    stdin = meta[0].out  # `< <(cmd)`: cmd's output
                    continue
            if op == "<<<":
                stdin = SECRET if meta is not None and meta[0] == SECRET else TextInput(target + "\n", True)
                continue
            if op == "<":
                stdin = FileInput(target)
                continue
            if op in (">&", "<&"):
                if not target or target == "-" or target.isdigit():
                    continue
            if op == "<&":
                continue
            self.write_path(target, ctx, acc, "redirect output to")
        return stdin

    # ------------------------------------------------------------ dispatch
    def run_argv(self, argv: list, metas: list, ctx: Ctx, acc: Acc, stdin):
        """Classify one expanded simple command ``argv``; returns what it prints (for pipes)."""
        budget = ctx.budget
        if budget.depth >= MAX_STACK:
            acc.add(M, "shell.too_deep", "commands nested too deep to read")
            return OTHER
        if len(argv) > MAX_ARGS:
            argv, metas = _cap_args(argv, metas, acc)
        budget.depth += 1
        try:
            return self._run_argv(argv, metas, ctx, acc, stdin)
        finally:
            budget.depth -= 1

    def _run_argv(self, argv: list, metas: list, ctx: Ctx, acc: Acc, stdin):
        for _ in range(12):
            w0 = argv[0]
            if MARK in w0:
                meta = metas[0] if metas else None
                if meta and meta[0] is not None and w0 == MARK:
                    acc.add(H, "shell.dynamic_program", "runs a program whose name comes from command output")
                else:
                    acc.add(M, "shell.dynamic_program", "program name decided at run time")
                return OTHER
            if ctx.aliases and w0 in ctx.aliases:
                # an alias runs its value with the words after it (not expanded again inside its own value)
                c = ctx.child()
                c.aliases = {k: v for k, v in ctx.aliases.items() if k != w0}
                acc.add(S, "shell.alias", f"{w0} (an alias)")
                self.run_text(" ".join([ctx.aliases[w0]] + [shlex.quote(a) for a in argv[1:]]), c, acc)
                return OTHER
            prog = w0.rsplit("/", 1)[-1] if "/" in w0 else w0
            if "/" in w0 and w0 != "/":
                key = P.normalize(w0, ctx.cwd)
                if is_downloaded(ctx, key):
                    acc.add(H, "shell.download_exec", f"runs downloaded code ({show(w0)})")
                if key in ctx.written:
                    self.run_text(ctx.written[key], ctx, acc)
                if w0.startswith("/etc/init.d/") or w0.startswith("/etc/rc.d/"):
                    return h_service(self, "service", [prog] + argv[1:], metas, ctx, acc, stdin)
            wrap = T.WRAPPERS.get(prog)
            if wrap is not None:
                rest, rmetas = self._peel(prog, wrap, argv, metas, ctx, acc)
                if rest is None:
                    return None
                argv, metas = rest, rmetas
                continue
            if prog == "env":
                r = self._env(argv, metas, ctx, acc)
                if r is None or r is SECRET:
                    return r
                argv, metas = r
                continue
            runner = T.RUNNERS.get(prog)
            if runner and len(argv) > 1 and argv[1] in runner:
                k = 2
                while k < len(argv) and argv[k].startswith("-"):
                    k += 1 if argv[k] != "--" else 0
                    if k < len(argv) and argv[k] == "--":
                        k += 1
                        break
                if k >= len(argv):
                    acc.add(L, "shell.program", f"{prog} {argv[1]}")
                    return OTHER
                argv, metas = argv[k:], metas[k:]
                continue
            break
        else:
            acc.add(M, "shell.wrappers", "too many wrappers to look through")
            return OTHER
        args = argv[1:]
        if args and (args[-1] == "--help" or args[-1] == "--version") and len(args) <= 4 and all(
                a and a[0] != "-" and "/" not in a for a in args[:-1]):
            acc.add(S, "shell.help", f"{prog} {args[-1]} (help text)")
            return OTHER
        dry = False
        if prog not in T.NO_DRY_RUN and any(map(str.startswith, args, repeat("--dry"))):
            for a in args:
                if a.startswith("--dry-run") or a == "--dryrun" or a == "--dry_run":
                    if a not in ("--dry-run=none", "--dry-run=false"):
                        dry = True
                        break
        target = Acc() if dry else acc
        prev_cur = acc.cur
        acc.cur = argv
        spec = T.OPTION_EFFECTS.get(prog)
        if spec is not None:
            self.option_effects(prog, spec, tar_old_style(args) if prog in TARS else args, ctx, target, stdin)
        handler = self.handlers.get(prog)
        if handler is None and prog.startswith("mkfs"):
            handler = h_mkfs
        if handler is not None:
            out = handler(self, prog, args, metas[1:], ctx, target, stdin)
        elif prog in self.read_only:
            out = h_read_only(self, prog, args, metas[1:], ctx, target, stdin)
        elif prog in T.HTTP_METHODS and args:
            out = h_http_method(self, prog, args, metas[1:], ctx, target, stdin)
        elif prog in ctx.funcs:
            target.add(L, "shell.function", f"call of the shell function {prog}")
            out = OTHER
        else:
            if target.tier < L:  # (the reason is only built when it can count)
                target.add(L, "shell.program", f"{prog} (not known to be read-only)")
            out = OTHER
        sender = prog in T.NETWORK_SENDERS or (prog in T.NETWORK_SENDER_COMMANDS and any(
            a in T.NETWORK_SENDER_COMMANDS[prog] for a in args[:4]))
        if type(stdin) is FileInput and sender:
            self.sends_secret(prog, stdin.path, ctx, acc)
        if sender and prog not in T.NETWORK_SENDERS and (stdin is SECRET or stdin == SECRET):
            acc.add(H, "shell.secret_send", f"{prog} sends secret contents (piped) over the network")
        if (ctx.secretish or stdin is SECRET or SECRET in meta_outputs(metas)) and (
                out is not None or prog in T.NETWORK_SENDERS or prog in T.UPLOADERS):
            out = self.secret_flow(prog, args, metas, stdin, ctx, acc, out)
        if dry:
            acc.add(min(max(target.tier, S), L), "shell.dry_run", f"dry run: {target.reason or prog}")
        acc.cur = prev_cur
        return out

    def _peel(self, prog, wrap, argv, metas, ctx, acc):
        with_arg, skip, floor = wrap
        if floor > S:
            acc.add(floor, f"shell.{prog}", f"{prog} (runs as another user)" if floor == M else prog)
        i = 1
        n = len(argv)
        edit = False
        while i < n:
            a = argv[i]
            if a == "--":
                i += 1
                break
            if a.startswith("--"):
                if "=" not in a and a in with_arg:
                    i += 2
                else:
                    i += 1
                continue
            if a.startswith("-") and len(a) > 1 and not (prog in ("nice",) and a[1:].isdigit() and False):
                if prog == "nice" and a[1:].lstrip("-").isdigit():
                    i += 1
                    continue
                if prog == "sudo" and a in ("-e", "--edit"):
                    edit = True
                chars = a[1:]
                took = False
                for j, ch in enumerate(chars):
                    if ch in with_arg:
                        took = j == len(chars) - 1
                        break
                i += 2 if took else 1
                continue
            break
        i += skip
        if prog == "sudo" and edit:
            for f in argv[i:]:
                self.write_path(f, ctx, acc, "edit as root")
            return None, None
        if i >= n:
            if prog in ("sudo", "doas", "su", "pkexec", "run0"):
                acc.add(M, f"shell.{prog}", f"{prog} (root privileges)")
            else:
                acc.add(L, f"shell.{prog}", prog)
            return None, None
        return argv[i:], metas[i:]

    def _env(self, argv, metas, ctx, acc):
        i, n = 1, len(argv)
        while i < n:
            a = argv[i]
            if a == "--":
                i += 1
                break
            if a in ("-u", "--unset", "-C", "--chdir"):
                if a in ("-C", "--chdir") and i + 1 < n:
                    ctx.cwd = P.normalize(argv[i + 1], ctx.cwd)
                i += 2
                continue
            if a.startswith("--chdir="):
                ctx.cwd = P.normalize(a[8:], ctx.cwd)
                i += 1
                continue
            # -S STRING in every spelling (-S 'x', -S'x', -iS 'x', --split-string='x', --split-string 'x'):
            # the string is split into the command and its first arguments
            split = None
            if a == "--split-string" and i + 1 < n:
                split, i = argv[i + 1], i + 2
            elif a.startswith("--split-string="):
                split, i = a[15:], i + 1
            elif a.startswith("-") and not a.startswith("--") and "S" in a:
                rest = a[a.index("S") + 1:]
                if rest:
                    split, i = rest, i + 1
                elif i + 1 < n:
                    split, i = argv[i + 1], i + 2
            if split is not None:
                try:
                    words = shlex.split(split)
                except ValueError:
                    words = split.split()
                return words + argv[i:], [None] * len(words) + metas[i:]
            if a.startswith("-"):
                i += 1
                continue
            if "=" in a and not a.startswith("="):
                k, v = a.split("=", 1)
                if k.replace("_", "a").isalnum() or (k.startswith("BASH_FUNC_") and k.endswith("%%")):
                    ctx.env[k] = v
                    self.set_var(k, v, ctx, acc)
                    i += 1
                    continue
            break
        if i >= n:
            acc.add(M, "shell.env.dump", "env prints every environment variable (secrets) into the agent's context")
            return SECRET
        return argv[i:], metas[i:]

_LOOSE_PAIRS = (("'", ""), ('"', ""), ("`", ";"), ("(", ";"), (")", ";"), ("{", " "), ("}", " "), ("\\", ""),
                ("$", " "))


_BRACE = re.compile(r"\{([^{}]*)\}")
_SEQ = re.compile(r"(-?\d{1,6}|[A-Za-z])\.\.(-?\d{1,6}|[A-Za-z])(?:\.\.-?\d{1,6})?")
MAX_BRACE = 64


def _brace_expand(w: str) -> list:
    """Brace expansion of an unquoted word (``{rm,-rf,/}``, ``/{etc,usr}``, ``{1..3}``), at most
    :data:`MAX_BRACE` words; a word without a list or sequence in braces stays as it is."""
    out = [w]
    for _ in range(8):
        nxt: list = []
        changed = False
        for x in out:
            m = None
            for m2 in _BRACE.finditer(x):
                inner = m2.group(1)
                if "," in inner or _SEQ.fullmatch(inner):
                    m = m2
                    break
            if m is None:
                nxt.append(x)
                continue
            changed = True
            inner = m.group(1)
            sq = _SEQ.fullmatch(inner)
            if sq and "," not in inner:
                a, b = sq.group(1), sq.group(2)
                if a.lstrip("-").isdigit() and b.lstrip("-").isdigit():
                    lo, hi = int(a), int(b)
                    step = 1 if hi >= lo else -1
                    alts = [str(k) for k in range(lo, hi + step, step)][:MAX_BRACE]
                elif a.isalpha() and b.isalpha():
                    step = 1 if ord(b) >= ord(a) else -1
                    alts = [chr(k) for k in range(ord(a), ord(b) + step, step)][:MAX_BRACE]
                else:
                    alts = [inner]
            else:
                alts = inner.split(",")
            for alt in alts:
                nxt.append(x[:m.start()] + alt + x[m.end():])
                if len(nxt) >= MAX_BRACE:
                    break
        out = [x for x in nxt if x != ""][:MAX_BRACE] if changed else nxt
        if not changed:
            break
    return out


def _loose(text: str) -> str:
    """Quotes and brackets removed (str.replace runs in C; a translate table with deletions does not)."""
    for a, b in _LOOSE_PAIRS:
        if a in text:
            text = text.replace(a, b)
    return text

#: characters that need the full reader (expansions, redirects, grouping, comments, new lines …)
_NOT_PLAIN = re.compile(r"[^A-Za-z0-9 \t_./,:+@%^=*?&|;~\[\]'\"-]|&&&|\|\|\||;;|\|&|&\||;&|&;|\|;|;\|")
#: one word (plain characters and quoted literals) or one list operator, after blanks
_PQ_TOKEN = re.compile(r"""[ \t]*(?:((?:[^\s'"\\$`;&|()<>#{}!]|'[^']*'|"[^"\\$`!]*")+)|(&&|\|\||[;&|]))""")
_PQ_QUOTED = re.compile(r"'([^']*)'|\"([^\"]*)\"")


def _unquote(m) -> str:
    return m.group(1) if m.group(1) is not None else m.group(2)


#: first words handled by the parser itself (reserved words, groups)
_PLAIN_STOP = frozenset(("if", "then", "elif", "else", "do", "while", "until", "!", "fi", "done", "esac", "{", "}",
                         "for", "select", "case", "function", "[[", "((", "in", "time", "coproc"))


def _node_text(node: Simple) -> str:
    """A simple command as text again (for the overflow scan): literal words as they are, others ``$?``."""
    words = [w.lit if w.lit is not None else "$?" for w in node.words]
    for rd in node.redirs:
        tgt = rd.target.lit if rd.target is not None and rd.target.lit is not None else "$?"
        words.append(f"{rd.op} {tgt}" if rd.op not in ("<<", "<<-") else "")
    return " ".join(words)


def looks_dangerous(a: str) -> bool:
    """An operand worth reading even past :data:`MAX_ARGS`: root, home and system spellings, devices,
    secrets, unknown values."""
    if not a:
        return False
    c = a[0]
    if c == "/":
        top = a[1:].split("/", 1)[0]
        return top in T.TOP_LEVEL_NAMES or top in ("", "*", "home", "Users", "root", "dev", "proc") or "*" in top
    return c in "~$.\x00" or a.startswith(("of=", "if=")) or MARK in a or "sysrq" in a


def _cap_args(argv: list, metas: list, acc: Acc):
    """Too many operands to read one by one: keep the program, every option, the first operands and every
    operand that looks dangerous (fail closed: at least MEDIUM)."""
    keep: dict = {}
    n_ops = 0
    for k, a in enumerate(argv):
        if a in keep:
            continue
        if k == 0 or a[:1] == "-" or n_ops < MAX_ARGS // 2 or looks_dangerous(a):
            keep[a] = metas[k] if k < len(metas) else None
            if k and a[:1] != "-":
                n_ops += 1
            if len(keep) > 4 * MAX_ARGS:
                break
    if len(keep) < len(argv):
        acc.add(M, "shell.too_long", "too many arguments to read one by one")
    return list(keep), list(keep.values())


#: marks a word break from an unquoted expansion inside a word (cut into fields at the end of the word)
_BRK = "\x1e\x1f"


def _split_ifs(val: str, ifs: str) -> list:
    out = []
    cur = ""
    for ch in val:
        if ch in ifs:
            if cur:
                out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur:
        out.append(cur)
    return out


def _loop_inputs(script: list) -> dict | None:
    """Loops of ``script`` whose ``done`` redirects their input (``while read l; do …; done < file``): the index
    of each loop's first command -> (the index of its ``done``, the input redirects). None when there are none."""
    heads: list = []
    found = None
    for k, (node, _op) in enumerate(script):
        t = type(node)
        if t is ForLoop or (t is Simple and node.loop == LOOP_HEAD):
            heads.append(k)
        elif t is Simple and node.loop == LOOP_END and heads:
            start = heads.pop()
            inputs = [r for r in node.redirs if r.op in ("<", "<<<", "<<", "<<-")]
            if inputs:
                if found is None:
                    found = {}
                found[start] = (k, inputs)
    return found


def _first_prog(script: list):
    for node, _op in script:
        if type(node) is Simple and node.words:
            w = node.words[0].lit
            if w is None:
                return "?"
            w = w.rsplit("/", 1)[-1]
            if w in ("sudo", "command", "env", "exec") and len(node.words) > 1:
                w2 = node.words[1].lit
                return (w2 or "?").rsplit("/", 1)[-1]
            return w
        if type(node) is Group:
            return _first_prog(node.body)
    return None


def _calls_itself(script: list, name: str, depth: int = 0) -> bool:
    if depth > 10:
        return False
    prev_pipe = False
    for node, op in script:
        if type(node) is Simple:
            if node.words and node.words[0].lit == name and (op in ("|", "&") or prev_pipe):
                return True
        elif type(node) is Group:
            if _calls_itself(node.body, name, depth + 1):
                return True
        prev_pipe = op == "|"
    return False


# =============================================================================== handlers
# signature: (reader, prog, args, metas, ctx, acc, stdin) -> output kind

