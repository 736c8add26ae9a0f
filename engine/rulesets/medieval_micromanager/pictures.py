"""The standings as data (engine.mapdata). The game has no map, so no map picture: its
72-column tableau already shows every holding, and the standings chart is what it gets."""

from __future__ import annotations

from engine.mapdata import Standings
from engine.rulesets.medieval_micromanager.model import GameState


def map_view(game: GameState, seat: str) -> None:
    return None


def standings(game: GameState) -> Standings:
    return {
        holder.name: {
            "cathedrals": holder.cathedrals(),
            "units": holder.units,
            "buildings": len(holder.buildings),
        }
        for holder in game.seats
    }
