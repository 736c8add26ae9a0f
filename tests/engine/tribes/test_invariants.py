"""What holds in every state of seeded bot games: no negative stock or unit count, an owner
exactly where there are units, ships on sea and land units on land, buildings known."""

from __future__ import annotations

import pytest

from engine.playthrough import bot_game
from engine.rulesets.tribes.model import BUILDINGS, LAND_KINDS, MATERIALS, GameState


@pytest.mark.parametrize(("seats", "seed"), [(2, 1), (4, 2), (6, 3)])
def test_every_state_of_a_bot_game_is_sound(seats: int, seed: int) -> None:
    names = ["ann", "bob", "cat", "dan", "eve", "fay"][:seats]
    states = [GameState.from_json(t.resolution.state) for t in bot_game("tribes", names, seed)]
    assert states and states[-1].winners
    for state in states:
        for seat in state.seats:
            assert min(seat.stock(m) for m in (*MATERIALS, "fame", "hunger")) >= 0
            assert all(0 <= seat.level(track) <= 2 for track in ("melee", "beasts", "ranged"))
        for name, here in state.places.items():
            counts = [here.units.get(k) for k in (*LAND_KINDS, "ship")]
            assert min(counts) >= 0
            assert bool(here.owner) == bool(here.units.total())
            if state.is_sea(name):
                assert here.units.total() == here.units.ship and not here.buildings
            else:
                assert here.units.ship == 0
            assert len(set(here.buildings)) == len(here.buildings)
            assert set(here.buildings) <= set(BUILDINGS)
