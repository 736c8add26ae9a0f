"""The order parser: three kinds of problem, keywords and words matched by unique prefix, and
standing orders kept in the state."""

from __future__ import annotations

import pytest

from engine.problems import ProblemKind
from engine.rulesets.culture_and_conquest.model import Support
from engine.rulesets.culture_and_conquest.orders import Build, Move, SupportOrder, Tribute

from .support import RULESET, make_state, patch_dice, play, problems


def _parse(text: str) -> list[object]:
    state = make_state(pops={"ann": {"agriculture": 8}}, gold=5, advances={"ann": ["Religion"]})
    parsed = RULESET.parse_orders(state.to_json(), "ann", text)
    assert parsed.problems == [], [p.describe() for p in parsed.problems]
    return parsed.orders


def test_keywords_and_words_by_unique_prefix_and_case() -> None:
    [move, build, tribute] = _parse("mov 2 agri to lab\nbuild wonder orac\ntrib pop")
    assert isinstance(move, Move) and (move.count, move.source, move.target) == (
        2,
        "agriculture",
        "labor",
    )
    assert isinstance(build, Build) and (build.name, build.city) == ("Oracle", "")
    assert isinstance(tribute, Tribute) and tribute.kinds == ("population", "city", "gold")


def test_comments_and_blank_lines_are_ignored() -> None:
    assert len(_parse("# a comment\n\nMOVE 1 AGRICULTURE TO TRADE  # why not\n")) == 1


@pytest.mark.parametrize(
    ("text", "kind", "message"),
    [
        ("DANCE", ProblemKind.SYNTAX, "'DANCE' is not a"),
        ("S bob 1", ProblemKind.AMBIGUOUS, "'S' could be more than one order"),
        ("MOVE two AGRICULTURE TO LABOR", ProblemKind.SYNTAX, "expected a number"),
        ("MOVE 1 AGRICULTURE TO PRIESTS", ProblemKind.SYNTAX, "'PRIESTS' is not a category"),
        ("MOVE 1 A TO LABOR", ProblemKind.AMBIGUOUS, "'A' could be more than one category"),
        ("ATTACK", ProblemKind.SYNTAX, "ATTACK needs the seat to attack"),
        ("ATTACK bob WHEN READY", ProblemKind.SYNTAX, "ATTACK <seat> [GIVE UP IF LOSSES <n>]"),
        ("SURRENDER SOON", ProblemKind.SYNTAX, "SURRENDER IF ARMY BELOW <n>"),
        ("SUPPORT bob 2 GENERAL", ProblemKind.ILLEGAL, "you have no General to send"),
        ("BUILD PALACE", ProblemKind.SYNTAX, "'PALACE' is not a thing to build"),
        ("BUILD WONDER Colossus", ProblemKind.ILLEGAL, "the Colossus needs the advance"),
        ("BUILD CITY Tro<y>", ProblemKind.SYNTAX, "a city name is letters"),
        ("BUILD WONDER Oracle IN Ur", ProblemKind.ILLEGAL, "you have no city called Ur"),
    ],
)
def test_problems_name_their_kind(text: str, kind: ProblemKind, message: str) -> None:
    """design: a syntax error names what was expected with an example; an illegal order cites
    the rule; an ambiguous one lists the readings."""
    state = make_state(
        pops={"ann": {"agriculture": 8, "army": 2}}, gold=5, advances={"ann": ["Religion"]}
    )
    [problem] = problems(state, "ann", text)
    assert problem.kind is kind, problem
    assert problem.message.startswith(message), problem.message
    assert problem.line_no == 1
    if kind is ProblemKind.SYNTAX:
        assert problem.example
    if kind is ProblemKind.ILLEGAL:
        assert problem.rule
    if kind is ProblemKind.AMBIGUOUS:
        assert len(problem.readings) > 1


def test_one_bad_line_does_not_spoil_the_others() -> None:
    state = make_state(pops={"ann": {"agriculture": 8}}, gold=5)
    parsed = RULESET.parse_orders(
        state.to_json(), "ann", "MOVE 1 AGRICULTURE TO TRADE\nDANCE\nBUILD CITY"
    )
    assert [p.line_no for p in parsed.problems] == [2]
    assert len(parsed.orders) == 2


def test_standing_orders_are_kept_until_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    """design: "Decisions that the table would make mid-turn ... are given in advance as
    standing orders with documented defaults." """
    patch_dice(monkeypatch)
    state = make_state(pops={"ann": {"agriculture": 5}, "bob": {"agriculture": 5}})
    assert state.seat("ann").standing.tribute == ["city", "gold", "population"]
    assert state.seat("ann").standing.surrender_below == 0
    text = "SURRENDER IF ARMY BELOW 3\nTRIBUTE GOLD\nSUPPORT bob 2 ARMIES"
    after, resolution = play(state, {"ann": text})
    standing = after.seat("ann").standing
    assert (standing.surrender_below, standing.tribute) == (3, ["gold", "city", "population"])
    assert standing.supports == [Support("bob", 2, False)]
    assert {r.note for r in resolution.results["ann"]} == {"standing order recorded"}
    after, _ = play(after, {"ann": "SURRENDER NEVER"})
    assert after.seat("ann").standing.surrender_below == 0
    assert after.seat("ann").standing.supports == [Support("bob", 2, False)]


def test_support_reads_armies_and_general() -> None:
    state = make_state(gold=5, leaders={"ann": [("Caesar", "General")]})
    parsed = RULESET.parse_orders(state.to_json(), "ann", "SUPPORT b 3 ARMIES GENERAL")
    [order] = parsed.orders
    assert isinstance(order, SupportOrder)
    assert (order.seat, order.armies, order.general) == ("bob", 3, True)


def test_every_order_gets_a_result(monkeypatch: pytest.MonkeyPatch) -> None:
    patch_dice(monkeypatch)
    state = make_state(pops={"ann": {"agriculture": 8, "labor": 2}, "bob": {}}, gold=5)
    text = "MOVE 1 AGRICULTURE TO ARMY\nATTACK bob\nOFFER bob 1 GOLD FOR NOTHING\nBUILD CITY"
    _, resolution = play(state, {"ann": text})
    assert [r.line_no for r in resolution.results["ann"]] == [1, 2, 3, 4]


@pytest.mark.parametrize(
    ("line", "understood"),
    [
        ("MOVE 2 AGRICULTURE, LABOR.", "move 2 populations from Agriculture to Labor"),
        ("ATTACK bob GIVE UP IF LOSSES 2", "attack seat bob, give up after losing 2 armies"),
        ("ATTACK b", "attack seat bob, never giving up"),
        ("SUPPORT cat 2 ARMIES", "standing order: send 2 armies to seat cat's wars"),
        ("SUPPORT cat NONE", "standing order: stop supporting seat cat"),
        ("SURRENDER IF ARMY BELOW 2", "standing order: surrender if your Army falls below 2"),
        ("SURRENDER NEVER", "standing order: never surrender"),
        ("TRIBUTE GOLD", "standing order: pay tribute in gold, then city, then population"),
        (
            "OFFER c 3 GOLD, ADVANCE Religion FOR 2 LABOR POINTS",
            "offer seat cat 3 gold, advance Religion for 2 labor points",
        ),
        ("ACCEPT bob 2 FOOD FOR 1 GOLD", "accept seat bob's offer of 2 food for 1 gold"),
        ("BUILD CITY Thebes.", "build the city Thebes, spending what it needs"),
        ("BUILD CITY", "build the city (the next name on the list), spending what it needs"),
        ("BUILD WONDER Oracle IN Giza 5", "build the Wonder Oracle in Giza, spending at most 5"),
    ],
)
def test_every_order_says_what_it_was_understood_as(line: str, understood: str) -> None:
    """issue 13: the check reply echoes what was understood, in full words, beside the line."""
    state = make_state(
        seats=("ann", "bob", "cat"),
        pops={"ann": {"agriculture": 8, "army": 2}},
        gold=5,
        advances={"ann": ["Religion"]},
    )
    parsed = RULESET.parse_orders(state.to_json(), "ann", line)
    assert parsed.problems == [], [p.describe() for p in parsed.problems]
    assert parsed.understood() == [(1, understood)]


def test_a_seat_name_beats_a_seat_letter() -> None:
    """issue 13: "`OFFER c ...` went to seat C (bob), not to cat, and `ATTACK a` attacked seat
    A." Decision (docs/orders/culture-and-conquest.md, "Naming a seat"): names first, by
    unique start; a seat letter only where no seat's name starts with it."""
    state = make_state(seats=("bob", "ann", "cat"), pops={"ann": {"army": 2}}, gold=5)
    assert [s.letter for s in state.seats] == ["A", "B", "C"]
    parsed = RULESET.parse_orders(state.to_json(), "ann", "OFFER c 1 GOLD FOR NOTHING\nATTACK a")
    offer, attack = parsed.orders
    assert offer.to == "cat" and attack.target == "bob"
    assert parsed.understood()[0] == (1, "offer seat cat 1 gold for nothing")
