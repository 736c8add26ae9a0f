"""The start of a game (completion: the fragment's opening pages are lost) and the position
the examples of docs/orders/tribes.md are written for."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.dice import Dice
from engine.rulesets.tribes.hexmap import generate_map
from engine.rulesets.tribes.model import SEAT_LETTERS, GameState, Place, Seat, Units

HOME_UNITS = Units(population=3, melee=2)


def setup(names: Sequence[str], options: dict[str, Any], seed: int) -> GameState:
    """Each tribe starts in its home hex with 3 population, 2 melee and a barracks, and holds
    the starting money, 1 wood, 1 stone and 4 food; the seats play in the order listed."""
    terrain, homes = generate_map(len(names), Dice(seed, 0, "", "map"))
    seats = [
        Seat(name, SEAT_LETTERS[i], money=int(options["starting_money"]), wood=1, stone=1, food=4)
        for i, name in enumerate(names)
    ]
    places = {
        home: Place(name, Units(**vars(HOME_UNITS)), ["barracks"])
        for name, home in zip(names, homes, strict=True)
    }
    state = GameState(terrain, seats, places, dict(options))
    state.tidy()
    return state
