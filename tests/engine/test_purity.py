"""engine/ is pure: no I/O, clock, global random, database or printing anywhere under it.
Checked on the source, so that a new module cannot slip an import in unnoticed."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN_MODULES = {
    "asyncio", "datetime", "http", "io", "logging", "os", "pathlib", "pbem", "shutil", "socket",
    "sqlite3", "sqlalchemy", "sqlmodel", "subprocess", "sys", "tempfile", "threading", "time",
    "urllib", "uuid", "secrets",
}  # fmt: skip
FORBIDDEN_CALLS = {"print", "open", "input", "exec", "eval", "breakpoint"}
SOURCES = sorted(ENGINE.rglob("*.py"))


def _imports(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_engine_module_does_no_io_and_keeps_no_clock(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert not _imports(tree) & FORBIDDEN_MODULES
    calls = {
        node.func.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }
    assert not calls & FORBIDDEN_CALLS


def test_only_the_dice_module_touches_random_and_only_through_its_own_generator() -> None:
    trees = {str(p.relative_to(ENGINE)): ast.parse(p.read_text(encoding="utf-8")) for p in SOURCES}
    assert {name for name, tree in trees.items() if "random" in _imports(tree)} == {"dice.py"}
    used = {
        node.attr
        for node in ast.walk(trees["dice.py"])
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "random"
    }
    assert used == {"Random"}


def test_the_scan_sees_the_engine() -> None:
    assert len(SOURCES) > 15
    assert any(p.name == "dice.py" for p in SOURCES)
