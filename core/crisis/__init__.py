"""Crisis detection: messages that show a person thinking of suicide or self-harm.

Public names: :func:`detect_crisis`, :class:`CrisisMatch`, :data:`DEFAULT_RESOURCES`, :class:`Resource`, :func:`support_message`.
"""

import sys

from core.crisis._resources import DEFAULT_RESOURCES, Resource, support_message


def clear_caches() -> None:
    """Forget everything the detector has memoised (chunk and word caches, character table, action names),
    so that the next call pays the cost of a never-seen text (benchmarks and tests of the cold path)."""
    norm = sys.modules.get("core.crisis._normalise")
    if norm is not None:
        norm.clear_caches()
    det = sys.modules.get("core.crisis._detect")
    if det is not None:
        det._NAME_CACHE.clear()


def __getattr__(name: str):
    # The detector compiles its phrase tables on import (~0.1 s): load it only when it is used, so
    # `signoff request` (which only needs Resource, through the config) starts fast.
    if name in ("CrisisMatch", "detect_crisis"):
        from core.crisis import _detect

        return getattr(_detect, name)
    raise AttributeError(f"module 'core.crisis' has no attribute {name!r}")


__all__ = ["CrisisMatch", "DEFAULT_RESOURCES", "Resource", "detect_crisis", "support_message"]
