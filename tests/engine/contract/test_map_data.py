"""Every ruleset's map and standings as data (engine.mapdata), which the map picture, the
campaign chart and the report's JSON are made from: the places cover the grid once, name
only the game's seats and terrains, and every seat has the same measures."""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine import Ruleset

from .games import CASES, NAMES, case_id, played, seat_counts

SIZES = [(ruleset, options, seats) for ruleset, options in CASES for seats in seat_counts(ruleset)]


def _has_map(ruleset: Ruleset, options: dict[str, Any]) -> bool:
    start = ruleset.new_game(NAMES[: ruleset.min_seats], options, 1)
    return ruleset.map_view(start, "") is not None


MAPPED = [case for case in SIZES if _has_map(case[0], case[1])]
# The games without a map, as their rules docs say: their text tableau is the whole view.
UNMAPPED = {"medieval-micromanager-as-is", "culture-and-conquest-as-is"}


def _state(ruleset: Ruleset, options: dict[str, Any], seats: int) -> dict[str, Any]:
    return played(ruleset, options, 5, seats=seats, max_turns=8)[-1].resolution.state


def test_only_the_games_without_a_map_have_no_map_data() -> None:
    without = {f"{r.id}-{case_id(options)}" for r, options in CASES if not _has_map(r, options)}
    assert without == UNMAPPED


@pytest.mark.parametrize(("ruleset", "options", "seats"), MAPPED, ids=case_id)
def test_the_places_cover_the_grid_once_and_name_only_the_games_seats(
    ruleset: Ruleset, options: dict[str, Any], seats: int
) -> None:
    state = _state(ruleset, options, seats)
    view = ruleset.map_view(state, NAMES[1])
    assert view is not None
    cells = [cell for place in view.places for cell in place.cells]
    every = {(col, row) for col in range(view.width) for row in range(view.height)}
    assert sorted(cells) == sorted(every)
    labels = [place.label for place in view.places]
    assert len(set(labels)) == len(labels)
    names = {name for name, _letter in view.seats}
    assert names == set(NAMES[:seats]) and view.reader == NAMES[1]
    assert {place.terrain for place in view.places} <= set(view.terrains)
    assert {place.owner for place in view.places} <= names | {""}
    troops = [t for place in view.places for t in place.troops]
    assert troops and all(t.seat in names and t.count > 0 for t in troops)
    built = {mark for place in view.places for mark in place.marks}
    assert built <= {word for word, _symbol in view.marks}


@pytest.mark.parametrize(("ruleset", "options", "seats"), SIZES, ids=case_id)
def test_every_seat_has_the_same_measures_as_whole_numbers(
    ruleset: Ruleset, options: dict[str, Any], seats: int
) -> None:
    standings = ruleset.standings(_state(ruleset, options, seats))
    assert set(standings) == set(NAMES[:seats])
    measures = {tuple(table) for table in standings.values()}
    assert len(measures) == 1 and len(next(iter(measures))) >= 2
    assert all(isinstance(v, int) for table in standings.values() for v in table.values())


@pytest.mark.parametrize(("ruleset", "options"), CASES, ids=case_id)
def test_a_seats_record_is_its_own(ruleset: Ruleset, options: dict[str, Any]) -> None:
    state = _state(ruleset, options, 4)
    for seat in NAMES[:4]:
        assert ruleset.seat_record(state, seat)["name"] == seat


@pytest.mark.parametrize(("ruleset", "options", "seats"), MAPPED, ids=case_id)
def test_the_pictures_legend_names_each_terrain_as_the_text_map_does(
    ruleset: Ruleset, options: dict[str, Any], seats: int
) -> None:
    """Issue 35: the Tribes picture's legend said "food" where the text map says "g game"; a
    player reading both must meet one word for one ground."""
    state = _state(ruleset, options, seats)
    view = ruleset.map_view(state, NAMES[1])
    assert view is not None
    words = set(re.findall(r"[a-z]+", ruleset.render_map(state, NAMES[1])))
    assert [terrain for terrain in view.terrains if terrain not in words] == []


@pytest.mark.parametrize(("ruleset", "options", "seats"), MAPPED, ids=case_id)
def test_a_seat_keeps_its_place_in_the_pictures_legend_when_the_order_of_play_moves(
    ruleset: Ruleset, options: dict[str, Any], seats: int
) -> None:
    """A seat's colour in the map picture follows its place in `seats`: with option
    rotate_first (Tribes: always) the order of play moves every round, and the colours must
    not move with it."""
    rotating = options | ({"rotate_first": True} if _offers(ruleset, "rotate_first") else {})
    turns = played(ruleset, rotating, 5, seats=seats, max_turns=8)
    legends = set()
    for turn in turns:
        view = ruleset.map_view(turn.resolution.state, "")
        assert view is not None
        legends.add(view.seats)
    assert len(legends) == 1


def _offers(ruleset: Ruleset, option: str) -> bool:
    return any(spec.name == option for spec in ruleset.options)


@pytest.mark.parametrize(("ruleset", "options", "seats"), SIZES, ids=case_id)
def test_the_chart_and_the_map_list_the_seats_in_one_order_all_game_long(
    ruleset: Ruleset, options: dict[str, Any], seats: int
) -> None:
    """Issue 36: "A seat's colour differs between the map picture and the chart (ann orange on
    the map, blue on the chart). One colour per seat everywhere." A seat's colour is its place
    in the standings (the chart) and in the map's legend: one order for both, the same in
    every state of a game whose order of play rotates."""
    rotating = options | ({"rotate_first": True} if _offers(ruleset, "rotate_first") else {})
    turns = played(ruleset, rotating, 5, seats=seats, max_turns=8)
    orders = set()
    for state in [turns[0].state_before, *(turn.resolution.state for turn in turns)]:
        listed = tuple(ruleset.standings(state))
        view = ruleset.map_view(state, "")
        if view is not None:
            assert tuple(name for name, _ in view.seats) == listed
        orders.add(listed)
    assert len(orders) == 1
