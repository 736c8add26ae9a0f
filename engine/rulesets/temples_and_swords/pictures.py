"""The map and the standings as data (engine.mapdata), from what the text map shows."""

from __future__ import annotations

from engine.hexgrid import hex_place
from engine.mapdata import HEX, MapView, Place, Standings, Troops, by_letter
from engine.rulesets.temples_and_swords.model import GameState
from engine.rulesets.temples_and_swords.scoring import victory_points

TERRAINS = {"g": "grassland", "d": "desert"}
MARKS = (
    ("city", "C"),
    ("road", "R"),
    ("temple", "T"),
    ("walls", "W"),
    ("marketplace", "M"),
    ("library", "L"),
)


def map_view(state: GameState, seat: str) -> MapView:
    places = tuple(_place(state, name) for name in state.terrain.names())
    return MapView(
        grid=HEX,
        width=state.terrain.width,
        height=state.terrain.height,
        places=places,
        terrains=tuple(TERRAINS.values()),
        seats=tuple((s.name, s.letter) for s in by_letter(state.seats)),
        reader=seat,
        marks=MARKS,
        sea=(),
    )


def _place(state: GameState, name: str) -> Place:
    here = state.peek(name)
    armies = state.armies.get(name, {})
    troops = tuple(
        Troops(holder, units.total()) for holder, units in sorted(armies.items()) if units.total()
    )
    return Place(
        label=name,
        cells=(hex_place(name),),
        terrain=TERRAINS[state.terrain.terrain(name)],
        owner=here.owner,
        marks=tuple(here.projects),
        troops=troops,
        note=str(here.pop) if here.owner else "",
    )


def standings(state: GameState) -> Standings:
    table: Standings = {}
    for holder in by_letter(state.seats):
        hexes = [state.hexes[n] for n in state.owned(holder.name)]
        table[holder.name] = {
            "VP": victory_points(state, holder.name),
            "cities": sum(h.has("city") for h in hexes),
            "population": sum(h.pop for h in hexes),
        }
    return table
