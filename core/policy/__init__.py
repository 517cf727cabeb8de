"""Risk classification of agent requests (``shared/spec/tiers.md``).

Public names: :class:`Classification`, :class:`PolicyTables`, :class:`Policy`, :func:`classify`.

Module map (private):
    ``tables/``  the policy's data: programs, flags, paths, words (one module per topic);
    ``shell/``   command tier: the shell parser (``shell.syntax``), the walk with data flow (``shell.walker``)
                 and the program handlers by family (``shell.families``, merged by ``shell.registry``);
    ``_paths``   path classes (home, system directories, sensitive and .env files, devices);
    ``_overflow`` text past the shell reader's work budget, scanned loosely (it can only raise the tier);
    ``_sql``     SQL statement splitter and classifier;
    ``code/``    inline code in any language: the effects it has (commands, writes, reads, sockets …) and their
                 tiers: the call tables (``code.calls``), literals (``code.literals``), the linear scan
                 (``code.linear``, ``code.dialects``: awk, Tcl …), facts of the commands run (``code.facts``),
                 Python read with ``ast`` and a little data flow (``code.python``, ``code.pyeval``,
                 ``code.pyvalues``), the tiers (``code.tiers``: remote shells, listeners, secret reads …);
    ``_actions`` action names read as words;
    ``_policy``  the classifier tying them together.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.policy._policy import Classification, Policy, PolicyTables, classify

_PUBLIC = frozenset({"Classification", "Policy", "PolicyTables", "classify"})


def __getattr__(name: str):
    """The public names, loaded on first use: the CLI's client commands read config (``policy.programs``
    is checked by ``core.policy._knowledge``) without paying for the classifier and the crisis detector."""
    if name in _PUBLIC:
        from core.policy import _policy

        return getattr(_policy, name)
    raise AttributeError(f"module 'core.policy' has no attribute {name!r}")


def clear_caches(policy: Policy | None = None) -> None:
    """Forget every memo of the classifier (path classes, the crisis detector's caches and, given a
    ``policy``, its action tables), so the next call pays a never-seen request's full cost (benchmarks)."""
    from core.crisis import clear_caches as clear_crisis
    from core.policy import _paths, code
    from core.policy.shell.effects import arguments

    _paths._MEMO.clear()
    _paths.is_secret_read.cache_clear()
    code.clear_memo()
    arguments.clear_caches()
    clear_crisis()
    if policy is not None:
        policy._action_cache.clear()
        policy._flag_cache.clear()


__all__ = ["Classification", "Policy", "PolicyTables", "classify", "clear_caches"]
