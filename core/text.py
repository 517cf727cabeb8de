"""Showing text that an agent wrote to a person, without letting it disguise itself."""

from __future__ import annotations

import re

# C0/C1 control characters (but tab and newline), DEL, bidirectional overrides and isolates
# ("Trojan Source"), zero-width characters and the BOM: each can make shown text differ from the
# text that runs (a terminal escape that erases a line; a right-to-left override that reorders it).
_HIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")


def _escape(m: re.Match) -> str:
    code = ord(m.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` with every control, bidi and zero-width character spelled out (``\\x1b``, ``\\u202e``).

    Newlines and tabs stay; everything else that a terminal or chat client would act on instead of
    showing is made visible. Linear time.
    """
    return _HIDDEN.sub(_escape, text)


def one_line(text: str) -> str:
    """:func:`visible`, with newlines shown as ``⏎`` (for tables and lists)."""
    return visible(text).replace("\r", "\\r").replace("\n", " ⏎ ").replace("\t", " ")
