"""Every difference between SQLite and PostgreSQL lives behind the storage interface: no
module outside pbem/store and the migrations asks which database it runs on."""

from __future__ import annotations

import re
from pathlib import Path

import pbem

PACKAGE = Path(pbem.__file__).parent
ALLOWED = ("store", "migrations")
ASKS = re.compile(r"\bdialect\b")


def _asking(root: Path) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        if path.relative_to(root).parts[0] in ALLOWED:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if ASKS.search(line):
                found.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    return found


def test_no_module_outside_the_store_asks_which_database_it_runs_on() -> None:
    assert _asking(PACKAGE) == []


def test_the_check_finds_a_module_that_asks(tmp_path: Path) -> None:
    (tmp_path / "games").mkdir()
    (tmp_path / "store").mkdir()
    (tmp_path / "games" / "outbox.py").write_text('if db.dialect.name == "postgresql":\n')
    (tmp_path / "store" / "db.py").write_text('if db.dialect.name == "postgresql":\n')
    assert _asking(tmp_path) == ['games/outbox.py:1: if db.dialect.name == "postgresql":']
