"""The position the examples in docs/orders/temples-and-swords.md are written for ("The example
position"): a two-seat game on the seed-7 map, at the start of round 1, ann to play first."""

from __future__ import annotations

from engine.rulesets.temples_and_swords.hexmap import HexMap
from engine.rulesets.temples_and_swords.model import GameState, Hex, Seat, Units
from engine.rulesets.temples_and_swords.rules import OPTIONS

# The map of a two-seat game made with seed 7, as the doc draws it.
SEED_7_TERRAIN = ("ddddddd", "ddgdgdd", "gggggdd", "gggggdd", "ggggddd", "ggggddg")


def example_game(variant: str = "") -> GameState:
    """The doc's one position; there are no variants."""
    if variant:
        raise ValueError(f"temples-and-swords has no example position {variant!r}")
    advances = ["Metal Working", "Equestrian", "Religion", "Masonry", "Coinage", "Writing"]
    return GameState(
        terrain=HexMap(SEED_7_TERRAIN),
        seats=[Seat("ann", "A", gold=20, advances=advances), Seat("bob", "B", gold=12)],
        hexes={
            "B4": Hex(owner="ann", pop=1, projects=["road"]),
            "C4": Hex(owner="ann", pop=2, projects=["road"]),
            "D4": Hex(owner="ann", pop=5, projects=["city", "road"]),
            "A6": Hex(owner="bob", pop=4, projects=["city"]),
            "B6": Hex(owner="bob", pop=2),
            "C5": Hex(owner="bob", pop=2),
        },
        armies={
            "C4": {"ann": Units(soldier=2, swordsman=2, slave=1)},
            "D4": {"ann": Units(soldier=3, swordsman=1, horseman=1)},
            "A6": {"bob": Units(soldier=2)},
            "C5": {"bob": Units(soldier=1)},
        },
        options={spec.name: spec.default for spec in OPTIONS},
    )
