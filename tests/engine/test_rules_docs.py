"""The rules and order references cite only files that exist (issue 13: the Culture & Conquest
rules page cited `hexes.py`, which does not)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "docs" / "rules").glob("*.md")) + sorted(
    (ROOT / "docs" / "orders").glob("*.md")
)
CITED = re.compile(r"`([\w/.-]+\.(?:py|txt|md|toml))`")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_file_a_page_cites_exists(page: Path) -> None:
    package = ROOT / "engine" / "rulesets" / page.stem.replace("-", "_")
    missing = [
        name
        for name in CITED.findall(page.read_text())
        if not any((base / name).exists() for base in (ROOT, package))
    ]
    assert missing == []
