"""Victory points, elimination and the end of the game."""

from __future__ import annotations

from engine.recorder import Recorder
from engine.rulesets.temples_and_swords.model import GameState


def victory_points(state: GameState, seat: str) -> int:
    """One VP a city, a temple and an advance; Art gives two instead of one."""
    holder = state.seat(seat)
    vp = len(holder.advances) + (1 if holder.has("Art") else 0)
    for name in state.owned(seat):
        here = state.hexes[name]
        vp += here.has("city") + here.has("temple")
    return vp


def has_anything(state: GameState, seat: str) -> bool:
    """A seat holds a city, a population or an army."""
    if any(h.pop or h.has("city") for h in state.hexes.values() if h.owner == seat):
        return True
    return any(state.units(n, seat).military() for n in state.army_hexes(seat))


def eliminate(state: GameState, rec: Recorder) -> None:
    for seat in state.seats:
        if seat.alive and not has_anything(state, seat.name):
            seat.alive = False
            rec.event(
                "eliminated",
                seat.name,
                "",
                f"{seat.name} has lost every city, army and population and is out of the game.",
                public=True,
            )


def victory_after_turn(state: GameState, seat: str) -> str:
    """At the end of a seat's turn, why the seat has won ('' if it has not): enough VP, or no
    other seat holds a city, army or population."""
    vp = victory_points(state, seat)
    if vp >= state.options["victory_points"] and state.seat(seat).alive:
        return f"{seat} has {vp} VP"
    others = [s for s in state.seats if s.name != seat]
    if others and not any(s.alive for s in others) and state.seat(seat).alive:
        return f"{seat} has destroyed or captured every enemy city, army and population"
    return ""
