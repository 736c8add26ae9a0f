"""The map (of the map version) and the standings as data (engine.mapdata). The game as
written has no map: its picture is none, and the standings chart is what it gets."""

from __future__ import annotations

from engine.hexgrid import hex_place
from engine.mapdata import HEX, MapView, Place, Standings, Troops, by_letter
from engine.rulesets.culture_and_conquest.model import GameState, Land

MARKS = (("city", "C"), ("wonder", "W"), ("leader", "L"))


def map_view(state: GameState, seat: str) -> MapView | None:
    land = state.land
    if land is None:
        return None
    return MapView(
        grid=HEX,
        width=land.width,
        height=land.height,
        places=tuple(_place(state, land, name) for name in land.spaces()),
        terrains=("land", "sea"),
        seats=tuple((s.name, s.letter) for s in by_letter(state.seats)),
        reader=seat,
        marks=MARKS,
    )


def _place(state: GameState, land: Land, name: str) -> Place:
    spot = land.territories.get(name)
    if spot is None:
        return Place(label=name, cells=(hex_place(name),), terrain="sea")
    marks: list[str] = []
    if spot.city:
        city = state.seat(spot.owner).city(spot.city)
        marks.append("wonder" if city is not None and city.wonder else "city")
    if spot.leaders:
        marks.append("leader")
    troops = (Troops(spot.owner, spot.army),) if spot.army else ()
    return Place(
        label=name,
        cells=(hex_place(name),),
        terrain="land",
        owner=spot.owner,
        marks=tuple(marks),
        troops=troops,
        note=str(spot.population) if spot.population else "",
    )


def standings(state: GameState) -> Standings:
    return {
        holder.name: {
            "population": holder.population,
            "cities": len(holder.cities),
            "advances": len(holder.advances),
        }
        for holder in by_letter(state.seats)
    }
