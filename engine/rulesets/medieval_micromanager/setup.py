"""The starting position (a completion: the text has none).

Each seat starts small, with 4 units and the five cards that keep them alive (a farm, a
woodcutter, a house, a granary and a warehouse, all built), 5 grain and 5 lumber. Seat order
is rolled, like the other games' turn order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.dice import Dice
from engine.rulesets.medieval_micromanager.cards import COMMODITIES
from engine.rulesets.medieval_micromanager.model import Building, GameState, Seat

START_UNITS = 4
START_CARDS = ("farm", "woodcutter", "house", "granary", "warehouse")
START_STOCK = {"grain": 5, "lumber": 5}


def setup(names: Sequence[str], options: Mapping[str, Any], seed: int) -> GameState:
    order = list(names)
    Dice(seed, 0, "", "seat order").shuffle(order)
    return GameState(seats=[starting_seat(name) for name in order], options=dict(options))


def starting_seat(name: str) -> Seat:
    stock = dict.fromkeys(COMMODITIES, 0) | START_STOCK
    buildings = [Building(f"{kind}1", kind) for kind in START_CARDS]
    return Seat(
        name,
        units=START_UNITS,
        stock=stock,
        buildings=buildings,
        numbered=dict.fromkeys(START_CARDS, 1),
    )
