"""The positions the examples in docs/orders/culture-and-conquest.md are written for: the game
without a map (variant '') and the small map of the map version (variant 'map')."""

from __future__ import annotations

from engine.rulesets.culture_and_conquest.model import (
    CATEGORIES,
    City,
    GameState,
    Item,
    Land,
    Leader,
    Offer,
    Seat,
)
from engine.rulesets.culture_and_conquest.rules import OPTIONS

DEFAULT_OPTIONS = {spec.name: spec.default for spec in OPTIONS}
# The small map the doc draws (~ is sea), columns A to G, rows 1 to 5.
SMALL_MAP = ("LLLLL~~", "LLL~~~L", "LL~~~LL", "LLL~LLL", "LLLLLLL")


def example_game(variant: str = "") -> GameState:
    if variant == "":
        return _without_map()
    if variant == "map":
        return _on_the_small_map()
    raise ValueError(f"culture-and-conquest has no example position {variant!r}")


def _seat(name: str, letter: str, culture: str, **pops: int) -> Seat:
    seat = Seat(name, letter, culture, gold=20)
    seat.pops = dict.fromkeys(CATEGORIES, 0) | pops
    return seat


def _without_map() -> GameState:
    """ann holds Giza and Thebes, 3 Armies, 10 Agriculture, 3 Labor, 20 gold, the General
    Caesar and Engineering, Religion and Pottery; bob holds Rome and Troy, knows Law and
    Medicine; bob's offer 4B1 to ann and ann's 4A1 to bob are open; turn 5."""
    ann = _seat("ann", "A", "Egyptian", army=3, agriculture=10, labor=3)
    ann.advances = ["Engineering", "Religion", "Pottery"]
    ann.cities = [City("Giza"), City("Thebes")]
    ann.leaders = [Leader("Caesar", "General")]
    bob = _seat("bob", "B", "Roman", agriculture=5)
    bob.advances = ["Law", "Medicine"]
    bob.cities = [City("Rome"), City("Troy")]
    cat = _seat("cat", "C", "Athenian")
    cat.cities = [City("Athens")]
    law, gold = Item("advance", 0, "Law"), Item("gold", 5)
    return GameState(
        seats=[ann, bob, cat],
        options=dict(DEFAULT_OPTIONS),
        offers=[
            Offer("4B1", "bob", "ann", [law], [gold], 4, 1, 1),
            Offer("4A1", "ann", "bob", [gold], [law], 4, 1, 1),
        ],
        step=5,
    )


def _on_the_small_map() -> GameState:
    """ann: B2 (Giza; 3 Armies, 6 Agriculture, the General Caesar), C1 (2 Agriculture), the
    advance Navigation; bob: C2 (1 Army, 2 Agriculture), D1 (Rome; 4 Agriculture)."""
    ann = _seat("ann", "A", "Egyptian", army=3, agriculture=8)
    ann.advances = ["Navigation"]
    ann.cities = [City("Giza")]
    ann.leaders = [Leader("Caesar", "General")]
    bob = _seat("bob", "B", "Roman", army=1, agriculture=6)
    bob.cities = [City("Rome")]
    land = Land.blank(SMALL_MAP)
    placed = {
        "B2": ("ann", {"army": 3, "agriculture": 6}, "Giza", ["Caesar"]),
        "C1": ("ann", {"agriculture": 2}, "", []),
        "C2": ("bob", {"army": 1, "agriculture": 2}, "", []),
        "D1": ("bob", {"agriculture": 4}, "Rome", []),
    }
    for name, (owner, pops, city, leaders) in placed.items():
        territory = land.territories[name]
        territory.owner, territory.city, territory.leaders = owner, city, leaders
        territory.pops |= pops
    return GameState(seats=[ann, bob], options=DEFAULT_OPTIONS | {"map": "generated"}, land=land)
