"""Rule-by-rule tests of the map version (option map): war between adjacent territories, the
Move Phase, moves by sea, capture, the border attacked by Barbarians and rebels, and cities
changing hands with their territories."""

from __future__ import annotations

import pytest

from engine.problems import ProblemKind
from engine.rulesets.culture_and_conquest import mapwar, movement, nature
from engine.rulesets.culture_and_conquest.geography import settle
from engine.rulesets.culture_and_conquest.model import Support
from engine.rulesets.culture_and_conquest.rules import RULES

from .support import (
    event_texts,
    make_map_state,
    make_state,
    patch_dice,
    play,
    problems,
    results,
    scripted_turn,
    spot,
    texts,
)

ANN = {"B2": {"army": 3, "agriculture": 6}}
BOB = {"C2": {"army": 1, "agriculture": 2}, "D1": {"agriculture": 4}}


def test_the_move_phase_comes_after_the_war_phase(monkeypatch: pytest.MonkeyPatch) -> None:
    """Map Version: "Add a Move Phase after War Phase." The war empties C2 of bob's Army; the
    Move Phase then takes it."""
    state = make_map_state({"ann": ANN, "bob": BOB}, cities={"ann": {"B2": "Giza"}}, gold=5)
    patch_dice(monkeypatch, {("ann", "war"): [1, 1, 5, 5, 5, 5, 5]})
    after, resolution = play(state, {"ann": "ATTACK C2\nMOVE 2 ARMY B2 TO C2"})
    phases = [e.phase for e in resolution.events if e.seat == "ann"]
    assert phases.index("7 War") < phases.index("7b Move") < phases.index("9 Build")
    assert spot(after, "C2").owner == "ann"
    assert spot(after, "C2").pops["army"] == 2 and spot(after, "C2").pops["agriculture"] == 2
    assert event_texts(resolution, "capture") == [
        "Move: ann's Army takes C2 from bob with 2 populations."
    ]


def test_populations_move_one_space_a_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """Map Version: "Populations can move one space per turn." """
    state = make_map_state({"ann": ANN}, cities={"ann": {"B2": "Giza"}}, gold=5)
    [problem] = problems(state, "ann", "MOVE 2 AGRICULTURE B2 TO E1")
    assert problem.message == "E1 is not next to B2 (moving by sea needs Navigation)"
    assert problem.rule == RULES["move"]
    patch_dice(monkeypatch)
    after, resolution = play(state, {"ann": "MOVE 2 AGRICULTURE B2 TO C1"})
    assert spot(after, "C1").owner == "ann" and spot(after, "C1").pops["agriculture"] == 2
    assert event_texts(resolution, "move") == ["Move: 2 Agriculture from B2 to C1."]


def test_what_moved_this_turn_does_not_move_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Map Version: "Populations can move one space per turn." - populations that arrived in a
    territory this turn stay there."""
    state = make_map_state(
        {"ann": {"B2": {"agriculture": 6}, "C1": {"agriculture": 1}}},
        cities={"ann": {"B2": "Giza"}},
    )
    patch_dice(monkeypatch)
    after, resolution = play(
        state, {"ann": "MOVE 2 AGRICULTURE B2 TO C1\nMOVE 3 AGRICULTURE C1 TO B1"}
    )
    assert spot(after, "B1").pops["agriculture"] == 1
    [_first, second] = resolution.results["ann"]
    assert (second.status.value, second.note) == (
        "partly done",
        "moved 1 of 3: no more Agriculture there",
    )


def test_navigation_moves_populations_4_territories_by_sea(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Map Version: "Players with Navigation can move Populations 4 territories by sea per
    turn." B2 to F3 crosses 3 sea spaces; G2 would take 5."""
    state = make_map_state(
        {"ann": ANN}, cities={"ann": {"B2": "Giza"}}, gold=5, advances={"ann": ["Navigation"]}
    )
    [problem] = problems(state, "ann", "MOVE 2 AGRICULTURE B2 TO G2")
    assert problem.message == (
        "G2 is neither next to B2 nor within 4 sea spaces of it, coast to coast"
    )
    assert problem.rule == RULES["navigation"]
    patch_dice(monkeypatch)
    after, resolution = play(state, {"ann": "MOVE 2 AGRICULTURE B2 TO F3"})
    assert spot(after, "F3").owner == "ann"
    assert event_texts(resolution, "move") == ["Move: 2 Agriculture from B2 to F3 by sea."]


def test_a_move_by_sea_ends_in_a_coastal_space() -> None:
    """Map Version: "They must end the turn in a coastal space." - a move by sea lands in a
    coastal territory the same turn; F4 is inland."""
    state = make_map_state({"ann": ANN}, advances={"ann": ["Navigation"]})
    [problem] = problems(state, "ann", "MOVE 2 AGRICULTURE B2 TO F4")
    assert problem.rule == RULES["navigation"]
    [problem] = problems(state, "ann", "MOVE 2 AGRICULTURE B2 TO D3")
    assert (problem.kind, problem.message) == (ProblemKind.ILLEGAL, "D3 is sea")


def test_only_an_army_moves_into_an_opponents_territory() -> None:
    """Map Version: "An Army can move into an opponents territory that does not contain an
    Army." - no other population."""
    state = make_map_state({"ann": ANN, "bob": BOB})
    [problem] = problems(state, "ann", "MOVE 2 AGRICULTURE B2 TO C2")
    assert (problem.message, problem.rule) == (
        "only an Army can move into bob's territory C2",
        RULES["capture"],
    )
    assert problems(state, "ann", "MOVE 2 ARMY B2 TO C2") == []


def test_an_army_does_not_move_into_a_territory_with_an_army(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Map Version: "An Army can move into an opponents territory that does not contain an
    Army." """
    state = make_map_state({"ann": ANN, "bob": BOB}, gold=5)
    patch_dice(monkeypatch)
    after, resolution = play(state, {"ann": "MOVE 2 ARMY B2 TO C2"})
    assert spot(after, "C2").owner == "bob"
    assert resolution.results["ann"][0].note == "C2 holds 1 Army of bob: attack it first"


def test_capture_takes_every_token_and_destroys_the_leaders(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Map Version: "Take control of all tokens in that territory. Captured Leaders are
    destroyed." """
    state = make_map_state(
        {"ann": ANN, "bob": {"C2": {"agriculture": 3, "scholars": 1}, "D1": {"army": 2}}},
        cities={"ann": {"B2": "Giza"}, "bob": {"C2": "Rome", "D1": "Troy"}},
        leaders={"bob": [("Caesar", "General", "C2")]},
        gold=5,
    )
    state.seat("bob").cities[0].wonder = "Oracle"
    patch_dice(monkeypatch)
    after, resolution = play(state, {"ann": "MOVE 1 ARMY B2 TO C2"})
    ann, bob = after.seat("ann"), after.seat("bob")
    assert [c.name for c in ann.cities] == ["Giza", "Rome"] and ann.wonders() == ["Oracle"]
    assert spot(after, "C2").owner == "ann" and spot(after, "C2").leaders == []
    assert bob.leaders == [] and bob.pops["agriculture"] == 0
    assert ann.pops["agriculture"] == 9 and ann.pops["scholars"] == 1
    [capture] = [e for e in resolution.events if e.code == "capture"]
    assert capture.public and capture.text == (
        "Move: ann's Army takes C2 from bob with 4 populations and the city of Rome with the "
        "Oracle; the captured Caesar is destroyed."
    )


def test_a_leader_moves_one_space_and_takes_no_territory() -> None:
    """Map Version: leaders are tokens; project decision: MOVE LEADER moves one like a
    population, into a territory of its culture or nobody's."""
    state = make_map_state({"ann": ANN, "bob": BOB}, leaders={"ann": [("Caesar", "General", "B2")]})
    [problem] = problems(state, "ann", "MOVE LEADER Caesar TO C2")
    assert problem.message == "a leader cannot take bob's territory C2"
    turn = scripted_turn(state, "ann", "MOVE LEADER caesar TO C1")
    movement.move(turn)
    assert spot(state, "C1").leaders == ["Caesar"] and spot(state, "C1").owner == "ann"


def test_armies_attack_army_in_adjacent_spaces() -> None:
    """Map Version: "Armies can attack Army in adjacent spaces." The attacker's Armies in his
    territories next to the one attacked fight the Armies in it."""
    state = make_map_state(
        {
            "ann": {"B2": {"army": 3}, "C1": {"army": 2}, "A2": {"army": 5}},
            "bob": {"C2": {"army": 2}, "D1": {"army": 4}, "E1": {"army": 1}},
        }
    )
    [problem] = problems(state, "ann", "ATTACK E1")
    assert (problem.message, problem.rule) == (
        "none of your territories is next to E1",
        RULES["map_attack"],
    )
    [problem] = problems(state, "ann", "ATTACK B1")
    assert problem.message == "B1 is not an opponent's territory"
    [problem] = problems(state, "ann", "ATTACK bob")
    assert problem.kind is ProblemKind.SYNTAX
    turn = scripted_turn(state, "ann", "ATTACK C2", dice={"war": [1, 5, 5, 5, 1, 1, 5]})
    mapwar.war(turn)
    assert texts(turn)[0].startswith(
        "War on C2 (from C1, B2): ann 5 (3 dice) attacks bob 2 (3 dice); at most 1 segment."
    )
    assert [spot(state, n).army for n in ("B2", "C1", "A2", "C2", "D1")] == [1, 2, 5, 2, 4]
    assert state.seat("ann").army == 8
    assert results(turn) == [("done", "the segments are over; the war ends undecided")]


def test_an_attack_needs_an_army_to_attack(monkeypatch: pytest.MonkeyPatch) -> None:
    """Map Version: "Armies can attack Army" - a territory without an Army is taken by moving
    in, not attacked."""
    state = make_map_state({"ann": ANN, "bob": {"C2": {"agriculture": 2}}}, gold=5)
    patch_dice(monkeypatch)
    _after, resolution = play(state, {"ann": "ATTACK C2"})
    assert resolution.results["ann"][0].note == (
        "there is no Army in C2 to attack: move an Army in to take it"
    )


def test_allies_next_to_the_territory_attacked_serve() -> None:
    """War Phase: "Other Players may send Army and Generals to serve on either side." - on the
    map, Armies of the ally's territories next to the territory attacked."""
    state = make_map_state(
        {
            "ann": {"B2": {"army": 3}},
            "bob": {"C2": {"army": 2}},
            "cat": {"C1": {"army": 4}, "A1": {"army": 7}},
        },
        seats=("ann", "bob", "cat"),
    )
    state.seat("cat").standing.supports = [Support("bob", 9)]
    turn = scripted_turn(state, "ann", "ATTACK C2", dice={"war": [1, 1, 1, 5, 5, 5, 5]})
    mapwar.war(turn)
    assert "attacks bob 2 with cat 4 (3 dice)" in texts(turn)[0]
    # two hits, shared by strength: cat 4 loses one, then cat 3 against bob 2 another
    assert (spot(state, "C2").army, spot(state, "C1").army, spot(state, "A1").army) == (2, 2, 7)
    assert state.seat("cat").army == 9


def test_a_city_taken_as_tribute_goes_with_its_territory() -> None:
    """War Phase: "the winner gets to take one form of tribute: ... 1 City (which may contain
    a Wonder)" - on the map with its territory and every token in it."""
    state = make_map_state(
        {"ann": ANN, "bob": BOB}, cities={"ann": {"B2": "Giza"}, "bob": {"D1": "Rome"}}
    )
    turn = scripted_turn(state, "ann", "ATTACK C2", dice={"war": [1, 1, 5, 5, 5, 5, 5]})
    mapwar.war(turn)
    assert texts(turn)[1] == (
        "Tribute: ann takes the city of Rome from bob, with the territory D1 and everything in it."
    )
    assert spot(state, "D1").owner == "ann" and state.seat("ann").pops["agriculture"] == 10
    assert [c.name for c in state.seat("bob").cities] == []


def test_a_city_traded_goes_with_its_territory(monkeypatch: pytest.MonkeyPatch) -> None:
    """Trade Phase: "The active Player may trade ... Cities" - on the map with the territory
    and every token in it."""
    state = make_map_state(
        {"ann": {"B2": {"agriculture": 6}, "C1": {"agriculture": 2}}, "bob": BOB},
        cities={"ann": {"B2": "Giza", "C1": "Thebes"}},
        gold=5,
    )
    patch_dice(monkeypatch)
    after, _ = play(
        state,
        {"ann": "OFFER bob CITY Thebes FOR 5 GOLD", "bob": "ACCEPT ann CITY Thebes FOR 5 GOLD"},
    )
    assert spot(after, "C1").owner == "bob" and spot(after, "C1").city == "Thebes"
    assert after.seat("bob").city("Thebes") is not None


@pytest.mark.parametrize("kind", [5, 6])
def test_barbarians_and_rebels_attack_a_border_territory(kind: int) -> None:
    """Map Version: "Barbarians and Civil War rebels will attack a border territory." - one of
    the culture's territories next to a space not its own, at random; only its Armies fight."""
    state = make_map_state(
        {"ann": {"A1": {"army": 5}, "B1": {"army": 1}, "A2": {"agriculture": 3}}},
        cities={"ann": {"A1": "Giza"}},
        gold=7,
    )
    dice = [1, kind, 4, 1, 1, 1, 5, 5, 5, 5, 5]  # B1, the first of the border (B1, A2)
    dice += [1] if kind == 6 else []  # the city the rebels take
    turn = scripted_turn(state, "ann", dice={"disaster": dice})
    nature.disaster(turn)
    settle(state)
    assert "rise at the border, in B1" in texts(turn)[1]
    assert (spot(state, "A1").army, spot(state, "B1").army) == (5, 0)
    if kind == 5:
        assert state.seat("ann").gold == 0
    else:
        assert state.seat("ann").cities == [] and spot(state, "A1").city == ""


def test_an_uprising_fights_the_whole_army() -> None:
    """Map Version: only Barbarians and Civil War rebels attack a border territory; project
    decision: an Uprising fights the culture's whole Army, its losses from as few spaces as
    possible."""
    state = make_map_state({"ann": {"A1": {"army": 5}, "B1": {"army": 1}}})
    turn = scripted_turn(state, "ann", dice={"disaster": [1, 11, 2, 1, 1, 1, 5, 5, 5, 5, 5]})
    nature.disaster(turn)
    settle(state)
    assert "border" not in texts(turn)[1]
    assert (spot(state, "A1").army, spot(state, "B1").army) == (3, 1)


def test_a_culture_that_loses_every_territory_is_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """Map Version: "Take control of all tokens in that territory." - a culture whose last
    territory is taken has nothing left and is out of the game (project decision of the game
    without a map)."""
    state = make_map_state(
        {"ann": ANN, "bob": {"C2": {"agriculture": 2}}},
        cities={"ann": {"B2": "Giza"}, "bob": {"C2": "Rome"}},
        gold=5,
    )
    patch_dice(monkeypatch)
    after, resolution = play(state, {"ann": "MOVE 1 ARMY B2 TO C2"})
    assert not after.seat("bob").alive
    assert after.winners == ["ann"]
    assert event_texts(resolution, "eliminated")


def test_without_a_map_territory_orders_stay_unknown() -> None:
    """Option map none: the orders read as in the game without a map."""
    state = make_state(pops={"ann": {"army": 2, "agriculture": 3}}, gold=3)
    [problem] = problems(state, "ann", "MOVE 2 ARMY C4 TO D4")
    assert problem.kind is ProblemKind.SYNTAX
    [problem] = problems(state, "ann", "ATTACK C4")
    assert problem.kind is ProblemKind.SYNTAX
