"""Small helpers every layer of the shell reader uses: a path shown in a reason (:func:`show`), echo/printf
escapes (:func:`unescape`), secret variable names (:func:`is_secret_name`), production words (:func:`prod_in`).

Add a helper here only when two families (or a family and the walker) need it; otherwise keep it in its module.
"""

from __future__ import annotations

import re

from core.policy import tables as T
from core.policy.shell.state import MARK


def show(p: str) -> str:
    """A path or word for a reason: the unknown mark shown as ``$…``, at most 60 characters."""
    p = p.replace(MARK, "$…")
    return p if len(p) <= 60 else p[:57] + "…"


def is_secret_name(name: str) -> bool:
    """Whether a variable's name says it holds a secret (``API_TOKEN``, ``DB_PASSWORD``; table SECRET_NAME_WORDS)."""
    u = name.upper()
    return any(w in u for w in T.SECRET_NAME_WORDS)


def prod_in(words) -> bool:
    """Whether any of ``words`` names production (``prod``, ``--env=production``, ``api-live``; table PROD_WORDS),
    URLs aside."""
    for w in words:
        if not w or w.startswith("http"):
            continue
        for tok in w.replace("-", " ").replace("_", " ").replace(".", " ").replace("/", " ").replace(
                ":", " ").replace("=", " ").replace("@", " ").split():
            if tok.lower() in T.PROD_WORDS:
                return True
    return False


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


def unescape(s: str) -> str:
    """echo -e / printf escapes: \\n \\t \\xHH \\0NNN \\NNN \\uHHHH …"""
    if "\\" not in s:
        return s
    return _ESC.sub(_esc, s)
