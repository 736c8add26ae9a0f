"""Held orders meet their turn: when a turn opens, the orders a seat sent for it in advance
(pbem.intake.advance) are checked against its position, and the seat gets the check reply
it would have had sending them now, in reply to the mail they came in."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session

from engine import get_ruleset
from pbem.config import Settings
from pbem.deadlines.stored import describe
from pbem.games.checks import check_facts, shown, verdict_of
from pbem.games.games import find_seat, stored_orders, waiting_seats
from pbem.games.outbox import Letter, queue
from pbem.mail.compose import stable_message_id
from pbem.store import Game, OrderSet, Turn, loads
from pbem.templates import render


def check_held_orders(
    session: Session, settings: Settings, game: Game, turn: Turn, *, now: datetime
) -> int:
    """A check reply for every seat's held orders for `turn`, which has just opened; how many."""
    state = loads(turn.state_before)
    ruleset = get_ruleset(game.ruleset)
    sent = 0
    for name, row in sorted(stored_orders(session, game.id, turn.number).items()):
        seat = find_seat(session, game.id, name)
        if seat is None or not seat.address:
            continue
        texts = row.text.split("\n") if row.text else []
        lines = list(zip(loads(row.line_map), texts, strict=True))
        check = check_facts(lines, ruleset.parse_orders(state, name, row.text))
        plays = name in ruleset.seats_to_order(state)
        body = render(
            "check_reply",
            moderator=settings.mail.name,
            game=game.id,
            seat=name,
            turn=turn.number,
            verdict=verdict_of(check) if plays else "your seat does not play this turn",
            replaced=row.version > 1,
            version=row.version,
            notes=[_note(row)],
            deadline=describe(turn.deadline, game.timezone),
            waiting=waiting_seats(session, game, turn, state),
            paused=game.status == "paused",
            resolves_now=False,  # a turn that has just opened waits for its other seats
            **shown(check, settings.limits.max_problems_shown),
        )
        queue(session, settings, _letter(settings, game, seat.address, row, body), now=now)
        sent += 1
    return sent


def _note(row: OrderSet) -> str:
    when = row.received_at.strftime("%Y-%m-%d %H:%M")
    return f"You sent these orders on {when} UTC; they were held until now."


def _letter(settings: Settings, game: Game, to: str, row: OrderSet, body: str) -> Letter:
    parts = ("held", game.id, str(row.turn), row.seat, str(row.version))
    return Letter(
        "reply",
        to,
        f"[{game.id}] turn {row.turn}: your held orders",
        body,
        stable_message_id(*parts, domain=settings.mail.domain),
        in_reply_to=row.message_id,
        game_id=game.id,
    )
