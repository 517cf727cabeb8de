"""The layers of the shell package (core/policy/shell/__init__.py): each module imports only the layers below it,
and a family never imports another family (a handler of another family is called through the registry)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SHELL = Path(__file__).resolve().parents[3] / "core" / "policy" / "shell"
#: what each layer may import from core.policy.shell (prefixes); anything outside the package is free
ALLOWED = {
    "syntax": ("core.policy.shell.syntax",),
    "state": ("core.policy.shell.syntax",),
    "common": ("core.policy.shell.state",),
    "options": ("core.policy.shell.state",),
    "effects": ("core.policy.shell.syntax", "core.policy.shell.state", "core.policy.shell.common",
                "core.policy.shell.options", "core.policy.shell.effects"),
    "families": ("core.policy.shell.syntax", "core.policy.shell.state", "core.policy.shell.common",
                 "core.policy.shell.options", "core.policy.shell.effects", "core.policy.shell.families"),
}


def _layer(path: Path) -> str:
    rel = path.relative_to(SHELL)
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def _imports(path: Path) -> list[str]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.extend(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.extend(a.name for a in node.names)
    return [m for m in out if m.startswith("core.policy.shell")]


@pytest.mark.parametrize("path", sorted(SHELL.rglob("*.py")), ids=lambda p: str(p.relative_to(SHELL)))
def test_a_module_imports_only_the_layers_below(path: Path) -> None:
    allowed = ALLOWED.get(_layer(path))
    if allowed is None:
        return  # registry, dispatch, expansion, walker: the top
    for mod in _imports(path):
        assert mod.startswith(allowed), f"{path.name} imports {mod}"
        if _layer(path) == "families":
            # the families package's helpers only, never a sibling family
            assert not mod.startswith("core.policy.shell.families.") or mod == "core.policy.shell.families.handlers", \
                f"{path.name} imports {mod}: call the other family's handler with r.call(…)"
