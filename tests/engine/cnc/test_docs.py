"""The order reference's examples are verified: every example in
docs/orders/culture-and-conquest.md parses without a problem, and every order is documented."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.rulesets.culture_and_conquest.model import Item, Offer
from engine.rulesets.culture_and_conquest.orders import KEYWORDS

from .support import RULESET, make_map_state, make_state

DOCS = Path(__file__).resolve().parents[3] / "docs"
ORDERS = (DOCS / "orders" / "culture-and-conquest.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```text\n(.*?)```", ORDERS, re.S)
MAP_BLOCKS = re.findall(r"```text map\n(.*?)```", ORDERS, re.S)


def _position() -> dict[str, object]:
    """The position the reference describes."""
    state = make_state(
        ("ann", "bob", "cat"),
        pops={"ann": {"army": 3, "agriculture": 10, "labor": 3}, "bob": {"agriculture": 5}},
        gold=20,
        advances={"ann": ["Engineering", "Religion", "Pottery"], "bob": ["Law", "Medicine"]},
        cities={"ann": ["Giza", "Thebes"], "bob": ["Rome", "Troy"], "cat": ["Athens"]},
        leaders={"ann": [("Caesar", "General")]},
    )
    state.step = 5
    law, gold = Item("advance", 0, "Law"), Item("gold", 5)
    state.offers = [
        Offer("4B1", "bob", "ann", [law], [gold], 4, 1, 1),
        Offer("4A1", "ann", "bob", [gold], [law], 4, 1, 1),
    ]
    return state.to_json()


@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: b.split()[0])
def test_every_example_in_the_order_reference_parses(block: str) -> None:
    parsed = RULESET.parse_orders(_position(), "ann", block)
    assert parsed.problems == [], [p.describe() for p in parsed.problems]
    assert len(parsed.orders) == len(block.strip().splitlines())


def _map_position() -> dict[str, object]:
    """The map-version position the reference describes."""
    state = make_map_state(
        {
            "ann": {"B2": {"army": 3, "agriculture": 6}, "C1": {"agriculture": 2}},
            "bob": {"C2": {"army": 1, "agriculture": 2}, "D1": {"agriculture": 4}},
        },
        cities={"ann": {"B2": "Giza"}, "bob": {"D1": "Rome"}},
        leaders={"ann": [("Caesar", "General", "B2")]},
        advances={"ann": ["Navigation"]},
        gold=20,
    )
    return state.to_json()


@pytest.mark.parametrize("block", MAP_BLOCKS, ids=lambda b: b.split()[0])
def test_every_map_example_in_the_order_reference_parses(block: str) -> None:
    parsed = RULESET.parse_orders(_map_position(), "ann", block)
    assert parsed.problems == [], [p.describe() for p in parsed.problems]
    assert len(parsed.orders) == len(block.strip().splitlines())


def test_the_map_examples_cover_every_map_order() -> None:
    """MOVE ... IN, ATTACK <territory>, MOVE between territories, MOVE LEADER, BUILD CITY IN."""
    lines = [line for block in MAP_BLOCKS for line in block.splitlines()]
    assert any(line.startswith("MOVE") and " IN " in line for line in lines)
    assert any(line.startswith("ATTACK C") for line in lines)
    assert any(line.startswith("MOVE LEADER") for line in lines)
    assert any(line.startswith("MOVE") and line.split()[-1][0] in "ABCDEFG" for line in lines)
    assert any(line.startswith("BUILD CITY") and " IN " in line for line in lines)
    assert RULESET.parse_orders(_map_position(), "ann", "\n".join(BLOCKS[0:1])).problems == []


def test_every_order_is_documented_with_an_example() -> None:
    assert len(BLOCKS) >= 9
    examples = {line.split()[0].upper() for block in BLOCKS for line in block.splitlines()}
    assert set(KEYWORDS.values()) <= examples
    for keyword in set(KEYWORDS.values()):
        assert f"## {keyword}" in ORDERS


def test_the_rules_document_lists_every_option() -> None:
    rules = (DOCS / "rules" / "culture-and-conquest.md").read_text(encoding="utf-8")
    for spec in RULESET.options:
        assert f"`{spec.name}`" in rules
