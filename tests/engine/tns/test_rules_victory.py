"""Rule-by-rule tests: Victory, elimination and the end of the game."""

from __future__ import annotations

import pytest

from engine.rulesets.temples_and_swords.model import GameState
from engine.rulesets.temples_and_swords.scoring import victory_points

from .support import RULESET, make_state, patch_dice, play

TERRAIN = ["ggggg", "ggggg", "ddddd", "ddddd"]
SEVEN = [
    "Religion",
    "Masonry",
    "Coinage",
    "Writing",
    "Equestrian",
    "Metal Working",
    "Military Doctrine",
]


def test_one_vp_for_each_city_temple_and_advance() -> None:
    """Victory: "Players gain one victory point for each city, temple and advance they
    have." """
    state = make_state(
        TERRAIN,
        hexes={"A1": ("ann", 3, ["city", "road", "temple", "walls"]), "C1": ("ann", 2, ["city"])},
        advances={"ann": ["Religion", "Masonry"]},
    )
    state.hexes["E1"] = state.hexes["C1"].__class__(owner="ann", pop=1, progress={"temple": 4})
    assert victory_points(state, "ann") == 5
    assert victory_points(state, "bob") == 0


def test_art_counts_two_vp() -> None:
    """Art: "it does make up for its lack of in-game use by granting you two VP instead of
    one." """
    state = make_state(TERRAIN, advances={"ann": ["Art"], "bob": ["Religion"]})
    assert (victory_points(state, "ann"), victory_points(state, "bob")) == (2, 1)


def nine_vp(**options: object) -> GameState:
    """ann at 9 VP (a city, a temple, seven advances) with a second city one turn from done."""
    state = make_state(
        TERRAIN,
        hexes={
            "A1": ("ann", 3, ["city", "temple"]),
            "B1": ("ann", 2, []),
            "E4": ("bob", 3, ["city"]),
        },
        advances={"ann": list(SEVEN)},
        options=dict(options),
        gold=5,
    )
    state.hexes["B1"].progress = {"city": 8}
    state.hexes["B1"].laborers = 2
    return state


def test_ten_vp_at_the_end_of_a_turn_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    """Victory: "If, at the end of his turn, a player has amassed ten victory points, he wins
    the game." (option victory_points, default 10) - the game ends there: later seats do not
    play."""
    patch_dice(monkeypatch)
    state = nine_vp()
    after, resolution = play(state, {"ann": "", "bob": "LABOR E4 1"})
    assert after.hexes["B1"].projects == ["city"]
    assert resolution.outcome is not None
    assert resolution.outcome.winners == ("ann",)
    assert resolution.outcome.reason == "ann has 10 VP"
    assert after.winners == ["ann"]
    assert [r.status.value for r in resolution.results["bob"]] == ["skipped"]
    assert resolution.results["bob"][0].note == "the game ended before this order's phase"
    assert after.hexes["E4"].laborers == 0
    assert RULESET.seats_to_order(after.to_json()) == []
    assert RULESET.outcome(after.to_json()) == resolution.outcome


def test_the_introduction_says_twenty_vp(monkeypatch: pytest.MonkeyPatch) -> None:
    """Victory (introduction): "Victory occurs when, at the end of his turn, a player has 20
    victory points (VP)" - option victory_points 20: ten VP do not win."""
    patch_dice(monkeypatch)
    after, resolution = play(nine_vp(victory_points=20))
    assert victory_points(after, "ann") == 10
    assert resolution.outcome is None
    assert after.winners == []


def test_no_further_turn_after_the_game_is_over(monkeypatch: pytest.MonkeyPatch) -> None:
    """Victory: "he wins the game." - a finished game resolves no more turns."""
    patch_dice(monkeypatch)
    after, _ = play(nine_vp())
    with pytest.raises(ValueError, match="the game is over"):
        RULESET.resolve(after.to_json(), {}, 0)


def conquest(third_seat: bool = False) -> GameState:
    seats = ("ann", "bob", "cid") if third_seat else ("ann", "bob")
    hexes = {"A1": ("ann", 3, ["city"]), "B1": ("bob", 1, ["city"])}
    if third_seat:
        hexes["E4"] = ("cid", 3, ["city"])
    return make_state(
        TERRAIN, seats=seats, hexes=hexes, armies={"A1": {"ann": {"soldier": 2}}}, gold=5
    )


def test_capturing_every_enemy_holding_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    """Victory: "Alternatively, if a player has captured all enemy populations and cities, he
    also wins the game." Introduction: "or has destroyed or captured all enemy cities, armies
    and populations"."""
    patch_dice(monkeypatch)
    after, resolution = play(conquest(), {"ann": "MOVE A1 B1\nATTACK B1"})
    assert after.hexes["B1"].owner == "ann"
    assert not after.seat("bob").alive
    assert resolution.outcome is not None
    assert resolution.outcome.winners == ("ann",)
    assert resolution.outcome.reason == (
        "ann has destroyed or captured every enemy city, army and population"
    )
    assert [e.code for e in resolution.events][-2:] == ["eliminated", "game_over"]


def test_a_seat_with_nothing_left_is_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """Victory: "destroyed or captured all enemy cities, armies and populations" - a seat that
    has lost all of them is out of the game; the others play on."""
    patch_dice(monkeypatch)
    after, resolution = play(conquest(third_seat=True), {"ann": "MOVE A1 B1\nATTACK B1"})
    assert [s.alive for s in after.seats] == [True, False, True]
    assert resolution.outcome is None
    eliminated = [e for e in resolution.events if e.code == "eliminated"]
    assert [(e.seat, e.public) for e in eliminated] == [("bob", True)]
    assert "bob has lost every city, army and population" in eliminated[0].text
    assert RULESET.seats_to_order(after.to_json()) == ["ann", "cid"]


def test_a_seat_with_only_an_army_is_not_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """Victory: "destroyed or captured all enemy cities, armies and populations" - an army
    alone keeps a seat in the game."""
    patch_dice(monkeypatch)
    state = conquest()
    state.units_for_change("E4", "bob").add("soldier", 1)
    after, resolution = play(state, {"ann": "MOVE A1 B1\nATTACK B1"})
    assert after.hexes["B1"].owner == "ann"
    assert after.seat("bob").alive
    assert resolution.outcome is None


def test_turn_limit_ends_the_game_with_the_most_vp(monkeypatch: pytest.MonkeyPatch) -> None:
    """Option turn_limit: "end the game after this many rounds, the most VP winning (0: no
    limit, as the text)"."""
    patch_dice(monkeypatch)
    state = nine_vp(turn_limit=2)
    state.hexes["B1"].progress = {}
    after, resolution = play(state)
    assert resolution.outcome is None
    after, resolution = play(after)
    assert resolution.outcome is not None
    assert resolution.outcome.winners == ("ann",)
    assert resolution.outcome.reason == "turn limit 2 reached with 9 VP"


def test_turn_limit_tie_shares_the_win(monkeypatch: pytest.MonkeyPatch) -> None:
    """Option turn_limit: "the most VP winning" - seats tied on the most VP all win."""
    patch_dice(monkeypatch)
    state = make_state(
        TERRAIN,
        hexes={"A1": ("ann", 3, ["city"]), "E4": ("bob", 3, ["city"])},
        options={"turn_limit": 1},
    )
    _, resolution = play(state)
    assert resolution.outcome is not None
    assert resolution.outcome.winners == ("ann", "bob")


def test_slaves_and_empty_hexes_do_not_keep_a_seat_in_the_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Decision 62 (docs/rules/temples-and-swords.md): "every other seat is eliminated, that is
    holds no city, no population and no military unit (slaves and empty hexes do not keep a
    seat in the game)"."""
    patch_dice(monkeypatch)
    state = conquest()
    state.units_for_change("E4", "bob").add("slave", 3)
    state.hexes["E3"] = state.hexes["B1"].__class__(owner="bob", projects=["road"])
    after, resolution = play(state, {"ann": "MOVE A1 B1\nATTACK B1"})
    assert not after.seat("bob").alive
    assert after.units("E4", "bob").slave == 3
    assert resolution.outcome is not None
    assert resolution.outcome.winners == ("ann",)
