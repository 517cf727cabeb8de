"""The program → handler map of the shell reader: exactly the committed copy (``handlers.json``).

The map decides which handler reads each program; a change to it is a change of verdicts. When a rule adds,
moves or removes a program on purpose, update ``handlers.json`` in the same commit (``python -m
tests.core.policy.test_registry`` prints the current map)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from core.policy import Policy

COPY = Path(__file__).with_name("handlers.json")


def _name(handler) -> str:
    """A handler's name; a handler wrapped to read the options before its subcommand first is shown as
    ``h_global_options(h_inner)``."""
    if handler.__name__ == "h_global_options":
        inner = [c.cell_contents for c in handler.__closure__ if callable(c.cell_contents)]
        return f"h_global_options({inner[0].__name__})"
    return handler.__name__


def current_map() -> dict[str, str]:
    return {prog: _name(h) for prog, h in sorted(Policy()._reader.handlers.items())}


def test_handler_map_is_the_committed_copy() -> None:
    want = json.loads(COPY.read_text(encoding="utf-8"))
    got = current_map()
    assert got.keys() == want.keys(), (sorted(got.keys() - want.keys()), sorted(want.keys() - got.keys()))
    assert got == want, {p: (want[p], got[p]) for p in got if got[p] != want[p]}


if __name__ == "__main__":
    json.dump(current_map(), sys.stdout, indent=1, sort_keys=True)
    print()
