"""Reading orders: every order of the reference parses on its position, bad lines get a clear
answer, and setup orders belong to the setup turn only."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.problems import ProblemKind
from engine.rulesets.classical.orders import KEYWORDS
from engine.rulesets.classical.rules import RULES

from .support import RULESET, city, make_state, problems

DOC = (Path(__file__).resolve().parents[3] / "docs" / "orders" / "classical.md").read_text()
BLOCKS = re.findall(r"```orders ?(\w*)\n(.*?)```", DOC, re.S)


@pytest.mark.parametrize(("variant", "block"), BLOCKS, ids=lambda b: b.split()[0] if b else "-")
def test_every_example_parses_on_the_example_position(variant: str, block: str) -> None:
    parsed = RULESET.parse_orders(RULESET.example_position(variant), "ann", block)
    assert parsed.problems == [], [p.describe() for p in parsed.problems]
    assert len(parsed.orders) == len(block.strip().splitlines())


def test_every_order_is_documented() -> None:
    for keyword in set(KEYWORDS.values()):
        assert f"### {keyword}" in DOC


def test_a_cell_inside_a_territory_names_the_territory() -> None:
    state = make_state()
    city(state, "A1", "ann", units=1)
    [problem] = problems(state, "ann", "MOVE B2 C1")
    assert problem.kind is ProblemKind.ILLEGAL
    assert "territory A1" in problem.message


def test_setup_orders_only_in_the_setup_turn() -> None:
    state = make_state()
    [problem] = problems(state, "ann", "CITY A1")
    assert problem.rule == RULES["setup_turn"]


def test_unknown_words_get_an_example() -> None:
    state = make_state()
    [problem] = problems(state, "ann", "FLY A1 C1")
    assert problem.kind is ProblemKind.SYNTAX and problem.example


def test_understood_says_the_order_in_full_words() -> None:
    state = make_state()
    city(state, "A1", "ann", units=3)
    parsed = RULESET.parse_orders(state.to_json(), "ann", "MOVE A1 C1 2\nRECRUIT A1")
    assert [o.understood() for o in parsed.orders] == [
        "move 2 armies from A1 to C1",
        "recruit 1 army in A1",
    ]


def test_a_move_to_where_the_units_are_is_refused() -> None:
    state = make_state()
    city(state, "A1", "ann", units=1)
    [problem] = problems(state, "ann", "MOVE A1 A1")
    assert problem.message == "the units are in A1 already"


@pytest.mark.parametrize(("dealt", "choice"), [("choice", True), ("random", False)])
def test_a_refused_setup_choice_is_marked_a_choice(dealt: str, choice: bool) -> None:
    """A misspelt CIVILIZATION (or a refused CITY) of the setup turn is a refused choice,
    which keeps the mail from counting (pbem.games.counted); with civilizations dealt at
    random CIVILIZATION chooses nothing, and a refused FEED is never a choice."""
    state = make_state(options={"civilizations": dealt})
    state.setup = True
    civilization, city, feed = problems(state, "ann", "CIVILIZATION Egyptains\nCITY C3\nFEED x")
    assert (civilization.choice, city.choice, feed.choice) == (choice, True, False)
