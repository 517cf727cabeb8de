"""The seam one way: core's modules import in one direction (models ← crisis_desk ← broker; channel needs only
models), and the adapters and the API reach the core through the broker, never through the ledger."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SEAM = ["core.models", "core.errors", "core.channel", "core.crisis_desk", "core.broker"]


def _imports(path: Path) -> list[tuple[str, bool]]:
    """(module imported, whether the import is inside a function) of every ``from core… import`` in ``path``."""
    tree = ast.parse(path.read_text())
    found: list[tuple[str, bool]] = []

    def visit(node: ast.AST, local: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = local or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.ImportFrom) and child.module and child.module.startswith("core"):
                found.append((child.module, inner))
            visit(child, inner)

    visit(tree, False)
    return found


@pytest.mark.parametrize("module", SEAM)
def test_each_seam_module_imports_first_in_a_fresh_interpreter(module):
    done = subprocess.run([sys.executable, "-c", f"import {module}"], cwd=ROOT, capture_output=True, text=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr


def test_no_function_local_imports_between_the_seam_modules():
    for module in SEAM:
        path = ROOT / (module.replace(".", "/") + ".py")
        local = [m for m, inside in _imports(path) if inside and m in SEAM]
        assert not local, f"{module} imports {local} inside a function (a cycle hidden at run time)"


def test_the_seam_modules_import_one_way():
    order = {"core.models": 0, "core.errors": 0, "core.channel": 1, "core.crisis_desk": 1, "core.broker": 2}
    for module in SEAM:
        path = ROOT / (module.replace(".", "/") + ".py")
        for imported, _ in _imports(path):
            if imported in order and imported != module:
                assert order[imported] < order[module] or (order[module] == 0 and imported in
                                                            ("core.models", "core.errors")), (module, imported)
    assert not any(m == "core.crisis_desk" for m, _ in _imports(ROOT / "core/channel.py"))


def test_old_import_paths_still_work():
    from core.broker import new_id as broker_new_id
    from core.crisis_desk import CrisisAlert, Origin
    from core.models import CrisisAlert as ModelAlert
    from core.models import Origin as ModelOrigin
    from core.models import new_id

    assert CrisisAlert is ModelAlert and Origin is ModelOrigin and broker_new_id is new_id


SEAM_USERS = sorted((ROOT / "adapters").glob("*.py")) + [ROOT / "bot/api.py"]


@pytest.mark.parametrize("path", SEAM_USERS, ids=lambda p: str(p.relative_to(ROOT)))
def test_adapters_and_the_api_never_touch_the_ledger(path):
    """Channels and the API go through the broker (``current``, ``pending``, ``card_refs``, ``record_card``,
    ``editing``, ``approvals``): no ``.ledger`` attribute, no import of ``core.ledger``."""
    tree = ast.parse(path.read_text())
    touches = [f"line {n.lineno}: .{n.attr}" for n in ast.walk(tree)
               if isinstance(n, ast.Attribute) and n.attr == "ledger"]
    touches += [f"line {n.lineno}: import {n.module}" for n in ast.walk(tree)
                if isinstance(n, ast.ImportFrom) and (n.module or "").startswith("core.ledger")]
    touches += [f"line {n.lineno}: import {a.name}" for n in ast.walk(tree) if isinstance(n, ast.Import)
                for a in n.names if a.name.startswith("core.ledger")]
    touches += [f"line {n.lineno}: {n.id}" for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == "Ledger"]
    assert not touches, f"{path.relative_to(ROOT)} reaches into the ledger: {touches}"


@pytest.mark.parametrize("path", SEAM_USERS, ids=lambda p: str(p.relative_to(ROOT)))
def test_crisis_intake_is_left_to_the_core(path):
    """Detect, answer and alert is one call (``broker.crisis.intake``): no adapter nor the API detects itself."""
    tree = ast.parse(path.read_text())
    names = {"assess_crisis", "detect_crisis", "raise_for", "reply_to"}
    found = [n.lineno for n in ast.walk(tree) if (isinstance(n, ast.Name) and n.id in names)
             or (isinstance(n, ast.Attribute) and n.attr in names)
             or (isinstance(n, ast.ImportFrom) and any(a.name in names for a in n.names))]
    assert not found, f"{path.relative_to(ROOT)} detects crisis language itself at lines {found}"
