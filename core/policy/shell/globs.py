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


def _translate(pat: str) -> str:
    """A glob as a regular expression over one line (never matching the new lines between names)."""
    out = []
    i, n = 0, len(pat)
    while i < n:
        c = pat[i]
        if c == "*":
            out.append("[^\n]*")
        elif c == "?":
            out.append("[^\n]")
        elif c == "[":
            j = pat.find("]", i + 2)
            if j < 0:
                out.append(re.escape(c))
            else:
                body = pat[i + 1:j]
                neg = body[:1] in ("!", "^")
                body = body[1:] if neg else body
                if "[:" in body:
                    out.append("[^\n]")  # (a character class: any character, fail closed)
                else:
                    out.append(("[^\n" if neg else "[") + body.replace("\\", "\\\\") + "]")
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
        rx = re.compile("^" + _translate(pat) + "$", re.M)
    except re.error:
        rx = re.compile("^[^\n]*$", re.M)  # (a class bash reads otherwise: any program, fail closed)
    return tuple(rx.findall(names))


def program_matches(base: str, names: str) -> tuple:
    """The names (one per line in ``names``) that the glob ``base`` matches, most dangerous first: shells and
    interpreters are in the first lines of ``names``."""
    return _matches(base, names)
