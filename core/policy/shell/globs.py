"""A glob in a program's name (``/bin/ba?h``, ``/sbin/reb??t``, ``/usr/bin/py*3``): bash expands it before the
command runs, so the program is whichever file it matches. :func:`program_matches` gives the program names the
tables know (shells, interpreters, every program with a handler, a table row or a knowledge entry) that the glob
may match; the dispatch reads the command as each of them (:meth:`core.policy.shell.dispatch.Dispatch.run_argv`).

Plain words pay nothing: :func:`has_glob` is a few ``in`` tests, and the names are searched only for a word with
a glob, in one regular-expression pass over all names joined by new lines (about 1,400 names).
"""

from __future__ import annotations

import re
from functools import lru_cache

#: programs read for one glob (the first ones in the order of the names; more are only the MEDIUM floor)
MAX_MATCHES = 8


def has_glob(word: str) -> bool:
    """A program word whose last part bash may expand as a glob (``*``, ``?`` or a ``[…]`` class; not ``[``
    and ``[[``, the test commands)."""
    base = word.rsplit("/", 1)[-1]
    if "*" in base or "?" in base:
        return True
    return "[" in base and "]" in base.split("[", 1)[1] and base not in ("[", "[[")


#: POSIX classes inside ``[…]`` as regular-expression ranges (another class: any character, fail closed)
_CLASSES = {"[:alpha:]": "a-zA-Z", "[:digit:]": "0-9", "[:upper:]": "A-Z", "[:lower:]": "a-z",
            "[:alnum:]": "a-zA-Z0-9", "[:space:]": " \\t\\n", "[:xdigit:]": "0-9a-fA-F"}


def _class_end(pat: str, i: int) -> int:
    """Where the ``[…]`` opened at ``i`` closes (a ``]`` first in it is a member; ``[:digit:]`` inside), or -1."""
    j, n = i + 1, len(pat)
    if j < n and pat[j] in "!^":
        j += 1
    if j < n and pat[j] == "]":
        j += 1
    while j < n:
        if pat.startswith("[:", j):
            k = pat.find(":]", j + 2)
            if k >= 0:
                j = k + 2
                continue
        if pat[j] == "]":
            return j
        j += 2 if pat[j] == "\\" else 1
    return -1


def translate(pat: str, greedy: bool = True, one_line: bool = True) -> str:
    """A bash pattern (``*``, ``?``, ``[…]`` with ``!``/``^`` and POSIX classes, ``\\x``) as a regular
    expression. ``one_line``: never matching a new line (the names of a listing); else for ``re.S``.
    ``greedy=False``: ``*`` matches as little as it can (``${x#pat}``, the shortest prefix)."""
    star, one = ("[^\n]*", "[^\n]") if one_line else (".*", ".")
    if not greedy:
        star += "?"
    out = []
    i, n = 0, len(pat)
    while i < n:
        c = pat[i]
        if c == "*":
            out.append(star)
        elif c == "?":
            out.append(one)
        elif c == "[":
            j = _class_end(pat, i)
            if j < 0:
                out.append(re.escape(c))
            else:
                body = pat[i + 1:j]
                neg = body[:1] in ("!", "^")
                body = body[1:] if neg else body
                body = body.replace("\\", "\\\\")
                for name, chars in _CLASSES.items():
                    body = body.replace(name, chars)
                if "[:" in body:
                    out.append(one)  # (a class not known here: any character, fail closed)
                else:
                    body = body.replace("[", "\\[").replace("]", "\\]")  # (`[]x]`: a member, not the end)
                    out.append(("[^\n" if neg and one_line else "[^" if neg else "[") + body + "]")
                i = j
        elif c == "\\" and i + 1 < n:
            i += 1
            out.append(re.escape(pat[i]))
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


@lru_cache(maxsize=256)
def _matches(pat: str, names: str) -> tuple:
    try:
        rx = re.compile("^" + translate(pat) + "$", re.M)
    except re.error:
        rx = re.compile("^[^\n]*$", re.M)  # (a class bash reads otherwise: any program, fail closed)
    return tuple(rx.findall(names))


def program_matches(base: str, names: str) -> tuple:
    """The names (one per line in ``names``) that the glob ``base`` matches, most dangerous first: shells and
    interpreters are in the first lines of ``names``."""
    return _matches(base, names)
