"""The generated map: every seat in reach of every other, resources as tabled, room for the
first cities, the same seed the same map, and a text map within 72 columns."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.dice import Dice
from engine.rulesets.classical import geography, mapview
from engine.rulesets.classical.mapview import map_lines
from engine.rulesets.classical.model import LAND_TABLE, SEA_TABLE, Board

from .support import RULESET

SEEDS = range(12)


@pytest.mark.parametrize("seats", [2, 4, 6, 8, 12])
def test_every_start_reaches_every_other_and_cities_are_spaced(seats: int) -> None:
    """ "Players may not place within 2 spaces of another City." - the map has room for every
    seat's first city three or more spaces apart, all in reach of each other."""
    for seed in SEEDS:
        board = geography.generate(seats, "normal", 55, Dice(seed, 0, "", "map"))
        sites = geography.spread_sites(board, seats)
        assert len(sites) == seats
        for site in sites:
            far = geography.distances(board, site)
            assert all(far[other] >= 3 for other in sites if other != site)
            assert all(geography.reachable(board, site, other) for other in sites)


def test_distances_within_a_reach_are_the_whole_walks_as_far_as_it() -> None:
    """The first-city check walks the map only as far as a city's spacing."""
    for seed in SEEDS[:4]:
        board = geography.generate(6, "normal", 55, Dice(seed, 0, "", "map"))
        for origin in sorted(board.territories)[::7]:
            whole = geography.distances(board, origin)
            for reach in (0, 1, 2, 5):
                near = {label: d for label, d in whole.items() if d <= reach}
                assert geography.distances(board, origin, within=reach) == near


def test_resources_are_rolled_on_the_land_and_sea_tables() -> None:
    """Set up: "roll on the Land and sea tables to determine the Resource type for each
    individual Territory" - 1D8 on land, 1D6 at sea, the die kept to be shown."""
    rolls: Counter[tuple[bool, int]] = Counter()
    for seed in SEEDS:
        board = geography.generate(4, "normal", 55, Dice(seed, 0, "", "map"))
        for spot in board.territories.values():
            table = SEA_TABLE if spot.sea else LAND_TABLE
            assert spot.resource == table[spot.roll - 1]
            rolls[(spot.sea, spot.roll)] += 1
    assert {r for s, r in rolls if not s} == set(range(1, 9))
    assert {r for s, r in rolls if s} == set(range(1, 7))


def test_the_same_seed_gives_the_same_map_and_another_seed_another() -> None:
    first = geography.generate(4, "normal", 55, Dice(7, 0, "", "map"))
    again = geography.generate(4, "normal", 55, Dice(7, 0, "", "map"))
    other = geography.generate(4, "normal", 55, Dice(8, 0, "", "map"))
    assert first == again and first != other


def test_option_map_seed_gives_a_rematch_on_the_same_map() -> None:
    one = RULESET.new_game(["ann", "bob"], {"map_seed": 99}, 1)
    two = RULESET.new_game(["ann", "bob"], {"map_seed": 99}, 2)
    assert one["board"] == two["board"]


def test_land_and_sea_shares_follow_the_option() -> None:
    board = geography.generate(4, "normal", 70, Dice(3, 0, "", "map"))
    land = sum(not t.sea for t in board.territories.values())
    assert land == round(len(board.territories) * 0.7)


def test_territories_are_irregular_regions_of_cells() -> None:
    """The map is "composed of irregular shaped Territory spaces": territories of different
    sizes, each one connected region holding its 2x2 name block."""
    board = geography.generate(6, "normal", 55, Dice(5, 0, "", "map"))
    cells: Counter[str] = Counter(label for row in board.grid for label in row)
    assert len(set(cells.values())) > 4
    for label in board.territories:
        col, row = ord(label[0]) - ord("A"), int(label[1:]) - 1
        assert {board.grid[row + dr][col + dc] for dr in (0, 1) for dc in (0, 1)} == {label}


@pytest.mark.parametrize("seats", [2, 6, 12])
def test_the_text_map_fits_72_columns(seats: int) -> None:
    names = [f"p{i}" for i in range(seats)]
    state = RULESET.load(RULESET.new_game(names, {}, 3))
    assert max(len(line) for line in map_lines(state, "p0")) <= 72


def _bodies(board: Board, sea: bool) -> list[set[str]]:
    """The connected land masses (sea False) or seas (sea True)."""
    found: list[set[str]] = []
    for label, spot in board.territories.items():
        if spot.sea != sea or any(label in body for body in found):
            continue
        body, todo = {label}, [label]
        while todo:
            for near in geography.neighbours(board, todo.pop()):
                if board.territories[near].sea == sea and near not in body:
                    body.add(near)
                    todo.append(near)
        found.append(body)
    return found


def _inland(board: Board, body: set[str]) -> bool:
    grid = board.grid
    rim = {*grid[0], *grid[-1], *(row[0] for row in grid), *(row[-1] for row in grid)}
    return not body & rim


def test_maps_have_islands_and_inland_seas() -> None:
    """The issue: "a believable coastline, islands and inland seas" - over many seeds some
    maps have more than one land mass, and some a sea that does not reach the map's edge."""
    boards = [geography.generate(6, "normal", 55, Dice(s, 0, "", "map")) for s in range(20)]
    islands = sum(len(_bodies(b, sea=False)) > 1 for b in boards)
    inland = sum(any(_inland(b, body) for body in _bodies(b, sea=True)) for b in boards)
    assert islands >= 4 and inland >= 2


def test_a_boards_borders_are_drawn_once_for_every_readers_map(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 45: a turn's reports drew the map's borders and sea cell by cell once a seat (a
    seventh of a daemon's time resolving turns and writing reports); once a board now, and
    each reader's map is as drawn afresh."""
    state = RULESET.new_game(["ann", "bob", "cat"], {}, 3)
    first = {seat: RULESET.render_map(state, seat) for seat in ("ann", "bob", "")}
    mapview._CANVASES.clear()
    cells = [0]
    char = mapview._char

    def counted(board: Board, row: int, col: int) -> str:
        cells[0] += 1
        return char(board, row, col)

    monkeypatch.setattr(mapview, "_char", counted)
    again = {seat: RULESET.render_map(state, seat) for seat in ("ann", "bob", "")}
    game = RULESET.load(state)
    assert cells[0] == (2 * game.board.height + 1) * (4 * game.board.width + 1)
    assert again == first
