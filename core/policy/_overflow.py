"""The overflow scan: text past the shell reader's work budget.

A request may hold up to 32 KiB of shell; the detailed reader (:mod:`core.policy.shell`) spends a bounded
amount of work on it (:data:`core.policy.shell.syntax.WORK_UNITS` parser units,
:data:`core.policy.shell.state.MAX_NODES` simple commands). Whatever it did not read is scanned here, linearly and loosely, and this scan can only
RAISE the verdict (fail closed):

* any overflow sets a MEDIUM floor ("too long to read fully");
* quotes and backslashes are dropped and the text is split at every separator (``; & | ( ) { }``, backticks,
  new lines); identical pieces are read once;
* in each piece, every word naming a program with a handler of its own (``rm``, ``find``, ``chmod``, ``dd``,
  ``shutdown``, ``git``, ``curl``, ``sh``, ``python`` …) starts a command that the program tables read as
  usual, with the data flow state (cwd, variables) the detailed reader ended with. So ``echo rm -rf /`` in
  the overflow counts as ``rm -rf /``: past the budget a word is never trusted to be data;
* redirect targets are checked as writes; a piece after ``|`` that starts with a shell or interpreter is
  "text piped into a shell" (HIGH);
* when even this scan runs out of its own budget, the remaining pieces are matched against a short table:
  a power or disk program, or a delete/permission program with a root, home or system target, is CRITICAL;
  any other program with a handler is HIGH.
"""

from __future__ import annotations

from bisect import bisect_left
from itertools import compress, filterfalse, repeat
from operator import itemgetter, ne

from core.policy import _paths as P
from core.policy import tables as T
from core.policy.shell.syntax import new_budget
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL
MARK = P.UNKNOWN_MARK

#: commands the scan reads with the program tables before falling back to the short table
SCAN_COMMANDS = 64
#: different pieces (text between separators) looked at one by one; the rest goes to the short table
SCAN_PIECES = 300
#: words of a scanned command read after its program (plus the dangerous-looking words of its piece)
_WINDOW = 24
#: parser units for scripts found inside the scanned commands (``sh -c``, ``ssh``, ``eval`` …)
SCAN_UNITS = 400

_SEP = "\n"
# (str.replace runs in C over the whole text; a str.translate table with multi-character values does not)
_SCAN_PAIRS = (("'", ""), ('"', ""), ("\\", ""), ("`", _SEP), ("(", _SEP), (")", _SEP), ("{", _SEP), ("}", _SEP),
               (";", _SEP), ("&", _SEP), ("\r", _SEP), ("|", _SEP + "| "), (">", " > "), ("<", " < "), ("\x00", " "))


def _scan_text(text: str) -> str:
    """The text with quotes and backslashes dropped and every separator turned into a new line."""
    for a, b in _SCAN_PAIRS:
        if a in text:
            text = text.replace(a, b)
    return text

_CRITICAL_PROGS = frozenset(("shutdown", "reboot", "halt", "poweroff", "killall5", "mke2fs", "wipefs", "blkdiscard",
                             "sgdisk"))
_TREE_PROGS = frozenset(("rm", "find", "chmod", "chown", "chgrp", "shred", "dd", "rsync", "kill", "terraform", "init",
                         "telinit", "systemctl", "truncate", "mv", "cp"))
_PIPE_SINKS = frozenset(("sh", "bash", "zsh", "dash", "ksh", "fish", "python", "python3", "python2", "perl", "ruby",
                         "node", "php", "pwsh", "powershell", "source", "."))
_CRIT_WORDS = frozenset(("/", "/*", "~", "~/", "~/*", "$HOME", "$HOME/", "$HOME/*", "--no-preserve-root", "-1",
                         "0", "6", "poweroff", "reboot", "halt", "kexec", "destroy", "-destroy"))


def _base(w: str) -> str:
    return w.rsplit("/", 1)[-1] if "/" in w and w != "/" else w


def _critical_word(w: str) -> bool:
    if w in _CRIT_WORDS or w.startswith(("of=/dev/", "/dev/sd", "/dev/nvme", "/dev/vd", "/dev/xvd", "/dev/hd",
                                         "/dev/mmcblk", "/dev/disk", "/dev/mapper")) or "sysrq" in w:
        return True
    if w[:1] == "/":
        top = w[1:].split("/", 1)
        if top[0] in T.TOP_LEVEL_NAMES and (len(top) == 1 or top[1] in ("", "*")):
            return True
        if top[0] in ("home", "Users") and len(top) == 2 and top[1].strip("/*").count("/") == 0:
            return True
    return False


_LAST = itemgetter(2)


def _short_table(words, acc) -> None:
    """Last resort past the scan budget: a table lookup, no parsing (``words``: a list or a text)."""
    text = words if type(words) is str else " ".join(words)
    distinct = set(text.split())
    progs = distinct
    if "/" in text:
        # every word's last path component (/usr/sbin/mkfs → mkfs; none for a/), in C over the distinct words
        progs = set(map(_LAST, map(str.rpartition, distinct, repeat("/"))))
        progs.discard("")
    if not progs.isdisjoint(_CRITICAL_PROGS) or "mkfs" in text:
        acc.add(C, "shell.too_long.critical", "too long to read fully; holds a power or disk command")
        return
    if not progs.isdisjoint(_TREE_PROGS) and any(map(_critical_word, distinct)):
        acc.add(C, "shell.too_long.critical", "too long to read fully; holds a delete or permission change "
                                              "of a root, home or system directory")
        return
    if not progs.isdisjoint(_HANDLED):
        acc.add(H, "shell.too_long.risky", "too long to read fully; holds commands that change things")


_HANDLED: frozenset = frozenset()


def _fork_bomb(text: str, acc) -> None:
    """``f(){ f|f& };f`` anywhere in the unread text."""
    k = text.find("()")
    seen = 0
    names: set = set()
    while k > 0 and seen < 64:
        seen += 1
        j = k
        while j > 0 and k - j < 64 and (text[j - 1].isalnum() or text[j - 1] in "_:.-"):
            j -= 1
        name = text[j:k]
        if name in names:
            k = text.find("()", k + 2)
            continue
        names.add(name)
        if name and (f"{name}|{name}" in text or f"{name} | {name}" in text or f"{name}&" in text):
            acc.add(C, "shell.fork_bomb", "fork bomb (a function that starts copies of itself)")
            return
        k = text.find("()", k + 2)


def _writes(reader, words: list, ctx, acc, done: set) -> list:
    """Check the redirect targets of a scanned piece as writes; returns the other words."""
    rest = []
    k = 0
    n = len(words)
    while k < n:
        w = words[k]
        if w != ">":
            rest.append(w)
            k += 1
            continue
        while k < n and words[k] == ">":
            k += 1
        if k < n:
            tgt = _value(words[k], ctx)
            if tgt not in done and len(done) < 4096:
                done.add(tgt)
                if tgt[:1] in ("/", "~", MARK) or ".env" in tgt or ctx.cwd is not None:
                    reader.write_path(tgt, ctx, acc, "redirect output to")
        k += 1
    return rest


def looks_dangerous(a: str) -> bool:
    """An operand worth keeping when a scanned command is cut short (see ``core.policy.shell.dispatch.looks_dangerous``)."""
    return bool(a) and (a[0] in "/~$-" or a.startswith(("of=", "if=")) or MARK in a)


def scan_overflow(reader, texts: list, ctx, acc) -> None:
    """Scan the texts the detailed reader left unread (see the module docstring); only raises ``acc``."""
    global _HANDLED
    if not _HANDLED:
        _HANDLED = frozenset(reader.handlers) | _CRITICAL_PROGS
    acc.add(M, "shell.too_long", "too long to read fully: the rest was scanned for dangerous commands")
    handled = _HANDLED
    # the scan's own budget; scripts found inside scanned commands are read with it, and what they leave
    # unread goes to the short table only (no second overflow)
    c = ctx.child()
    sink: list = []
    c.budget = new_budget(units=SCAN_UNITS, nodes=SCAN_COMMANDS)
    c.budget.unread = sink
    calls = 0
    seen: set = set()
    seen_cmds: set = set()
    seen_heads: set = set()
    pending = list(texts)
    written: set = set()
    prev_prog = ""
    for ti, text in enumerate(pending):
        if any(map(str.endswith, pending[:ti], repeat(text))):
            continue  # a tail of a text already scanned (the whole text of a damaged command)
        if "()" in text:
            _fork_bomb(text, acc)
        segs = list(filterfalse(seen.__contains__, dict.fromkeys(_scan_text(text).split(_SEP))))  # unique, in order
        for si, seg in enumerate(segs):
            if len(seen) >= SCAN_PIECES:
                # too many different pieces: the rest of this text is matched against the short table at once
                _short_table(" ".join(segs[si:]), acc)
                break
            seen.add(seg)
            words = seg.split()
            if not words:
                continue
            piped = words[0] == "|"
            if piped:
                del words[0]
                if not words:
                    continue
            if ">" in words:
                words = _writes(reader, words, c, acc, written)
                if not words:
                    continue
            w0 = words[0]
            first = _base(w0)
            if piped and first in _PIPE_SINKS:
                if prev_prog in ("curl", "wget", "fetch"):
                    acc.add(H, "shell.download_exec", f"downloaded code piped into {first}")
                else:
                    acc.add(H, "shell.pipe_exec", f"text piped into {first}")
            prev_prog = first
            if handled.isdisjoint(words) and "/" not in seg and "$" not in seg and "mkfs" not in seg:
                continue  # no program with a handler: at most LOW in a full read, under the MEDIUM floor
            if "<" in words:
                words = [w for w in words if w != "<"]
                if not words:
                    continue
            argv = words
            if len(argv) <= 32:
                starts = [k for k, w in enumerate(argv) if _base(w) in handled or w.startswith("mkfs")]
            else:
                # the words naming a handled program, decided once per distinct word (long pieces repeat words)
                progs = {w for w in set(argv) if _base(w) in handled or w.startswith("mkfs")}
                starts = list(compress(range(len(argv)), map(progs.__contains__, argv)))
            if (not starts or starts[0] != 0) and "$" in argv[0]:
                starts.insert(0, 0)
            dollar = "$" in seg
            tail = None
            last = -1  # index in starts of the last command read
            for j in _fresh_heads(argv, starts, seen_heads):
                if calls >= SCAN_COMMANDS:
                    break
                last = j
                k = starts[j]
                seen_heads.add(tuple(argv[k:k + 4]))
                sub = argv[k:k + _WINDOW]
                if len(argv) - k > _WINDOW:
                    if tail is None:
                        tail = [w for w in dict.fromkeys(argv) if looks_dangerous(w)][:_WINDOW]
                    sub += tail
                sub = [sub[0], *dict.fromkeys(sub[1:])]
                if dollar:
                    sub = [_value(w, c) for w in sub]
                key = tuple(sub)
                if key in seen_cmds:
                    continue
                seen_cmds.add(key)
                calls += 1
                reader.run_argv(sub, [None] * len(sub), c, acc, None)
            if calls >= SCAN_COMMANDS and last + 1 < len(starts):
                _short_table(argv[starts[last + 1]:], acc)  # the rest of this piece, once
    for text in sink:
        for seg in _scan_text(text).split(_SEP):
            if seg not in seen:
                seen.add(seg)
                _short_table(seg, acc)


def _fresh_heads(argv: list, starts: list, seen_heads: set) -> list:
    """Indices into ``starts`` of the commands to read, in order: a start whose first four words (its head)
    are in ``seen_heads`` or at an earlier start is a repeat and skipped, unless at most four words follow.
    (The same as testing each start in turn; on long pieces with list operations, tuples and dicts in C.)"""
    n = len(argv)
    if len(starts) <= 8:
        keep = []
        local: set = set()
        for j, k in enumerate(starts):
            head = tuple(argv[k:k + 4])
            if (head in seen_heads or head in local) and n - k > 4:
                continue
            local.add(head)
            keep.append(j)
        return keep
    m = bisect_left(starts, n - 4)  # starts[:m] have more than four words: they may be repeats
    rep = range(m)
    p = _period(argv)
    if p:
        # where argv repeats itself p words back, a start k has the head of the start k - p (the same word,
        # so a start too), which comes first: k is a repeat. Only starts near a break of the pattern are not.
        breaks = _breaks(argv, p, n // 16)
        if breaks is not None:
            near = set()
            for b in breaks:  # argv[b] != argv[b - p]: the heads at b - 3 … b differ from theirs p words back
                near.update(range(b - 3, b + 1))
            lo = min(bisect_left(starts, p), m)
            rep = list(range(lo))
            for k in sorted(near):
                j = bisect_left(starts, k)
                if lo <= j < m and starts[j] == k:
                    rep.append(j)
    ks = list(map(starts.__getitem__, rep))
    heads = list(map(tuple, map(argv.__getitem__, map(slice, ks, map((4).__add__, ks)))))  # argv[k:k + 4]
    first = dict(zip(reversed(heads), reversed(rep), strict=True))  # each head → its first index
    keep = sorted(j for h, j in first.items() if h not in seen_heads)
    keep.extend(range(m, len(starts)))
    return keep


_BLOCK = 256


def _breaks(argv: list, p: int, limit: int) -> list | None:
    """The indices ``i >= p`` with ``argv[i] != argv[i - p]`` (None: more than ``limit``), compared a block at a
    time (list equality in C) and word by word only in blocks that differ."""
    n = len(argv)
    out: list = []
    for i in range(p, n, _BLOCK):
        e = min(i + _BLOCK, n)
        a, b = argv[i:e], argv[i - p:e - p]
        if a != b:
            out.extend(compress(range(i, e), map(ne, a, b)))
            if len(out) > limit:
                return None
    return out


def _period(argv: list) -> int:
    """A guess at the number of words after which a long piece repeats itself (0: none): the distance from
    the word in the middle to its next occurrence."""
    n = len(argv)
    if n < 64:
        return 0
    mid = n // 2
    try:
        return argv.index(argv[mid], mid + 1, min(n, mid + 65)) - mid
    except ValueError:
        return 0


def _value(w: str, ctx) -> str:
    """A word of the scan: ``$NAME`` known from the detailed read is replaced, other ``$`` parts are unknown."""
    if "$" not in w:
        return w
    if w.startswith("$") and w[1:].isidentifier():
        v = ctx.env.get(w[1:])
        if isinstance(v, str):
            return v
        if w[1:] == "HOME":
            return "~"
    head = w.split("$", 1)[0]
    return head + MARK
