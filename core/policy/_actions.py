"""Action names read as words (tiers.md, "The tier of a request"): splitting, plurals, the word
table and the removal-verb / light-object rule."""

from __future__ import annotations

import re

from core.policy import tables as T
from core.tiers import Tier

_SPLIT = re.compile(r"[_\-./:\s]+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")

KNOWN_WORDS = frozenset(T.ACTION_WORDS) | frozenset(T.REMOVAL_VERBS) | T.LIGHT_OBJECTS | T.SHELL_WORDS | \
    T.DATABASE_WORDS | T.CODE_WORDS | T.PATH_OBJECTS | T.PATH_WRITE_VERBS | T.PATH_READ_VERBS | frozenset(
        w for pair in T.WORD_PAIRS for w in pair.split("_"))


def exact_key(name: str) -> str:
    """The form exact names are compared in: lower case, ``-`` and ``.`` read as ``_``."""
    return name.strip().lower().replace("-", "_").replace(".", "_").replace(" ", "_")


def tool_part(name: str) -> str:
    """``mcp__server__tool`` → ``tool``; other names unchanged."""
    if name.lower().startswith("mcp__"):
        parts = [p for p in name.split("__") if p]
        if len(parts) >= 3:
            return "__".join(parts[2:])
        if len(parts) == 2:
            return parts[1]
    return name


def server_part(name: str) -> str:
    """``mcp__server__tool`` → ``server``; other names: ``""``."""
    if name.lower().startswith("mcp__"):
        parts = [p for p in name.split("__") if p]
        if len(parts) >= 3:
            return parts[1]
    return ""


def singular(w: str) -> str:
    """Plural → singular, only when the singular is a known word and the plural is not."""
    if w in KNOWN_WORDS or len(w) < 3 or not w.endswith("s"):
        return w
    if w.endswith("ies") and w[:-3] + "y" in KNOWN_WORDS:
        return w[:-3] + "y"
    if w.endswith("es") and w[:-2] in KNOWN_WORDS:
        return w[:-2]
    if w[:-1] in KNOWN_WORDS:
        return w[:-1]
    return w


def split_words(name: str) -> list[str]:
    """Split at ``_ - . / :`` and camelCase, lower-case, plurals read as singular."""
    words: list[str] = []
    for chunk in _SPLIT.split(name[:400]):
        if not chunk:
            continue
        for m in _CAMEL.findall(chunk):
            words.append(singular(m.lower()))
    return words


def word_tier(words: list[str]) -> tuple[Tier, str, str] | None:
    """The highest tier among the words (with the removal-verb rule), or None when no word is known."""
    best: tuple[Tier, str, str] | None = None
    light = next((w for w in words if w in T.LIGHT_OBJECTS), None)

    def consider(t: Tier, rule: str, reason: str) -> None:
        nonlocal best
        if best is None or t > best[0]:
            best = (t, rule, reason)

    for w in words:
        if w in T.REMOVAL_VERBS:
            if light is not None:
                consider(Tier.LOW, f"action.removal.{w}.light", f"'{w}' of a light object ({light})")
            else:
                consider(T.REMOVAL_VERBS[w], f"action.removal.{w}", f"'{w}' in the action name")
        elif w in T.ACTION_WORDS:
            consider(T.ACTION_WORDS[w], f"action.word.{w}", f"'{w}' in the action name")
    for a, b in zip(words, words[1:], strict=False):
        pair = f"{a}_{b}"
        if pair in T.WORD_PAIRS:
            consider(T.ACTION_WORDS[pair], f"action.word.{pair}", f"'{pair}' in the action name")
    return best
