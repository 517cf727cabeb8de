"""Word expansion, as the shell does it before a command runs: variables (``$X``, ``${X:-default}``, loop
variables with several values), unquoted values split at ``IFS``, brace expansion (``{a,b}``, ``{1..3}``),
command and process substitutions (run as nested scripts; their output feeds the word when it is known).

:class:`Expansion` is a mixin of :class:`core.policy.shell.walker.ShellReader` (it runs substitutions with the
reader's ``run_script``). To expand a new form, add its branch to :meth:`Expansion.expand`: the word's parts
come from :mod:`core.policy.shell.syntax.words`.
"""

from __future__ import annotations

import re

from core.policy import _paths as P
from core.policy.shell.common import is_secret_name
from core.policy.shell.decode import FILTERS, static_output
from core.policy.shell.state import (
    DECODED,
    DECODED_TEXT,
    DECODED_VAR,
    MARK,
    MAX_VALUE,
    OTHER,
    SECRET,
    SECRET_REF,
    Acc,
    Ctx,
    FileInput,
    ProcOutput,
    TextInput,
    bounded,
    held_text,
)
from core.policy.shell.syntax import ARITH, LIT, PARAM, VAR, Group, Simple

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


#: classes of a reassigned HOME that ``~`` is read as (a system place; anything else stays the home)
_SYSTEM_HOMES = frozenset((P.ROOT, P.SYSROOT, P.SYSTEM, P.SENSITIVE))

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


#: variables whose value, when the text does not set it, is the running shell (its directory not known here)
SHELL_VARS = ("SHELL", "BASH", "0")
#: a program's name as ``which``, ``command -v`` and ``type -P`` print its path
_PROGRAM_NAME = re.compile(r"[A-Za-z_][\w.+-]{0,63}")


def looked_up(script: list) -> str:
    """What a substitution prints when it looks a program up (``$(which sh)``, ``$(command -v bash)``,
    ``$(type -P python3)``): ``/NAME``, the name of the path it prints (its directory is not known here);
    "" for any other substitution."""
    if len(script) != 1 or type(script[0][0]) is not Simple:
        return ""
    words = [w.lit for w in script[0][0].words[:4]]
    if len(words) < 2 or None in words:
        return ""
    prog = words[0].rsplit("/", 1)[-1]
    names = [w for w in words[1:] if w[:1] != "-"]
    opts = [w for w in words[1:] if w[:1] == "-"]
    if len(names) != 1 or _PROGRAM_NAME.fullmatch(names[0]) is None or not (
            prog == "which" or (prog == "command" and opts[:1] in (["-v"], ["-V"])) or (
            prog in ("type", "whence") and opts[:1] in (["-P"], ["-p"]))):
        return ""
    return "/" + names[0]


def _first_prog(script: list):
    for node, _op in script:
        if type(node) is Simple and node.words:
            w = node.words[0].lit
            if w is None:
                return "?"
            w = w.rsplit("/", 1)[-1]
            if w == "command" and len(node.words) > 1 and node.words[1].lit in ("-v", "-V"):
                return w  # (command -v NAME runs nothing: it prints where NAME is)
            if w in ("sudo", "command", "env", "exec") and len(node.words) > 1:
                w2 = node.words[1].lit
                return (w2 or "?").rsplit("/", 1)[-1]
            return w
        if type(node) is Group:
            return _first_prog(node.body)
    return None


class Expansion:
    """Word expansion (needs the reader's ``run_script``, and ``param_value``/``arith_value`` of
    :class:`core.policy.shell.params.ParamExpansion`)."""

    def tilde(self, lit: str, ctx: Ctx) -> str:
        """A word's tilde prefix as bash expands it: ``~+`` the working directory, ``~-`` the previous one
        (``$OLDPWD``), ``~`` a reassigned ``HOME`` when that names a system place (otherwise ``~`` stays the
        home: a data flow that misses a branch must not make ``rm -rf ~`` less than a home)."""
        c = lit[1:2]
        if c in ("+", "-") and (len(lit) == 2 or lit[2] == "/"):
            if c == "+":
                base = ctx.cwd or "."
            else:
                base = ctx.env.get("OLDPWD", MARK)
                base = base if type(base) is str else MARK
            return base + lit[2:]
        if (c == "" or c == "/") and "HOME" in ctx.env:
            home = ctx.env["HOME"]
            if type(home) is str and home and MARK not in home and self.pclass(home, ctx) in _SYSTEM_HOMES:
                return home.rstrip("/") + lit[1:] if home != "/" else "/" + lit[2:]
        return lit

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
            if name in SHELL_VARS:
                return MARK + "/sh"  # ($SHELL, $0: a shell, wherever it is installed)
            return MARK
        if isinstance(v, list):
            return v[pick.get(name, 0) % len(v)]
        return v

    def expand(self, word, ctx: Ctx, acc: Acc, pick: dict | None = None, split: bool = True):
        """Expand one word; returns ``(fields, meta)`` with meta ``(sub_out, secret_var, sub_prog)``."""
        parts = word.parts
        if word.lit is not None:
            lit = word.lit
            if lit[:1] == "~":
                lit = self.tilde(lit, ctx)
            if "{" in lit and not word.quoted and "}" in lit:
                return _brace_expand(lit), None
            return [lit], None
        pick = pick or {}
        if parts[0][0] == LIT and parts[0][1][:1] == "~":
            parts = [(LIT, self.tilde(parts[0][1], ctx))] + parts[1:]
        fields = [""]
        breaks = False
        sub_out = None
        sub_prog = None
        secret = False
        for p in parts:
            k = p[0]
            if k == LIT:
                fields[-1] += p[1]
            elif k == VAR or k == PARAM:
                name = p[1]
                if is_secret_name(name) or (ctx.flags and SECRET_REF + name in ctx.flags):
                    secret = True  # (a secret's name, or a nameref to one: declare -n r=API_KEY; $r)
                if name in ctx.tainted and sub_out is None:
                    sub_out = SECRET
                if ctx.flags and sub_out is None and DECODED_VAR + name in ctx.flags:
                    sub_out = DECODED
                if k == PARAM:  # ${x#pat}, ${a[i]}, ${x:-$(cmd)} …: computed, substitutions read
                    if p[6] == "!" and name in ctx.env:
                        # ${!X}: the variable whose name X holds is read (X=OPENAI_API_KEY; echo ${!X})
                        ref = self._lookup(name, ctx, pick)
                        ref = ref.split("[", 1)[0] if type(ref) is str else ""
                        if ref and (is_secret_name(ref) or (ctx.flags and SECRET_REF + ref in ctx.flags)):
                            secret = True
                        if ref in ctx.tainted and sub_out is None:
                            sub_out = SECRET
                    val, out = self.param_value(p, ctx, acc, pick)
                    if out is not None and sub_out is None:
                        sub_out = out
                else:
                    val = self._lookup(name, ctx, pick)
                    if val == MARK and len(p) > 3:
                        val = p[3]  # ${X:-default}
                if len(fields[-1]) > MAX_VALUE:
                    fields[-1] = bounded(fields[-1], acc)
                    if fields[-1] == MARK:
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
            elif k == ARITH:  # $((…)): substitutions and variables read as bash evaluates them
                fields[-1] += self.arith_value(p, ctx, acc, pick)
            else:  # SUB
                out = self.run_script(p[1], ctx.child(deeper=True), acc)
                sub_prog = _first_prog(p[1])
                if len(p) > 3:  # <(cmd): a file holding cmd's output
                    fields[-1] += MARK
                    sub_out = ProcOutput(out)
                else:
                    text = None
                    if (type(out) is TextInput or type(out) is FileInput) and MARK not in held_text(out):
                        text = held_text(out)
                    elif (out is DECODED or out is OTHER) and sub_prog in FILTERS:
                        # $(echo L2V0Yy9zaGFkb3c= | base64 -d), $(tr a-z n-za-m <<< …): the decoded text, still
                        # marked as decoded (what runs it is judged as running decoded data)
                        text = static_output(p[1])
                        if text is not None:
                            sub_out = DECODED
                            if text.strip() and len(ctx.flags) < 256:
                                ctx.flags.add(DECODED_TEXT + text.strip())  # (run as a script: decoded data)
                    if text is None:
                        fields[-1] += MARK + looked_up(p[1])  # ($(which sh): a path whose name is known)
                        sub_out = out
                    elif p[2] or not split:
                        fields[-1] += text.rstrip("\n")
                    else:
                        pieces = text.split()
                        if pieces:
                            fields[-1] += pieces[0]
                            fields.extend(pieces[1:])
        if breaks:
            fields = [f for field in fields for f in field.split(_BRK) if f]
        if not word.quoted and fields == [""]:
            fields = []
        if sub_out is None and not secret and sub_prog is None:
            return fields, None
        return fields, (sub_out, secret, sub_prog)

    def expand_words(self, words: list, ctx: Ctx, acc: Acc, pick: dict | None = None):
        """The words of a command expanded: ``(argv, metas)``, one meta per field (what its substitutions printed)."""
        argv: list = []
        metas: list = []
        for w in words:
            fields, meta = self.expand(w, ctx, acc, pick)
            argv.extend(fields)
            metas.extend([meta] * len(fields))
        return argv, metas
