"""The program handlers, one module per family of programs. Each module ends with its ``HANDLERS`` table
(program -> handler; some also a ``DEFAULTS`` table, the programs of their tables that no family reads with a
handler of its own), which :mod:`core.policy.shell.registry` merges into the reader's handler map.

A handler has the signature ``(r, prog, args, metas, ctx, acc, stdin)`` and returns what the command prints
(see :mod:`core.policy.shell.state`). To add a family: a module here ending with its tables, listed in
``registry.FAMILIES``, and its test file ``tests/core/policy/test_<family>.py``.
"""

from __future__ import annotations


def handlers(*rows: tuple) -> dict:
    """A family's table from ``(programs, handler)`` rows (``programs``: any iterable of names); a program in two
    rows is an error (say which handler reads it by leaving it out of the other row)."""
    table: dict = {}
    for programs, handler in rows:
        for p in programs:
            if p in table:
                raise ValueError(f"{p} is given to both {table[p].__name__} and {handler.__name__}")
            table[p] = handler
    return table
