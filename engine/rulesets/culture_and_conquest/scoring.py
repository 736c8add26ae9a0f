"""Victory, elimination and the end of the game."""

from __future__ import annotations

from engine.recorder import Recorder
from engine.rulesets.culture_and_conquest.model import GameState, Seat

WONDERS_TO_WIN = 3
ADVANCES_TO_WIN = 15


def standing(seat: Seat) -> tuple[int, int]:
    """Wonders built (held or not) and advances known: what victory counts."""
    return len(seat.wonders_built), len(seat.advances)


def has_anything(seat: Seat) -> bool:
    """A culture with no population and no city is out of the game, and its leaders with it
    (a project decision)."""
    return bool(seat.population or seat.cities)


def eliminate(state: GameState, rec: Recorder) -> None:
    for seat in state.seats:
        if seat.alive and not has_anything(seat):
            seat.alive = False
            seat.projects, seat.leaders = [], []
            for other in state.seats:
                other.standing.supports = [
                    s for s in other.standing.supports if s.seat != seat.name
                ]
            rec.event(
                "eliminated",
                seat.name,
                "",
                f"{seat.name} has lost every population and city and is out of the game.",
                public=True,
            )


def cultural_victory(state: GameState) -> tuple[list[str], str]:
    """The seats that have built 3+ Wonders and learned 15+ Advances, and why they win.
    "Be the first": checked for every seat after every phase of every seat's turn, so a seat
    that gets there in another seat's trade phase wins before one that gets there later in its
    own turn; seats that get there in the same phase share the win."""
    # Checked after every phase (34,000 times in 20 bot games): each seat counted once.
    done = [
        (s.name, *counted)
        for s in state.seats
        if s.alive
        and (counted := standing(s))[0] >= WONDERS_TO_WIN
        and counted[1] >= ADVANCES_TO_WIN
    ]
    if not done:
        return [], ""
    reason = "; ".join(
        f"{name} has built {wonders} Wonders and learned {advances} Advances"
        for name, wonders, advances in done
    )
    return [name for name, *_ in done], reason


def last_standing(state: GameState, seat: str) -> str:
    """At the end of a seat's turn, why it has won ('' if it has not): every other culture is
    out of the game."""
    holder = state.seat(seat)
    others = [s for s in state.seats if s.name != seat]
    if others and holder.alive and not any(s.alive for s in others):
        return f"{seat} is the last culture standing"
    return ""
