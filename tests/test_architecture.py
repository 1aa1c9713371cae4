"""The engines stay pure: no module under rulesets/ imports Django."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "rulesets"


@pytest.mark.parametrize("path", sorted(ROOT.rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_ruleset_module_imports_django(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        else:
            continue
        for name in names:
            assert not name.startswith(("django", "calculator", "bestiary")), f"{path}: imports {name}"


def test_every_ruleset_package_registers_itself():
    from rulesets.core.registry import load_all

    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")} - {"core"}
    assert set(load_all()) == packages
