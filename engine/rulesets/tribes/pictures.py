"""The map and the standings as data (engine.mapdata), from what the text map shows."""

from __future__ import annotations

from engine.hexgrid import hex_place
from engine.mapdata import HEX, MapView, Place, Standings, Troops, by_letter
from engine.rulesets.tribes.model import BUILDINGS, SEA, SITES, GameState
from engine.rulesets.tribes.render import BUILDING_LETTERS

TERRAINS = {".": "land", **SITES, "g": "game", SEA: "sea"}  # "game", as the text map says


def map_view(state: GameState, seat: str) -> MapView:
    return MapView(
        grid=HEX,
        width=state.width,
        height=state.height,
        places=tuple(_place(state, name) for name in state.names()),
        terrains=tuple(TERRAINS.values()),
        seats=tuple((s.name, s.letter) for s in by_letter(state.seats)),
        reader=seat,
        marks=tuple((b, BUILDING_LETTERS[b]) for b in BUILDINGS),
    )


def _place(state: GameState, name: str) -> Place:
    here = state.peek(name)
    units = here.units
    troops: tuple[Troops, ...] = ()
    if here.owner and units.military():
        troops += (Troops(here.owner, units.military()),)
    if here.owner and units.ship:
        troops += (Troops(here.owner, units.ship, "ships"),)
    return Place(
        label=name,
        cells=(hex_place(name),),
        terrain=TERRAINS[state.ground(name)],
        owner=here.owner,
        marks=tuple(here.buildings),
        troops=troops,
        note=str(units.population) if here.owner and units.population else "",
    )


def standings(state: GameState) -> Standings:
    table: Standings = {}
    for card in by_letter(state.seats):
        units = [state.places[n].units for n in state.held(card.name)]
        table[card.name] = {
            "fame": card.fame,
            "population": sum(u.population for u in units),
            "military": sum(u.military() for u in units),
        }
    return table
