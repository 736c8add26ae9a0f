"""The position the examples in docs/orders/medieval-micromanager.md are written for."""

from __future__ import annotations

from engine.rulesets.medieval_micromanager.model import Building, GameState
from engine.rulesets.medieval_micromanager.rules import OPTIONS
from engine.rulesets.medieval_micromanager.setup import starting_seat


def position(variant: str = "") -> GameState:
    """Round 6 of a game of ann, bob and cat: ann has 7 units, a school, an academy, a
    house under construction (house2, 3 damage tokens) and tools, swords and shields."""
    if variant:
        raise KeyError(f"no example position {variant!r}")
    ann, bob, cat = (starting_seat(name) for name in ("ann", "bob", "cat"))
    ann.units = 7
    ann.stock |= {"grain": 8, "lumber": 6, "ore": 2, "tools": 2, "swords": 3, "shields": 1}
    ann.buildings += [
        Building("mine1", "mine", depletion=1),
        Building("smithy1", "smithy"),
        Building("school1", "school"),
        Building("academy1", "academy"),
        Building("house2", "house", damage=3),
    ]
    for kind in ("mine", "smithy", "school", "academy"):
        ann.numbered[kind] = 1
    ann.numbered["house"] = 2
    options = {spec.name: spec.default for spec in OPTIONS}
    return GameState(seats=[ann, bob, cat], options=options, round=6, step=6)
