"""Each import contract of pyproject.toml can break.

For every contract, a copy of engine/ and pbem/ (their Python files) is made in a temporary
folder, one import that points the wrong way is added to it, and `lint-imports` is run on the
copy with the same configuration: that contract must come out BROKEN, and every other KEPT
but those the import reaches through the modules that import it (BackEdge.also). The
unchanged copy keeps every contract, and a contract of pyproject.toml that no wrong import here
breaks fails the test: a contract nobody has seen break may check nothing.

`lint-imports` runs in the copy's folder with the copy first on PYTHONPATH, so the copy is
analysed, not the editable install of this checkout (test_the_copy_is_what_is_analysed).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "pyproject.toml"
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"
STATUS = re.compile(r"^(?P<name>.+) (?P<status>KEPT|BROKEN)(?: \[[0-9.]+s\])?$")


def contract_names() -> dict[str, str]:
    """Contract id -> name, as pyproject.toml declares them."""
    contracts = tomllib.loads(CONFIG.read_text())["tool"]["importlinter"]["contracts"]
    return {contract["id"]: contract["name"] for contract in contracts}


@dataclass(frozen=True)
class BackEdge:
    """One wrong import: `line` added at the end of `module` (a path under the copy)."""

    contract: str  # the id of the contract it must break
    module: str
    line: str
    why: str
    # Contracts it breaks as well, through the modules that import `module` (ids).
    also: tuple[str, ...] = ()


BACK_EDGES = [
    BackEdge(
        "rulesets-independent",
        "engine/rulesets/classical/rules.py",
        "import engine.rulesets.tribes.rules",
        "one ruleset imports another",
    ),
    BackEdge(
        "rulesets-independent",
        "engine/rulesets/tribes/render.py",
        "from engine.rulesets import BUILT_IN",
        "a ruleset reaches every other through the package's list of them (indirect)",
    ),
    BackEdge(
        "engine-layers",
        "engine/turns.py",
        "import engine.kit",
        "a foundation imports the kit above it",
    ),
    BackEdge(
        "engine-layers",
        "engine/records.py",
        "import engine.rulesets.classical",
        "a foundation imports a ruleset",
        # every other ruleset imports engine.records, and so would now reach classical
        also=("rulesets-independent",),
    ),
    BackEdge(
        "engine-layers",
        "engine/kit.py",
        "from engine.registry import get_ruleset",
        "the kit imports the registry, which imports every ruleset built on the kit",
        # each ruleset would reach every other through the kit and the registry
        also=("rulesets-independent",),
    ),
    BackEdge(
        "engine-layers",
        "engine/ruleset.py",
        "import engine.hextext",
        "one foundation imports another of its layer (independent siblings)",
    ),
    BackEdge(
        "engine-layers",
        "engine/stray.py",
        "import engine.dice",
        "a new module of engine/ given no layer (the contract is exhaustive)",
    ),
    BackEdge(
        "engine-pure",
        "engine/dice.py",
        "import pbem.errors",
        "the engine imports the service",
    ),
    BackEdge(
        "pbem-layers",
        "pbem/games/service.py",
        "import pbem.intake",
        "the games layer imports the mail intake above it",
    ),
    BackEdge(
        "pbem-foundations",
        "pbem/config.py",
        "import pbem.mail.envelope",
        "config imports mail beyond its settings",
    ),
    BackEdge(
        "pbem-foundations",
        "pbem/store/migrate.py",
        "import pbem.migrations",
        "the store imports the migrations written against it",
    ),
    BackEdge(
        "pbem-foundations",
        "pbem/store/models.py",
        "from pbem.config import Settings",
        "the tables import the settings",
    ),
]


def _only_python(folder: str, names: list[str]) -> set[str]:
    """What copytree leaves out: everything but package folders and .py files (the docs and
    templates linked into pbem/ included)."""
    left_out = set()
    for name in names:
        path = Path(folder) / name
        package = path.is_dir() and not path.is_symlink() and name != "__pycache__"
        if not package and not (path.is_file() and name.endswith(".py")):
            left_out.add(name)
    return left_out


def copy_tree(into: Path) -> Path:
    for package in ("engine", "pbem"):
        shutil.copytree(ROOT / package, into / package, ignore=_only_python)
    shutil.copy(CONFIG, into / "pyproject.toml")
    return into


def environment(copy: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env["PYTHONPATH"] = str(copy)
    return env


def lint(copy: Path) -> tuple[int, dict[str, str], str]:
    """lint-imports on the copy: its exit code, {contract name: KEPT or BROKEN}, its output."""
    assert LINT_IMPORTS.exists(), f"{LINT_IMPORTS} is missing: pip install -e '.[dev]'"
    done = subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo", str(copy / "pyproject.toml")],
        cwd=copy,
        env=environment(copy),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    output = done.stdout + done.stderr
    statuses = {}
    for line in done.stdout.splitlines():
        found = STATUS.match(line.strip())
        if found:
            statuses[found["name"]] = found["status"]
    return done.returncode, statuses, output


def test_the_copy_is_what_is_analysed(tmp_path: Path) -> None:
    copy = copy_tree(tmp_path)
    where = subprocess.run(
        [
            sys.executable,
            "-c",
            "import importlib.util as u; print(u.find_spec('engine').origin);"
            " print(u.find_spec('pbem').origin)",
        ],
        cwd=copy,
        env=environment(copy),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert where == [str(copy / "engine" / "__init__.py"), str(copy / "pbem" / "__init__.py")]


def test_the_unchanged_copy_keeps_every_contract(tmp_path: Path) -> None:
    code, statuses, output = lint(copy_tree(tmp_path))
    assert statuses == {name: "KEPT" for name in contract_names().values()}, output
    assert code == 0, output


def test_every_contract_is_broken_by_some_back_edge() -> None:
    assert {edge.contract for edge in BACK_EDGES} == set(contract_names())


@pytest.mark.parametrize("edge", BACK_EDGES, ids=lambda edge: f"{edge.contract}:{edge.module}")
def test_a_back_edge_breaks_its_contract(tmp_path: Path, edge: BackEdge) -> None:
    copy = copy_tree(tmp_path)
    module = copy / edge.module
    before = module.read_text() if module.exists() else ""
    assert edge.line not in before, f"{edge.module} already has {edge.line!r}"
    module.write_text(f"{before}\n{edge.line}  # deliberate back-edge: {edge.why}\n")

    code, statuses, output = lint(copy)

    names = contract_names()
    expected = {name: "KEPT" for name in names.values()}
    for broken in (edge.contract, *edge.also):
        expected[names[broken]] = "BROKEN"
    assert statuses == expected, output
    assert code == 1, output
