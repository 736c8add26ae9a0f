"""The mail bodies referee commands send: the preview, a new password, an announcement."""

from __future__ import annotations

from typing import Any

from engine import Resolution, get_ruleset
from pbem.config import Settings
from pbem.games.played import BOT, NO_ORDERS, Played
from pbem.games.reports import event_text
from pbem.store import Game, Turn
from pbem.templates import render

# What a seat with no orders of its own in the pending turn is played with, as the turn would
# play it (pbem.clock.nmr, pbem.games.played): the preview says so beside the seat, so that it
# never counts a seat's last orders again as orders in.
_PLAYED_WITH = {
    "standing": "its last orders again, as the game plays a seat without orders (nmr standing)",
    BOT: "the bot's orders",
    NO_ORDERS: "no orders: its standing orders only",
}


def preview_body(
    settings: Settings,
    game: Game,
    turn: Turn,
    resolution: Resolution,
    played: dict[str, Played],
) -> str:
    ruleset = get_ruleset(game.ruleset)
    seats = sorted(set(resolution.results) | set(played))
    results = [
        (seat, [_result_line(result) for result in resolution.results.get(seat, [])])
        for seat in seats
    ]
    how = {seat: _PLAYED_WITH.get(item.by, item.by) for seat, item in played.items()}
    return render(
        "referee_preview",
        moderator=settings.mail.name,
        game=game.id,
        title=ruleset.title,
        turn=turn.number,
        ordered=[seat for seat in seats if seat in played and played[seat].by == "orders"],
        without=[(seat, how[seat]) for seat in seats if seat in how and how[seat] != "orders"],
        events=[_seat_event(event) for event in resolution.events],
        results=[(seat, how.get(seat, ""), lines) for seat, lines in results],
        map=ruleset.render_map(resolution.state, ""),
        summary=ruleset.public_summary(resolution.state),
    )


def _seat_event(event: Any) -> str:
    # Not wrapped here: the template wraps each line once, with the seat in front.
    return f"{event.seat}: {event_text(event)}" if event.seat else event_text(event)


def _result_line(result: Any) -> str:
    note = f": {result.note}" if result.note else ""
    return f"line {result.line_no}: {result.order} - {result.status.value}{note}"


def password_body(
    settings: Settings,
    game: Game,
    password: str,
    position: dict[str, str] | None = None,
    **seat: Any,
) -> str:
    """For a new player of a seat (seat, turn, deadline given, and the position and order
    template of that turn: pbem.games.reports.position_facts) or a new referee (`desk`: the
    link to their desk in the web archive, or '')."""
    return render(
        "referee_password",
        moderator=settings.mail.name,
        game=game.id,
        title=get_ruleset(game.ruleset).title,
        password=password,
        seat=seat.get("seat", ""),
        turn=seat.get("turn", 0),
        deadline=seat.get("deadline", ""),
        desk=seat.get("desk", ""),
        **(position or {}),
    )


def announcement_body(settings: Settings, game: Game, text: str) -> str:
    return _render(settings, game, "announcement", text=text)


def farewell_body(settings: Settings, game: Game, seat: str, reason: str, *, replaced: bool) -> str:
    """For the player a referee replaced or ejected, at the address they played from."""
    return _render(settings, game, "farewell", seat=seat, reason=reason, replaced=replaced)


def address_body(settings: Settings, game: Game, seat: str, new: str) -> str:
    """For both addresses of a seat whose mail a referee moved."""
    return _render(settings, game, "address_changed", seat=seat, new=new, by_referee=True)


def moved_orders_body(settings: Settings, game: Game, seat: str, turn: int) -> str:
    """For a seat whose stored orders a referee's rerun left facing a changed position."""
    return _render(settings, game, "orders_moved", seat=seat, turn=turn)


def rollback_body(settings: Settings, game: Game, **facts: Any) -> str:
    """For every player of a game a referee rolled back: the turns undone (first to last, none
    if last < first), why, and when they are played again (`left`: the reopened turn's time
    once resumed)."""
    return _render(settings, game, "rolled_back", **facts)


def _render(settings: Settings, game: Game, template: str, **facts: Any) -> str:
    title = get_ruleset(game.ruleset).title
    return render(template, moderator=settings.mail.name, game=game.id, title=title, **facts)
