"""Crisis detection: messages that show a person thinking of suicide or self-harm.

Public names: :func:`detect_crisis`, :func:`assess_crisis`, :class:`CrisisMatch`, :class:`CrisisAssessment`,
:data:`DEFAULT_RESOURCES`, :class:`Resource`, :func:`support_message`, :func:`check_in_message`, :func:`compiled`.
"""

import sys

from core.crisis._resources import DEFAULT_RESOURCES, Resource, check_in_message, support_message


def clear_caches() -> None:
    """Forget everything the detector has memoised (chunk and word caches, character table, action names,
    assessments of short requests),
    so that the next call pays the cost of a never-seen text (benchmarks and tests of the cold path)."""
    norm = sys.modules.get("core.crisis._normalise")
    if norm is not None:
        norm.clear_caches()
    det = sys.modules.get("core.crisis._detect")
    if det is not None:
        det._NAME_CACHE.clear()
        det._REQUEST_MEMO.clear()
    model = sys.modules.get("core.crisis._model")
    if model is not None:
        model._WORD_SUMS.clear()


def compiled() -> bool:
    """Whether the crisis check reads text through its compiled fast path (``core/crisis/_fast.pyx``, built at
    install where a C compiler is). Without it the check gives the same verdicts, slower on long never-seen
    texts (about three times the time on a 32 KiB one)."""
    from core.crisis import _normalise

    return _normalise._fast is not None


def __getattr__(name: str):
    # The detector compiles its phrase tables on import (~0.1 s): load it only when it is used, so
    # `signoff request` (which only needs Resource, through the config) starts fast.
    if name in ("CrisisAssessment", "CrisisMatch", "assess_crisis", "detect_crisis"):
        from core.crisis import _detect

        return getattr(_detect, name)
    raise AttributeError(f"module 'core.crisis' has no attribute {name!r}")


__all__ = ["CrisisAssessment", "CrisisMatch", "DEFAULT_RESOURCES", "Resource", "assess_crisis", "check_in_message",
           "compiled", "detect_crisis", "support_message"]
