"""The public front doors of the packages: every listed name exists, and the list is what we expect."""

import importlib

import pytest

EXPECTED = {
    "core.policy": {"Classification", "Policy", "PolicyTables", "classify"},
    "core.crisis": {"CrisisMatch", "DEFAULT_RESOURCES", "Resource", "detect_crisis", "support_message"},
}


@pytest.mark.parametrize("module", sorted(EXPECTED))
def test_all_lists_the_public_names(module):
    mod = importlib.import_module(module)
    assert set(mod.__all__) >= EXPECTED[module]
    for name in mod.__all__:
        assert getattr(mod, name) is not None, f"{module}.{name} is listed but missing"
