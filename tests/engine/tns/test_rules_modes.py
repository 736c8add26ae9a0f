"""Rule-by-rule tests: order of play by email - round mode and sequential mode, standing orders,
and orders made impossible by an earlier seat's turn."""

from __future__ import annotations

import pytest

from engine.records import OrderStatus
from engine.rulesets.temples_and_swords.model import GameState

from .support import RULESET, make_state, patch_dice, play

TERRAIN = ["ggggg", "ggggg", "ddddd", "ddddd"]


def position(**options: object) -> GameState:
    """ann (first in order of play) at A1 with an army; bob at B1 next to her, and E4."""
    state = make_state(
        TERRAIN,
        hexes={
            "A1": ("ann", 3, ["city"]),
            "B1": ("bob", 2, ["city"]),
            "E4": ("bob", 3, ["city"]),
        },
        armies={"A1": {"ann": {"soldier": 4}}, "B1": {"bob": {"swordsman": 1}}},
        options=dict(options),
        gold=5,
    )
    return state


def test_round_mode_every_seat_plays_in_order_of_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """Order of play: "High roll starts, then play goes clockwise. Each player moves through
    each phase before passing play on to the next player." Design: "in round mode every seat
    sends orders for the round ... then the engine plays the seats' turns in seat order, phase
    by phase"."""
    patch_dice(monkeypatch)
    state = position()
    assert RULESET.seats_to_order(state.to_json()) == ["ann", "bob"]
    after, resolution = play(state, {"ann": "LABOR A1 1", "bob": "LABOR E4 1"})
    seats = [e.seat for e in resolution.events if e.seat]
    assert seats == sorted(seats, key=["ann", "bob"].index)
    assert {"ann", "bob"} <= set(seats)
    phases = [e.phase for e in resolution.events if e.seat == "ann"]
    assert phases == sorted(phases)
    assert (after.hexes["A1"].laborers, after.hexes["E4"].laborers) == (1, 1)
    assert (after.round, after.step, after.active) == (2, 2, 0)


def test_sequential_mode_one_seat_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Design: "Sequential mode (only the active seat is asked, one seat's turn at a time) is a
    game option." (option mode 'sequential')"""
    patch_dice(monkeypatch)
    state = position(mode="sequential")
    assert RULESET.seats_to_order(state.to_json()) == ["ann"]
    after, resolution = play(state, {"ann": "LABOR A1 1"})
    assert {e.seat for e in resolution.events if e.seat} == {"ann"}
    assert (after.round, after.step, after.active) == (1, 2, 1)
    assert RULESET.seats_to_order(after.to_json()) == ["bob"]
    assert after.hexes["E4"].pop == 3
    after, resolution = play(after, {"bob": "LABOR E4 1"})
    assert {e.seat for e in resolution.events if e.seat} == {"bob"}
    assert (after.round, after.step, after.active) == (2, 3, 0)
    assert after.hexes["E4"].laborers == 1


def test_sequential_mode_orders_of_a_seat_not_playing_are_skipped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Design: "only the active seat is asked" - orders from another seat are not carried out,
    and the results say so."""
    patch_dice(monkeypatch)
    _, resolution = play(position(mode="sequential"), {"ann": "", "bob": "LABOR E4 1"})
    [result] = resolution.results["bob"]
    assert result.status is OrderStatus.SKIPPED
    assert result.note == "not carried out: your seat did not play this turn"


def test_sequential_mode_passes_over_a_seat_that_is_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """Victory: a seat that has lost every city, army and population plays no more turns."""
    patch_dice(monkeypatch)
    state = make_state(
        TERRAIN,
        seats=("ann", "bob", "cid"),
        hexes={"A1": ("ann", 3, ["city"]), "E4": ("cid", 3, ["city"])},
        options={"mode": "sequential"},
    )
    state.seat("bob").alive = False
    after, _ = play(state)
    assert RULESET.seats_to_order(after.to_json()) == ["cid"]


def test_an_order_made_impossible_by_an_earlier_seat_is_skipped_with_the_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Design: "an order that has become impossible because of an earlier seat's turn is
    skipped and the report says why" - here ann, playing first, takes B1 before bob's turn."""
    patch_dice(monkeypatch, {("ann", "attack:0"): [1, 5, 5]})
    state = position()
    orders = {
        "ann": "MOVE A1 B1\nATTACK B1 SLAVES 0",
        "bob": "LABOR B1 1\nLABOR E4 1\nBUILD B1 ROAD\nMOVE B1 C1",
    }
    after, resolution = play(state, orders)
    assert after.hexes["B1"].owner == "ann"
    assert [(r.line_no, r.status, r.note) for r in resolution.results["bob"]] == [
        (1, OrderStatus.SKIPPED, "B1 is not your hex"),
        (2, OrderStatus.DONE, ""),
        (3, OrderStatus.SKIPPED, "B1 is not your hex; you build only in your own hexes"),
        (4, OrderStatus.SKIPPED, "no unit of yours free to move in B1"),
    ]


def test_standing_orders_hold_from_the_start_of_the_round(monkeypatch: pytest.MonkeyPatch) -> None:
    """Design: "Decisions that the table would make mid-turn ... are given in advance as
    standing orders" - a DEFEND given this turn already holds against a seat that plays
    earlier in the round (turn._standing_orders), and stays for later turns."""
    patch_dice(monkeypatch, {("ann", "attack:0"): [5, 5, 5, 1, 5, 5]})
    orders = {"ann": "MOVE A1 B1\nATTACK B1 UNTIL 1", "bob": "DEFEND USE NONE"}
    after, resolution = play(position(), orders)
    battle = next(e for e in resolution.events if e.code == "battle")
    assert battle.dice == (5, 5, 5, 1, 5, 5)
    assert after.units("B1", "bob").swordsman == 1
    assert after.seat("bob").standing.defend_use == "none"
    assert [(r.status, r.note) for r in resolution.results["bob"]] == [
        (OrderStatus.DONE, "standing order recorded")
    ]


def test_a_rerun_with_one_seats_orders_corrected_keeps_the_other_seats_dice() -> None:
    """Design: "all dice come from a RNG derived from (game seed, turn, seat, purpose), so a
    rerun of a turn with one player's orders corrected does not reshuffle unrelated dice. The
    same stored inputs always give the same stored outputs"."""
    state = make_state(
        TERRAIN,
        hexes={"A1": ("ann", 3, ["city"]), "E4": ("bob", 3, ["city"])},
        gold=5,
    )
    first = play(state, {"ann": "TECH 1", "bob": "TECH 2"}, seed=99)[1]
    again = play(state, {"ann": "TECH 1", "bob": "TECH 2"}, seed=99)[1]
    corrected = play(state, {"ann": "TECH 2", "bob": "TECH 2"}, seed=99)[1]
    assert first.state == again.state
    assert first.record_json() == again.record_json()

    def dice(resolution: object, seat: str) -> list[tuple[str, tuple[int, ...]]]:
        return [(e.code, e.dice) for e in resolution.events if e.seat == seat]  # type: ignore[attr-defined]

    assert dice(first, "bob") == dice(corrected, "bob")
    assert [d for _, d in dice(first, "ann") if _ == "tech"] != [
        d for _, d in dice(corrected, "ann") if _ == "tech"
    ]


def test_a_seat_put_out_earlier_in_the_round_does_not_play(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Victory: a seat that has lost every city, army and population is out; in round mode its
    turn later in the same round is not played, and its orders are answered as skipped."""
    patch_dice(monkeypatch)
    state = make_state(
        TERRAIN,
        seats=("ann", "bob", "cid"),
        hexes={"A1": ("ann", 3, ["city"]), "B1": ("bob", 1, []), "E4": ("cid", 3, ["city"])},
        armies={"A1": {"ann": {"soldier": 2}}},
        gold=5,
    )
    after, resolution = play(state, {"ann": "MOVE A1 B1\nATTACK B1", "bob": "LABOR B1 1"})
    assert not after.seat("bob").alive
    assert not [e for e in resolution.events if e.seat == "bob" and e.code != "eliminated"]
    [result] = resolution.results["bob"]
    assert (result.status, result.note) == (
        OrderStatus.SKIPPED,
        "not carried out: your seat did not play this turn",
    )


def test_a_seat_without_orders_still_plays_its_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """Decision 4 (docs/rules/temples-and-swords.md): "A seat without orders plays its turn with
    the defaults (laborers kept, work continues, no tech rolls, no moves or attacks, default
    migration)"."""
    patch_dice(monkeypatch)
    state = position()
    state.hexes["E4"].laborers = 1
    state.hexes["E4"].progress = {"road": 1}
    after, resolution = play(state, {"ann": ""})
    e4 = after.hexes["E4"]
    assert (e4.laborers, e4.progress, e4.pop) == (1, {"road": 2}, 3)  # desert E4 is full
    upkeep, tax = 2, (2 + 2) // 2 + 1 + 1  # 1 laborer and 1 swordsman; basic 2 + 2, 2 cities
    assert after.seat("bob").gold == 5 - upkeep + tax
    assert "bob" not in resolution.results


def test_the_order_of_play_stays_as_rolled_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """Order of play: "High roll starts, then play goes clockwise." The same seat starts every
    round."""
    patch_dice(monkeypatch)
    after, _ = play(position())
    assert [s.name for s in after.seats] == ["ann", "bob"]


def test_option_rotate_first_the_first_seat_plays_last_from_the_next_round(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Project option rotate_first (issue 35: the first seat won 39% of four-seat bot games):
    the seat that played first plays last from the next round on."""
    patch_dice(monkeypatch)
    after, resolution = play(position(rotate_first=True))
    assert [s.name for s in after.seats] == ["bob", "ann"]
    assert [e.text for e in resolution.events if e.code == "turn_order"] == [
        "bob plays first in the next round."
    ]
    assert RULESET.seats_to_order(after.to_json()) == ["bob", "ann"]
    after, resolution = play(after)
    assert [e.seat for e in resolution.events if e.code == "growth"] == ["bob", "ann"]
    assert [s.name for s in after.seats] == ["ann", "bob"]


def test_option_rotate_first_in_sequential_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    """Project option rotate_first with mode = sequential: the order moves when the round is
    complete, and the new first seat is asked next."""
    patch_dice(monkeypatch)
    after, _ = play(position(mode="sequential", rotate_first=True))
    assert [s.name for s in after.seats] == ["ann", "bob"]
    after, _ = play(after)
    assert [s.name for s in after.seats] == ["bob", "ann"]
    assert (after.round, after.active) == (2, 0)
    assert RULESET.seats_to_order(after.to_json()) == ["bob"]
