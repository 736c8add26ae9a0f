"""The order reference documents every order of Culture & Conquest with an example. (That each
example parses is checked for every ruleset by tests/engine/contract/test_docs.py.)"""

from __future__ import annotations

import re
from pathlib import Path

from engine.rulesets.culture_and_conquest.orders import KEYWORDS

from .support import RULESET

DOCS = Path(__file__).resolve().parents[3] / "docs"
ORDERS = (DOCS / "orders" / "culture-and-conquest.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```orders\n(.*?)```", ORDERS, re.S)
MAP_BLOCKS = re.findall(r"```orders map\n(.*?)```", ORDERS, re.S)


def test_the_map_examples_cover_every_map_order() -> None:
    """MOVE ... IN, ATTACK <territory>, MOVE between territories, MOVE LEADER, BUILD CITY IN."""
    lines = [line for block in MAP_BLOCKS for line in block.splitlines()]
    assert any(line.startswith("MOVE") and " IN " in line for line in lines)
    assert any(line.startswith("ATTACK C") for line in lines)
    assert any(line.startswith("MOVE LEADER") for line in lines)
    assert any(line.startswith("MOVE") and line.split()[-1][0] in "ABCDEFG" for line in lines)
    assert any(line.startswith("BUILD CITY") and " IN " in line for line in lines)
    on_the_map = RULESET.example_position("map")
    assert RULESET.parse_orders(on_the_map, "ann", BLOCKS[0]).problems == []


def test_every_order_is_documented_with_an_example() -> None:
    assert len(BLOCKS) >= 9
    examples = {line.split()[0].upper() for block in BLOCKS for line in block.splitlines()}
    assert set(KEYWORDS.values()) <= examples
    for keyword in set(KEYWORDS.values()):
        assert f"## {keyword}" in ORDERS
