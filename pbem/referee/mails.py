"""The mail bodies referee commands send: the preview, a new password, an announcement."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from engine import Resolution, get_ruleset
from pbem.config import Settings
from pbem.games.played import BOT, NO_ORDERS, Played
from pbem.games.reports import event_text
from pbem.store import Game, SeatStatus, Turn
from pbem.templates import render

# What a seat with no orders of its own in the pending turn is played with, as the turn would
# play it (pbem.clock.nmr, pbem.games.played): the preview says so beside the seat, so that it
# never counts a seat's last orders again as orders in.
_PLAYED_WITH = {
    "standing": "its last orders again, as the game plays a seat without orders (nmr standing)",
    BOT: "the bot's orders",
    NO_ORDERS: "no orders: its standing orders only",
}
# Why a seat's own orders are not played whatever is on file for it (pbem.clock.turns: a seat
# nobody plays has no orders, a seat the bot plays has the bot's).
_BECAUSE = {
    SeatStatus.DISORDER: "it is in civil disorder: nobody plays it",
    SeatStatus.EJECTED: "its player was ejected: nobody plays it",
    SeatStatus.BOT: "a referee gave it to the bot",
}
_NOT_ASKED = "nothing: the seat does not play this turn"


def preview_body(
    settings: Settings,
    game: Game,
    turn: Turn,
    resolution: Resolution,
    played: dict[str, Played],
    seats: dict[str, SeatStatus],
    on_file: Collection[str],
    away: Collection[str] = (),
) -> str:
    """The preview of `turn`: what each seat is `played` with, said beside the `seats` (their
    statuses) and the orders `on_file` for the turn, so that the referee reads whose orders
    the turn plays, and why the ones on file that it does not play are not played. The seats
    `away` and not waited for (pbem.games.games.awaited) are named apart, as STATUS and the
    desk name them."""
    ruleset = get_ruleset(game.ruleset)
    names = sorted(set(played) | set(on_file))
    how = {name: _how(played.get(name), seats.get(name)) for name in names}
    ordered = [name for name in names if how[name] == "orders"]
    others = [name for name in names if how[name] != "orders"]
    group = {name: _group(name in on_file, name in away) for name in others}
    groups = [
        (heading, [(name, how[name]) for name in others if group[name] == heading])
        for heading in _GROUPS
    ]
    notes = {name: f"{_GROUPS[group[name]]}: see above" for name in others}
    results = [
        (name, notes.get(name, ""), [_result_line(r) for r in resolution.results.get(name, [])])
        for name in sorted(set(resolution.results) | set(played))
    ]
    return render(
        "referee_preview",
        moderator=settings.mail.name,
        game=game.id,
        title=ruleset.title,
        turn=turn.number,
        ordered=ordered,
        groups=[(heading, group) for heading, group in groups if group],
        events=[_seat_event(event) for event in resolution.events],
        results=results,
        map=ruleset.render_map(resolution.state, ""),
        summary=ruleset.public_summary(resolution.state),
    )


def _how(item: Played | None, status: SeatStatus | None) -> str:
    """What the turn plays a seat with ("orders": its own), and why when its status says."""
    if item is None:
        return _NOT_ASKED
    if item.by == "orders":
        return "orders"
    because = _BECAUSE.get(status) if status is not None else None
    what = _PLAYED_WITH.get(item.by, item.by)
    return f"{what} ({because})" if because else what


# The preview's headings for the seats not played with their own orders, and the note each
# seat's orders get under its heading.
_GROUPS = {
    "No orders yet from": "no orders yet",
    "Away, not waited for": "away, not waited for",
    "Orders on file not played": "orders on file not played",
}


def _group(filed: bool, away: bool) -> str:
    """Which heading of the preview names a seat that is not played with its own orders."""
    if filed:
        return "Orders on file not played"
    return "Away, not waited for" if away else "No orders yet from"


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
        paused=seat.get("paused", ""),
        cleared=seat.get("cleared", ""),
        on_file=seat.get("on_file", ""),
        no_orders=seat.get("no_orders", False),  # NO ORDERS on file: in, with none
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
