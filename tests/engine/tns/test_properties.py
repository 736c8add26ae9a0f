"""Property tests: random orders in the words of Temples and Swords resolve, and the invariants
of its rules hold after any turn. (Hostile texts, determinism and the JSON round trip are
checked for every ruleset by tests/engine/contract.)"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from engine import get_ruleset
from engine.playthrough import bot_game
from engine.rulesets.temples_and_swords.legality import CAP
from engine.rulesets.temples_and_swords.model import GameState
from tests.engine.properties import check_bot_games, check_random_orders

RULESET = get_ruleset("temples-and-swords")
SEATS = ["ann", "bob", "cat"]
# A few positions to play from: the start, and a mid-game with armies and projects.
MID_GAME = list(bot_game("temples-and-swords", SEATS, 21, max_turns=9))[-1].resolution.state
POSITIONS = [RULESET.new_game(SEATS, {}, 21), MID_GAME]

WORDS = [
    "LABOR", "TECH", "ADVANCE", "MOVE", "ATTACK", "DEFEND", "LOSSES", "BUILD", "MIGRATE",
    "USE", "UNTIL", "SLAVES", "SEAT", "ALL", "NONE", "BEST", "CITY", "ROAD", "TEMPLE", "WALLS",
    "MARKET", "LIBRARY", "SOLDIER", "SWORDSMEN", "HORSEMAN", "SLAVE", "Religion", "Masonry",
    "Art,", "Metal", "Working", "A1", "B2", "C3", "D4", "E5", "F6", "G7", "Z99", "0", "1", "2",
    "3", "6", "99", "-1", "#", ",", "ann", "bob", "b", "s", "m",
]  # fmt: skip


def _places(position: dict[str, Any], seat: str) -> list[str]:
    """Hexes where the seat's orders can make sense: its hexes and armies and their neighbours."""
    state = GameState.from_json(position)
    near = set(state.owned(seat)) | set(state.army_hexes(seat))
    return sorted(near | {n for h in near for n in state.terrain.neighbours(h)})


def order_text(places: list[str]) -> st.SearchStrategy[str]:
    place = st.sampled_from(places or ["A1"])
    small = st.integers(min_value=0, max_value=7).map(str)
    unit = st.sampled_from(["SOLDIER", "SWORDSMEN", "HORSEMAN", "SLAVES", "S"])
    work = st.sampled_from(["CITY", "ROAD", "TEMPLE", "WALLS", "MARKET", "LIBRARY", "LIB"])
    formed = st.one_of(
        st.tuples(st.just("LABOR"), place, small),
        st.tuples(st.just("TECH"), small),
        st.tuples(st.just("MOVE"), place, place, st.sampled_from(["", "1", "2 SOLDIERS", "ALL"])),
        st.tuples(st.just("MOVE"), place, place, place),
        st.tuples(
            st.just("ATTACK"), place, st.sampled_from(["", "USE BEST", "UNTIL 2", "SLAVES 0"])
        ),
        st.tuples(st.just("BUILD"), place, work),
        st.tuples(st.just("BUILD"), place, small, unit),
        st.tuples(st.just("MIGRATE"), place, place),
        st.tuples(st.just("DEFEND USE"), unit),
        st.tuples(st.just("LOSSES"), unit, unit),
    ).map(lambda parts: " ".join(p for p in parts if p))
    soup = st.lists(st.sampled_from(WORDS), min_size=1, max_size=7).map(" ".join)
    return st.lists(st.one_of(formed, formed, formed, soup), max_size=14).map("\n".join)


def _draw_orders(data: st.DataObject, position: dict[str, Any], seat: str) -> str:
    return data.draw(order_text(_places(position, seat)), label=seat)


def assert_invariants(before: dict[str, Any], after: dict[str, Any]) -> None:
    state = GameState.from_json(after)
    for seat in state.seats:
        assert seat.gold >= 0 and seat.tech_points >= 0
        assert len(set(seat.advances)) == len(seat.advances)
    for name, here in state.hexes.items():
        assert 0 <= here.laborers <= here.pop <= CAP[state.terrain.terrain(name)], name
        assert here.owner or (here.pop == 0 and not here.projects), name
        assert len(set(here.projects)) == len(here.projects)
        assert all(points > 0 for points in here.progress.values())
    for by_seat in state.armies.values():
        for units in by_seat.values():
            assert min(units.soldier, units.swordsman, units.horseman, units.slave) >= 0


def test_random_orders_resolve_and_keep_the_invariants() -> None:
    check_random_orders(RULESET, POSITIONS, _draw_orders, assert_invariants, examples=120)


def test_bot_games_keep_the_invariants_and_bots_write_only_legal_orders() -> None:
    check_bot_games(RULESET, SEATS, lambda _: {}, assert_invariants, examples=12, max_turns=12)
