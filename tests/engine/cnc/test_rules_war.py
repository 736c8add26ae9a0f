"""Rule-by-rule tests: War Phase - attack, allies, segments, battle rolls, surrender, giving up
and tribute."""

from __future__ import annotations

from typing import Any

import pytest

from engine.problems import ProblemKind
from engine.rulesets.culture_and_conquest import war
from engine.rulesets.culture_and_conquest.model import City, GameState, Support
from engine.rulesets.culture_and_conquest.rules import RULES

from .support import make_state, patch_dice, play, problems, results, scripted_turn, texts

SEATS = ("ann", "bob", "cat")


def _state(ann: int = 3, bob: int = 3, **kwargs: Any) -> GameState:
    return make_state(
        SEATS,
        pops={
            "ann": {"army": ann, "agriculture": 5},
            "bob": {"army": bob, "agriculture": 5},
            "cat": {"army": 4, "agriculture": 5},
        },
        **kwargs,
    )


def test_a_player_may_attack_one_opponent() -> None:
    """War Phase: "A Player may attack one opponent." """
    state = _state()
    [problem] = problems(state, "ann", "ATTACK bob\nATTACK cat")
    assert problem.kind is ProblemKind.ILLEGAL
    assert (problem.line_no, problem.rule) == (2, RULES["attack"])


def test_an_attack_needs_an_army() -> None:
    """War Phase: the attacker fights with his Army; none, no war."""
    state = _state(ann=0)
    [problem] = problems(state, "ann", "ATTACK bob")
    assert problem.message == "you have no Army to attack with"
    state.seat("ann").gold = 1
    assert problems(state, "ann", "MOVE 1 AGRICULTURE TO ARMY\nATTACK bob") == []


def test_each_side_rolls_3_dice_a_segment_and_each_1_kills_an_army() -> None:
    """War Phase: "In each segment each Player rolls 3 dice. These are Battle rolls. Each roll
    of 1 causes your opponent to lose 1 Army." """
    state = _state()
    turn = scripted_turn(
        state,
        "ann",
        "ATTACK bob",
        dice={"war": [1, 1, 1, 4, 1, 2, 3]},
    )
    war.war(turn)
    assert (turn.state.seat("ann").army, turn.state.seat("bob").army) == (2, 1)
    assert "Dice (attacker/defender): s1 [1 1 4]/[1 2 3]" in texts(turn)[0]


def test_the_war_lasts_at_most_1d6_segments() -> None:
    """War Phase: "The War may last a maximum of 1D6 segments." """
    state = _state()
    turn = scripted_turn(
        state,
        "ann",
        "ATTACK bob",
        dice={"war": [2, 2, 3, 4, 5, 6, 6, 2, 3, 4, 5, 6, 6]},
    )
    war.war(turn)
    assert "at most 2 segments" in texts(turn)[0]
    assert results(turn) == [("done", "the segments are over; the war ends undecided")]
    assert turn.unused() == {}


@pytest.mark.parametrize(
    ("advances", "dice"),
    [
        ([], 3),
        (["Metal Working"], 4),
        (["Military Doctrine"], 4),
        (["Equestrian"], 4),
        (["Metal Working", "Military Doctrine", "Equestrian"], 6),
    ],
)
def test_advances_add_battle_rolls(advances: list[str], dice: int) -> None:
    """Advance Table: "14 Metal Working Battle Roll: 1 additional roll; 17 Military Doctrine
    Battle: 1 additional roll; 20 Equestrian Battle: 1 additional roll" """
    state = _state(advances={"ann": advances})
    turn = scripted_turn(
        state,
        "ann",
        "ATTACK bob",
        dice={"war": [1] + [5] * dice + [5, 5, 5]},
    )
    war.war(turn)
    assert f"ann 3 ({dice} dice" in texts(turn)[0]
    assert turn.unused() == {}


def test_a_general_adds_a_battle_roll() -> None:
    """Leaders: "2 General 1 additional Battle Roll" """
    state = _state(leaders={"bob": [("Caesar", "General")]})
    turn = scripted_turn(state, "ann", "ATTACK bob", dice={"war": [1, 5, 5, 5, 5, 5, 5, 5]})
    war.war(turn)
    assert "bob 3 (4 dice +General)" in texts(turn)[0]


def test_the_great_wall_adds_a_roll_when_defending_only() -> None:
    """Wonder Table: "Great Wall Currency 1 additional Battle Roll when defending" """
    state = _state()
    state.seat("ann").cities = [City("Giza", "Great Wall")]
    state.seat("bob").cities = [City("Rome", "Great Wall")]
    turn = scripted_turn(state, "ann", "ATTACK bob", dice={"war": [1, 5, 5, 5, 5, 5, 5, 5]})
    war.war(turn)
    assert "ann 3 (3 dice) attacks bob 3 (4 dice +Great Wall)" in texts(turn)[0]


def test_other_players_send_armies_and_generals_to_either_side() -> None:
    """War Phase: "Other Players may send Army and Generals to serve on either side." By mail
    a standing SUPPORT order; the ally's Armies fight and its General adds a roll."""
    state = _state(leaders={"cat": [("Hannibal", "General")]})
    state.seat("cat").standing.supports = [Support("bob", 2, True)]
    turn = scripted_turn(
        state,
        "ann",
        "ATTACK bob",
        dice={"war": [1, 1, 1, 1, 5, 5, 5, 5]},
    )
    war.war(turn)
    assert "attacks bob 3 with cat 2 (4 dice +cat's General)" in texts(turn)[0]
    # three hits: the largest contingent first (bob 3, then bob 2 = cat 2: bob, then cat)
    assert (turn.state.seat("bob").army, turn.state.seat("cat").army) == (1, 3)
    assert "Armies lost: bob 2, cat 1" in texts(turn)[0]


@pytest.mark.parametrize("order", ["SUPPORT bob 0 ARMIES GENERAL", "SUPPORT bob GENERAL"])
def test_a_general_may_be_sent_alone(order: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """War Phase: "Other Players may send Army and Generals to serve on either side." - a
    General without Armies too (issue 13: the order was acknowledged, then nothing stored)."""
    state = _state(leaders={"cat": [("Hannibal", "General")]})
    patch_dice(monkeypatch)
    after, resolution = play(state, {"cat": order})
    assert [r.note for r in resolution.results["cat"]] == ["standing order recorded"]
    assert after.seat("cat").standing.supports == [Support("bob", 0, True)]
    state.seat("cat").standing.supports = after.seat("cat").standing.supports
    turn = scripted_turn(state, "ann", "ATTACK bob", dice={"war": [1, 5, 5, 5, 5, 5, 5, 5]})
    war.war(turn)
    assert "attacks bob 3 (4 dice +cat's General)" in texts(turn)[0]
    assert turn.state.seat("cat").army == 4


def test_an_ally_of_both_sides_sends_to_neither() -> None:
    """War Phase: "Other Players may send Army ... to serve on either side" - on one side;
    project decision: a seat supporting both the attacker and the defender stays out."""
    state = _state()
    state.seat("cat").standing.supports = [Support("bob", 2), Support("ann", 1)]
    turn = scripted_turn(state, "ann", "ATTACK bob", dice={"war": [1, 5, 5, 5, 5, 5, 5]})
    war.war(turn)
    assert "with cat" not in texts(turn)[0]


def test_an_ally_sends_no_more_armies_than_it_has() -> None:
    """War Phase: "send Army" - the Armies it has."""
    state = _state()
    state.seat("cat").standing.supports = [Support("ann", 9)]
    turn = scripted_turn(state, "ann", "ATTACK bob", dice={"war": [1, 5, 5, 5, 5, 5, 5]})
    war.war(turn)
    assert "ann 3 with cat 4 (3 dice)" in texts(turn)[0]


def test_support_is_a_standing_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """War Phase: allies "as standing orders given before the deadline": SUPPORT stays until
    changed; SUPPORT <seat> NONE ends it."""
    state = _state()
    patch_dice(monkeypatch)
    after, _ = play(state, {"cat": "SUPPORT bob 2 ARMIES"})
    assert after.seat("cat").standing.supports == [Support("bob", 2, False)]
    after, _ = play(after, {"cat": "SUPPORT bob NONE"})
    assert after.seat("cat").standing.supports == []


def test_the_defender_surrenders_by_his_standing_condition() -> None:
    """War Phase: "The War may stop if the defender surrenders". By mail: SURRENDER IF ARMY
    BELOW n, checked after each segment; by default (option surrender_pays_tribute) the
    winner takes tribute."""
    state = _state(gold=6)
    state.seat("bob").standing.surrender_below = 3
    turn = scripted_turn(
        state,
        "ann",
        "ATTACK bob",
        dice={"war": [6, 1, 5, 5, 5, 5, 5]},
    )
    state.seat("ann").standing.tribute = ["gold", "city", "population"]
    war.war(turn)
    assert turn.state.seat("bob").army == 2
    assert results(turn) == [("done", "won: the defender surrenders; ann takes all 6 gold of bob")]


def test_surrender_without_tribute_by_option() -> None:
    """Project decision, option surrender_pays_tribute = no: surrender only stops the war."""
    state = _state(gold=6, options={"surrender_pays_tribute": False})
    state.seat("bob").standing.surrender_below = 3
    turn = scripted_turn(state, "ann", "ATTACK bob", dice={"war": [6, 1, 5, 5, 5, 5, 5]})
    war.war(turn)
    assert turn.state.seat("bob").gold == 6


def test_the_attacker_gives_up_by_his_condition() -> None:
    """War Phase: "The War may stop if ... the attacker gives up." By mail: ATTACK <seat>
    GIVE UP IF LOSSES n."""
    state = _state()
    turn = scripted_turn(
        state,
        "ann",
        "ATTACK bob GIVE UP IF LOSSES 1",
        dice={"war": [6, 5, 5, 5, 1, 5, 5]},
    )
    war.war(turn)
    assert results(turn) == [("done", "the attacker gives up")]
    assert turn.state.seat("ann").army == 2


def test_tribute_when_the_defender_loses_all_his_army() -> None:
    """War Phase: "If the defender loses all of his Army, the winner gets to take one form of
    tribute: All of the loser's Gold, or 1 City (which may contain a Wonder), or 2D6
    Population." The default TRIBUTE order is CITY, GOLD, POPULATION."""
    state = _state(bob=1, gold=4, cities={"ann": ["Giza"], "bob": ["Rome", "Ur"]})
    state.seat("bob").cities[0].wonder = "Oracle"
    turn = scripted_turn(state, "ann", "ATTACK bob", dice={"war": [3, 1, 5, 5, 5, 5, 5]})
    war.war(turn)
    ann, bob = turn.state.seat("ann"), turn.state.seat("bob")
    assert [c.name for c in ann.cities] == ["Giza", "Rome"]
    assert ann.wonders() == ["Oracle"]
    assert [c.name for c in bob.cities] == ["Ur"]
    assert texts(turn)[1] == "Tribute: ann takes the city of Rome with the Oracle from bob."


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        ("TRIBUTE GOLD", "ann takes all 4 gold of bob"),
        ("TRIBUTE POPULATION", "ann takes 7 populations of bob (2D6 [3, 4]: 5 agriculture, 2"),
    ],
)
def test_the_winner_chooses_the_tribute(
    order: str, expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """War Phase: "the winner gets to take one form of tribute" - the winner's standing
    TRIBUTE order says which."""
    state = _state(bob=1, gold=4)
    state.seat("bob").pops["labor"] = 2
    patch_dice(monkeypatch, {("ann", "war"): [1, 1, 5, 5, 5, 5, 5], ("ann", "tribute"): [3, 4]})
    _after, resolution = play(state, {"ann": f"{order}\nATTACK bob"})
    tribute = next(e for e in resolution.events if e.code == "tribute")
    assert expected in tribute.text
    # every roll is in the event's dice (issue 13: the 2D6 were only in its text)
    assert tribute.dice == ((3, 4) if order == "TRIBUTE POPULATION" else ())


def test_no_tribute_when_both_sides_are_destroyed() -> None:
    """Project decision: when both sides lose their last Army in the same segment, nobody
    wins and no tribute is taken."""
    state = _state(ann=1, bob=1, gold=4)
    turn = scripted_turn(state, "ann", "ATTACK bob", dice={"war": [3, 1, 5, 5, 1, 5, 5]})
    war.war(turn)
    assert results(turn) == [("done", "both sides have lost all their Armies; nobody wins")]
    assert turn.state.seat("bob").gold == 4
