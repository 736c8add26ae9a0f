"""engine/ is pure: it imports only the standard library and itself, and no I/O, clock, global
random, database or printing anywhere under it. Checked on the source, so that a new module
cannot slip an import in unnoticed."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"
# Standard library modules that do I/O, read a clock or reach outside the process.
IMPURE_STDLIB = {
    "asyncio", "datetime", "http", "importlib", "io", "logging", "os", "pathlib", "shutil",
    "socket", "sqlite3", "subprocess", "sys", "tempfile", "threading", "time", "urllib", "uuid",
    "secrets",
}  # fmt: skip
# The one exception: the registry discovers installed ruleset plugins through their entry
# points (importlib.metadata reads the installed packages' metadata, as `import` itself does),
# once a process, under a lock (threading) that the service's threads wait on meanwhile.
ALLOWED = {"registry.py": {"importlib.metadata", "threading"}}
FORBIDDEN_CALLS = {"print", "open", "input", "exec", "eval", "breakpoint", "__import__"}
SOURCES = sorted(ENGINE.rglob("*.py"))


def _imports(tree: ast.AST) -> set[str]:
    """Every module imported, in full ('importlib.metadata'); relative imports as 'engine'."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            names.add("engine" if node.level else node.module or "")
    return names


def _name(path: Path) -> str:
    return str(path.relative_to(ENGINE))


@pytest.mark.parametrize("path", SOURCES, ids=_name)
def test_engine_module_imports_only_the_standard_library_and_the_engine(path: Path) -> None:
    imported = _imports(ast.parse(path.read_text(encoding="utf-8"))) - ALLOWED.get(
        _name(path), set()
    )
    tops = {name.split(".")[0] for name in imported}
    assert tops - set(sys.stdlib_module_names) - {"__future__", "engine"} == set()
    assert tops & IMPURE_STDLIB == set()


@pytest.mark.parametrize("path", SOURCES, ids=_name)
def test_engine_module_does_no_io_and_keeps_no_clock(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    calls = {
        node.func.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }
    assert not calls & FORBIDDEN_CALLS


def test_only_the_dice_module_touches_random_and_only_through_its_own_generator() -> None:
    trees = {_name(p): ast.parse(p.read_text(encoding="utf-8")) for p in SOURCES}
    assert {
        name
        for name, tree in trees.items()
        if "random" in {m.split(".")[0] for m in _imports(tree)}
    } == {"dice.py"}
    used = {
        node.attr
        for node in ast.walk(trees["dice.py"])
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "random"
    }
    assert used == {"Random"}


def test_the_scan_sees_the_engine_and_would_see_a_foreign_import() -> None:
    assert len(SOURCES) > 15
    assert any(p.name == "dice.py" for p in SOURCES)
    foreign = _imports(ast.parse("import sqlmodel\nfrom . import dice\nimport importlib.metadata"))
    assert foreign == {"sqlmodel", "engine", "importlib.metadata"}
    assert "sqlmodel" not in sys.stdlib_module_names
