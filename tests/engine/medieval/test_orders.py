"""The order parser: every order read, what it was understood as, and clear problems for bad
lines (syntax with an example, illegal citing the rule, ambiguous listing the readings)."""

from __future__ import annotations

import pytest

from engine.problems import ProblemKind
from engine.rulesets.medieval_micromanager.examples import position
from engine.rulesets.medieval_micromanager.orders import parse
from engine.rulesets.medieval_micromanager.rules import RULES

from .support import make_game, problems


@pytest.mark.parametrize(
    ("line", "understood"),
    [
        ("BREAK GROUND QUARRY", "break ground on a new quarry, to be called quarry1"),
        ("break ground blacksmith", "break ground on a new smithy, to be called smithy2"),
        ("BUILD 2 house2", "2 units build or repair house2"),
        ("repair 1 on house 2", "1 unit builds or repairs house2"),
        ("WORK 3 farm1", "3 units work at farm1"),
        ("wo 2 mine", "2 units work at mine1"),
        ("WORK 3 farm1 TOOLS 0", "3 units work at farm1, no tool"),
        ("work 2 smithy1 tool 1", "2 units work at smithy1, at most 1 tool"),
        ("BUILD 2 house2 TOOLS 1", "2 units build or repair house2, at most 1 tool"),
        ("BUY 2 UNITS", "2 units buy 2 new units at a house"),
        (
            "ATTACK bob WITH 3 SWORDS 2 RAZE",
            "attack bob with 3 units from the academy, 2 swords, then raze",
        ),
        ("raid cat 2 loot", "attack cat with 2 units from the academy, no sword, then loot"),
        ("DEFEND ALL", "from now on defend with all units at home and a shield each"),
        ("defend 3 shields 0", "from now on defend with 3 units at home and 0 shields"),
        ("SPARE house1 school", "from now on put razing damage on house1, school1 last"),
        ("protect none", "from now on spare no building in particular from razing"),
    ],
)
def test_every_order_reads_and_says_how_it_was_understood(line: str, understood: str) -> None:
    parsed = parse(position(), "ann", line)
    assert [p.describe() for p in parsed.problems] == []
    assert [o.understood() for o in parsed.orders] == [understood]


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("DANCE 3", ProblemKind.SYNTAX),
        ("B 3 farm1", ProblemKind.AMBIGUOUS),
        ("WORK farm1", ProblemKind.SYNTAX),
        ("WORK 0 farm1", ProblemKind.SYNTAX),
        ("WORK 2", ProblemKind.SYNTAX),
        ("WORK 2 castle9", ProblemKind.SYNTAX),
        ("WORK 2 house", ProblemKind.AMBIGUOUS),
        ("BREAK GROUND", ProblemKind.SYNTAX),
        ("BREAK GROUND CASTLE", ProblemKind.SYNTAX),
        ("ATTACK", ProblemKind.SYNTAX),
        ("ATTACK zed WITH 2", ProblemKind.SYNTAX),
        ("ATTACK bob WITH many", ProblemKind.SYNTAX),
        ("ATTACK bob WITH 2 3", ProblemKind.SYNTAX),
        ("DEFEND", ProblemKind.SYNTAX),
        ("DEFEND some", ProblemKind.SYNTAX),
        ("SPARE", ProblemKind.SYNTAX),
        ("SPARE castle1", ProblemKind.SYNTAX),
    ],
)
def test_a_bad_line_is_a_problem_of_its_kind(line: str, kind: ProblemKind) -> None:
    [problem] = problems(position(), "ann", line)
    assert problem.kind is kind
    if kind is ProblemKind.SYNTAX:
        assert problem.example


def test_one_bad_line_spoils_no_other() -> None:
    parsed = parse(position(), "ann", "WORK 2 farm1\nWORK 9 nowhere\nBUY 1 # comment")
    assert [o.line_no for o in parsed.orders] == [1, 3]
    assert [p.line_no for p in parsed.problems] == [2]


def test_work_at_a_card_that_produces_nothing_is_illegal() -> None:
    [problem] = problems(position(), "ann", "WORK 2 academy1")
    assert (problem.kind, problem.rule) == (ProblemKind.ILLEGAL, RULES["raw"])
    assert "ATTACK from it" in problem.message


def test_new_without_ground_broken_is_not_a_building() -> None:
    [problem] = problems(position(), "ann", "BUILD 1 NEW")
    assert problem.kind is ProblemKind.SYNTAX


def test_an_attack_on_a_seat_that_is_out_is_illegal() -> None:
    game = position()
    game.seat("bob").alive = False
    [problem] = problems(game, "ann", "ATTACK bob WITH 1")
    assert (problem.kind, problem.rule) == (ProblemKind.ILLEGAL, RULES["out"])


def test_attacking_yourself_is_not_a_seat() -> None:
    [problem] = problems(position(), "ann", "ATTACK ann WITH 1")
    assert problem.kind is ProblemKind.SYNTAX


def test_buying_without_a_house_is_illegal() -> None:
    game = make_game()
    game.seat("ann").buildings = [b for b in game.seat("ann").buildings if b.kind != "house"]
    [problem] = problems(game, "ann", "BUY 1")
    assert (problem.kind, problem.rule) == (ProblemKind.ILLEGAL, RULES["buy"])


def test_building_an_undamaged_card_is_illegal() -> None:
    [problem] = problems(position(), "ann", "BUILD 1 farm1")
    assert (problem.kind, problem.rule) == (ProblemKind.ILLEGAL, RULES["repair"])


def test_a_refused_line_does_not_count_against_later_lines() -> None:
    """A line refused for its building's places spends no units: the next line may."""
    game = make_game(units={"ann": 5})
    parsed = parse(game, "ann", "WORK 6 farm1\nWORK 4 woodcutter1\nWORK 1 farm1")
    assert [p.line_no for p in parsed.problems] == [1]
    assert [o.line_no for o in parsed.orders] == [2, 3]


def test_a_greeting_is_passed_over_and_a_near_keyword_is_suggested() -> None:
    parsed = parse(position(), "ann", "Hi, here are my orders\nATACK bob WITH 2")
    assert parsed.orders == []
    assert [why for _, why in parsed.ignored] == ["a greeting, not an order"]
    [problem] = parsed.problems
    assert "did you mean ATTACK" in problem.message


def test_an_attack_without_an_academy_says_it_needs_one_and_what_it_costs() -> None:
    """ "setting a unit to attack an enemy, which is done at an undamaged Academy" - without
    one, the refusal says so and how to get one, not "your academies take 0 units"."""
    [problem] = problems(make_game(), "ann", "ATTACK bob WITH 2")
    assert (problem.kind, problem.rule) == (ProblemKind.ILLEGAL, RULES["academy"])
    assert problem.message == (
        "you have no academy to attack from: BREAK GROUND ACADEMY, then BUILD it "
        "(5 damage tokens, 1 lumber each)"
    )
    game = position()
    academy = game.seat("ann").building("academy1")
    assert academy is not None
    academy.damage = 2
    [problem] = problems(game, "ann", "ATTACK bob WITH 2")
    assert (problem.kind, problem.rule) == (ProblemKind.ILLEGAL, RULES["academy"])
    assert problem.message == (
        "academy1 has 2 damage tokens: BUILD on an earlier line to repair it first"
    )
    assert problems(game, "ann", "BUILD 2 academy1\nATTACK bob WITH 2") == []


def test_tools_on_a_line_are_at_most_its_units() -> None:
    """ "a tool may be used to double the productivity of the unit": one tool a unit."""
    [problem] = problems(position(), "ann", "WORK 1 farm1 TOOLS 2")
    assert (problem.kind, problem.rule) == (ProblemKind.ILLEGAL, RULES["tools"])
    [problem] = problems(position(), "ann", "WORK 1 farm1 TOOLS some")
    assert problem.kind is ProblemKind.SYNTAX
