"""The program → handler map of the shell reader: exactly the committed copy (``handlers.json``).

The map decides which handler reads each program; a change to it is a change of verdicts. When a rule adds,
moves or removes a program on purpose, update ``handlers.json`` in the same commit (``python -m
tests.core.policy.test_registry`` prints the current map)."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import pytest

from core.policy import Policy
from core.policy.shell import registry

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


def _family(name: str, handlers: dict, defaults: dict | None = None):
    mod = types.ModuleType(f"core.policy.shell.families.{name}")
    mod.HANDLERS = handlers
    if defaults is not None:
        mod.DEFAULTS = defaults
    return mod


def h_one(r, prog, args, metas, ctx, acc, stdin):
    return None


def h_two(r, prog, args, metas, ctx, acc, stdin):
    return None


def test_a_program_in_two_families_is_an_error_unless_shared_says_who_reads_it() -> None:
    a, b = _family("a", {"tool": h_one}), _family("b", {"tool": h_two})
    with pytest.raises(ValueError, match="tool has a handler in both the a and the b family"):
        registry.build_handlers((a, b), shared={}, default_order=())
    assert registry.build_handlers((a, b), shared={"tool": "a"}, default_order=())["tool"] is h_one
    assert registry.build_handlers((a, b), shared={"tool": "b"}, default_order=())["tool"] is h_two


def test_defaults_apply_to_programs_without_a_handler_first_family_first() -> None:
    a = _family("a", {"own": h_one}, defaults={"own": h_two, "both": h_one})
    b = _family("b", {}, defaults={"both": h_two, "only_b": h_two})
    got = registry.build_handlers((a, b), shared={}, default_order=("a", "b"))
    assert got == {"own": h_one, "both": h_one, "only_b": h_two}
    with pytest.raises(ValueError, match="DEFAULT_ORDER"):
        registry.build_handlers((a, b), shared={}, default_order=("a",))


def test_every_handler_is_named_once() -> None:
    for mod in registry.FAMILIES:
        for h in (*mod.HANDLERS.values(), *getattr(mod, "DEFAULTS", {}).values()):
            assert registry.NAMED[h.__name__] is h


if __name__ == "__main__":
    json.dump(current_map(), sys.stdout, indent=1, sort_keys=True)
    print()
