"""Command tier (tiers.md, "Command tier"): the parsed shell text is walked with a little data flow
(``cd``, assignments, ``for`` loops, pipes, downloads) and every simple command is matched against
the program tables of :mod:`core.policy._tables`.
"""

from __future__ import annotations

import re
import shlex
from itertools import repeat

from core.policy import _paths as P
from core.policy import _tables as T
from core.policy._codefx import apply_code_effects
from core.policy._lexer import (
    LIT,
    LOOP_END,
    LOOP_HEAD,
    VAR,
    ForLoop,
    FuncDef,
    Group,
    Parser,
    Simple,
    new_budget,
)
from core.policy._overflow import scan_overflow
from core.policy._pycode import code_runs_data, scan_code
from core.policy._sql import classify_sql, sql_shell_commands
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL
MARK = P.UNKNOWN_MARK
MAX_DEPTH = 8  # nested scripts (sh -c, ssh, eval, python -c …)
MAX_COMBOS = 8  # values tried for loop variables
MAX_NODES = 250  # simple commands looked at one by one in one request (the rest: overflow scan)
MAX_ARGS = 512  # arguments of one command read one by one (past it: options, the first operands, the dangerous-looking)
MAX_STACK = 24  # nested program dispatch (xargs xargs …, find -exec find -exec …)
MAX_VALUE = 4096  # longest variable value kept (longer values are read as unknown)

# output kinds of a pipeline stage (what the next stage reads)
DOWNLOAD = "download"
DECODED = "decoded"
SECRET = "secret"  # contents of a secret file (or text made from them)
OTHER = "other"


class Acc:
    """The highest verdict so far."""

    __slots__ = ("tier", "rule", "reason", "cur", "where")

    def __init__(self) -> None:
        self.tier = -1
        self.rule = ""
        self.reason = ""
        self.cur = None  # the simple command being read (its words)
        self.where = None  # the simple command that decided (so the reason can quote that part)

    def add(self, tier: Tier, rule: str, reason: str) -> None:
        if tier > self.tier:
            self.tier = tier
            self.rule = rule
            self.reason = reason
            self.where = self.cur


class Ctx:
    """Data flow state while reading one script."""

    __slots__ = ("env", "cwd", "ws", "user", "depth", "downloaded", "container", "funcs", "implied", "budget",
                 "written", "tainted", "secretish", "aliases", "flags")

    def __init__(self, cwd: str | None, ws: str | None, user: str | None):
        self.env: dict = {}
        self.cwd = cwd
        self.ws = ws
        self.user = user
        self.depth = 0
        self.downloaded: set = set()
        self.container = None
        self.funcs: set = set()
        self.implied = 0  # 1: targets are whole trees (find -exec), 2: filtered trees
        self.budget = new_budget(nodes=MAX_NODES)
        self.written: dict = {}  # files written in this text with literal content (echo … > f)
        self.tainted: set = set()  # variables holding secret file contents (K=$(cat ~/.ssh/id_rsa))
        self.secretish = True  # False: the text cannot name a secret file (no secret-flow reading needed)
        self.aliases: dict = {}  # alias name -> its value (`alias x=rm; x -rf /`)
        self.flags: set = set()  # facts for later commands ("staged_secret": git add of a secret file)

    def child(self, deeper: bool = False) -> Ctx:
        c = Ctx.__new__(Ctx)
        c.env = dict(self.env)
        c.cwd = self.cwd
        c.ws = self.ws
        c.user = self.user
        c.depth = self.depth + (1 if deeper else 0)
        c.downloaded = self.downloaded
        c.container = self.container
        c.funcs = self.funcs
        c.implied = self.implied
        c.budget = self.budget
        c.written = self.written
        c.tainted = self.tainted
        c.secretish = self.secretish
        c.aliases = self.aliases
        c.flags = self.flags
        return c


def _show(p: str) -> str:
    p = p.replace(MARK, "$…")
    return p if len(p) <= 60 else p[:57] + "…"


def _is_secret_name(name: str) -> bool:
    u = name.upper()
    return any(w in u for w in T.SECRET_NAME_WORDS)


class Opts:
    """Parsed options: short flags (chars), their values, long options, operands."""

    __slots__ = ("flags", "vals", "longs", "pos")

    def __init__(self) -> None:
        self.flags: set = set()
        self.vals: dict = {}
        self.longs: dict = {}
        self.pos: list = []

    def long(self, name: str):
        return self.longs.get(name)

    def any(self, *names: str) -> bool:
        for nm in names:
            if nm.startswith("--"):
                if nm in self.longs:
                    return True
            elif nm[1:] in self.flags:
                return True
        return False


def getopts(args: list, short_arg=frozenset(), long_arg=frozenset(), stop_at_pos: bool = False) -> Opts:
    """Read options in any order and spelling (``-rf``, ``-r -f``, ``--recursive``, ``--x=y``)."""
    o = Opts()
    i, n = 0, len(args)
    while i < n:
        a = args[i]
        if a == "--":
            o.pos.extend(args[i + 1:])
            break
        if a.startswith("--") and len(a) > 2:
            if "=" in a:
                k, v = a.split("=", 1)
                o.longs[k] = v
            elif a in long_arg and i + 1 < n:
                o.longs[a] = args[i + 1]
                i += 1
            else:
                o.longs[a] = True
        elif a.startswith("-") and len(a) > 1 and not a[1].isdigit():
            j = 1
            while j < len(a):
                ch = a[j]
                if ch in short_arg:
                    if j + 1 < len(a):
                        v = a[j + 1:]
                    elif i + 1 < n:
                        v = args[i + 1]
                        i += 1
                    else:
                        v = ""
                    o.flags.add(ch)
                    o.vals.setdefault(ch, []).append(v)
                    break
                o.flags.add(ch)
                j += 1
        else:
            o.pos.append(a)
            if stop_at_pos:
                o.pos.extend(args[i + 1:])
                break
        i += 1
    return o


def _first(o: Opts, ch: str, *longs: str):
    v = o.vals.get(ch)
    if v:
        return v[0]
    for nm in longs:
        x = o.longs.get(nm)
        if isinstance(x, str):
            return x
    return None


def _prod_in(words) -> bool:
    for w in words:
        if not w or w.startswith("http"):
            continue
        for tok in w.replace("-", " ").replace("_", " ").replace(".", " ").replace("/", " ").replace(
                ":", " ").replace("=", " ").replace("@", " ").split():
            if tok.lower() in T.PROD_WORDS:
                return True
    return False


class ShellReader:
    """Reads command text as a shell does and returns its tier."""

    def __init__(self, read_only_extra=()):
        self.read_only = T.READ_ONLY | frozenset(read_only_extra)
        self.handlers = _build_handlers()

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
            ctx.secretish = _SECRET_HINT.search(text) is not None
        if len(text) < 512 and not _NOT_PLAIN.search(text):
            done = self._plain_list(text, ctx, acc)
            if done:
                return acc, False
        p = Parser(text, 0, ctx.budget)
        script = p.parse()
        self.run_script(script, ctx, acc)
        damaged = p.damaged
        if damaged and ctx.budget[1]:
            # damaged and too long: the overflow scan (which drops quotes and splits at every bracket) reads
            # the whole text instead of a second, loose parse
            ctx.budget[1].insert(0, text)
            acc.add(L, "shell.unparseable", "text that cannot be read fully as shell")
        elif damaged:
            # read the text loosely too: quotes and brackets removed, so nothing hides behind damage
            loose = _loose(text)
            p2 = Parser(loose, 0, ctx.budget)
            script2 = p2.parse()
            ctx2 = ctx.child()
            self.run_script(script2, ctx2, acc)
            acc.add(L, "shell.unparseable", "text that cannot be read fully as shell")
        if ctx.budget[1]:
            scan_overflow(self, ctx.budget[1], ctx, acc)
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
            budget[0] -= 1
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
        budget[0] -= 1
        rest = [rd for rd in node.redirs if rd.op not in ("<", "<<<", "<<", "<<-")]
        if rest:
            self._redirects(rest, ctx, acc, None)
        if type(stdin) is tuple and stdin[0] == "file":
            self.read_secret_check("the loop", [stdin[1]], ctx, acc)
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
                if _is_secret_name(name):
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
                    sub_out = ("proc", out)
                elif type(out) is tuple and MARK not in out[1]:
                    text = out[1].rstrip("\n")
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
        budget[0] -= 1
        if budget[0] < 0:
            # past the budget: the command is left to the overflow scan (which also sets the MEDIUM floor)
            if len(budget[1]) < 4096:
                budget[1].append(_node_text(node))
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
            if type(stdin) is tuple and stdin[0] == "file" and any(rd.op == "<" for rd in node.redirs):
                # `$(< file)` is `$(cat file)`; `done < file` feeds a loop (its commands were read with it)
                self.read_secret_check("the loop" if node.loop == LOOP_END else "`<`", [stdin[1]], ctx, acc)
                return SECRET if self._is_secret_path(stdin[1], ctx) else OTHER
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
            if node.redirs and (type(out) is tuple or out == DOWNLOAD or out == DECODED):
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
                    ctx.written[key] = (prev + out[1])[:MAX_VALUE * 4]

    def _redirects(self, redirs: list, ctx: Ctx, acc: Acc, stdin):
        for r in redirs:
            op = r.op
            if op == "<<" or op == "<<-":
                stdin = ("heredoc", r.body or "")
                if r.subs:
                    for sub in r.subs:
                        if self.run_script(sub, ctx.child(deeper=True), acc) == SECRET:
                            stdin = SECRET
                elif "$" in stdin[1] and ctx.tainted and any("$" + v in stdin[1] or "${" + v in stdin[1]
                                                             for v in ctx.tainted):
                    stdin = SECRET
                continue
            fields, meta = self.expand(r.target, ctx, acc, split=False) if r.target is not None else ([], None)
            target = "".join(fields)
            if meta is not None and type(meta[0]) is tuple and meta[0][0] == "proc":
                if op == "<":
                    stdin = meta[0][1]  # `< <(cmd)`: cmd's output
                    continue
            if op == "<<<":
                stdin = SECRET if meta is not None and meta[0] == SECRET else ("heredoc", target + "\n")
                continue
            if op == "<":
                stdin = ("file", target)
                continue
            if op in (">&", "<&"):
                if not target or target == "-" or target.isdigit():
                    continue
            if op == "<&":
                continue
            self.write_path(target, ctx, acc, "redirect output to")
        return stdin

    # ----------------------------------------------------------- path rules
    def pclass(self, p: str, ctx: Ctx) -> str:
        return P.classify_path(p, ctx.cwd, ctx.ws, ctx.user, ctx.container)

    def write_path(self, p: str, ctx: Ctx, acc: Acc, verb: str = "write to") -> str:
        cls = self.pclass(p, ctx)
        t = _WRITE_TIERS.get(cls, L)
        if cls == P.NULLDEV:
            acc.add(S, "shell.write.null", f"{verb} {p} (discarded)")
        else:
            acc.add(t, f"shell.write.{cls}", f"{verb} {_show(p)} ({P.label(cls)})")
        return cls

    def delete_path(self, p: str, recursive: int, ctx: Ctx, acc: Acc, what: str = "delete") -> None:
        cls = self.pclass(p, ctx)
        if recursive:
            if cls in P.CRITICAL_TREES:
                if recursive == 2:
                    acc.add(H, f"shell.{what}.filtered.{cls}", f"filtered recursive {what} under {_show(p)} "
                                                             f"({P.label(cls)})")
                else:
                    acc.add(C, f"shell.rm.recursive.{cls}", f"recursive {what} of {_show(p)} ({P.label(cls)})")
            elif cls == P.CONTAINER:
                acc.add(L, "shell.rm.container", f"recursive {what} inside the container ({_show(p)})")
            elif cls == P.UNKNOWN:
                acc.add(H, "shell.rm.recursive.unknown",
                        f"recursive {what} of a target unknown until run time ({_show(p)})")
            else:
                acc.add(H, "shell.rm.recursive", f"recursive {what} of {_show(p)} ({P.label(cls)})")
            return
        if cls in (P.SYSTEM, P.SYSROOT, P.ROOT, P.SENSITIVE):
            acc.add(H, f"shell.rm.{cls}", f"{what} of {_show(p)} ({P.label(cls)})")
        elif cls == P.BLOCKDEV:
            acc.add(H, "shell.rm.device", f"{what} of device node {_show(p)}")
        elif cls == P.ENV:
            acc.add(M, "shell.rm.env", f"{what} of {_show(p)} (.env file)")
        elif cls == P.UNKNOWN and p == MARK:
            acc.add(H, "shell.rm.unknown", f"{what} of targets unknown until run time")
        else:
            acc.add(L, "shell.rm", f"{what} of {_show(p)} ({P.label(cls)})")

    def read_secret_check(self, prog: str, files, ctx: Ctx, acc: Acc) -> None:
        for f in files:
            if not f or f[0] == "-" and len(f) > 1:
                continue
            cls = self.pclass(f, ctx)
            if cls in (P.SENSITIVE, P.ENV):
                acc.add(M, "shell.secret_read", f"{prog} reads {_show(f)} ({P.label(cls)}) into the agent's context")
            elif P.is_secret_read(f):
                acc.add(M, "shell.secret_read", f"{prog} reads {f} (secrets) into the agent's context")

    def command_var(self, name: str, val: str, ctx: Ctx, acc: Acc) -> None:
        """``GIT_SSH_COMMAND=…``, ``PAGER=…``: a variable some program runs as a command."""
        if MARK in val:
            acc.add(M, "shell.command_var", f"{name} set to a command decided at run time")
            return
        self.run_text(val, ctx.child(), acc)

    def _secret_flow(self, prog, args, metas, stdin, ctx, acc, out):
        """Secret file contents flowing through a command: into a network sender it is HIGH; otherwise
        the command's output carries them on (``base64 ~/.ssh/id_rsa | curl -d @- …``)."""
        how = None
        if stdin is SECRET or stdin == SECRET:
            how = "piped"
        elif type(stdin) is tuple and stdin[0] == "file" and self._is_secret_path(stdin[1], ctx):
            how = "piped"
        else:
            for m in metas:
                if m is not None and m[0] == SECRET:
                    how = "in its arguments"
                    break
            if how is None and prog not in T.SECRET_ECHOERS and args and _SECRET_HINT.search("\x01".join(args)):
                for a in args:
                    if _SECRET_HINT.search(a) and (self._is_secret_path(_operand_path(a), ctx) or (
                            prog in T.UPLOADERS and " " in a and any(  # smbclient -c 'put .env', lftp -c '…'
                                self._is_secret_path(w, ctx) for w in a.split()[:16]))):
                        how = "read"
                        break
        if how is None:
            return out
        if prog in T.NETWORK_SENDERS and how != "read":
            acc.add(H, "shell.secret_send", f"{prog} sends secret file contents ({how}) over the network")
            return out
        if prog in T.UPLOADERS:
            acc.add(H, "shell.secret_send", f"{prog} uploads (or overwrites) a secret file")
            return out
        if prog in T.NETWORK_SENDERS:
            return out  # operands of senders are their own handler's business (ssh -i ~/.ssh/key)
        return SECRET if out is not None else out

    def _is_secret_path(self, f: str, ctx: Ctx) -> bool:
        if not f or MARK in f:
            return False
        cls = self.pclass(f, ctx)
        return cls in (P.SENSITIVE, P.ENV) or P.is_secret_read(f)

    def sends_secret(self, prog: str, f: str, ctx: Ctx, acc: Acc) -> None:
        if f.startswith("@"):
            f = f[1:]
        if not f:
            return
        cls = self.pclass(f, ctx)
        if cls in (P.SENSITIVE, P.ENV) or P.is_secret_read(f):
            acc.add(H, "shell.secret_send", f"{prog} sends a secret file ({_show(f)}) over the network")

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
                self.ex_effects(prog, opt, _ex_effects(val), ctx, acc)
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
                    self.option_command(prog, opt, _unescape(cmd), ctx, acc)
            elif fx == T.FX_MAKEFILE:
                text = None
                if opt in ("--eval", "-E"):
                    text = _unescape(val)
                elif val in ("-", "/dev/stdin", "/proc/self/fd/0"):
                    if type(stdin) is tuple and stdin[0] in ("heredoc", "lit"):
                        acc.add(M, "shell.heredoc", f"makefile read by {prog} from its input")
                        text = stdin[1]
                    elif stdin is not None:
                        acc.add(H, "shell.pipe_exec", f"makefile piped into {prog}")
                elif MARK not in val and P.normalize(val, ctx.cwd) in ctx.written:
                    text = ctx.written[P.normalize(val, ctx.cwd)]
                elif MARK not in val and _downloaded(ctx, P.normalize(val, ctx.cwd)):
                    acc.add(H, "shell.download_exec", f"{prog} runs the downloaded makefile {_show(val)}")
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
                    _scan_code(self, e[2], ctx, acc, e[1])

    def code_var(self, name: str, val: str, ctx: Ctx, acc: Acc) -> None:
        """Variables that make programs run code: a library injected (``LD_PRELOAD``), a start-up file
        (``BASH_ENV``), code options (``NODE_OPTIONS=--require …``), command substitutions in a prompt (``PS4``),
        an exported function (``BASH_FUNC_x%%``)."""
        spec = T.CODE_VARS.get(name)
        if spec is not None:
            words = spec[2]
            if words is None or any(w.startswith(t) or t in w and t in ("/", "~", ".sh")
                                    for w in val.replace("=", " ").split() for t in words):
                acc.add(spec[0], f"shell.code_var.{name}"[:40], f"{name}={_show(val)} {spec[1]}")
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
        elif name in T.CODE_VARS or name in T.PROMPT_VARS or name.startswith("BASH_FUNC_"):
            self.code_var(name, val, ctx, acc)

    # ------------------------------------------------------------ dispatch
    def run_argv(self, argv: list, metas: list, ctx: Ctx, acc: Acc, stdin):
        """Classify one expanded simple command ``argv``; returns what it prints (for pipes)."""
        budget = ctx.budget
        if budget[3] >= MAX_STACK:
            acc.add(M, "shell.too_deep", "commands nested too deep to read")
            return OTHER
        if len(argv) > MAX_ARGS:
            argv, metas = _cap_args(argv, metas, acc)
        budget[3] += 1
        try:
            return self._run_argv(argv, metas, ctx, acc, stdin)
        finally:
            budget[3] -= 1

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
                if _downloaded(ctx, key):
                    acc.add(H, "shell.download_exec", f"runs downloaded code ({_show(w0)})")
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
            self.option_effects(prog, spec, _tar_old_style(args) if prog in _TARS else args, ctx, target, stdin)
        handler = self.handlers.get(prog)
        if handler is None and prog.startswith("mkfs"):
            handler = h_mkfs
        if handler is not None:
            out = handler(self, prog, args, metas[1:], ctx, target, stdin)
        elif prog in self.read_only:
            out = self.read_only_cmd(prog, args, metas[1:], ctx, target, stdin)
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
        if type(stdin) is tuple and stdin[0] == "file" and sender:
            self.sends_secret(prog, stdin[1], ctx, acc)
        if sender and prog not in T.NETWORK_SENDERS and (stdin is SECRET or stdin == SECRET):
            acc.add(H, "shell.secret_send", f"{prog} sends secret contents (piped) over the network")
        if (ctx.secretish or stdin is SECRET or SECRET in _META_OUTS(metas)) and (
                out is not None or prog in T.NETWORK_SENDERS or prog in T.UPLOADERS):
            out = self._secret_flow(prog, args, metas, stdin, ctx, acc, out)
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

    def read_only_cmd(self, prog, args, metas, ctx, acc, stdin):
        if acc.tier < S:
            acc.add(S, "shell.read_only", f"{prog} (read-only)")
        if prog in T.CONTENT_READERS:
            self.read_secret_check(prog, [a for a in args if a and a[0] != "-"], ctx, acc)
            if type(stdin) is tuple and stdin[0] == "file":
                self.read_secret_check(prog, [stdin[1]], ctx, acc)
        if prog == "cat" or prog == "tac":
            files = [a for a in args if a and (a[0] != "-" or a == "-")]
            if (not files or files == ["-"]) and stdin is not None:
                if type(stdin) is tuple and stdin[0] == "heredoc":
                    return ("lit", stdin[1])
                return stdin
            return OTHER
        if prog in ("base64", "base32", "xxd"):
            if any(a in ("-d", "--decode", "-D", "-r", "-revert") or (a.startswith("-") and "d" in a[1:] and
                                                                     not a.startswith("--")) for a in args):
                return DECODED
            return OTHER
        if prog in ("echo", "printf"):
            return h_echo(self, prog, args, metas, ctx, acc, stdin)
        if prog == "printenv":
            return h_printenv(self, prog, args, metas, ctx, acc, stdin)
        if prog == "cd" or prog == "pushd":
            pos = [a for a in args if not a.startswith("-") or a == "-"]
            target = pos[0] if pos else "~"
            if target == "-":
                ctx.cwd = MARK
            else:
                ctx.cwd = P.normalize(target, ctx.cwd) if MARK not in target else MARK
                if len(ctx.cwd) > 1024:  # hostile cd chains: the directory is as good as unknown
                    ctx.cwd = MARK
            return None
        if prog == "popd":
            ctx.cwd = MARK
            return None
        if prog in ("export", "declare", "typeset", "local", "readonly"):
            names = [a for a in args if not a.startswith("-")]
            if not names:
                acc.add(M, "shell.env.dump", f"{prog} prints every variable (secrets) into the agent's context")
                return SECRET
            for a in names:
                if "=" in a:
                    k, v = a.split("=", 1)
                    ctx.env[k] = v
                    self.set_var(k, v, ctx, acc)
            return None
        if prog == "set" and not args:
            acc.add(M, "shell.env.dump", "set prints every variable (secrets) into the agent's context")
            return SECRET
        if prog == "set" and "--" in args:
            pos = args[args.index("--") + 1:]
            for k, v in enumerate(pos[:9]):
                ctx.env[str(k + 1)] = v
            ctx.env["@"] = ctx.env["*"] = " ".join(pos[:64])
            return None
        if prog in ("mapfile", "readarray"):
            return h_mapfile(self, prog, args, metas, ctx, acc, stdin)
        if prog == "read":
            if type(stdin) is tuple and stdin[0] == "file":
                self.read_secret_check(prog, [stdin[1]], ctx, acc)
            names = [a for a in args if not a.startswith("-")]
            line = None
            if type(stdin) is tuple and stdin[0] in ("heredoc", "lit"):
                line = stdin[1].split("\n", 1)[0]
            for k, a in enumerate(names):
                if line is not None and "-a" not in args:
                    if k == len(names) - 1:
                        ctx.env[a] = " ".join(line.split()[k:])
                    else:
                        ws = line.split()
                        ctx.env[a] = ws[k] if k < len(ws) else ""
                else:
                    ctx.env[a] = MARK
                if stdin == SECRET or (type(stdin) is tuple and stdin[0] == "file" and self._is_secret_path(
                        stdin[1], ctx)):
                    ctx.tainted.add(a)
            return None
        if prog == "alias":
            # an alias runs its value later in this shell: the definition counts as the command
            for a in args:
                if "=" in a and not a.startswith("-"):
                    name, val = a.split("=", 1)
                    acc.add(S, "shell.alias", f"alias {name} defined")
                    self.run_text(val, ctx, acc)
                    if len(ctx.aliases) < 64 and len(val) <= MAX_VALUE:
                        ctx.aliases[name] = val
            return None
        if prog == "trap":
            # `trap CMD SIGNAL…` runs CMD later in this shell (on exit, on a signal): it counts as the command
            ops = [a for a in args if a != "--"]
            if len(ops) >= 2 and ops[0] not in ("-", "-p", "-l", "-P") and not ops[0].isdigit() and ops[0].strip():
                acc.add(S, "shell.trap", f"trap: a command run on {_show(ops[1])}")
                self.run_text(ops[0], ctx.child(), acc)
            return None
        if prog == "unset":
            for a in args:
                ctx.env.pop(a, None)
            return None
        return OTHER


_LOOSE_PAIRS = (("'", ""), ('"', ""), ("`", ";"), ("(", ";"), (")", ";"), ("{", " "), ("}", " "), ("\\", ""),
                ("$", " "))


#: operations whose output is a secret or a credential (reading it brings it into the agent's context)
_CLOUD_SECRET_OPS = frozenset(("get-secret-value", "decrypt", "get-login-password", "get-session-token",
                               "get-access-token", "print-access-token", "print-identity-token",
                               "get-authorization-token", "assume-role", "get-federation-token",
                               "get-login", "generate-data-key", "get-credentials"))


#: text that may name a secret file or a secret-reading command (a cheap test before the data flow is followed)
_SECRET_HINT = re.compile(r"\.(?:" + "|".join(sorted({re.escape(
    f.split("/", 1)[0] if not f.startswith(".config/") else f)[2:] for f in T.SENSITIVE_HOME_FILES} | {
    re.escape(d[1:]) for d in T.SENSITIVE_HOME_DIRS} | {"env"})) + r")|shadow|sudoers|environ|private|secrets|letsencrypt|pki|wireguard|ssh_host|\.key\b|" + "|".join(sorted({
    re.escape(w) for ws in T.SECRET_PRINTERS.values() for w in ws if len(w) > 4})) + "|secret|with-decryption|" + "|".join(
    sorted(map(re.escape, _CLOUD_SECRET_OPS))))


def _META_OUTS(metas) -> set:
    """What the substitutions in a command's words printed (SECRET when one printed secrets: ``$(env)``)."""
    return {m[0] for m in metas if m is not None and type(m[0]) is str}


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


def _operand_path(a: str) -> str:
    """The path in an operand: ``@file``, ``name=@file``, ``--opt=file``, ``if=file``."""
    if "=" in a:
        a = a.rsplit("=", 1)[1]
    return a[1:] if a.startswith(("@", "<")) else a


def _loose(text: str) -> str:
    """Quotes and brackets removed (str.replace runs in C; a translate table with deletions does not)."""
    for a, b in _LOOSE_PAIRS:
        if a in text:
            text = text.replace(a, b)
    return text

_WRITE_TIERS = {
    P.ROOT: H, P.SYSROOT: H, P.SYSTEM: H, P.SENSITIVE: H, P.ENV: M, P.BLOCKDEV: C, P.SYSRQ: C, P.NULLDEV: S,
    P.HOME: L, P.WORKSPACE: L, P.OTHER: L, P.UNKNOWN: L, P.CONTAINER: L,
}


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


def h_mapfile(r, prog, args, metas, ctx, acc, stdin):
    """``mapfile``/``readarray [-C callback] [ARRAY] < file``: lines of the input into an array (secret when the
    input is); the callback runs as a command for every few lines."""
    o = getopts(args, short_arg=frozenset("dnOsucC"))
    for cb in o.vals.get("C", ()):
        r.run_text(cb, ctx, acc)
    name = o.pos[-1] if o.pos else "MAPFILE"
    ctx.env[name] = MARK
    if type(stdin) is tuple and stdin[0] == "file":
        r.read_secret_check(prog, [stdin[1]], ctx, acc)
        if r._is_secret_path(stdin[1], ctx):
            ctx.tainted.add(name)
    elif stdin == SECRET:
        ctx.tainted.add(name)
    return None


def h_rm(r, prog, args, metas, ctx, acc, stdin):
    o = getopts(args)
    if "--no-preserve-root" in o.longs:
        acc.add(C, "shell.rm.no_preserve_root", "rm --no-preserve-root (allows deleting /)")
    rec = 1 if (o.flags & {"r", "R"} or "--recursive" in o.longs or prog in T.RECURSIVE_DELETERS) else 0
    if prog in ("unlink", "rmdir"):
        rec = 0
    if not rec and ctx.implied:
        rec = ctx.implied
    if not o.pos:
        acc.add(L, "shell.rm", f"{prog} with no target")
    for t in o.pos:
        r.delete_path(t, rec, ctx, acc)
    return OTHER


_FIND_NONFILTERS = frozenset(("-type", "-maxdepth", "-mindepth", "-xdev", "-mount", "-depth", "-follow", "-print",
                              "-print0", "-d", "-noleaf", "-ignore_readdir_race", "-daystart", "-L", "-H", "-P",
                              "-xtype", "(", ")", "!", "-not", "-a", "-and", "-o", "-or", ","))
_FIND_WITH_ARG = frozenset(("-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex",
                            "-type", "-xtype", "-maxdepth", "-mindepth", "-mtime", "-mmin", "-atime", "-amin",
                            "-ctime", "-cmin", "-newer", "-size", "-user", "-group", "-perm", "-uid", "-gid",
                            "-links", "-inum", "-samefile", "-used", "-fstype", "-lname", "-ilname", "-newermt",
                            "-newerct", "-newerat", "-regextype", "-context", "-printf", "-fprint", "-fprint0",
                            "-fls", "-fprintf"))


def h_find(r, prog, args, metas, ctx, acc, stdin):
    i, n = 0, len(args)
    while i < n and args[i] in ("-L", "-H", "-P", "-O0", "-O1", "-O2", "-O3"):
        i += 1
    starts = []
    while i < n and not (args[i].startswith("-") or args[i] in ("(", "!", ")")):
        starts.append(args[i])
        i += 1
    if not starts:
        starts = ["."]
    filtered = False
    acted = False
    while i < n:
        a = args[i]
        if a == "-delete":
            acted = True
            for s in starts:
                r.delete_path(s, 2 if filtered else 1, ctx, acc)
            i += 1
            continue
        if a in ("-exec", "-execdir", "-ok", "-okdir"):
            j = i + 1
            cmd = []
            while j < n and args[j] not in (";", "+", "\\;"):
                cmd.append(args[j])
                j += 1
            i = j + 1
            if not cmd:
                continue
            acted = True
            for s in starts[:4]:
                argv = [x.replace("{}", s) if "{}" in x else x for x in cmd]
                if not any("{}" in x for x in cmd):
                    argv = argv + [s]
                c = ctx.child()
                c.implied = 2 if filtered else 1
                r.run_argv(argv, [None] * len(argv), c, acc, None)
            continue
        if a in ("-fprint", "-fprint0", "-fls", "-fprintf") and i + 1 < n:
            r.write_path(args[i + 1], ctx, acc, "find writes")
            acted = True
        if a not in _FIND_NONFILTERS:
            filtered = True
        i += 2 if a in _FIND_WITH_ARG else 1
    if not acted:
        acc.add(S, "shell.find", "find (lists files)")
    return OTHER


def _mode_world_writable(mode: str) -> bool:
    if mode.isdigit():
        return len(mode) >= 3 and int(mode[-1]) & 2 == 2
    for clause in mode.split(","):
        k = 0
        while k < len(clause) and clause[k] in "ugoa":
            k += 1
        who = clause[:k]
        rest = clause[k:]
        for op in "+=":
            if op in rest:
                perms = rest.split(op, 1)[1]
                if perms.isdigit() and len(perms) <= 4 and int(perms[-1]) & 2 == 2:
                    return True  # `=777`, `+0666`: an octal mode after the operator
                if "w" in perms and ("o" in who or "a" in who):
                    return True
    return False


def _mode_special_bits(mode: str) -> list:
    """The special bits (``setuid``, ``setgid``) a chmod mode sets: ``4755``, ``u+s``, ``+s``, ``=6755``."""
    bits: list = []
    for clause in mode.split(","):
        k = 0
        while k < len(clause) and clause[k] in "ugoa":
            k += 1
        who, rest = clause[:k], clause[k:]
        if rest.isdigit():
            digits = rest
        else:
            digits = ""
            for op in "+=":
                if op in rest:
                    perms = rest.split(op, 1)[1]
                    if perms.isdigit():
                        digits = perms
                    elif "s" in perms:
                        if not who or "u" in who or "a" in who:
                            bits.append("setuid")
                        if not who or "g" in who or "a" in who:
                            bits.append("setgid")
        if len(digits) >= 4 and digits[-4] in "01234567":
            d = int(digits[-4])
            if d & 4:
                bits.append("setuid")
            if d & 2:
                bits.append("setgid")
    return bits


def h_chmod(r, prog, args, metas, ctx, acc, stdin):
    o = getopts(args)
    # a symbolic mode like -w or -x is read as flags by getopts: recover it
    pos = list(o.pos)
    rec = bool(o.flags & {"R"}) or "--recursive" in o.longs
    if "--reference" in o.longs:
        mode = ""
        targets = pos
    else:
        if not pos:
            for a in args:
                if a.startswith("-") and set(a[1:]) <= set("rwxXst") and a != "-R":
                    pos.insert(0, a)
                    break
        mode = pos[0] if pos else ""
        targets = pos[1:]
    if _mode_world_writable(mode):
        acc.add(H, "shell.chmod.world_writable", f"chmod {mode} makes files writable by everyone")
    for bit in _mode_special_bits(mode):
        acc.add(T.CHMOD_SPECIAL_BITS[bit], f"shell.chmod.{bit}",
                f"chmod {mode} sets the {bit} bit (the program runs as its {'owner' if bit == 'setuid' else 'group'})")
    _perm_targets(r, prog, rec, targets, ctx, acc)
    return OTHER


def _perm_targets(r, prog, rec, targets, ctx, acc):
    for t in targets:
        cls = r.pclass(t, ctx)
        if rec and cls in (P.ROOT, P.SYSROOT):
            acc.add(C, f"shell.{prog}.recursive.system", f"{prog} -R on {_show(t)} ({P.label(cls)})")
        elif cls in (P.SYSTEM, P.SYSROOT, P.ROOT):
            acc.add(H, f"shell.{prog}.system", f"{prog} inside a system directory ({_show(t)})")
        elif rec and cls == P.HOME:
            acc.add(H, f"shell.{prog}.recursive.home", f"{prog} -R on a home directory ({_show(t)})")
        else:
            acc.add(L, f"shell.{prog}", f"{prog} on {_show(t)} ({P.label(cls)})")
    if not targets:
        acc.add(L, f"shell.{prog}", prog)


def h_chown(r, prog, args, metas, ctx, acc, stdin):
    o = getopts(args)
    rec = bool(o.flags & {"R"}) or "--recursive" in o.longs
    pos = o.pos
    if "--reference" in o.longs:
        owner, targets = "", pos
    else:
        owner, targets = (pos[0] if pos else ""), pos[1:]
    if prog == "chown":
        user = owner.split(":", 1)[0].split(".", 1)[0]
        if user in ("root", "0"):
            acc.add(H, "shell.chown.root", f"chown to root ({owner})")
    _perm_targets(r, prog, rec, targets, ctx, acc)
    return OTHER


def h_dd(r, prog, args, metas, ctx, acc, stdin):
    of = None
    for a in args:
        if a.startswith("of="):
            of = a[3:]
    if of is None:
        acc.add(L, "shell.dd", "dd to standard output")
        return OTHER
    cls = r.pclass(of, ctx)
    if cls == P.BLOCKDEV:
        acc.add(C, "shell.dd.block_device", f"dd onto the block device {_show(of)} (overwrites the disk)")
    elif cls == P.NULLDEV:
        acc.add(L, "shell.dd.null", f"dd to {of}")
    else:
        r.write_path(of, ctx, acc, "dd writes")
    return OTHER


def _pathlike(a: str) -> bool:
    return a.startswith(("/", ".", "~")) or "/" in a or MARK in a or "." in a


def h_mkfs(r, prog, args, metas, ctx, acc, stdin):
    cands = [a for a in args if not a.startswith("-") and _pathlike(a)]
    classes = [r.pclass(a, ctx) for a in cands]
    if cands and all(c in (P.WORKSPACE, P.OTHER, P.HOME) for c in classes) and not any(
            a.startswith("/dev/") for a in cands):
        acc.add(L, "shell.mkfs.file", f"{prog} on a regular file ({_show(cands[-1])})")
    else:
        tgt = cands[-1] if cands else "a device"
        acc.add(C, "shell.mkfs", f"{prog} formats {_show(tgt)} (erases the disk)")
    return OTHER


def h_wipefs(r, prog, args, metas, ctx, acc, stdin):
    o = getopts(args, frozenset("ot"), frozenset(("--offset", "--types", "--backup")))
    if "a" in o.flags or "--all" in o.longs or "o" in o.flags or "--offset" in o.longs:
        if o.pos and all(r.pclass(a, ctx) in (P.WORKSPACE, P.OTHER) and not a.startswith("/dev/") for a in o.pos):
            acc.add(L, "shell.wipefs.file", "wipefs on a regular file")
        else:
            acc.add(C, "shell.wipefs", "wipefs -a erases file system signatures")
    else:
        acc.add(S, "shell.wipefs.list", "wipefs (lists signatures)")
    return OTHER


def h_sgdisk(r, prog, args, metas, ctx, acc, stdin):
    o = getopts(args)
    if o.flags & {"Z", "z", "o"} or o.any("--zap-all", "--zap", "--clear"):
        acc.add(C, "shell.sgdisk.zap", "sgdisk erases the partition table")
    elif o.flags & {"p", "v", "i"} or o.any("--print", "--verify", "--info"):
        acc.add(S, "shell.sgdisk.print", "sgdisk (prints)")
    else:
        acc.add(H, "shell.partition", "partition table change")
    return OTHER


def _parted_command(word: str):
    """The parted command a word names (exactly, or as a prefix of 3+ letters of one command), else None."""
    w = word.lower()
    if w in T.PARTED_COMMANDS:
        return w
    if len(w) < 3:
        return None
    hits = [c for c in T.PARTED_COMMANDS if c.startswith(w)]
    return hits[0] if len(hits) == 1 else None


def h_parted(r, prog, args, metas, ctx, acc, stdin):
    """parted [OPTIONS] [DEVICE [COMMAND [ARGS]…]]: options (``-s``, ``-a optimal``) never hide the commands;
    the highest command named decides."""
    pos: list = []
    listing = False
    i, n = 0, len(args)
    while i < n:
        a = args[i]
        if a == "--":
            pos.extend(args[i + 1:])
            break
        if a in T.PARTED_OPTS_WITH_ARG:
            i += 2
            continue
        if a in T.PARTED_LIST_OPTS:
            listing = True
        elif not (a.startswith("-") and len(a) > 1 and not a[1].isdigit()):
            pos.append(a)
        i += 1
    best, word = None, ""
    for k, a in enumerate(pos):
        cmd = _parted_command(a)
        if cmd is None or (k == 0 and a.startswith("/")):
            continue
        t = T.PARTED_COMMANDS[cmd]
        if best is None or t > best:
            best, word = t, cmd
    dev = pos[0] if pos and _parted_command(pos[0]) is None else None
    if best is not None and best >= H and dev and not dev.startswith("/dev/") \
            and r.pclass(dev, ctx) in (P.WORKSPACE, P.OTHER):
        acc.add(L, "shell.partition.file", f"parted {word} on a regular file ({_show(dev)})")
    elif best is None:
        if listing:
            acc.add(S, "shell.partition.list", f"{prog} (lists partitions)")
        else:
            acc.add(H, "shell.partition", f"{prog}: partition table change")
    elif best >= C:
        acc.add(C, "shell.partition.erase", f"parted {word} erases partitions")
    elif best >= H:
        acc.add(H, "shell.partition", f"parted {word}: partition table change")
    else:
        acc.add(S, "shell.partition.list", f"{prog} (lists partitions)")
    return OTHER


def h_partition(r, prog, args, metas, ctx, acc, stdin):
    if any(a in ("-l", "--list", "-s", "print", "--print") for a in args) or (prog == "parted" and "print" in args):
        acc.add(S, "shell.partition.list", f"{prog} (lists partitions)")
    elif prog == "parted" and any(a in ("mklabel", "rm") for a in args):
        acc.add(C, "shell.partition.erase", "parted erases partitions")
    else:
        acc.add(H, "shell.partition", f"{prog}: partition table change")
    return OTHER


def h_blkdiscard(r, prog, args, metas, ctx, acc, stdin):
    acc.add(C, "shell.blkdiscard", "blkdiscard erases the device")
    return OTHER


def h_disk_erase(r, prog, args, metas, ctx, acc, stdin):
    """Disk tools that erase a device with some options or subcommands (table ``DISK_ERASERS``):
    ``hdparm --security-erase``, ``nvme format``, ``badblocks -w``, ``cryptsetup luksFormat`` …"""
    with_arg, uses = T.DISK_ERASERS[prog]
    o = getopts(args, frozenset(with_arg))
    best = None
    for use, tier in uses.items():
        if use == "":
            hit = True
        elif use.startswith("--"):
            hit = use in o.longs
        elif use.startswith("-"):
            hit = use[1] in o.flags
        else:
            hit = bool(o.pos) and o.pos[0] == use
        if hit and (best is None or tier > best[1]):
            best = (use, tier)
    if best is None:
        acc.add(L, "shell.program", f"{prog} (not known to be read-only)")
        return OTHER
    use, tier = best
    what = f"{prog} {use}".rstrip()
    if tier >= C:
        acc.add(tier, "shell.disk_erase", f"{what} erases a disk")
    else:
        acc.add(tier, "shell.disk_erase", f"{what} removes or damages a disk's data or mappings")
    return OTHER


def h_shred(r, prog, args, metas, ctx, acc, stdin):
    o = getopts(args, frozenset("ns"), frozenset(("--iterations", "--size", "--random-source")))
    for t in o.pos:
        cls = r.pclass(t, ctx)
        if cls == P.BLOCKDEV:
            acc.add(C, "shell.shred.device", f"shred overwrites the block device {_show(t)}")
        else:
            r.delete_path(t, 0, ctx, acc, "shred")
    if not o.pos:
        acc.add(L, "shell.shred", "shred")
    return OTHER


def h_power(r, prog, args, metas, ctx, acc, stdin):
    if prog == "shutdown" and any(a in ("-c", "--cancel", "-k") for a in args):
        acc.add(L, "shell.power.cancel", "shutdown -c (cancels a pending shutdown)")
    else:
        acc.add(C, f"shell.power.{prog}", f"{prog} of the machine")
    return OTHER


def h_loginctl(r, prog, args, metas, ctx, acc, stdin):
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


def _git_command_value(key: str, val: str):
    """The shell command a git config value runs, or None (``core.sshCommand``, ``alias.x=!cmd`` …)."""
    k = key.lower()
    if k.startswith("alias.") or k == "credential.helper" or k.startswith("credential."):
        return val[1:] if val.startswith("!") else None
    if k in T.GIT_COMMAND_KEYS or k.startswith("pager.") or k.endswith(T.GIT_COMMAND_KEY_SUFFIXES):
        return val
    return None


def _git_config_commands(r, pairs, ctx, acc, floor):
    for key, val in pairs:
        cmd = _git_command_value(key, val)
        if cmd and cmd.strip():
            acc.add(floor, "shell.git.command_config", f"git config {key} runs a command")
            r.run_text(cmd, ctx.child(), acc)


_GIT_ATTACHED_ONLY = frozenset(("-O", "--open-files-in-pager"))  # optional values: only `-Ocmd`, `--x=cmd`


def _git_effects(r, sub, rest, metas, ctx, acc) -> None:
    """Options of a git subcommand that write a file or run a command (``git log --output=F``, ``git rebase -x
    CMD``), subcommands that discard (``git reflog expire``), and commands given as operands
    (``git submodule foreach CMD``, ``git bisect run CMD``)."""
    fxmap = T.GIT_OPTION_EFFECTS.get(sub)
    words = [a for a in rest if not a.startswith("-")]
    if fxmap:
        k, n, seen = 0, len(rest), 0
        while k < n and seen < MAX_FX:
            a = rest[k]
            k += 1
            if a == "--":
                break
            if not a.startswith("-"):
                continue
            key, eq, val = a.partition("=") if a.startswith("--") else (a[:2], "", a[2:])
            fx = fxmap.get(key)
            if fx is None:
                continue
            seen += 1
            if not eq and not val:
                if key in _GIT_ATTACHED_ONLY or k >= n:
                    continue
                val = rest[k]
                k += 1
            if fx == T.FX_WRITE:
                r.write_path(val, ctx, acc, f"git {sub} {key} writes")
            else:
                r.option_command("git " + sub, key, val, ctx, acc)
    if words:
        fx = T.GIT_SUBCOMMAND_EFFECTS.get((sub, words[0]))
        if fx is not None:
            acc.add(fx[0], f"shell.git.{sub}.{words[0]}"[:40], f"git {sub} {words[0]} {fx[1]}")
        how = T.GIT_RUNS.get((sub, words[0]))
        if how is not None:
            cmd = rest[rest.index(words[0]) + 1:]
            while cmd and cmd[0].startswith("-"):
                cmd = cmd[1:]
            if cmd:
                acc.add(L, f"shell.git.{sub}", f"git {sub} {words[0]} runs a command")
                if how == "text":
                    r.option_command(f"git {sub}", words[0], " ".join(cmd), ctx, acc)
                else:
                    r.run_argv(cmd, [None] * len(cmd), ctx.child(), acc, None)


def h_git(r, prog, args, metas, ctx, acc, stdin, branch: bool = True):
    i, n = 0, len(args)
    readings = 0
    while i < n and args[i].startswith("-"):
        a = args[i]
        if a == "-c" and i + 1 < n and "=" in args[i + 1]:
            _git_config_commands(r, [args[i + 1].split("=", 1)], ctx, acc, L)
        if a in T.GIT_GLOBAL_WITH_ARG:
            i += 2
            continue
        if (branch and a not in T.GIT_GLOBAL_FLAGS and "=" not in a and a != "--" and i + 1 < n
                and not args[i + 1].startswith("-")):
            # an unknown option may take the next word as its value: the command after it counts too
            readings += 1
            if readings > T.MAX_OPTION_READINGS:
                acc.add(M, "shell.options.unknown", "git: too many unknown options before its subcommand")
            else:
                h_git(r, prog, args[i + 2:], metas[i + 2:], ctx, acc, stdin, branch=False)
        i += 1
    if i >= n:
        acc.add(S, "shell.git", "git")
        return OTHER
    sub, rest = args[i], args[i + 1:]
    if sub == "config":
        cpos = [a for a in rest if not a.startswith("-")]
        if len(cpos) >= 2:
            _git_config_commands(r, [(cpos[0], cpos[1])] if cpos[0] != "set" else [(cpos[1], " ".join(cpos[2:3]))],
                                 ctx, acc, M)
    for k, a in enumerate(rest):
        # commands run for the transport: --upload-pack/-u, --receive-pack, --exec, ext:: URLs
        if a.startswith(("--upload-pack=", "--receive-pack=", "--exec=")):
            acc.add(M, "shell.git.command_option", f"git {sub} runs a command for the transport")
            r.run_text(a.split("=", 1)[1], ctx.child(), acc)
        elif a in ("--upload-pack", "--receive-pack", "--exec") or (a == "-u" and sub in (
                "clone", "fetch", "ls-remote", "pull")):
            if k + 1 < len(rest):
                acc.add(M, "shell.git.command_option", f"git {sub} runs a command for the transport")
                r.run_text(rest[k + 1], ctx.child(), acc)
        elif a.startswith("ext::"):
            acc.add(H, "shell.git.ext", "git ext:: transport runs a command")
            r.run_text(a[5:].replace("% ", " ").replace("%%", "%"), ctx.child(), acc)
    _git_effects(r, sub, rest, metas, ctx, acc)
    o = getopts(rest, frozenset("mCcFtuoX") if sub == "commit" else frozenset(),
                frozenset(("--sort", "--format", "--contains", "--merged", "--no-merged", "--points-at",
                           "--set-upstream-to", "--push-option", "--repo", "--receive-pack", "--exec")))
    if sub in T.GIT_READ:
        acc.add(S, "shell.git.read", f"git {sub} (read-only)")
        # a file as it was in a commit (git show HEAD:.env, git cat-file -p main:.env) is that file read
        if sub in ("show", "cat-file"):
            r.read_secret_check(f"git {sub}", [a.split(":", 1)[1] for a in rest if ":" in a and a[0] != "-"],
                                ctx, acc)
        if sub in T.GIT_CONTENT_READS or (sub in ("log", "whatchanged") and (o.flags & {"p", "L"} or o.any(
                "--patch", "-p"))):
            # the file's contents (a diff, blame, grep of .env) come into the agent's context
            r.read_secret_check(f"git {sub}", [a for a in o.pos if a and a[0] != "-"], ctx, acc)
        return OTHER
    if sub == "add" or (sub == "commit" and o.pos):
        for f in o.pos:
            if r._is_secret_path(f, ctx):
                acc.add(M, "shell.git.add.secret", f"git {sub} stages {_show(f)} (a secret file) to be pushed")
                ctx.flags.add("staged_secret")
    if sub == "branch":
        modify = o.flags & {"d", "D", "m", "M", "c", "C", "u", "f"} or o.any(
            "--delete", "--move", "--copy", "--set-upstream-to", "--unset-upstream", "--edit-description",
            "--force", "--track")
        listing = o.flags & {"l", "a", "r", "v"} or o.any("--list", "--all", "--remotes", "--contains", "--merged",
                                                         "--no-merged", "--points-at", "--sort", "--format",
                                                         "--show-current", "--verbose")
        if not modify and (not o.pos or listing):
            acc.add(S, "shell.git.read", "git branch (lists branches)")
        else:
            acc.add(L, "shell.git.branch", "git branch change")
        return OTHER
    if sub in ("tag", "remote", "stash", "config", "worktree", "notes", "submodule"):
        listing_words = {"tag": (), "remote": ("show", "get-url"), "stash": ("list", "show"),
                         "config": ("get", "list"), "worktree": ("list",), "notes": ("list", "show"),
                         "submodule": ("status", "summary")}[sub]
        if (not o.pos and sub in ("tag", "remote", "worktree", "notes", "submodule") and not o.flags - {"l", "v", "n"}
                and not o.longs.keys() - {"--list", "--verbose"}) or (o.pos and o.pos[0] in listing_words) or (
                sub == "config" and (o.any("--get", "--list", "--get-all", "--get-regexp", "-l") or
                                     len(o.pos) == 1)) or (sub == "tag" and o.flags & {"l"}):
            acc.add(S, "shell.git.read", f"git {sub} (lists)")
        else:
            acc.add(L, f"shell.git.{sub}", f"git {sub}")
        return OTHER
    if sub == "push":
        if "n" in o.flags or "--dry-run" in o.longs:
            acc.add(L, "shell.git.push.dry_run", "git push --dry-run")
            return OTHER
        force = "f" in o.flags or o.any("--force", "--force-with-lease", "--force-if-includes", "--mirror") or any(
            p.startswith("+") for p in o.pos)
        if force:
            acc.add(H, "shell.git.push.force", "force push (rewrites remote history)")
        remote = o.pos[0] if o.pos else ""
        if remote in T.PROD_REMOTES:
            acc.add(H, "shell.git.push.production", f"git push to the production remote {remote}")
        # deleting remote branches: `-d`/`--delete REF…`, or a refspec with an empty source (`:REF`)
        delete_all = "d" in o.flags or "--delete" in o.longs
        for ref in o.pos[1:]:
            if delete_all or (ref.startswith(":") and len(ref) > 1):
                name = ref.split(":", 1)[-1] if ":" in ref else ref
                name = name.removeprefix("refs/heads/").removeprefix("refs/tags/")
                if name in T.PROTECTED_BRANCHES or MARK in name:
                    acc.add(H, "shell.git.push.delete_main", f"deletes the branch {_show(name)} on the remote "
                                                             f"{_show(remote)}")
                else:
                    acc.add(M, "shell.git.push.delete", f"deletes the branch {_show(name)} on the remote "
                                                        f"{_show(remote)}")
        if "staged_secret" in ctx.flags:
            acc.add(H, "shell.secret_send", "git push sends a secret file staged just before")
        acc.add(M, "shell.git.push", "git push")
        return OTHER
    if sub == "reset":
        if "--hard" in o.longs:
            acc.add(H, "shell.git.reset.hard", "git reset --hard (discards work)")
        else:
            acc.add(L, "shell.git.reset", "git reset")
        return OTHER
    if sub == "clean":
        if o.flags & {"x", "X"}:
            acc.add(M, "shell.git.clean.ignored", "git clean -x/-X (removes ignored files such as .env)")
        elif "n" in o.flags or "--dry-run" in o.longs:
            acc.add(S, "shell.git.clean.dry_run", "git clean -n (lists)")
        else:
            acc.add(L, "shell.git.clean", "git clean")
        return OTHER
    if sub in ("send-email", "request-pull"):
        acc.add(M, "shell.git.email", f"git {sub}")
        return OTHER
    if sub == "help":
        acc.add(S, "shell.git.read", "git help")
        return OTHER
    acc.add(L, f"shell.git.{sub}"[:40], f"git {sub}")
    return OTHER


def h_gh(r, prog, args, metas, ctx, acc, stdin):
    o = getopts(args, frozenset("XfFRHqtpbBlmRaAsrw"), frozenset(("--method", "--field", "--raw-field", "--input",
                                                                    "--repo", "--title", "--body", "--jq",
                                                                    "--template", "--header", "--base", "--head")))
    pos = o.pos
    group = pos[0] if pos else ""
    verb = pos[1] if len(pos) > 1 else ""
    if group == "api":
        method = (_first(o, "X", "--method") or "").upper()
        if not method:
            method = "POST" if (o.flags & {"f", "F"} or o.any("--field", "--raw-field", "--input")) else "GET"
        t = T.HTTP_METHOD_TIERS.get(method, M)
        acc.add(t, f"shell.http.{method.lower()}", f"{prog} api {method} request")
        return DOWNLOAD
    word = _secret_printed(prog, args)
    if word is not None:
        return _secret_read(prog, word, acc)
    if (group, verb) in (("repo", "delete"), ("release", "delete")) or verb == "delete":
        acc.add(H, "shell.gh.delete", f"{prog} {group} {verb}")
    elif (group, verb) == ("release", "create"):
        acc.add(H, "shell.gh.release", f"{prog} release create (publishes a release)")
    elif group in T.FORGE_SECRET_GROUPS and verb in ("set", "delete", "remove"):
        acc.add(H, "shell.gh.secret", f"{prog} {group} {verb} (CI secrets and variables)")
    elif verb in ("list", "view", "status", "diff", "checks", "ls") or group in ("browse", "search", "status",
                                                                                "help", "version", "completion"):
        acc.add(S, "shell.gh.read", f"{prog} {group} {verb}".strip())
    elif group in ("auth", "config", "alias", "extension", "codespace"):
        acc.add(L, "shell.gh", f"{prog} {group}")
    else:
        acc.add(M, "shell.gh.write", f"{prog} {group} {verb}".strip())
    return OTHER


def h_docker(r, prog, args, metas, ctx, acc, stdin):
    i, n = 0, len(args)
    while i < n and args[i].startswith("-"):
        i += 2 if args[i] in T.DOCKER_GLOBAL_WITH_ARG else 1
    if prog in ("docker-compose", "podman-compose"):
        return _compose(r, args[i:], ctx, acc)
    if i >= n:
        acc.add(L, "shell.docker", prog)
        return OTHER
    sub, rest = args[i], args[i + 1:]
    if sub == "compose":
        # (compose's own options come before its subcommand: every reading of them counts)
        for rd, _ in _global_readings(rest, [None] * len(rest), T.GLOBAL_OPTS["docker-compose"], prog, acc):
            _compose(r, rd, ctx, acc)
        return OTHER
    obj = None
    if sub in ("container", "image", "volume", "network", "system", "builder", "buildx", "context", "plugin",
               "secret", "config", "node", "service", "stack", "swarm", "manifest", "trust"):
        obj = sub
        k = 0
        while k < len(rest) and rest[k].startswith("-"):
            k += 1
        sub, rest = (rest[k], rest[k + 1:]) if k < len(rest) else ("", [])
    if obj == "container" and sub == "ls":
        sub = "ps"
    if sub == "inspect" and any(w in a for a in rest for w in T.DOCKER_ENV_FORMATS):
        acc.add(M, "shell.secret_read", f"{prog} inspect prints a container's environment (secrets) into the "
                                        "agent's context")
        return SECRET
    if sub in T.DOCKER_READ or (obj and sub in ("ls", "inspect", "df", "history", "list")):
        acc.add(S, "shell.docker.read", f"{prog} {obj + ' ' if obj else ''}{sub} (read-only)")
        return OTHER
    if obj == "volume" and sub in ("rm", "remove", "prune"):
        acc.add(H, "shell.docker.volume_rm", f"{prog} volume {sub} (deletes data volumes)")
        return OTHER
    if obj == "system" and sub == "prune":
        acc.add(H, "shell.docker.system_prune", f"{prog} system prune (deletes containers, images, volumes)")
        return OTHER
    if sub == "push" or (obj == "image" and sub == "push"):
        acc.add(H, "shell.publish", f"{prog} push (publishes an image to a registry)")
        return OTHER
    if sub in ("build", "bake") and obj in (None, "buildx", "image", "builder"):
        bo = getopts(rest, frozenset("otfc"), frozenset(("--output", "--tag", "--file", "--set", "--platform")))
        outs = list(bo.vals.get("o", ())) + [v for v in (bo.long("--output"),) if isinstance(v, str)]
        if any(a in T.BUILD_PUSH_OPTIONS for a in rest) or any(
                w in v for v in outs for w in T.BUILD_PUSH_OUTPUTS):
            acc.add(H, "shell.publish", f"{prog} {sub} --push (publishes an image to a registry)")
            return OTHER
    if sub in ("run", "create") and obj in (None, "container"):
        return _docker_run(r, prog, rest, ctx, acc)
    if sub == "exec" and obj in (None, "container"):
        o = getopts(rest, frozenset("euwd"), frozenset(("--env", "--user", "--workdir", "--env-file",
                                                        "--detach-keys")), stop_at_pos=True)
        acc.add(M, "shell.docker.exec", f"{prog} exec (runs a command in a container)")
        if "--privileged" in o.longs:
            acc.add(H, "shell.docker.privileged", f"{prog} exec --privileged")
        if len(o.pos) > 1:
            c = ctx.child(deeper=True)
            c.cwd = None
            r.run_argv(o.pos[1:], [None] * (len(o.pos) - 1), c, acc, stdin)
        return OTHER
    if sub in ("rm", "remove") and obj in (None, "container"):
        o = getopts(rest)
        if "f" in o.flags or "--force" in o.longs:
            acc.add(M, "shell.docker.rm_force", f"{prog} rm -f (stops and removes a running container)")
        else:
            acc.add(L, "shell.docker.rm", f"{prog} rm")
        return OTHER
    if obj == "image" and sub == "prune":
        acc.add(M, "shell.docker.prune", f"{prog} image prune")
        return OTHER
    if sub == "prune":
        acc.add(M, "shell.docker.prune", f"{prog} {obj} prune")
        return OTHER
    t = T.DOCKER_TIERS.get(sub, L)
    if obj in ("volume", "network", "image", "builder", "buildx", "context", "manifest", "trust") and t > L:
        t = L
    if obj in ("secret", "swarm"):
        t = H
    acc.add(t, f"shell.docker.{sub}"[:40], f"{prog} {obj + ' ' if obj else ''}{sub}")
    return OTHER


_DOCKER_RUN_SHORT_ARG = frozenset("vewpuhlmcaI")
_DOCKER_RUN_LONG_ARG = frozenset((
    "--volume", "--mount", "--env", "--env-file", "--workdir", "--publish", "--name", "--user", "--network",
    "--net", "--entrypoint", "--hostname", "--label", "--platform", "--pid", "--ipc", "--cap-add", "--cap-drop",
    "--device", "--restart", "--memory", "--cpus", "--add-host", "--dns", "--log-driver", "--log-opt",
    "--security-opt", "--tmpfs", "--ulimit", "--shm-size", "--gpus", "--runtime", "--stop-signal", "--health-cmd",
    "--cidfile", "--attach", "--link", "--expose", "--label-file", "--volumes-from", "--group-add", "--userns",
    "--uts", "--cgroupns", "--mac-address", "--ip", "--ip6", "--isolation", "--pull", "--storage-opt",
    "--sysctl", "--stop-timeout", "--health-interval", "--health-retries", "--health-timeout", "--memory-swap",
    "--cpu-shares", "--cpuset-cpus", "--blkio-weight", "--oom-score-adj", "--detach-keys", "--domainname",
    "--cgroup-parent", "--init-path", "--kernel-memory", "--memory-reservation", "--pids-limit", "--publish-all_",
))


def _docker_run(r, prog, rest, ctx, acc):
    i, n = 0, len(rest)
    mounts = []  # (container path, host path)
    privileged = False
    entry = None
    workdir = None
    while i < n:
        a = rest[i]
        if a == "--":
            i += 1
            break
        if not a.startswith("-") or a == "-":
            break
        val = None
        if a.startswith("--"):
            if "=" in a:
                name, val = a.split("=", 1)
            else:
                name = a
                if a in _DOCKER_RUN_LONG_ARG and i + 1 < n:
                    val = rest[i + 1]
                    i += 1
        else:
            name = a[:2]
            last = a[-1]
            if last in _DOCKER_RUN_SHORT_ARG:
                name = "-" + last
                if len(a) > 2 and a[1] == last:
                    val = a[2:]
                elif i + 1 < n:
                    val = rest[i + 1]
                    i += 1
        i += 1
        if name == "--privileged":
            privileged = val not in ("false", "0")
        elif name in ("-v", "--volume") and val:
            parts = val.split(":")
            if len(parts) >= 2 and (parts[0][:1] in ("/", "~", ".", MARK) or MARK in parts[0]):
                mounts.append((parts[1], parts[0]))
        elif name == "--mount" and val:
            kv = dict(x.split("=", 1) for x in val.split(",") if "=" in x)
            src = kv.get("source") or kv.get("src")
            dst = kv.get("target") or kv.get("destination") or kv.get("dst")
            if src and dst and kv.get("type", "volume") == "bind":
                mounts.append((dst, src))
        elif name == "--entrypoint":
            entry = val
        elif name in ("-w", "--workdir"):
            workdir = val
        elif name == "--cap-add" and val and val.upper() in ("ALL", "SYS_ADMIN", "CAP_SYS_ADMIN"):
            privileged = True
        elif name == "--pid" and val == "host":
            acc.add(M, "shell.docker.host_pid", "docker run --pid=host")
    danger = False
    for _cpath, hpath in mounts:
        hn = P.normalize(hpath, ctx.cwd) if MARK not in hpath else hpath
        if hn == "/":
            acc.add(H, "shell.docker.mount_root", f"{prog} run mounts the host's / into the container")
            danger = True
        if "docker.sock" in hn:
            acc.add(H, "shell.docker.socket", f"{prog} run mounts the docker socket (root on the host)")
            danger = True
    if privileged:
        acc.add(H, "shell.docker.privileged", f"{prog} run --privileged (root on the host)")
        danger = True
    acc.add(M, "shell.docker.run", f"{prog} run")
    image_and_cmd = rest[i:]
    cmd = image_and_cmd[1:] if image_and_cmd else []
    if entry:
        cmd = [entry] + cmd
    if cmd:
        c = ctx.child(deeper=True)
        norm_mounts = []
        for cpath, hpath in mounts:
            hp = P.normalize(hpath, ctx.cwd) if MARK not in hpath else MARK
            norm_mounts.append((P.normalize(cpath, "/"), hp))
        c.container = norm_mounts
        c.cwd = workdir or "/"
        c.ws = None
        sub = Acc()
        r.run_argv(cmd, [None] * len(cmd), c, sub, None)
        if sub.tier >= 0:
            t = sub.tier if danger or sub.rule.startswith("shell.write") or sub.rule.startswith("shell.rm") or (
                ".recursive." in sub.rule) else min(sub.tier, M)
            acc.add(t, sub.rule, f"{sub.reason} (in a container)")
    return OTHER


def _compose(r, args, ctx, acc):
    i, n = 0, len(args)
    while i < n and args[i].startswith("-"):
        i += 2 if args[i] in T.DOCKER_GLOBAL_WITH_ARG else 1
    sub = args[i] if i < n else ""
    rest = args[i + 1:]
    if sub in ("ps", "logs", "config", "ls", "top", "images", "version", "port", "events"):
        acc.add(S, "shell.compose.read", f"docker compose {sub} (read-only)")
    elif sub == "down":
        o = getopts(rest)
        if "v" in o.flags or "--volumes" in o.longs:
            acc.add(H, "shell.compose.down_volumes", "docker compose down -v (deletes data volumes)")
        else:
            acc.add(M, "shell.compose.down", "docker compose down")
    elif sub in ("build", "pull", "create", "convert"):
        acc.add(L, "shell.compose", f"docker compose {sub}")
    elif sub == "push":
        acc.add(H, "shell.publish", "docker compose push")
    elif sub == "rm":
        o = getopts(rest)
        acc.add(M if ("f" in o.flags or "s" in o.flags) else L, "shell.compose.rm", "docker compose rm")
        if "v" in o.flags:
            acc.add(H, "shell.compose.down_volumes", "docker compose rm -v (deletes volumes)")
    else:
        acc.add(M, f"shell.compose.{sub}"[:40], f"docker compose {sub}".strip())
    return OTHER


def h_kubectl(r, prog, args, metas, ctx, acc, stdin):
    o = getopts(args, frozenset("nsflcoLp"), T.KUBECTL_GLOBAL_WITH_ARG | {"--replicas", "--selector", "--filename",
                                                                         "--output", "--container", "--image",
                                                                         "--type", "--timeout", "--kustomize"})
    # command after `--` (kubectl exec … -- CMD)
    dd = args.index("--") if "--" in args else -1
    pos = [p for p in o.pos] if dd < 0 else [p for p in getopts(args[:dd], frozenset("nsflcoLp"),
                                                                T.KUBECTL_GLOBAL_WITH_ARG).pos]
    sub = pos[0] if pos else ""
    what = pos[1] if len(pos) > 1 else ""
    where = [_first(o, "n", "--namespace") or "", o.long("--context") or "", o.long("--cluster") or ""]
    if not sub:
        acc.add(L, "shell.kubectl", "kubectl")
        return OTHER
    if sub == "get" and any(x.split("/")[0] in ("secret", "secrets") or x.startswith("secret/") for x in pos[1:2]):
        acc.add(M, "shell.kubectl.secret", "kubectl get secret (reads secrets)")
        return OTHER
    if sub == "scale":
        reps = o.long("--replicas")
        if reps == "0":
            acc.add(H, "shell.kubectl.scale_zero", "kubectl scale to zero replicas")
            return OTHER
    if sub == "rollout" and what in ("status", "history"):
        acc.add(S, "shell.kubectl.read", f"kubectl rollout {what}")
        return OTHER
    if sub == "config":
        if what == "view" and "--raw" in args:
            acc.add(M, "shell.secret_read", "kubectl config view --raw prints cluster credentials into the agent's "
                                            "context")
            return SECRET
        if what in ("view", "get-contexts", "current-context", "get-clusters", "get-users"):
            acc.add(S, "shell.kubectl.read", f"kubectl config {what}")
        else:
            acc.add(L, "shell.kubectl.config", f"kubectl config {what}")
        return OTHER
    t = T.KUBECTL_TIERS.get(sub, M)
    label = f"kubectl {sub} {what}".strip()
    if t == M and sub in ("apply", "create", "patch", "replace", "rollout", "scale", "set", "edit", "run") and _prod_in(
            where):
        acc.add(H, "shell.deploy.production", f"{label} in production")
    acc.add(t, f"shell.kubectl.{sub}"[:40], label if t != S else f"{label} (read-only)")
    if sub in ("exec", "debug", "attach") and dd >= 0 and dd + 1 < len(args):
        cmd = args[dd + 1:]
        c = ctx.child(deeper=True)
        c.cwd = None
        c.ws = None
        r.run_argv(cmd, [None] * len(cmd), c, acc, stdin)
    return OTHER


def h_terraform(r, prog, args, metas, ctx, acc, stdin):
    pos = [a for a in args if not a.startswith("-")]
    sub = pos[0] if pos else ""
    if prog == "terragrunt" and sub in ("run-all", "run") and len(pos) > 1:
        sub = pos[1]
    if sub == "apply" and any(a in ("-destroy", "--destroy") for a in args):
        acc.add(C, "shell.terraform.destroy", f"{prog} apply -destroy (destroys infrastructure)")
        return OTHER
    if sub == "destroy":
        acc.add(C, "shell.terraform.destroy", f"{prog} destroy (destroys infrastructure)")
        return OTHER
    if sub == "plan":
        acc.add(L, "shell.terraform.plan", f"{prog} plan (dry run)")
        return OTHER
    if not sub and any(a in ("-version", "--version", "-help", "--help") for a in args):
        acc.add(S, "shell.help", f"{prog} version")
        return OTHER
    t = T.TERRAFORM_TIERS.get(sub, M)
    acc.add(t, f"shell.terraform.{sub}"[:40], f"{prog} {sub}" + (" (changes infrastructure)" if t == H else ""))
    return OTHER


def h_iac(r, prog, args, metas, ctx, acc, stdin):
    pos = [a for a in args if not a.startswith("-")]
    sub = pos[0] if pos else ""
    if sub == "destroy":
        acc.add(C, "shell.iac.destroy", f"{prog} destroy (destroys infrastructure)")
    elif sub in ("up", "deploy", "update"):
        acc.add(H, "shell.iac.apply", f"{prog} {sub} (changes infrastructure)")
    elif sub in ("preview", "diff", "synth", "plan", "ls", "list", "stack"):
        acc.add(L, "shell.iac.preview", f"{prog} {sub}")
    else:
        acc.add(L, "shell.program", f"{prog} {sub}".strip())
    return OTHER


def h_ansible_playbook(r, prog, args, metas, ctx, acc, stdin):
    if any(a in ("--check", "-C") for a in args):
        acc.add(L, "shell.ansible.check", f"{prog} --check (dry run)")
    elif any(a in ("--syntax-check", "--list-hosts", "--list-tasks", "--list-tags") for a in args):
        acc.add(S, "shell.ansible.list", f"{prog} (lists only)")
    else:
        acc.add(H, "shell.ansible.playbook", f"{prog} (runs a playbook that changes hosts)")
    return OTHER


def h_ansible(r, prog, args, metas, ctx, acc, stdin):
    o = getopts(args, frozenset("imauefltcMkKTBP"), frozenset(("--inventory", "--module-name", "--args", "--user",
                                                                 "--extra-vars", "--forks", "--limit", "--timeout",
                                                                 "--connection", "--become-user",
                                                                 "--become-method", "--module-path")))
    acc.add(M, "shell.ansible.adhoc", "ad-hoc ansible command on remote hosts")
    module = _first(o, "m", "--module-name") or "command"
    script = _first(o, "a", "--args")
    if script and module.rsplit(".", 1)[-1] in ("command", "shell", "raw", "win_shell", "win_command"):
        c = ctx.child()
        c.cwd = None
        c.ws = None
        r.run_text(script, c, acc)
    return OTHER


def _secret_var_in_url(prog, args, metas, o, acc) -> None:
    """A variable with a secret name (``$AWS_SECRET_ACCESS_KEY``) in a URL operand sends its value to the server,
    as ``curl -d "$SECRET"`` does: MEDIUM (sends data). Headers (``-H "Authorization: Bearer $TOKEN"``) are not
    URLs and stay as they are."""
    if not o.pos or len(metas) != len(args):
        return
    pos = set(o.pos)
    headers = set(o.vals.get("H", ()))
    h = o.longs.get("--header")
    if isinstance(h, str):
        headers.add(h)
    data = {v for ch in "dF" for v in o.vals.get(ch, ())} | {
        v for nm in ("--data", "--data-raw", "--data-binary", "--data-urlencode", "--json", "--form", "--post-data",
                     "--body-data") if isinstance(v := o.longs.get(nm), str)}
    for a, m in zip(args, metas, strict=True):
        if m is not None and m[1] and (a in pos or a in data):
            acc.add(H, "shell.secret_send", f"{prog} sends the value of a secret variable "
                                            f"{'in the URL' if a in pos else 'as data'}")
            return
        if m is not None and m[1] and a in headers:
            name = a.split(":", 1)[0].lower()
            if not any(w in name for w in T.AUTH_HEADER_WORDS):
                acc.add(H, "shell.secret_send", f"{prog} sends the value of a secret variable in the header "
                                                f"{_show(a.split(':', 1)[0])}")
                return


def h_curl(r, prog, args, metas, ctx, acc, stdin):
    o = getopts(args, T.CURL_OPTS_WITH_ARG, T.CURL_LONG_WITH_ARG)
    _secret_var_in_url(prog, args, metas, o, acc)
    method = (_first(o, "X", "--request") or "").upper()
    sends = False
    for ch in ("d", "F", "T"):
        for v in o.vals.get(ch, ()):
            sends = True
            r.sends_secret(prog, v.split("=", 1)[-1] if ch == "F" else v, ctx, acc)
    for nm in T.CURL_SEND_OPTS:
        v = o.longs.get(nm)
        if v is not None:
            sends = True
            if isinstance(v, str):
                r.sends_secret(prog, v.split("=", 1)[-1] if nm in ("--form", "--form-string") else v, ctx, acc)
    if method == "DELETE":
        acc.add(H, "shell.http.delete", "HTTP DELETE request")
    elif method in ("POST", "PUT", "PATCH") or sends:
        acc.add(M, "shell.http.send", f"HTTP {method or 'POST'} request (sends data)")
    out_file = _first(o, "o", "--output")
    out_dir = o.longs.get("--output-dir") if isinstance(o.longs.get("--output-dir"), str) else None
    if out_file and out_file != "-":
        if out_dir and not out_file.startswith(("/", "~")):
            out_file = f"{out_dir.rstrip('/')}/{out_file}"
        r.write_path(out_file, ctx, acc, "download to")
        ctx.downloaded.add(P.normalize(out_file, ctx.cwd))
        return OTHER
    if "O" in o.flags or "--remote-name" in o.longs or "--remote-name-all" in o.longs:
        for u in o.pos:
            name = u.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]
            if name:
                ctx.downloaded.add(P.normalize(f"{out_dir.rstrip('/')}/{name}" if out_dir else name, ctx.cwd))
        if out_dir:
            r.write_path(out_dir.rstrip("/") + "/x", ctx, acc, "download into")
        acc.add(L, "shell.http.download", "download to a file")
        return OTHER
    acc.add(S, "shell.http.get", "HTTP request printed to the terminal")
    return DOWNLOAD


def h_wget(r, prog, args, metas, ctx, acc, stdin):
    o = getopts(args, T.WGET_OPTS_WITH_ARG, T.WGET_LONG_WITH_ARG)
    _secret_var_in_url(prog, args, metas, o, acc)
    method = (o.long("--method") or "").upper()
    for nm in ("--post-file", "--body-file"):
        v = o.long(nm)
        if isinstance(v, str):
            r.sends_secret(prog, v, ctx, acc)
    if method == "DELETE":
        acc.add(H, "shell.http.delete", "HTTP DELETE request")
    elif method in ("POST", "PUT", "PATCH") or o.any("--post-data", "--post-file", "--body-data", "--body-file"):
        acc.add(M, "shell.http.send", "HTTP request that sends data")
    out = _first(o, "O", "--output-document")
    if out == "-":
        acc.add(S, "shell.http.get", "HTTP request printed to the terminal")
        return DOWNLOAD
    if out:
        r.write_path(out, ctx, acc, "download to")
        ctx.downloaded.add(P.normalize(out, ctx.cwd))
    else:
        prefix = _first(o, "P", "--directory-prefix")
        for u in o.pos:
            name = u.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]
            if name:
                ctx.downloaded.add(P.normalize(f"{prefix.rstrip('/')}/{name}" if prefix else name, ctx.cwd))
        if prefix:
            r.write_path(prefix.rstrip("/") + "/x", ctx, acc, "download into")
        acc.add(L, "shell.http.download", "download to a file")
    return OTHER


def h_http_method(r, prog, args, metas, ctx, acc, stdin):
    url = args[0] if args else ""
    t = T.HTTP_METHOD_TIERS.get(prog, M)
    acc.add(t, f"http.{prog.lower()}", f"HTTP {prog} request to {_show(url)}")
    return DOWNLOAD


def h_httpie(r, prog, args, metas, ctx, acc, stdin):
    pos = [a for a in args if not a.startswith("-")]
    method = pos[0].upper() if pos and pos[0].upper() in T.HTTP_METHODS else None
    if method is None:
        items = pos[1:]
        method = "POST" if any("=" in x or ":=" in x or "@" in x for x in items) else "GET"
    t = T.HTTP_METHOD_TIERS.get(method, M)
    acc.add(t, f"shell.http.{method.lower()}", f"HTTP {method} request")
    return DOWNLOAD


def _is_remote(a: str) -> bool:
    if a.startswith(("/", ".", "~")) or MARK in a.split(":", 1)[0]:
        return False
    if "://" in a:
        return True
    head = a.split(":", 1)
    return len(head) == 2 and "/" not in head[0] and head[0] != ""


def _ssh_option_commands(r, prog, values, ctx, acc):
    """``-o ProxyCommand=…`` (and LocalCommand, KnownHostsCommand, RemoteCommand): commands ssh runs."""
    for v in values:
        key, _, cmd = v.replace("=", " ", 1).partition(" ")
        if key.lower() in T.SSH_COMMAND_OPTIONS and cmd.strip():
            acc.add(M, "shell.ssh.command_option", f"{prog} -o {key} runs a command")
            c = ctx.child()
            if key.lower() == "remotecommand":
                c.cwd = c.ws = c.user = None
            r.run_text(cmd.strip(), c, acc)


def h_ssh(r, prog, args, metas, ctx, acc, stdin):
    o = getopts(args, T.SSH_OPTS_WITH_ARG, stop_at_pos=True)
    _ssh_option_commands(r, prog, o.vals.get("o", ()), ctx, acc)
    if not o.pos:
        acc.add(L, "shell.ssh", f"{prog} without a host")
        return OTHER
    host = o.pos[0]
    acc.add(M, "shell.ssh", f"ssh to {host.replace(MARK, '$…')}")
    cmd = o.pos[1:]
    # as OpenSSH does, options may follow the host (`ssh host -l root cmd`) and `--` ends them
    # (`ssh host -- rm -rf /`); unless `--` came before the host
    terminated = "--" in args[:len(args) - len(o.pos)]
    rounds = 0
    while cmd and not terminated and cmd[0].startswith("-") and rounds < 8:
        rounds += 1
        if cmd[0] == "--":
            cmd = cmd[1:]
            break
        o2 = getopts(cmd, T.SSH_OPTS_WITH_ARG, stop_at_pos=True)
        _ssh_option_commands(r, prog, o2.vals.get("o", ()), ctx, acc)
        consumed = cmd[:len(cmd) - len(o2.pos)]
        cmd = o2.pos
        if "--" in consumed:
            break
    if cmd:
        c = ctx.child()
        c.cwd = None
        c.ws = None
        c.user = None
        r.run_text(" ".join(cmd), c, acc)
    elif type(stdin) is tuple and stdin[0] in ("heredoc", "lit"):
        c = ctx.child()
        c.cwd = c.ws = None
        r.run_text(stdin[1], c, acc)
    return OTHER


def h_scp(r, prog, args, metas, ctx, acc, stdin):
    o = getopts(args, T.SCP_OPTS_WITH_ARG if prog == "scp" else T.RSYNC_OPTS_WITH_ARG,
                frozenset(("--exclude", "--include", "--rsh", "--filter", "--files-from", "--exclude-from",
                           "--chmod", "--chown", "--log-file", "--backup-dir", "--suffix", "--rsync-path")))
    _ssh_option_commands(r, prog, o.vals.get("o", ()), ctx, acc)
    rsh = _first(o, "e", "--rsh") if prog == "rsync" else _first(o, "S")
    if rsh:
        # the remote shell program rsync/scp starts (`rsync -e 'ssh -o ProxyCommand=…'`)
        r.run_text(rsh + " host", ctx.child(), acc)
    if prog == "rsync" and ("n" in o.flags or "--dry-run" in o.longs):
        acc.add(L, "shell.rsync.dry_run", "rsync -n (dry run)")
        return OTHER
    if len(o.pos) < 2:
        acc.add(L, f"shell.{prog}", prog)
        return OTHER
    srcs, dest = o.pos[:-1], o.pos[-1]
    remote_any = _is_remote(dest) or any(_is_remote(s) for s in srcs)
    if _is_remote(dest):
        acc.add(M, f"shell.{prog}.remote", f"{prog} to a remote host")
        for s in srcs:
            if not _is_remote(s):
                r.sends_secret(prog, s, ctx, acc)
    else:
        if remote_any:
            acc.add(M, f"shell.{prog}.remote", f"{prog} from a remote host")
        r.write_path(dest, ctx, acc, f"{prog} into")
        if prog == "rsync" and any(k.startswith("--delete") for k in o.longs):
            cls = r.pclass(dest, ctx)
            if cls in (P.SYSROOT, P.ROOT, P.HOME):
                # everything in it that the source lacks is deleted: a recursive delete of the directory
                acc.add(C, "shell.rsync.delete", f"rsync --delete in {_show(dest)} ({P.label(cls)})")
            elif cls == P.SYSTEM:
                acc.add(H, "shell.rsync.delete", f"rsync --delete in {_show(dest)} ({P.label(cls)})")
            else:
                acc.add(L, "shell.rsync.delete", "rsync --delete")
    return OTHER


def _positional_params(c: Ctx, extra: list) -> None:
    for k, v in enumerate(extra[:10]):
        c.env[str(k)] = v
    if len(extra) > 1:
        c.env["@"] = c.env["*"] = " ".join(extra[1:64])


def h_shell(r, prog, args, metas, ctx, acc, stdin):
    i, n = 0, len(args)
    script = None
    script_meta = None
    cmd_flag = False
    stdin_flag = False  # -s (or a lone -): the script is read from stdin, the operands are its arguments
    while i < n:
        a = args[i]
        if a == "--" or a == "-":
            stdin_flag = stdin_flag or a == "-"
            i += 1
            break
        if a in ("-o", "+o", "--rcfile", "--init-file", "-O", "+O"):
            i += 2
            continue
        if a.lower() in ("-command", "-c", "-encodedcommand", "-file", "-f") and prog in ("pwsh", "powershell"):
            if a.lower() == "-encodedcommand":
                acc.add(H, "shell.pwsh.encoded", "PowerShell runs an encoded (hidden) command")
            cmd_flag = a.lower() in ("-command", "-c")
            i += 1
            break
        if (a.startswith("-") or a.startswith("+")) and len(a) > 1 and not a.startswith("--"):
            if "c" in a[1:]:
                cmd_flag = True
            if a[0] == "-" and "s" in a[1:] and prog not in ("pwsh", "powershell"):
                stdin_flag = True
            i += 1
            continue
        if a.startswith("--"):
            if a == "--command":
                cmd_flag = True
            i += 1
            continue
        break
    rest = args[i:]
    rmetas = metas[i:]
    if cmd_flag:
        acc.add(M, "shell.inline", f"{prog} -c (runs an inline script)")
        if rest:
            script = rest[0]
            script_meta = rmetas[0] if rmetas else None
            sub_out = script_meta[0] if script_meta else None
            if sub_out == DOWNLOAD:
                acc.add(H, "shell.download_exec", f"{prog} -c runs downloaded code")
            elif sub_out is not None and MARK in script:
                acc.add(H, "shell.generated_exec", f"{prog} -c runs text produced by another command")
            c = ctx.child()
            _positional_params(c, rest[1:])
            r.run_text(script, c, acc)
        return OTHER
    if stdin_flag:
        return _stdin_script(r, prog, stdin, ctx, acc)
    if rest:
        f = rest[0]
        meta = rmetas[0] if rmetas else None
        sub_out = meta[0] if meta else None
        if type(sub_out) is tuple and sub_out[0] == "proc":
            return _procsub_script(r, prog, sub_out[1], ctx, acc)
        if sub_out == DOWNLOAD:
            acc.add(H, "shell.download_exec", f"{prog} runs downloaded code ({prog} <(curl …))")
        elif sub_out is not None:
            acc.add(H, "shell.generated_exec", f"{prog} runs a script produced by another command")
        elif _downloaded(ctx, P.normalize(f, ctx.cwd)):
            acc.add(H, "shell.download_exec", f"runs the downloaded script {_show(f)}")
        elif P.normalize(f, ctx.cwd) in ctx.written:
            acc.add(L, "shell.script", f"{prog} runs the script {_show(f)} written just before")
            r.run_text(ctx.written[P.normalize(f, ctx.cwd)], ctx, acc)
        elif f in T.STDIN_PATHS:
            return _stdin_script(r, prog, stdin, ctx, acc)
        else:
            acc.add(L, "shell.script", f"{prog} runs the script {_show(f)}")
        return OTHER
    return _stdin_script(r, prog, stdin, ctx, acc)


def _procsub_script(r, prog, out, ctx, acc):
    """``bash <(cmd)``, ``source <(cmd)``: the script is cmd's output."""
    if out == DOWNLOAD:
        acc.add(H, "shell.download_exec", f"{prog} runs downloaded code ({prog} <(curl …))")
    else:
        acc.add(H, "shell.generated_exec", f"{prog} runs a script produced by another command")
        if type(out) is tuple and out[0] in ("lit", "heredoc"):
            r.run_text(out[1], ctx, acc)
    return OTHER


def _stdin_script(r, prog, stdin, ctx, acc):
    if stdin is None:
        acc.add(L, "shell.interactive", f"interactive {prog}")
        return OTHER
    kind = stdin[0] if type(stdin) is tuple else stdin
    if kind == "heredoc":
        acc.add(M, "shell.heredoc", f"heredoc script run by {prog}")
        r.run_text(stdin[1], ctx, acc)
    elif kind == "lit":
        acc.add(H, "shell.pipe_exec", f"text piped into {prog}")
        r.run_text(stdin[1], ctx, acc)
    elif kind == DOWNLOAD:
        acc.add(H, "shell.download_exec", f"downloaded code piped into {prog}")
    elif kind == DECODED:
        acc.add(H, "shell.pipe_exec.decoded", f"decoded data piped into {prog}")
    elif kind == "file":
        f = stdin[1]
        if _downloaded(ctx, P.normalize(f, ctx.cwd)):
            acc.add(H, "shell.download_exec", f"runs the downloaded script {_show(f)}")
        else:
            acc.add(L, "shell.script", f"{prog} runs the script {_show(f)}")
    else:
        acc.add(H, "shell.pipe_exec", f"text piped into {prog}")
    return OTHER


def h_eval(r, prog, args, metas, ctx, acc, stdin):
    if not args:
        return None
    progs = {m[2] for m in metas if m and m[2]}
    text = " ".join(args)
    if progs and progs <= T.ENV_SETUP_TOOLS and text.strip() == MARK:
        acc.add(L, "shell.eval.env_setup", f"eval of {'/'.join(sorted(progs))} output (environment set-up)")
        return OTHER
    if any(m and m[0] == DOWNLOAD for m in metas):
        acc.add(H, "shell.download_exec", "eval runs downloaded code")
    acc.add(H, "shell.eval", "eval runs text built at run time")
    if text.strip(MARK + " "):
        r.run_text(text, ctx, acc)
    return OTHER


def h_source(r, prog, args, metas, ctx, acc, stdin):
    if not args:
        acc.add(L, "shell.source", prog)
        return OTHER
    meta = metas[0] if metas else None
    if meta and type(meta[0]) is tuple and meta[0][0] == "proc":
        return _procsub_script(r, prog, meta[0][1], ctx, acc)
    if args[0] in T.STDIN_PATHS and stdin is not None:
        return _stdin_script(r, prog, stdin, ctx, acc)  # curl … | source /dev/stdin
    if meta and meta[0] == DOWNLOAD:
        acc.add(H, "shell.download_exec", f"{prog} runs downloaded code")
    elif meta and meta[0] is not None:
        acc.add(H, "shell.generated_exec", f"{prog} runs text produced by another command")
    elif _downloaded(ctx, P.normalize(args[0], ctx.cwd)):
        acc.add(H, "shell.download_exec", f"runs the downloaded script {_show(args[0])}")
    else:
        acc.add(L, "shell.source", f"{prog} {_show(args[0])} (runs a script in this shell)")
    return OTHER


def _scan_code(r, code: str, ctx, acc, lang: str | None = None):
    apply_code_effects(r, scan_code(code, lang), ctx, acc, lang, max_depth=MAX_DEPTH)


def h_interp(r, prog, args, metas, ctx, acc, stdin):
    base = prog
    if prog.startswith("python") and prog not in T.INTERPRETERS:
        base = "python3"
    code_flags, with_arg = T.INTERPRETERS.get(base, ("", frozenset()))
    lang = T.INTERPRETER_LANGS.get(base)
    i, n = 0, len(args)
    if base in ("deno", "bun") and args and args[0] == "eval":
        acc.add(M, "shell.inline_code", f"{prog} eval runs inline code")
        _scan_code(r, " ".join(args[1:]), ctx, acc, lang)
        return OTHER
    if args and args[0][:1] != "-" and args[0] != "run" and (
            prog in T.INSTALLERS or prog in T.PUBLISHERS or prog in T.PACKAGE_RUNNERS):
        return h_pkg(r, prog, args, metas, ctx, acc, stdin)  # bun install, deno publish …
    if args and args[0] == "run" and base in ("deno", "bun"):
        k = 1
        while k < len(args) and args[k].startswith("-"):
            k += 1
        if k < len(args) and args[k].startswith(T.REMOTE_CODE_PREFIXES):
            acc.add(H, "shell.download_exec", f"{prog} run runs code downloaded from {_show(args[k])}")
            return OTHER
        args, metas = args[1:], metas[1:]
    code = None
    code_at = -1  # the argument the inline code came from (its meta tells where the text came from)
    inplace = False
    module = None
    while i < n:
        a = args[i]
        if a == "--":
            i += 1
            break
        if a == "-":
            break
        if a in T.LONG_CODE_FLAGS:
            code = args[i + 1] if i + 1 < n else ""
            code_at = i + 1
            i += 2
            break
        if a.startswith("--"):
            i += 1
            continue
        if a.startswith("-") and len(a) > 1:
            chars = a[1:]
            took = False
            for j, ch in enumerate(chars):
                if ch == "i" and base == "perl":
                    inplace = True
                    break  # the rest is a backup suffix
                if ch in code_flags:
                    tail = chars[j + 1:]
                    if tail:
                        code = tail
                        code_at = i
                    else:
                        code = args[i + 1] if i + 1 < n else ""
                        code_at = i + 1
                        took = True
                    break
                if ch == "m" and base in T.PYTHONS:
                    tail = chars[j + 1:]
                    module = tail or (args[i + 1] if i + 1 < n else "")
                    took = not tail
                    break
                if ch in with_arg:
                    took = j == len(chars) - 1
                    break
            i += 2 if took else 1
            if code is not None or module is not None:
                break
            continue
        break
    rest = args[i:]
    if module is not None:
        if module in ("pip", "pip3", "ensurepip"):
            return r.run_argv(["pip"] + rest, [None] * (len(rest) + 1), ctx, acc, stdin)
        if module in r.handlers and module not in T.INTERPRETERS:
            # a module that is also a program the tables know runs as that program (python -m twine upload)
            acc.add(L, "shell.python.module", f"{prog} -m {module}")
            return r.run_argv([module] + rest, [None] * (len(rest) + 1), ctx, acc, stdin)
        if module in ("http.server", "SimpleHTTPServer", "venv", "virtualenv", "pytest", "unittest", "json.tool",
                      "py_compile", "compileall", "timeit", "pydoc", "black", "ruff", "mypy", "build"):
            acc.add(L, "shell.python.module", f"{prog} -m {module}")
        else:
            acc.add(L, "shell.python.module", f"{prog} -m {module}")
        return OTHER
    if code is not None:
        if inplace:
            acc.add(L, "shell.perl.inplace", f"{prog} -i edits files in place")
            for f in rest:
                r.write_path(f, ctx, acc, "edit in place")
        else:
            acc.add(M, "shell.inline_code", f"{prog} runs inline code")
            meta = metas[code_at] if 0 <= code_at < len(metas) else None
            sub_out = meta[0] if meta else None
            if sub_out == DOWNLOAD:
                acc.add(H, "shell.download_exec", f"{prog} runs downloaded code as inline code")
            elif sub_out == DECODED:
                acc.add(H, "shell.pipe_exec.decoded", f"{prog} runs decoded data as inline code")
            runs = code_runs_data(code)
            if runs == "fetch":
                acc.add(H, "shell.download_exec", f"{prog} runs code it downloads (inline code)")
            elif runs == "decoded":
                acc.add(H, "shell.pipe_exec.decoded", f"{prog} runs decoded data (inline code)")
            elif runs == "stdin" and stdin is not None:
                kind = stdin[0] if type(stdin) is tuple else stdin
                if kind == DOWNLOAD:
                    acc.add(H, "shell.download_exec", f"{prog} runs the downloaded code piped into it")
                elif kind == DECODED:
                    acc.add(H, "shell.pipe_exec.decoded", f"{prog} runs the decoded data piped into it")
                else:
                    acc.add(H, "shell.pipe_exec", f"{prog} runs the text piped into it")
        _scan_code(r, code, ctx, acc, lang)
        return OTHER
    if rest and rest[0] not in ("-", "/dev/stdin", "/proc/self/fd/0", "/dev/fd/0"):
        meta = metas[i] if i < len(metas) else None
        sub_out = meta[0] if meta else None
        if type(sub_out) is tuple and sub_out[0] == "proc":
            # python3 <(curl …): the script is the command's output
            out = sub_out[1]
            if out == DOWNLOAD:
                acc.add(H, "shell.download_exec", f"{prog} runs downloaded code ({prog} <(curl …))")
            else:
                acc.add(H, "shell.generated_exec", f"{prog} runs a script produced by another command")
                if type(out) is tuple and out[0] in ("lit", "heredoc"):
                    _scan_code(r, out[1], ctx, acc, lang)
        elif sub_out == DOWNLOAD:
            acc.add(H, "shell.download_exec", f"{prog} runs downloaded code")
        elif _downloaded(ctx, P.normalize(rest[0], ctx.cwd)):
            acc.add(H, "shell.download_exec", f"runs the downloaded script {_show(rest[0])}")
        else:
            cmds = T.SCRIPT_PUBLISHERS.get(rest[0].rsplit("/", 1)[-1], ())
            up = next((a for a in rest[1:] if a in cmds), None)
            if up:
                acc.add(H, "shell.publish", f"{prog} {_show(rest[0])} {up} (publishes to a registry)")
            acc.add(L, "shell.script", f"{prog} runs {_show(rest[0])}")
        return OTHER
    if stdin is None:
        acc.add(L, "shell.interactive", f"interactive {prog}")
        return OTHER
    kind = stdin[0] if type(stdin) is tuple else stdin
    if kind == "heredoc":
        acc.add(M, "shell.heredoc", f"heredoc script run by {prog}")
        _scan_code(r, stdin[1], ctx, acc, lang)
    elif kind == "lit":
        acc.add(H, "shell.pipe_exec", f"text piped into {prog}")
        _scan_code(r, stdin[1], ctx, acc, lang)
    elif kind == DOWNLOAD:
        acc.add(H, "shell.download_exec", f"downloaded code piped into {prog}")
    elif kind == "file":
        if _downloaded(ctx, P.normalize(stdin[1], ctx.cwd)):
            acc.add(H, "shell.download_exec", f"runs the downloaded script {_show(stdin[1])}")
        else:
            acc.add(L, "shell.script", f"{prog} runs {_show(stdin[1])}")
    else:
        acc.add(H, "shell.pipe_exec", f"text piped into {prog}")
    return OTHER


def _awk_strings_after(code: str, pos: int):
    """The string literal starting at ``pos`` (after spaces), or None."""
    n = len(code)
    while pos < n and code[pos] in " \t":
        pos += 1
    if pos < n and code[pos] == '"':
        j = code.find('"', pos + 1)
        if j > 0:
            return code[pos + 1:j]
    return None


def h_awk(r, prog, args, metas, ctx, acc, stdin):
    o = getopts(args, frozenset("Fvf"), frozenset(("--field-separator", "--assign", "--file")), stop_at_pos=True)
    if "f" in o.flags or "--file" in o.longs:
        acc.add(L, "shell.awk.file", f"{prog} runs a program file")
        files = o.pos
        code = ""
    else:
        code = o.pos[0] if o.pos else ""
        files = o.pos[1:]
        acc.add(S, "shell.awk", f"{prog} (read-only)")
    r.read_secret_check(prog, files, ctx, acc)
    _scan_code(r, code, ctx, acc, "awk")  # sockets, listeners, reads (and the commands read again below)
    k = 0
    start = 0
    while k < 32:
        j = code.find("system", start)
        if j < 0:
            break
        k += 1
        start = j + 6
        m = start
        while m < len(code) and code[m] in " \t":
            m += 1
        if m < len(code) and code[m] == "(":
            lit = _awk_strings_after(code, m + 1)
            if lit is not None:
                acc.add(M, "shell.awk.system", f"{prog} runs commands (system)")
                r.run_text(lit, ctx, acc)
            else:
                acc.add(H, "shell.awk.system", f"{prog} runs commands built from its input (system)")
    # print/printf redirects and pipes
    start = 0
    k = 0
    while k < 32:
        j = code.find("print", start)
        if j < 0:
            break
        k += 1
        start = j + 5
        m = start
        depth = 0
        n = len(code)
        while m < n and code[m] not in ";}\n":
            ch = code[m]
            if ch == '"':
                e = code.find('"', m + 1)
                m = n if e < 0 else e + 1
                continue
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
            elif depth <= 0 and ch in ">|":
                op = ch
                m += 1
                if m < n and code[m] == ">":
                    m += 1
                lit = _awk_strings_after(code, m)
                if op == "|":
                    if lit is not None:
                        acc.add(M, "shell.awk.pipe", f"{prog} pipes into a command")
                        r.run_text(lit, ctx, acc)
                    else:
                        acc.add(H, "shell.awk.pipe", f"{prog} pipes into a command built at run time")
                elif lit is not None:
                    r.write_path(lit, ctx, acc, f"{prog} writes")
                else:
                    acc.add(L, "shell.awk.write", f"{prog} writes a file")
                break
            m += 1
    # "cmd" | getline
    j = code.find("getline")
    if j > 0:
        before = code[:j].rstrip()
        if before.endswith("|"):
            q2 = before[:-1].rstrip()
            if q2.endswith('"'):
                q1 = q2.rfind('"', 0, len(q2) - 1)
                if q1 >= 0:
                    acc.add(M, "shell.awk.getline", f"{prog} runs a command (getline)")
                    r.run_text(q2[q1 + 1:-1], ctx, acc)
    return OTHER


def h_sed(r, prog, args, metas, ctx, acc, stdin):
    i, n = 0, len(args)
    inplace = False
    script_given = False
    scripts: list = []  # the sed scripts given (-e, --expression, or the first operand)
    program_file = None
    sandbox = False
    files: list = []
    while i < n:
        a = args[i]
        if a == "--":
            files.extend(args[i + 1:])
            break
        if a.startswith("--"):
            if a.startswith("--in-place"):
                inplace = True
            elif a == "--sandbox":
                sandbox = True
            elif a in ("--expression", "--file"):
                script_given = True
                if i + 1 < n:
                    if a == "--file":
                        program_file = args[i + 1]
                    else:
                        scripts.append(args[i + 1])
                i += 1
            elif a.startswith("--expression="):
                script_given = True
                scripts.append(a.split("=", 1)[1])
            elif a.startswith("--file="):
                script_given = True
                program_file = a.split("=", 1)[1]
            i += 1
            continue
        if a.startswith("-") and len(a) > 1:
            chars = a[1:]
            took = False
            for j, ch in enumerate(chars):
                if ch == "i" or ch == "I" and False:
                    inplace = True
                    if prog == "sed" and j == len(chars) - 1 and i + 1 < n and args[i + 1] == "":
                        took = True  # BSD: -i ''
                    break
                if ch in "ef":
                    script_given = True
                    val = chars[j + 1:] if j < len(chars) - 1 else (args[i + 1] if i + 1 < n else "")
                    if ch == "e":
                        scripts.append(val)
                    else:
                        program_file = val
                    if j == len(chars) - 1:
                        took = True
                    break
                if ch == "l":
                    took = j == len(chars) - 1
                    break
            i += 2 if took else 1
            continue
        files.append(a)
        i += 1
    if not script_given and files:
        scripts.append(files[0])
        files = files[1:]
    if program_file is not None and not sandbox:
        key = P.normalize(program_file, ctx.cwd) if MARK not in program_file else None
        if key in ctx.written:
            scripts.append(ctx.written[key])
        elif program_file not in ("-", "/dev/stdin"):
            acc.add(L, "shell.sed.file", f"{prog} runs a program file (it can write files and run commands)")
    for script in ([] if sandbox else scripts[:MAX_FX]):
        for kind, val in _sed_effects(script):
            if kind == "write":
                if val and val not in ("/dev/stdout", "/dev/stderr"):
                    r.write_path(val, ctx, acc, f"{prog} writes")
            elif kind == "read":
                r.read_secret_check(prog, [val], ctx, acc)
            elif kind == "cmd":
                r.option_command(prog, "e", val, ctx, acc)
            else:
                acc.add(H, "shell.sed.exec", f"{prog} runs the text it reads as commands (e)")
    if inplace:
        acc.add(L, "shell.sed.inplace", f"{prog} -i edits files in place")
        for f in files:
            r.write_path(f, ctx, acc, "edit in place")
    else:
        acc.add(S, "shell.sed", f"{prog} (prints)")
        r.read_secret_check(prog, files, ctx, acc)
    return OTHER


def h_write(r, prog, args, metas, ctx, acc, stdin):
    """cp, mv, install, ln: the destination is written; mv also removes its sources."""
    short_arg = {"cp": "tS", "mv": "tS", "install": "mogtSC", "ln": "tS", "ditto": "", "rsync": ""}.get(prog, "")
    o = getopts(args, frozenset(short_arg), frozenset(("--target-directory", "--suffix", "--mode", "--owner",
                                                       "--group", "--backup", "--reflink", "--sparse",
                                                       "--preserve", "--no-preserve")))
    target = _first(o, "t", "--target-directory")
    pos = o.pos
    if prog == "install" and "d" in o.flags:
        for d in pos:
            r.write_path(d, ctx, acc, "create")
        return OTHER
    if target is not None:
        dests, srcs = [target], pos
    elif prog == "ln" and len(pos) == 1:
        dests, srcs = [pos[0].rstrip("/").rsplit("/", 1)[-1]], pos
    elif len(pos) >= 2:
        dests, srcs = [pos[-1]], pos[:-1]
    else:
        acc.add(L, f"shell.{prog}", prog)
        return OTHER
    verb = {"cp": "copy into", "mv": "move into", "install": "install into", "ln": "link at"}.get(prog, "write")
    for d in dests:
        r.write_path(d, ctx, acc, verb)
    if prog == "install" and (_first(o, "o", "--owner") or "") in ("root", "0"):
        acc.add(M, "shell.install.root", "install -o root")
    if prog in ("cp", "install", "ditto"):
        # a copy reads its sources: a private key or credential file copied out of its place is a secret read
        for s in srcs:
            if r._is_secret_path(s, ctx):
                cls = r.pclass(s, ctx)
                what = P.label(cls) if cls in (P.SENSITIVE, P.ENV) else "secrets"
                acc.add(M, "shell.secret_read", f"{prog} reads {_show(s)} ({what}) to copy it")
    if prog == "mv":
        for s in srcs:
            cls = r.pclass(s, ctx)
            if cls in (P.SYSTEM, P.SYSROOT, P.ROOT, P.SENSITIVE, P.HOME):
                acc.add(H, f"shell.mv.{cls}", f"move away {_show(s)} ({P.label(cls)})")
            elif cls == P.ENV:
                acc.add(M, "shell.mv.env", f"move {_show(s)} (.env file)")
    return OTHER


def h_touch(r, prog, args, metas, ctx, acc, stdin):
    short = {"touch": "tdrA", "mkdir": "m", "truncate": "sr", "tee": "", "rmdir": ""}.get(prog, "")
    o = getopts(args, frozenset(short), frozenset(("--mode", "--size", "--reference", "--date")))
    if prog == "rmdir":
        for p in o.pos:
            r.delete_path(p, 0, ctx, acc, "remove directory")
        return OTHER
    verb = {"touch": "touch", "mkdir": "create directory", "truncate": "truncate", "tee": "write"}.get(prog, "write")
    for p in o.pos:
        r.write_path(p, ctx, acc, verb)
        if prog == "tee" and stdin == DOWNLOAD and MARK not in p and len(ctx.downloaded) < 64:
            ctx.downloaded.add(P.normalize(p, ctx.cwd))  # curl URL | tee x.sh: x.sh holds downloaded code
    if not o.pos:
        acc.add(S if prog == "tee" else L, f"shell.{prog}", prog)
    if prog == "tee":
        return stdin
    return OTHER


def h_echo(r, prog, args, metas, ctx, acc, stdin):
    acc.add(S, "shell.echo", f"{prog} (prints text)")
    for m in metas:
        if m and m[1]:
            acc.add(M, "shell.secret_print", f"{prog} prints a secret variable into the agent's context")
            break
    if prog == "echo":
        k = 0
        esc = False
        while k < len(args) and len(args[k]) > 1 and args[k][0] == "-" and set(args[k][1:]) <= set("neE"):
            esc = esc or "e" in args[k]
            k += 1
        text = " ".join(args[k:])
        if esc:
            text = _unescape(text)
        return ("lit", text + "\n")
    # printf FORMAT ARGS
    k = 0
    var = None
    if args and args[0] == "-v" and len(args) > 1:
        k = 2
        var = args[1]
    if var is not None:
        out = h_echo(r, prog, args[2:], metas[2:], ctx, Acc(), stdin)
        ctx.env[var] = out[1] if type(out) is tuple and len(out[1]) <= MAX_VALUE else MARK
        return None
    if k >= len(args):
        return ("lit", "")
    fmt = _unescape(args[k])
    rest = args[k + 1:]
    if "%" not in fmt:
        return ("lit", fmt)
    out = []
    count = max(1, fmt.count("%") - 2 * fmt.count("%%"))
    idx = 0
    for _ in range(64):
        chunk = fmt
        for spec in ("%s", "%b", "%d", "%q", "%i"):
            while spec in chunk:
                val = rest[idx] if idx < len(rest) else ""
                chunk = chunk.replace(spec, val, 1)
                idx += 1
        out.append(chunk.replace("%%", "%"))
        if idx >= len(rest) or count == 0:
            break
    return ("lit", "".join(out))


_ESC = re.compile(r"\\(x[0-9A-Fa-f]{1,2}|0[0-7]{0,3}|[0-7]{1,3}|u[0-9A-Fa-f]{1,4}|.)", re.S)
_ESC_CHARS = {"n": "\n", "t": "\t", "\\": "\\", "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f",
              "r": "\r", "v": "\v", "'": "'", '"': '"'}


def _esc(m) -> str:
    g = m.group(1)
    c = g[0]
    if c in "xu" and len(g) > 1:
        ch = chr(int(g[1:], 16))
        return "\n" if ch == "\x00" else ch
    if c in "01234567":
        ch = chr(int(g, 8) & 0xFF)
        # a NUL byte ends a record for its readers (xargs -0, read -d '', sort -z): read as a new line, never as
        # the mark of a value unknown until run time
        return "\n" if ch == "\x00" else ch
    return _ESC_CHARS.get(g, "\\" + g)


def _unescape(s: str) -> str:
    """echo -e / printf escapes: \\n \\t \\xHH \\0NNN \\NNN \\uHHHH …"""
    if "\\" not in s:
        return s
    return _ESC.sub(_esc, s)


def h_printenv(r, prog, args, metas, ctx, acc, stdin):
    names = [a for a in args if not a.startswith("-")]
    if not names:
        acc.add(M, "shell.env.dump", "printenv prints every environment variable (secrets) into the agent's context")
        return SECRET
    elif any(_is_secret_name(nm) for nm in names):
        acc.add(M, "shell.secret_print", "printenv of a secret variable into the agent's context")
        return SECRET
    else:
        acc.add(S, "shell.read_only", "printenv (read-only)")
    return OTHER


def h_crontab(r, prog, args, metas, ctx, acc, stdin):
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
        elif type(stdin) is tuple and stdin[0] in ("heredoc", "lit"):
            text = stdin[1]
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


def h_firewall(r, prog, args, metas, ctx, acc, stdin):
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
    acc.add(H, "shell.user_admin", f"{prog}: user account change")
    return OTHER


def h_mount(r, prog, args, metas, ctx, acc, stdin):
    if prog in ("zfs", "zpool", "btrfs"):
        pos = [a for a in args if not a.startswith("-")]
        v = pos[0] if pos else ""
        if v in ("list", "status", "get", "iostat", "show", "history", "df", "usage"):
            acc.add(S, "shell.storage.read", f"{prog} {v}")
        elif v in ("destroy", "delete", "labelclear"):
            acc.add(H, "shell.storage.destroy", f"{prog} {v} (destroys data)")
        else:
            acc.add(M, "shell.storage", f"{prog} {v}".strip())
        return OTHER
    if prog == "cryptsetup" and any(a in ("luksFormat", "erase", "luksErase") for a in args):
        acc.add(C, "shell.cryptsetup.format", "cryptsetup luksFormat (erases the device)")
        return OTHER
    if prog == "mdadm" and any(a == "--zero-superblock" for a in args):
        acc.add(C, "shell.mdadm.zero", "mdadm --zero-superblock")
        return OTHER
    if prog in ("lvremove", "vgremove", "pvremove"):
        acc.add(H, "shell.storage.destroy", f"{prog} (removes a volume)")
        return OTHER
    if prog == "mount" and not [a for a in args if not a.startswith("-")]:
        acc.add(S, "shell.mount.list", "mount (lists mounts)")
        return OTHER
    acc.add(M, f"shell.{prog}", f"{prog} (changes mounts or volumes)")
    return OTHER


def h_sysctl(r, prog, args, metas, ctx, acc, stdin):
    if any(a in ("-w", "--write", "-p", "--load", "--system") for a in args) or any(
            "=" in a and not a.startswith("-") for a in args):
        acc.add(H, "shell.sysctl.write", "sysctl changes kernel parameters")
    else:
        acc.add(S, "shell.read_only", "sysctl (reads)")
    return OTHER


def h_ip(r, prog, args, metas, ctx, acc, stdin):
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


def h_redis(r, prog, args, metas, ctx, acc, stdin):
    o = getopts(args, frozenset("hpanurs"), frozenset(("--user", "--pass", "--tls", "--cacert")), stop_at_pos=True)
    cmd = o.pos[0].upper() if o.pos else ""
    if not cmd:
        acc.add(L, "shell.redis", "interactive redis-cli")
    elif cmd in ("FLUSHALL", "FLUSHDB", "SHUTDOWN", "DEBUG", "SWAPDB"):
        acc.add(H, "shell.redis.flush", f"redis {cmd} (deletes every key)")
    elif cmd == "CONFIG" and len(o.pos) > 1 and o.pos[1].upper() == "SET":
        acc.add(H, "shell.redis.config", "redis CONFIG SET")
    elif cmd in ("GET", "MGET", "KEYS", "SCAN", "INFO", "PING", "TTL", "PTTL", "TYPE", "EXISTS", "HGET", "HGETALL",
                 "LRANGE", "SMEMBERS", "ZRANGE", "DBSIZE", "MONITOR", "SLOWLOG", "CLIENT", "MEMORY", "LLEN", "SCARD",
                 "HLEN", "STRLEN", "--SCAN", "--BIGKEYS", "--STAT", "--LATENCY"):
        acc.add(S, "shell.redis.read", f"redis {cmd} (reads)")
    else:
        acc.add(M, "shell.redis.write", f"redis {cmd} (writes data)")
    return OTHER


_SQL_OPTS = {
    # program: (short options with argument, SQL option letters, long SQL options, file option letters)
    "psql": ("cdfhpUvoLFRPT", "c", ("--command",), "f"),
    "pgcli": ("dhpUvD", "", (), ""),
    "mysql": ("uhPDSeOT", "e", ("--execute",), ""),
    "mariadb": ("uhPDSeOT", "e", ("--execute",), ""),
    "mycli": ("uhPDSe", "e", ("--execute",), ""),
    "sqlcmd": ("SUPdQqiovs", "Qq", ("--query",), "i"),
    "clickhouse-client": ("hqudP", "q", ("--query",), ""),
    "clickhouse": ("hqudP", "q", ("--query",), ""),
    "snowsql": ("qafudrswh", "q", ("--query",), "f"),
    "cockroach": ("e", "e", ("--execute",), ""),
    "duckdb": ("cs", "cs", ("-c", "-s"), ""),
    "trino": ("", "", ("--execute",), "f"),
    "presto": ("", "", ("--execute",), "f"),
    "spark-sql": ("ef", "e", (), "f"),
    "hive": ("ef", "e", (), "f"),
    "beeline": ("unpeuf", "e", (), "f"),
    "usql": ("cf", "c", ("--command",), "f"),
    "vsql": ("cfhUdwp", "c", ("--command",), "f"),
    "cqlsh": ("upkfe", "e", ("--execute",), "f"),
}


def h_setfacl(r, prog, args, metas, ctx, acc, stdin):
    """setfacl: grants permissions like chmod; ``-R`` on a system directory is CRITICAL like ``chmod -R``."""
    o = getopts(args, frozenset("mxMX"), frozenset(("--modify", "--remove", "--set", "--modify-file",
                                                      "--remove-file", "--set-file")))
    rec = "R" in o.flags or "--recursive" in o.longs
    _perm_targets(r, prog, rec, list(o.pos), ctx, acc)
    return OTHER


def h_db_change(r, prog, args, metas, ctx, acc, stdin):
    """createuser, pg_restore (table :data:`DB_CHANGERS`): HIGH with the options that grant or drop, else
    MEDIUM (they change a database)."""
    high, what_high, what = T.DB_CHANGERS[prog]
    if any(a.split("=", 1)[0] in high or (a.startswith("-") and not a.startswith("--") and
                                          any(f"-{ch}" in high for ch in a[1:])) for a in args):
        acc.add(H, f"shell.{prog}", f"{prog} {what_high}")
    else:
        acc.add(M, f"shell.{prog}", f"{prog} {what}")
    return OTHER


def h_k8s_bundle(r, prog, args, metas, ctx, acc, stdin):
    """Kubernetes distributions (table :data:`K8S_BUNDLES`): ``microk8s kubectl …``, ``minikube kubectl -- …``
    are read as the bundled tool's command; anything else is a program not known to be read-only."""
    tools = T.K8S_BUNDLES[prog]
    pos = [k for k, a in enumerate(args) if not a.startswith("-")]
    if pos and args[pos[0]] in tools:
        rest = args[pos[0] + 1:]
        if rest[:1] == ["--"]:
            rest = rest[1:]
        return r.run_argv([args[pos[0]], *rest], [None] * (len(rest) + 1), ctx, acc, stdin)
    acc.add(L, "shell.program", f"{prog} (not known to be read-only)")
    return OTHER


def h_db_drop(r, prog, args, metas, ctx, acc, stdin):
    """dropdb, dropuser (PostgreSQL clients): drop a database or a role, like SQL ``DROP DATABASE``."""
    what = T.DB_DROPPERS.get(prog, "a database")
    acc.add(H, "shell.sql.drop", f"{prog} (drops {what}, like SQL DROP)")
    return OTHER


def _secret_printed(prog: str, args: list) -> str | None:
    """The secret-printing command of table :data:`SECRET_PRINTERS` that ``args`` run (``vault kv get``,
    ``gpg --export-secret-keys``, ``gh auth token``, ``heroku config``), or None."""
    table = T.SECRET_PRINTERS.get(prog)
    if not table:
        return None
    pos = [a for a in args if not a.startswith("-")]
    shorts = "".join(a[1:] for a in args if a.startswith("-") and not a.startswith("--"))
    for a in args:
        if a.startswith("--") and a.split("=", 1)[0] in table:
            word = a.split("=", 1)[0]
            break
    else:
        word = " ".join(pos[:2]) if " ".join(pos[:2]) in table else pos[0] if pos and pos[0] in table else None
    if word is not None and (not table[word] or any(ch in shorts for ch in table[word])):
        return word
    return None


def _secret_read(prog: str, word: str, acc: Acc):
    acc.add(M, "shell.secret_read", f"{prog} {word} prints a secret into the agent's context")
    return SECRET


def h_secret_printer(r, prog, args, metas, ctx, acc, stdin):
    """gpg --export-secret-keys, security find-generic-password -w … (table SECRET_PRINTERS): the output is a
    secret (MEDIUM to read into the agent's context; the pipe data flow carries it on)."""
    word = _secret_printed(prog, args)
    if word is not None:
        return _secret_read(prog, word, acc)
    acc.add(L, "shell.program", f"{prog} (not known to be read-only)")
    return OTHER


def h_sql_client(r, prog, args, metas, ctx, acc, stdin):
    short, sql_letters, sql_longs, file_letters = _SQL_OPTS.get(prog, ("", "", (), ""))
    long_arg = frozenset(("--command", "--execute", "--query", "--dbname", "--host", "--port", "--username",
                          "--user", "--file", "--set", "--variable", "--database", "--password", "--output"))
    o = getopts(args, frozenset(short), long_arg)
    sqls: list = []
    for ch in sql_letters:
        sqls.extend(o.vals.get(ch, ()))
    for nm in sql_longs:
        v = o.longs.get(nm)
        if isinstance(v, str):
            sqls.append(v)
    has_file = any(ch in o.flags for ch in file_letters) or "--file" in o.longs
    pos = o.pos
    if prog in ("sqlite3", "sqlite", "duckdb", "litecli") and len(pos) > 1:
        sqls.extend(pos[1:])
    if prog == "bq":
        if pos and pos[0] == "query":
            sqls.extend(pos[1:][-1:])
        elif pos and pos[0] in ("rm", "delete"):
            acc.add(H, "shell.bq.rm", "bq rm (deletes a table or dataset)")
            return OTHER
        elif pos and pos[0] in ("ls", "show", "head", "help", "version"):
            acc.add(S, "shell.sql.read", f"bq {pos[0]}")
            return OTHER
    if prog == "cockroach" and pos and pos[0] != "sql":
        acc.add(M, "shell.program", f"cockroach {pos[0]}")
        return OTHER
    # SQL files: `-f FILE`/`--file=FILE`; `-` and /dev/stdin are the input (psql also runs it after -c),
    # `<(cmd)` holds cmd's output, a file written or downloaded just before is that text
    files = [v for ch in file_letters for v in o.vals.get(ch, ())]
    fl = o.longs.get("--file")
    if isinstance(fl, str):
        files.append(fl)
    sources: list = []
    for m in metas:
        if m and type(m[0]) is tuple and m[0][0] == "proc":
            sources.append(m[0][1])  # psql -f <(echo 'DROP TABLE t')
    reads_stdin = not sqls or any(f in ("-", "/dev/stdin", "/proc/self/fd/0") for f in files)
    for f in files:
        if MARK in f or f in ("-", "/dev/stdin", "/proc/self/fd/0"):
            continue
        key = P.normalize(f, ctx.cwd)
        if _downloaded(ctx, key):
            sources.append(DOWNLOAD)
        elif key in ctx.written:
            sources.append(("lit", ctx.written[key]))
    if reads_stdin and stdin is not None:
        sources.append(stdin)
    for src in sources:
        if type(src) is tuple and src[0] in ("heredoc", "lit"):
            sqls.append(src[1])
        elif src == DOWNLOAD:
            acc.add(H, "sql.download", f"{prog} runs downloaded SQL")
        elif src == DECODED:
            acc.add(H, "sql.decoded", f"{prog} runs decoded SQL")
    if sqls:
        for sql in sqls:
            if MARK in sql:
                acc.add(M, "sql.dynamic", f"{prog} runs SQL built at run time")
            tier, rule, reason, _ok = classify_sql(sql.replace(MARK, " "))
            acc.add(tier, rule, f"{reason} via {prog}")
            for cmd in sql_shell_commands(sql):
                acc.add(M, "sql.shell", f"{prog} runs a shell command")
                r.run_text(cmd, ctx.child(), acc)
        return OTHER
    if has_file or stdin is not None or sources:
        acc.add(M, "sql.file", f"{prog} runs SQL from a file or its input")
        return OTHER
    acc.add(L, "sql.interactive", f"interactive {prog}")
    return OTHER


def _package_runner_argv(prog, args):
    """``npx rimraf /``, ``bunx x``, ``pnpm dlx x``, ``yarn dlx x``, ``bun x x``, ``pipx run x``, ``uvx x``:
    the command the fetched package runs, or None."""
    i = 0
    if prog in ("pnpm", "yarn", "bun", "pipx"):
        if not args or args[0] not in ("dlx", "x", "run"):
            return None
        i = 1
    n = len(args)
    while i < n and args[i].startswith("-"):
        i += 2 if args[i] in ("-p", "--package", "--spec", "-c", "--call") else 1
    return args[i:] if i < n else None


def _publish_command(prog: str, args: list, pos: list):
    """The reason a call publishes (tables :data:`PUBLISHERS`, :data:`PUBLISH_TASKS`), or None."""
    tasks = T.PUBLISH_TASKS.get(prog)
    if tasks is not None:
        remote, local = tasks
        for a in pos:
            task = a.rsplit(":", 1)[-1] if not a.startswith(remote) else a
            if task.startswith(remote) and task not in local:
                return f"{prog} {a} (publishes to a repository)"
        return None
    if prog not in T.PUBLISHERS:
        return None
    pub = T.PUBLISHERS[prog]
    sub = pos[0] if pos else ""
    if pub is None:
        return f"{prog} {sub}".strip() + " (publishes to a registry)"
    for entry in pub:
        words = entry.split()
        if (words[0] if words else "") != sub:
            continue
        more = words[1:]
        if not more or (more[0].startswith("-") and more[0] in args) or pos[1:2] == more[:1]:
            if words[-1:] == ["publish"] or not more and sub in ("push", "upload", "release", ""):
                return f"{prog} {entry}".strip() + " (publishes to a registry)"
            return f"{prog} {entry} (changes a package published on a registry)"
    return None


def h_pkg(r, prog, args, metas, ctx, acc, stdin):
    pos = [a for a in args if not a.startswith("-")]
    sub = pos[0] if pos else ""
    if prog in T.PACKAGE_RUNNERS or prog in T.INSTALLERS:
        for a in args:
            v = a.split("=", 1)[1] if a.startswith("--") and "=" in a else a
            if v.startswith(T.REMOTE_CODE_PREFIXES) and (prog in T.PACKAGE_RUNNERS or sub == "run"):
                acc.add(H, "shell.download_exec", f"{prog} runs code fetched from {_show(v)}")
                return OTHER
    if prog in T.PACKAGE_RUNNERS:
        run = _package_runner_argv(prog, args)
        if run:
            # the fetched tool's command counts too (npx rimraf / is a recursive delete of /)
            r.run_argv(run, [None] * len(run), ctx.child(), acc, stdin)
    pub = _publish_command(prog, args, pos)
    if pub is not None:
        acc.add(H, "shell.publish", pub)
        return OTHER
    inst = T.INSTALLERS.get(prog, ())
    if prog == "yarn" and not pos and not [a for a in args if a not in ("--frozen-lockfile", "--immutable") and (
            "=" not in a)]:
        acc.add(M, "shell.install", "yarn (installs packages)")
        return OTHER
    modes = T.INSTALLER_MODE_LETTERS.get(prog, "")
    if inst is None or sub in (inst or ()) or any(a in (inst or ()) for a in args if a.startswith("-")) or any(
            len(a) > 1 and a[0] == "-" and a[1] in modes for a in args):
        if prog == "uv" and sub == "pip" and (len(pos) < 2 or pos[1] not in ("install", "sync")):
            acc.add(S if len(pos) > 1 and pos[1] in ("list", "show", "freeze", "check", "tree") else L,
                    "shell.pkg", f"uv pip {pos[1] if len(pos) > 1 else ''}".strip())
            return OTHER
        if prog == "uv" and sub == "tool" and (len(pos) < 2 or pos[1] not in ("install", "run")):
            acc.add(L, "shell.pkg", "uv tool")
            return OTHER
        if prog == "go" and sub == "get" and not pos[1:]:
            acc.add(L, "shell.pkg", "go get")
            return OTHER
        acc.add(M, "shell.install", f"{prog} {sub} (package install)".replace("  ", " "))
        return OTHER
    if sub in ("list", "ls", "show", "info", "view", "search", "outdated", "freeze", "check", "why", "doctor",
               "config", "help", "version", "env", "which", "policy", "shellenv", "--version", "prefix", "root",
               "whoami", "audit", "explain", "tree", "home", "cache-dir"):
        if not (sub == "audit" and "fix" in pos) and not (sub == "config" and any(x in pos for x in ("set", "delete"))):
            acc.add(S, "shell.pkg.read", f"{prog} {sub} (read-only)")
            return OTHER
        acc.add(M, "shell.install", f"{prog} {sub} fix")
        return OTHER
    acc.add(L, "shell.program", f"{prog} {sub}".strip())
    return OTHER


def h_deploy(r, prog, args, metas, ctx, acc, stdin):
    subs = T.DEPLOY_TOOLS.get(prog, ())
    pos = [a for a in args if not a.startswith("-")]
    sub = pos[0] if pos else ""
    pub = _publish_command(prog, args, pos)
    if pub is not None:
        acc.add(H, "shell.publish", pub)
        return OTHER
    word = _secret_printed(prog, args)
    if word is not None:
        return _secret_read(prog, word, acc)
    if prog == "helm":
        if sub in ("uninstall", "delete", "del"):
            acc.add(H, "shell.helm.uninstall", f"helm {sub} (removes a release)")
            return OTHER
        if sub in ("list", "ls", "status", "get", "show", "search", "history", "version", "env", "template", "lint",
                   "verify", "help", "dependency", "repo", "pull", "fetch", "diff", "plugin", "package", "completion"):
            acc.add(S if sub not in ("repo", "pull", "fetch", "dependency", "package", "plugin") else L,
                    "shell.helm.read", f"helm {sub}")
            return OTHER
    if prog in ("pulumi", "cdk"):
        return h_iac(r, prog, args, metas, ctx, acc, stdin)
    deploys = (not subs and (not sub or sub in ("deploy", "--prod", "up", "publish") or True)) or sub in subs or (
        prog == "gcloud" and "deploy" in pos)
    if prog == "vercel" and sub in ("ls", "list", "inspect", "logs", "whoami", "env", "login", "link", "dev",
                                    "pull", "domains", "dns"):
        deploys = False
    if prog == "heroku" and sub not in subs:
        deploys = sub.startswith(("ps:", "config:set", "config:unset", "pg:", "apps:", "releases:"))
    if deploys:
        if _prod_in(args) or "--prod" in args or "--production" in args:
            acc.add(H, "shell.deploy.production", f"{prog} {sub} to production".replace("  ", " "))
        else:
            acc.add(M, "shell.deploy", f"{prog} {sub} (deploys)".replace("  ", " "))
    else:
        acc.add(L, "shell.program", f"{prog} {sub}".strip())
    return OTHER


#: options of cloud CLIs before their command words that take a value (``aws --profile prod …``); aws's own
#: options all take one but these (``aws --debug …``)
_CLOUD_VALUE_OPTS = frozenset(("--project", "--account", "--configuration", "--format", "--zone", "--region",
                               "--verbosity", "--impersonate-service-account", "--billing-project", "--flags-file",
                               "--subscription", "--resource-group", "-g", "--output", "-o", "--query",
                               "--context", "--profile", "--config", "--api-url", "--endpoint"))
_AWS_FLAGS = frozenset(("--debug", "--no-verify-ssl", "--no-paginate", "--no-cli-pager", "--cli-auto-prompt",
                        "--no-cli-auto-prompt", "--no-sign-request"))
#: first words of the operation of a cloud CLI call (``describe-instances``, ``add-iam-policy-binding``):
#: the command words end there, the words after it name resources
_CLOUD_OPS = frozenset("""describe list get show ls create delete update set add remove deploy start stop restart
run ssh scp patch apply import export enable disable attach detach put rm rb cp mv sync destroy terminate access
login logout reset resize move rename grant revoke invoke call exec connect tail read write upload download print
decrypt encrypt assume modify replace purge deregister register tag untag wait""".split())


def _cloud_command(prog: str, args: list[str]) -> list[str]:
    """The command words of a cloud CLI call: ``aws [options] SERVICE OPERATION``; for the others the words
    before the first option, up to the operation (``gcloud compute instances delete``). Values of options
    (``--role-name describe-lambda``) and resource names after the operation are never command words."""
    words: list[str] = []
    n = len(args)
    i = 0
    while i < n and len(words) < (2 if prog == "aws" else 5):
        a = args[i]
        if a.startswith("-"):
            if prog == "aws":
                if "=" not in a and a not in _AWS_FLAGS:
                    i += 1  # (its value)
            elif words:
                break
            elif "=" not in a and a in _CLOUD_VALUE_OPTS:
                i += 1
        else:
            words.append(a)
            if prog != "aws" and a.lower().split("-", 1)[0] in _CLOUD_OPS:
                break
        i += 1
    return words


def h_cloud(r, prog, args, metas, ctx, acc, stdin):
    """Cloud CLIs (aws, gcloud, az, doctl …), read by their command words (:func:`_cloud_command`): deletes
    HIGH, secrets and credentials read MEDIUM (the output carries the secret on), reads SAFE, deploys, access
    and network changes HIGH or MEDIUM, anything else MEDIUM."""
    cmd = _cloud_command(prog, args)
    verbs = " ".join(cmd).lower()
    words = set(verbs.replace("-", " ").split())
    if prog == "aws" and cmd[:1] == ["s3"]:
        v = cmd[1] if len(cmd) > 1 else ""
        if v == "rb" or (v == "rm" and "--recursive" in args):
            acc.add(H, "shell.cloud.delete", f"aws s3 {v} (deletes a bucket or many objects)")
        elif v == "rm":
            acc.add(M, "shell.cloud.delete", "aws s3 rm")
        elif v in ("ls", "presign"):
            acc.add(S, "shell.cloud.read", "aws s3 ls")
        elif v in ("sync", "cp", "mv") and "--delete" in args:
            acc.add(H, "shell.cloud.delete", f"aws s3 {v} --delete")
        else:
            acc.add(L, "shell.cloud", f"aws s3 {v}")
        return OTHER
    op = cmd[-1].lower() if cmd else ""
    if prog == "aws" and cmd[:2] == ["configure", "get"] and any(_is_secret_name(a.upper()) for a in args[2:]):
        acc.add(M, "shell.secret_read", "aws configure get prints a credential into the agent's context")
        return SECRET
    if words & {"delete", "destroy", "terminate", "remove", "rm", "rb", "purge", "deregister", "revoke", "wipe"}:
        acc.add(H, "shell.cloud.delete", f"{prog} {verbs} (deletes cloud resources)")
    elif (op in _CLOUD_SECRET_OPS or {"secrets", "access"} <= words or ("secret" in words and words & {
            "get", "show", "download"}) or (op.startswith("get-parameter") and "--with-decryption" in args)):
        acc.add(M, "shell.secret_read", f"{prog} {verbs} reads a secret into the agent's context")
        return SECRET
    elif op.split("-", 1)[0] in ("describe", "list", "get", "show", "ls", "tail") or {c.lower() for c in cmd} & {
            "whoami", "version", "help", "info"}:
        acc.add(S, "shell.cloud.read", f"{prog} {verbs} (reads)")
    elif words & {"deploy", "release", "publish"}:
        acc.add(H if _prod_in(args) else M, "shell.deploy", f"{prog} {verbs} (deploys)")
    elif words & {"iam", "policy", "role", "firewall", "firewall-rules", "dns", "kms", "secret", "secrets"}:
        acc.add(H, "shell.cloud.iam", f"{prog} {verbs} (access or network change)")
    else:
        acc.add(M, "shell.cloud", f"{prog} {verbs} (changes cloud resources)")
    return OTHER


def h_remote_delete(r, prog, args, metas, ctx, acc, stdin):
    """Deletes of storage tools (table :data:`REMOTE_DELETES`): ``s3cmd del --recursive``, ``mc rm -r``,
    ``hdfs dfs -rm -r``, ``rclone purge`` are recursive deletes (HIGH)."""
    subs = T.REMOTE_DELETES.get(prog, {})
    for j, a in enumerate(args):
        if a.startswith("-"):
            continue
        for key, always in subs.items():
            words = key.split()
            if args[j:j + len(words)] != words:
                continue
            rest = args[j + len(words):]
            recursive = always or any(x in ("--recursive", "-recursive") or (
                # a short flag cluster (-r, -rf, -Rf), not a one-dash word (hdfs -skipTrash)
                x.startswith("-") and not x.startswith("--") and len(x) <= 4 and ("r" in x or "R" in x)) for x in rest)
            if words[-1] in ("rb", "delete-bucket") and any(x in ("--force", "-f") for x in rest):
                recursive = True  # a bucket removed with everything in it
            tgt = next((x for x in rest if not x.startswith("-")), "")
            what = f"{prog} {key}"
            if recursive:
                acc.add(H, "shell.remote_rm.recursive",
                        f"{what}: recursive delete of {_show(tgt) or 'a remote path'} (remote storage)")
            else:
                acc.add(M, "shell.remote_rm", f"{what}: delete of {_show(tgt) or 'a remote path'} (remote storage)")
            return OTHER
        break
    acc.add(L, "shell.program", f"{prog} (not known to be read-only)")
    return OTHER


def h_at(r, prog, args, metas, ctx, acc, stdin):
    if any(a in ("-l", "-r", "-d", "-c") for a in args) or prog == "atq":
        acc.add(S if "-l" in args or prog == "atq" else L, "shell.at", prog)
        return OTHER
    acc.add(M, "shell.at", f"{prog} schedules commands")
    if type(stdin) is tuple and stdin[0] in ("heredoc", "lit"):
        r.run_text(stdin[1], ctx, acc)
    elif stdin is not None and stdin != OTHER:
        acc.add(H, "shell.pipe_exec", f"text piped into {prog}")
    return OTHER


def h_watch(r, prog, args, metas, ctx, acc, stdin):
    o = getopts(args, frozenset("nq"), frozenset(("--interval", "--differences")), stop_at_pos=True)
    if o.pos:
        r.run_text(" ".join(o.pos), ctx, acc)
    return OTHER


def h_script(r, prog, args, metas, ctx, acc, stdin):
    """``script [-c CMD] [FILE [CMD …]]`` records a terminal session to FILE; ``-c CMD`` (and, in the BSD
    spelling, the words after FILE) is a command it runs, read like ``sh -c``."""
    o = getopts(args, frozenset("cTBIOEmo"), frozenset(("--command", "--log-timing", "--log-io", "--log-in",
                                                          "--log-out", "--echo", "--logging-format",
                                                          "--output-limit")))
    cmd = _first(o, "c", "--command")
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
    for cmd in cmds[:32]:
        if not cmd:
            continue
        name, rest = cmd[0], cmd[1:]
        with_arg = T.TMUX_RUNS.get(name)
        if with_arg is not None:
            o = getopts(rest, frozenset(with_arg), stop_at_pos=True)
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
    return OTHER


def h_su(r, prog, args, metas, ctx, acc, stdin):
    o = getopts(args, frozenset("csgG"), frozenset(("--command", "--shell", "--group")))
    acc.add(M, "shell.su", "su (switches user)")
    cmd = _first(o, "c", "--command")
    if cmd:
        r.run_text(cmd, ctx, acc)
    return OTHER


def h_xargs(r, prog, args, metas, ctx, acc, stdin):
    i, n = 0, len(args)
    repl = None
    records = False  # -0 / -d: one item per record (a NUL from printf reads as a new line), not per word
    while i < n:
        a = args[i]
        if a == "--":
            i += 1
            break
        if not a.startswith("-") or a == "-":
            break
        if a in ("-I", "-L", "-n", "-P", "-d", "-E", "-s", "-a", "--arg-file", "--delimiter", "--max-args",
                 "--max-procs", "--max-lines", "--eof", "--max-chars", "--replace"):
            if a in ("-I", "--replace"):
                repl = args[i + 1] if i + 1 < n else "{}"
            if a in ("-d", "--delimiter"):
                records = _unescape(args[i + 1]) if i + 1 < n else True
            i += 2
            continue
        if a.startswith("--delimiter=") or (a.startswith("-d") and not a.startswith("--")):
            records = _unescape(a.split("=", 1)[1] if a.startswith("--") else a[2:])
        elif a == "--null" or (not a.startswith("--") and "0" in a):
            records = True
        if a.startswith("-I") and len(a) > 2:
            repl = a[2:]
        elif a.startswith("-i"):
            repl = a[2:] or "{}"
        elif a.startswith("--replace="):
            repl = a.split("=", 1)[1] or "{}"
        i += 1
    cmd = args[i:] or ["echo"]
    if type(stdin) is tuple and stdin[0] in ("lit", "heredoc"):
        if type(records) is str and len(records) == 1:
            items = stdin[1].split(records)  # -d ,
        else:
            items = stdin[1].split("\n") if repl or records else stdin[1].split()
        items = [x for x in items if x.strip()][:MAX_COMBOS] or [""]
    else:
        items = [MARK]
    c = ctx.child()
    # secret contents read by xargs become the command's arguments (cat .env | xargs curl -d)
    meta = (SECRET, False, None) if stdin == SECRET else None
    if repl:
        for it in items:
            argv = [x.replace(repl, it) for x in cmd]
            r.run_argv(argv, [meta if repl in x else None for x in cmd], c, acc, None)
    else:
        argv = cmd + items if items != [""] else list(cmd)
        r.run_argv(argv, [None] * len(cmd) + [meta] * (len(argv) - len(cmd)), c, acc, None)
    return OTHER


_EX_MODE = frozenset(("ed", "red", "ex"))


def h_editor(r, prog, args, metas, ctx, acc, stdin):
    spec = T.OPTION_EFFECTS.get(prog)
    files = parse_fx(spec, args)[1] if spec else [a for a in args if not a.startswith(("-", "+"))]
    if type(stdin) is tuple and stdin[0] in ("heredoc", "lit") and spec is not None and "-" not in files:
        # commands read from the input: ed/ex (and vim -e/-es) read ex commands, vim reads keys (`:` lines)
        ex_mode = prog in _EX_MODE or any(a in ("-e", "-E", "-es", "-Es") for a in args)
        r.ex_effects(prog, "input", _ex_effects(stdin[1], lines_are_keys=not ex_mode), ctx, acc)
    files = [f for f in files if f != "-"]
    for f in files:
        r.write_path(f, ctx, acc, f"edit ({prog})")
    if not files:
        acc.add(L, "shell.editor", prog)
    return OTHER


def h_ssh_keygen(r, prog, args, metas, ctx, acc, stdin):
    o = getopts(args, frozenset("fbtCNnOVZaEIzmrwDGPRYSs"))
    f = _first(o, "f")
    if o.flags & {"l", "y", "F", "L"} and not o.flags & {"R"}:
        acc.add(S, "shell.read_only", "ssh-keygen (reads)")
        return OTHER
    if f:
        r.write_path(f, ctx, acc, "write key")
        r.write_path(f + ".pub", ctx, acc, "write key")
    else:
        acc.add(L, "shell.ssh_keygen", "ssh-keygen writes a key")
    return OTHER


_TARS = frozenset(("tar", "gtar", "bsdtar"))
_TAR_OLD_ARGS = "bfFgIKLNTVXC"  # letters of an old-style first word (`tar czf x.tgz`) that take the next word
_TAR_MODES = {"--create": "c", "--append": "r", "--update": "u", "--catenate": "A", "--concatenate": "A",
              "--extract": "x", "--get": "x", "--list": "t"}


def _tar_old_style(args: list) -> list:
    """``tar czf x.tgz dir`` as ``tar -c -z -f x.tgz dir``."""
    first = args[0] if args else ""
    if not first or first[0] == "-" or not first.isalpha() or len(first) > 16:
        return args
    out: list = []
    k = 1
    for ch in first:
        out.append("-" + ch)
        if ch in _TAR_OLD_ARGS and k < len(args):
            out.append(args[k])
            k += 1
    return out + args[k:]


def h_tar(r, prog, args, metas, ctx, acc, stdin):
    args = _tar_old_style(args)
    spec = T.OPTION_EFFECTS[prog]
    mode: set = set()
    for a in args:
        if a.startswith("--"):
            mode.add(_TAR_MODES.get(a.split("=", 1)[0], ""))
        elif a.startswith("-"):
            for ch in a[1:]:
                if ch in spec[0]:
                    mode.add(ch)
                    break
                mode.add(ch)
    if "t" in mode:
        acc.add(S, "shell.read_only", f"{prog} (lists)")
        return OTHER
    if mode & {"c", "r", "u", "A"}:
        # the archive is written
        for _, opt, val in parse_fx(spec, args)[0]:
            if opt in ("-f", "--file") and val and val != "-":
                r.write_path(val, ctx, acc, f"{prog} writes the archive")
    o = getopts(args, frozenset("fCT"), frozenset(("--directory", "--file")))
    d = _first(o, "C", "--directory")
    if d and "x" in mode:
        r.write_path((d.rstrip("/") + "/x") if d.strip("/") else "/", ctx, acc, "extract into")
    archive = _first(o, "f", "--file")
    if "x" in mode and (stdin == DOWNLOAD if archive in (None, "-") else _downloaded(ctx, P.normalize(archive, ctx.cwd))):
        # a downloaded archive unpacked: whatever is run from where it went is downloaded code
        if len(ctx.downloaded) < 64:
            ctx.downloaded.add(_DOWNLOADED_DIR + (P.normalize(d, ctx.cwd).rstrip("/") if d else ""))
    acc.add(L, "shell.program", prog)
    return OTHER


#: marks a directory in Ctx.downloaded whose files all came from a download (an unpacked archive); with no
#: directory after it, the working directory
_DOWNLOADED_DIR = "\x00dir:"


def _downloaded(ctx: Ctx, key: str) -> bool:
    """Whether the file ``key`` (normalized) is downloaded code: downloaded itself, or inside a directory a
    downloaded archive was unpacked into."""
    if key in ctx.downloaded:
        return True
    for d in ctx.downloaded:
        if d.startswith(_DOWNLOADED_DIR):
            base = d[len(_DOWNLOADED_DIR):]
            if (not base and not key.startswith(("/", "~"))) or (base and key.startswith(base + "/")):
                return True
    return False


def h_netcat(r, prog, args, metas, ctx, acc, stdin):
    if any(a in ("-e", "-c", "--exec", "--sh-exec", "--lua-exec") or (a.startswith("-") and not a.startswith("--")
                                                                       and ("e" in a or "c" in a)) for a in args):
        acc.add(H, "shell.netcat.exec", f"{prog} -e gives a shell to the network")
    elif any(a.startswith("EXEC:") or a.startswith("SYSTEM:") for a in args):
        acc.add(H, "shell.netcat.exec", f"{prog} runs a program for the network")
    else:
        acc.add(L, "shell.program", prog)
    return OTHER


def h_mongo(r, prog, args, metas, ctx, acc, stdin):
    code = " ".join(a for a in args if not a.startswith("-"))
    low = code.replace(" ", "").lower()
    if any(k in low for k in ("dropdatabase(", ".drop(", "deletemany({})", "remove({})", "dropallusers(")):
        acc.add(H, "shell.mongo.drop", f"{prog} deletes a database or collection")
    elif any(a in ("--eval", "-e") for a in args):
        acc.add(M, "shell.mongo.eval", f"{prog} --eval runs database code")
    else:
        acc.add(L, "shell.program", prog)
    return OTHER


def h_downloader(r, prog, args, metas, ctx, acc, stdin):
    """aria2c, axel, … (table DOWNLOADERS): the file they write is downloaded code if run later."""
    opts = T.DOWNLOADERS[prog]
    for k, a in enumerate(args):
        name = None
        if a in opts and k + 1 < len(args):
            name = args[k + 1]
        elif a.startswith("--") and "=" in a and a.split("=", 1)[0] in opts:
            name = a.split("=", 1)[1]
        if name and len(ctx.downloaded) < 64:
            ctx.downloaded.add(P.normalize(name, ctx.cwd))
    for u in args:
        if "://" in u and len(ctx.downloaded) < 64:
            name = u.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]
            if name:
                ctx.downloaded.add(P.normalize(name, ctx.cwd))
    acc.add(L, "shell.http.download", f"{prog} downloads to a file")
    return OTHER


def h_invoke_expression(r, prog, args, metas, ctx, acc, stdin):
    """PowerShell ``iex``/``Invoke-Expression``: eval (HIGH), of a download when ``iwr``/``DownloadString`` is named."""
    text = " ".join(args)
    if any(w in text.lower() for w in T.PWSH_DOWNLOAD_WORDS) or stdin == DOWNLOAD:
        acc.add(H, "shell.download_exec", f"{prog} runs downloaded code")
    acc.add(H, "shell.eval", f"{prog} (PowerShell eval) runs text built at run time")
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
            _scan_code(r, c, ctx, acc, None)
    return OTHER


def h_unzip(r, prog, args, metas, ctx, acc, stdin):
    o = getopts(args, frozenset("dx"))
    d = _first(o, "d")
    if d:
        r.write_path((d.rstrip("/") + "/x") if d.strip("/") else "/", ctx, acc, "extract into")
    acc.add(L, "shell.program", prog)
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


def _remote_command(r, cmd: list, ctx, acc, stdin) -> None:
    """A command run on other hosts, read as shell (its words joined as the remote shell joins them), with no
    working directory or workspace of ours."""
    if not cmd:
        return
    c = ctx.child(deeper=True)
    c.cwd = c.ws = None
    r.run_text(" ".join(cmd), c, acc)


def h_remote_runner(r, prog, args, metas, ctx, acc, stdin):
    """Programs that run one command on other hosts, like ``ssh host CMD`` (table :data:`REMOTE_RUNNERS`):
    ``pdsh -w hosts CMD``, ``pssh -h hosts CMD``, ``mosh host -- CMD``: MEDIUM and the command's tier."""
    with_arg, skip = T.REMOTE_RUNNERS[prog]
    pos: list = []
    i, n = 0, len(args)
    while i < n:
        a = args[i]
        if a == "--":
            pos.extend(args[i + 1:])
            break
        if a.startswith("-") and len(a) > 1 and (not pos or len(pos) < skip):  # (options before the command)
            if a in with_arg:
                i += 1
        else:
            pos.append(a)
            if len(pos) > skip:
                pos.extend(args[i + 1:])
                break
        i += 1
    cmd = pos[skip:]
    if prog == "mosh" and not cmd:
        acc.add(M, "shell.remote", f"{prog}: interactive session on {pos[0] if pos else 'a remote host'}")
        return OTHER
    acc.add(M, "shell.remote", f"{prog} runs a command on remote hosts")
    _remote_command(r, cmd, ctx, acc, stdin)
    return OTHER


def h_salt(r, prog, args, metas, ctx, acc, stdin):
    """``salt TARGET FUNCTION ARGS``: remote execution like ad-hoc ``ansible`` (MEDIUM); ``cmd.run`` and the like
    run their arguments as a shell command (its tier counts), state functions apply states like
    ``ansible-playbook`` (HIGH)."""
    o = getopts(args, frozenset("tbcsldi"), T.SALT_OPTS_WITH_ARG - {"-t", "-b", "-c", "-s", "-l", "-d", "-i"})
    pos = o.pos
    func = pos[1] if len(pos) > 1 else ""
    acc.add(M, "shell.salt", f"{prog} runs {func or 'a function'} on remote hosts")
    if func in T.SALT_STATE_FUNCS:
        acc.add(H, "shell.salt.state", f"{prog} {func} (applies states that change hosts)")
    elif func in T.SALT_SHELL_FUNCS:
        _remote_command(r, [a for a in pos[2:] if "=" not in a or " " in a][:1] or pos[2:3], ctx, acc, stdin)
    return OTHER


def _global_readings(args: list, metas: list, opts: tuple, prog: str, acc: Acc) -> list:
    """The readings of the options before a program's subcommand (table :data:`GLOBAL_OPTS`): each is
    ``(args, metas)`` with every option before the subcommand and its value made one word (``-n prod`` ->
    ``-n=prod``), so the subcommand is the first word not starting with "-" (``helm -n prod uninstall api``).
    An option of neither kind followed by a word may take it as its value or not: both readings are returned
    (the option read as a flag first), so the higher tier decides and an unknown option never hides the
    subcommand behind its value (``helm --x get uninstall api``)."""
    with_val, flags = opts
    readings: list = []
    head: list = []
    hmetas: list = []
    i, n = 0, len(args)
    while i < n:
        a = args[i]
        if a == "--" or a == "-" or not a.startswith("-"):
            break
        m = metas[i] if i < len(metas) else None
        nxt = args[i + 1] if i + 1 < n else None
        if a in with_val and nxt is not None:
            head.append(f"{a}={nxt}")
            hmetas.append(metas[i + 1] if i + 1 < len(metas) else m)
            i += 2
            continue
        known = ("=" in a or a in flags or a in with_val or (
            a[1] != "-" and len(a) > 2 and (a[:2] in with_val or all(f"-{ch}" in flags for ch in a[1:]))))
        if not known and nxt is not None and nxt != "--" and not nxt.startswith("-"):
            if len(readings) >= T.MAX_OPTION_READINGS:
                acc.add(M, "shell.options.unknown", f"{prog}: too many unknown options before its subcommand")
                break
            # reading 1: the option takes no value, the next word is the subcommand
            readings.append((head + args[i:], hmetas + metas[i:]))
            head = head + [f"{a}={nxt}"]
            hmetas = hmetas + [metas[i + 1] if i + 1 < len(metas) else m]
            i += 2
            continue
        head.append(a)
        hmetas.append(m)
        i += 1
    readings.append((head + args[i:], hmetas + metas[i:]))
    return readings


def _globals_first(handler, opts: tuple):
    """``handler`` called with the options before the subcommand read first (:func:`_global_readings`), once per
    reading; what the first reading prints is what the command prints."""

    def h_global_options(r, prog, args, metas, ctx, acc, stdin):
        out = None
        for k, (a, m) in enumerate(_global_readings(args, metas, opts, prog, acc)):
            o = handler(r, prog, a, m, ctx, acc, stdin)
            if k == 0:
                out = o
        return out

    return h_global_options


# ------------------------------------------------------- options that write files or run commands
MAX_FX = 16  # effects (commands, writes) read per command


def parse_fx(spec: tuple, args: list):
    """Read ``args`` by a program's OPTION_EFFECTS entry: ``([(effect or None, option, value)], operands)``;
    options with a value or an effect are listed."""
    shorts, optional, takes, effects, _ = spec
    found: list = []
    pos: list = []
    i, n = 0, len(args)
    while i < n:
        a = args[i]
        i += 1
        if a == "--":
            pos.extend(args[i:])
            break
        if len(a) < 2 or a[0] not in "-+" or a[1].isdigit():
            if len(a) > 1 and a[0] == "-":
                continue  # -5: an old numeric option
            if a[0] == "+" and "+" in effects:
                found.append((effects["+"], "+", a[1:]))
            else:
                pos.append(a)
            continue
        if a[0] == "+":
            if "+" in effects:
                found.append((effects["+"], "+", a[1:]))
            else:
                pos.append(a)
            continue
        if a.startswith("--") or a in takes or shorts is None:
            k, eq, v = a.partition("=") if a.startswith("--") else (a, "", "")
            val = None
            if eq:
                val = v
            elif k in takes and i < n:
                val = args[i]
                i += 1
            fx = effects.get(k)
            if fx is not None or val is not None:
                found.append((fx, k, val))
            continue
        j, m = 1, len(a)
        while j < m:
            ch = a[j]
            key = "-" + ch
            if ch in shorts:
                if j + 1 < m:
                    val = a[j + 1:]
                elif i < n:
                    val = args[i]
                    i += 1
                else:
                    val = ""
                found.append((effects.get(key), key, val))
                break
            if ch in optional:
                found.append((effects.get(key), key, a[j + 1:]))
                break
            fx = effects.get(key)
            if fx is not None:
                found.append((fx, key, None))
            j += 1
    return found, pos


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


def _ex_effects(text: str, lines_are_keys: bool = False):
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
                out.extend(e for e in _ex_effects(lit) if e[0] != "write")
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
                        out.extend(_ex_effects(q[1:-1]))
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
                if cmd.strip():
                    out.append(("cmd", cmd))
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


def _sed_effects(script: str) -> list:
    """What a sed script does besides printing: ``("write", FILE)`` (w, W, s///w), ``("read", FILE)`` (r, R),
    ``("cmd", CMD)`` (e CMD), ``("input_cmd", "")`` (e alone and s///e: the text read runs as a command)."""
    out: list = []
    if not any(ch in script for ch in "wWrRe"):
        return out
    i, n = 0, len(script)

    def eol(k):
        e = script.find("\n", k)
        return n if e < 0 else e

    def skip_delim(k, d):  # k after an opening delimiter: the index after its closing one
        while k < n and script[k] != d:
            k += 2 if script[k] == "\\" else 1
        return k + 1

    while i < n and len(out) < MAX_FX:
        c = script[i]
        if c in " \t\n;{}!":
            i += 1
            continue
        if c == "#":
            i = eol(i)
            continue
        for _ in range(2):  # an address, or two
            if i < n and (script[i].isdigit() or script[i] in "$+~"):
                i += 1
                while i < n and (script[i].isdigit() or script[i] == "~"):
                    i += 1
            elif i < n and script[i] == "/":
                i = skip_delim(i + 1, "/")
            elif i + 1 < n and script[i] == "\\":
                i = skip_delim(i + 2, script[i + 1])
            while i < n and script[i] in "IM":
                i += 1
            if i < n and script[i] == ",":
                i += 1
                continue
            break
        while i < n and script[i] in " \t!":
            i += 1
        if i >= n:
            break
        cmd = script[i]
        i += 1
        if cmd in "aic":
            while True:
                e = eol(i)
                if e > i and script[e - 1] == "\\" and e < n:
                    i = e + 1
                    continue
                i = e
                break
        elif cmd in "wWrRe":
            e = eol(i)
            arg = script[i:e].strip()
            i = e
            if cmd == "e":
                out.append(("cmd", arg) if arg else ("input_cmd", ""))
            else:
                out.append(("write" if cmd in "wW" else "read", arg))
        elif cmd in "btT:v":
            while i < n and script[i] not in ";\n":
                i += 1
        elif cmd in "sy":
            if i >= n:
                break
            d = script[i]
            i = skip_delim(i + 1, d)
            i = skip_delim(i, d)
            if cmd == "s":
                while i < n and script[i] in "gpiImMe0123456789w":
                    if script[i] == "e":
                        out.append(("input_cmd", ""))
                    elif script[i] == "w":
                        e = eol(i + 1)
                        out.append(("write", script[i + 1:e].strip()))
                        i = e
                        break
                    i += 1
    return out


def _build_handlers() -> dict:
    h: dict = {}
    for p in ("rm", "unlink", "rmdir_", "srm", "trash", "trash-put") + tuple(T.RECURSIVE_DELETERS):
        h[p] = h_rm
    h["rmdir"] = h_touch
    h["find"] = h_find
    h["chmod"] = h_chmod
    for p in ("chown", "chgrp"):
        h[p] = h_chown
    h["dd"] = h_dd
    for p in ("mke2fs", "mkswap", "mkntfs", "mkdosfs", "newfs", "mformat"):
        h[p] = h_mkfs
    h["wipefs"] = h_wipefs
    h["sgdisk"] = h_sgdisk
    for p in T.PARTITIONERS:
        if p != "sgdisk":
            h[p] = h_partition
    h["parted"] = h_parted
    h["blkdiscard"] = h_blkdiscard
    for p in T.DISK_ERASERS:
        h[p] = h_disk_erase
    h["shred"] = h_shred
    for p in T.POWER_PROGRAMS:
        h[p] = h_power
    for p in ("init", "telinit"):
        h[p] = h_init
    for p in ("loginctl", "kexec"):
        h[p] = h_loginctl
    h["kill"] = h_kill
    for p in ("pkill", "killall", "killall5"):
        h[p] = h_pkill
    h["systemctl"] = h_systemctl
    for p in ("service", "rc-service", "invoke-rc.d"):
        h[p] = h_service
    h["git"] = h_git
    h["gh"] = h_gh
    h["glab"] = h_gh
    h["gdb"] = h_gdb
    for p in T.DOWNLOADERS:
        h[p] = h_downloader
    for p in ("iex", "Invoke-Expression", "invoke-expression"):
        h[p] = h_invoke_expression
    for p in ("docker", "podman", "nerdctl", "docker-compose", "podman-compose"):
        h[p] = h_docker
    for p in ("kubectl", "oc", "k", "microk8s.kubectl", "k3s"):
        h[p] = h_kubectl
    for p in T.TERRAFORMS:
        h[p] = h_terraform
    h["ansible-playbook"] = h_ansible_playbook
    h["ansible"] = h_ansible
    h["curl"] = h_curl
    h["wget"] = h_wget
    for p in ("http", "https", "xh", "xhs", "httpie"):
        h[p] = h_httpie
    h["ssh"] = h_ssh
    for p in ("scp", "rsync"):
        h[p] = h_scp
    for p in T.SHELLS:
        h[p] = h_shell
    h["eval"] = h_eval
    for p in ("source", "."):
        h[p] = h_source
    for p in T.INTERPRETERS:
        h[p] = h_interp
    for p in ("python3.8", "python3.9", "python3.10", "python3.11", "python3.12", "python3.13"):
        h[p] = h_interp
    for p in ("awk", "gawk", "mawk", "nawk"):
        h[p] = h_awk
    h["sed"] = h_sed
    h["gsed"] = h_sed
    for p in ("cp", "mv", "install", "ln", "ditto"):
        h[p] = h_write
    for p in ("touch", "mkdir", "truncate", "tee"):
        h[p] = h_touch
    h["crontab"] = h_crontab
    for p in T.FIREWALLS:
        h[p] = h_firewall
    for p in T.USER_ADMIN:
        h[p] = h_user_admin
    for p in T.MOUNTERS:
        h[p] = h_mount
    h["sysctl"] = h_sysctl
    for p in ("ip", "ifconfig", "route", "hostname", "nmcli"):
        h[p] = h_ip
    h["redis-cli"] = h_redis
    for p in T.SQL_CLIENTS:
        h[p] = h_sql_client
    for p in T.DB_DROPPERS:
        h[p] = h_db_drop
    for p in T.DB_CHANGERS:
        h[p] = h_db_change
    for p in T.K8S_BUNDLES:
        h[p] = h_k8s_bundle
    h["setfacl"] = h_setfacl
    for p in set(T.INSTALLERS) | set(T.PUBLISHERS) | T.PACKAGE_RUNNERS:
        if p not in h and p not in T.DEPLOY_TOOLS:  # (a deploy tool's handler reads its publish commands)
            h[p] = h_pkg
    for p in T.DEPLOY_TOOLS:
        if p not in h:
            h[p] = h_deploy
    for p in ("aws", "gcloud", "az", "doctl", "hcloud", "linode-cli", "scw", "oci", "ibmcloud", "gsutil"):
        h[p] = h_cloud
    for p in T.REMOTE_DELETES:
        h.setdefault(p, h_remote_delete)
    for p in ("at", "batch", "atq"):
        h[p] = h_at
    h["watch"] = h_watch
    h["script"] = h_script
    h["tmux"] = h_tmux
    h["screen"] = h_screen
    h["su"] = h_su
    h["xargs"] = h_xargs
    h["parallel"] = h_xargs
    for p in ("vim", "vi", "nvim", "nano", "emacs", "ed", "red", "pico", "micro", "sudoedit", "ex", "view", "vimdiff",
              "gvim", "rvim"):
        h[p] = h_editor
    h["ssh-keygen"] = h_ssh_keygen
    for p in ("tar", "bsdtar", "gtar"):
        h[p] = h_tar
    h["printenv"] = h_printenv
    for p in ("nc", "ncat", "netcat", "socat"):
        h[p] = h_netcat
    for p in ("mongo", "mongosh"):
        h[p] = h_mongo
    h["unzip"] = h_unzip
    for p in ("crictl", "ctr"):
        h[p] = h_docker
    h["ansible-pull"] = h_ansible_playbook
    for p in T.VERB_TABLES:
        h[p] = h_verb_table
    for p in T.DBUS_CLIENTS:
        h[p] = h_dbus
    for p in T.REMOTE_RUNNERS:
        h[p] = h_remote_runner
    for p in ("salt", "salt-ssh"):
        h[p] = h_salt
    for p in T.PUBLISH_TASKS:
        h.setdefault(p, h_pkg)
    for p in T.SECRET_PRINTERS:  # (programs with a handler of their own ask the table there)
        h.setdefault(p, h_secret_printer)
    h.pop("rmdir_", None)
    for p, opts in T.GLOBAL_OPTS.items():
        if p in h:
            h[p] = _globals_first(h[p], opts)
    return h
