"""Setting up: the map and seats (at game creation), then the setup turn by mail, in which each
seat picks its civilization and places its first city."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.dice import Dice
from engine.recorder import Recorder
from engine.rulesets.classical import geography, legality
from engine.rulesets.classical.model import (
    CITY,
    CIVILIZATIONS,
    SEAT_LETTERS,
    TRAIT_TITLES,
    GameState,
    Seat,
)
from engine.rulesets.classical.orders import Civilization, FirstCity, Order

SETUP_PHASE = "Setup"


def new_game(names: Sequence[str], options: Mapping[str, Any], seed: int) -> GameState:
    """The map drawn from the map seed (option map_seed, else the game seed); seats in the
    order given (option first_player random: a drawn order); civilizations dealt now with
    option civilizations random, else chosen in the setup turn."""
    order = list(names)
    if options["first_player"] == "random":
        Dice(seed, 0, "", "turn order").shuffle(order)
    map_dice = Dice(options["map_seed"] or seed, 0, "", "map")
    board = geography.generate(len(order), options["map_size"], options["land_share"], map_dice)
    seats = [Seat(name, SEAT_LETTERS[i]) for i, name in enumerate(order)]
    state = GameState(seats=seats, options=dict(options), board=board)
    if options["civilizations"] == "random":
        for seat in seats:
            dice = Dice(seed, 0, seat.name, "civilization")
            free = [c for c in CIVILIZATIONS if c not in taken(state)]
            _take(seat, dice.choice(free))
    return state


def taken(state: GameState) -> list[str]:
    return [s.civilization for s in state.seats if s.civilization]


def _take(seat: Seat, civilization: str) -> None:
    seat.civilization = civilization
    seat.levels = dict.fromkeys(CIVILIZATIONS[civilization], 1)


def play_setup(
    state: GameState, orders: Mapping[str, Sequence[Order]], seed: int, rec: Recorder
) -> None:
    """In seat order: the first civilization of the seat's list that is free (none free or none
    named: one drawn), then its city where it asked if that is still allowed, else on the
    territory that is farthest from the cities placed (and the report says so)."""
    for seat in state.seats:
        given = list(orders.get(seat.name, ()))
        _choose_civilization(state, seat, given, seed, rec)
        _place_city(state, seat, given, rec)


def _choose_civilization(
    state: GameState, seat: Seat, given: list[Order], seed: int, rec: Recorder
) -> None:
    wishes = [o for o in given if isinstance(o, Civilization)]
    if seat.civilization:
        for order in wishes:
            rec.skipped(seat.name, order, "civilizations are dealt at random in this game")
        return
    free = [c for c in CIVILIZATIONS if c not in taken(state)]
    wanted = [name for order in wishes for name in order.names if name in free]
    if wanted:
        _take(seat, wanted[0])
        note = "" if wanted[0] == wishes[0].names[0] else "your first choice was taken"
        rec.done(seat.name, wishes[0], note)
        how = "chooses"
    else:
        _take(seat, Dice(seed, 0, seat.name, "civilization").choice(free))
        for order in wishes:
            rec.skipped(seat.name, order, "every civilization named was taken; one was drawn")
        how = "is given"
    traits = " and ".join(f"{TRAIT_TITLES[t]} 1" for t in seat.levels)
    rec.event(
        "civilization",
        seat.name,
        SETUP_PHASE,
        f"{seat.name} {how} the {seat.civilization} ({traits}).",
        public=True,
    )


def _place_city(state: GameState, seat: Seat, given: list[Order], rec: Recorder) -> None:
    wishes = [o for o in given if isinstance(o, FirstCity)]
    site, note = "", ""
    if wishes:
        refusal = legality.refuse_first_city(state, wishes[0].space)
        if refusal is None:
            site = wishes[0].space
            rec.done(seat.name, wishes[0])
        else:
            note = f" ({wishes[0].space} was refused: {refusal.message})"
            rec.skipped(seat.name, wishes[0], refusal.message + "; a site was chosen for you")
    if not site:
        site = default_site(state)
        note = note or " (no CITY order: the site was chosen for the seat)"
    spot = state.space(site)
    spot.owner, spot.settlement = seat.name, CITY
    rec.event(
        "first_city",
        seat.name,
        SETUP_PHASE,
        f"{seat.name} founds a city in {site}{note}.",
        public=True,
    )


def default_site(state: GameState) -> str:
    """The land territory farthest from the cities placed, CITY_SPACING away if any is (the map
    is drawn with room for every seat when the sites are chosen this way); if the players'
    own choices left no such room, the free land farthest from every city (the first in
    reading order of those)."""
    placed = tuple(state.all_cities())
    sites = geography.spread_sites(state.board, 1, placed)
    if sites:
        return sites[0]
    free = [n for n, t in state.board.territories.items() if not t.sea and not t.settlement]
    reach = [geography.distances(state.board, city) for city in placed]
    return max(free, key=lambda n: min((far.get(n, 99) for far in reach), default=99))
