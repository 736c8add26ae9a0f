"""The engine core: dice, registry, problems, options and word matching."""

from __future__ import annotations

import pytest

from engine import Dice, Problem, ProblemKind, get_ruleset, register
from engine.problems import ambiguous, illegal, syntax
from engine.registry import UnknownRuleset, all_rulesets
from engine.ruleset import OptionError, OptionSpec
from engine.rulesets.temples_and_swords import TemplesAndSwords
from engine.words import match_word, spellings_of


def test_dice_are_the_same_for_the_same_seed_turn_seat_and_purpose() -> None:
    first = Dice(7, 3, "ann", "tech").roll(20)
    again = Dice(7, 3, "ann", "tech").roll(20)
    assert first == again
    assert all(1 <= d <= 6 for d in first)


@pytest.mark.parametrize(
    "other",
    [(8, 3, "ann", "tech"), (7, 4, "ann", "tech"), (7, 3, "bob", "tech"), (7, 3, "ann", "war")],
)
def test_dice_differ_when_any_part_of_the_key_differs(other: tuple[int, int, str, str]) -> None:
    assert Dice(7, 3, "ann", "tech").roll(20) != Dice(*other).roll(20)


def test_dice_streams_do_not_share_state() -> None:
    """Rolling more in one stream does not move another: the basis of rerunning a turn."""
    untouched = Dice(1, 1, "bob", "disaster").roll(5)
    busy = Dice(1, 1, "ann", "tech")
    busy.roll(100)
    assert Dice(1, 1, "bob", "disaster").roll(5) == untouched


def test_dice_sides_and_choice() -> None:
    dice = Dice(5, 1, "x", "y")
    assert {dice.d(8) for _ in range(400)} == set(range(1, 9))
    assert {dice.choice("abc") for _ in range(100)} == {"a", "b", "c"}


def test_registry_finds_by_id_and_alias_case_insensitively() -> None:
    ruleset = get_ruleset("temples-and-swords")
    assert get_ruleset("TNS") is ruleset
    assert get_ruleset("temples") is ruleset
    assert ruleset in all_rulesets()


def test_registry_refuses_a_duplicate_id_or_alias() -> None:
    with pytest.raises(ValueError, match="already registered: temples-and-swords"):
        register(TemplesAndSwords())

    class Clash(TemplesAndSwords):
        id = "another-game"
        aliases = ("tns",)

    with pytest.raises(ValueError, match="already registered: tns"):
        register(Clash())
    with pytest.raises(UnknownRuleset, match="another-game"):
        get_ruleset("another-game")


def test_unknown_ruleset_names_the_known_ones() -> None:
    with pytest.raises(UnknownRuleset, match="temples-and-swords"):
        get_ruleset("chess")


def test_problem_describe_names_the_line_and_its_help() -> None:
    assert syntax("expected a number", "TECH 2").at(4, "TECH x").describe() == (
        "line 4: expected a number\n  for example: TECH 2"
    )
    assert illegal("not yours", "Rule X").at(2, "LABOR A1 1").describe() == (
        "line 2: not yours\n  rule: Rule X"
    )
    problem = ambiguous("which?", ("a", "b")).at(1, "M")
    assert problem == Problem(ProblemKind.AMBIGUOUS, 1, "M", "which?", readings=("a", "b"))
    assert problem.describe() == "line 1: which?\n  it could mean: a | b"


def test_match_word_exact_prefix_ambiguous_and_unknown() -> None:
    table = spellings_of({"soldier": ("soldiers",), "swordsman": (), "slave": ()})
    assert match_word("SOLDIERS", table, "unit", "ex") == "soldier"
    assert match_word("sw", table, "unit", "ex") == "swordsman"
    with pytest.raises(Exception) as error:
        match_word("s", table, "unit", "ex")
    assert error.value.readings == ("slave", "soldier", "swordsman")
    with pytest.raises(Exception) as error:
        match_word("tank", table, "unit", "BUILD C4 SOLDIER")
    assert error.value.kind == ProblemKind.SYNTAX
    assert error.value.example == "BUILD C4 SOLDIER"


def test_options_take_defaults_check_values_and_refuse_unknown_names() -> None:
    ruleset = get_ruleset("tns")
    options = ruleset.resolve_options({"victory_points": "20", "mode": "Sequential"})
    assert options["victory_points"] == 20
    assert options["mode"] == "sequential"
    assert options["library_effect"] == "roll"
    with pytest.raises(OptionError, match="no option colour"):
        ruleset.resolve_options({"colour": "red"})
    with pytest.raises(OptionError, match="one of round, sequential"):
        ruleset.resolve_options({"mode": "blitz"})
    with pytest.raises(OptionError, match="at most 100"):
        ruleset.resolve_options({"victory_points": 1000})


def test_boolean_option_reads_yes_and_no() -> None:
    spec = OptionSpec("early", True, "help")
    assert spec.check("no") is False
    assert spec.check("YES") is True
    with pytest.raises(OptionError):
        spec.check("maybe")
