"""The tables package: every table is defined in exactly one topic module and reached through the package."""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

from core.policy import tables as T


def _defined(path: Path) -> set[str]:
    """Upper-case names assigned at the top level of a module (not imported)."""
    out = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, ast.AnnAssign) else []
        for t in targets:
            for sub in ast.walk(t):
                if isinstance(sub, ast.Name) and sub.id.isupper() and not sub.id.startswith("_"):
                    out.add(sub.id)
    return out - {"S", "L", "M", "H", "C"}


def test_every_table_is_defined_once_and_reached_through_the_package() -> None:
    seen: dict[str, str] = {}
    for info in pkgutil.iter_modules(T.__path__):
        mod = importlib.import_module(f"core.policy.tables.{info.name}")
        for name in _defined(Path(mod.__file__)):
            assert name not in seen, f"{name} is defined in both {seen[name]} and {info.name}"
            seen[name] = info.name
            assert getattr(T, name) is getattr(mod, name), name
    assert len(seen) > 100
