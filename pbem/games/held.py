"""Held orders meet their turn: when a turn opens, the orders a seat sent for it in advance
(pbem.intake.advance) are checked against its position, and the seat gets the check reply
it would have had sending them now, in reply to the mail they came in."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from datetime import datetime

from engine import get_ruleset
from pbem.config import Settings
from pbem.deadlines.stored import describe
from pbem.games.checks import check_facts, shown, verdict_of
from pbem.games.counted import PASS_LINE, Judged, counting, judge, until_when
from pbem.games.games import awaited, find_seat
from pbem.games.outbox import Letter, queue
from pbem.mail.compose import stable_message_id
from pbem.store import (
    Game,
    GameStatus,
    OrderSet,
    OutboxKind,
    Turn,
    dumps,
    loads,
)
from pbem.store.work import Work
from pbem.templates import render


def check_held_orders(
    work: Work,
    settings: Settings,
    game: Game,
    turn: Turn,
    *,
    now: datetime,
    opens_due: Callable[[], bool],
) -> bool:
    """A check reply for every seat's held orders for `turn`, which has just opened; whether
    the turn is due at once.
    Held orders that do not count (no accepted order, no NO ORDERS: pbem.games.counted) are
    taken out of the turn, and the reply says so: the seat has yet to send its orders.
    `opens_due` (the clock's word, asked once every held row is as the turn counts it) says
    whether the turn is due at once, its every order in: then the clock resolves it in the
    same pass, and the replies say so instead of promising time."""
    state = loads(turn.state_before)
    ruleset = get_ruleset(game.ruleset)
    judged_rows = []
    for name, row in sorted(work.games.stored_orders(game.id, turn.number).items()):
        texts = row.text.split("\n") if row.text else []
        judged = judge(ruleset, state, name, list(zip(loads(row.line_map), texts, strict=True)))
        _keep_what_counts(work, row, judged)
        judged_rows.append((row, judged))
    resolves_now = bool(judged_rows) and opens_due()
    again = work.branches.times_archived(game.id, turn.number) if judged_rows else 0
    for row, judged in judged_rows:
        seat = find_seat(work, game.id, row.seat)
        if seat is None or not seat.address:
            continue
        body = _check_reply(work, settings, game, turn, row, judged, resolves_now, now=now)
        letter = _letter(settings, game, seat.address, row, body, again)
        queue(work, settings, letter, now=now)
    return resolves_now


def _keep_what_counts(work: Work, row: OrderSet, judged: Judged) -> None:
    """The held row as the turn counts it: gone if it does not count, else without its NO
    ORDERS line (an empty text for a pass), as a mail sent now would be stored."""
    if not judged.counted:
        work.games.remove(row)
    else:
        kept = judged.stored_lines()
        row.text = "\n".join(line for _, line in kept)
        row.line_map = dumps([number for number, _ in kept])
        work.games.add(row)
    work.flush()  # the waiting seats are read next


def _check_reply(
    work: Work,
    settings: Settings,
    game: Game,
    turn: Turn,
    row: OrderSet,
    judged: Judged,
    resolves_now: bool,
    *,
    now: datetime,
) -> str:
    check = check_facts(judged.lines, judged.parsed, judged.refused())
    check["ignored"] = sorted(check["ignored"] + judged.ignored())
    state = loads(turn.state_before)
    plays = row.seat in get_ruleset(game.ruleset).seats_to_order(state)
    verdict = PASS_LINE if judged.passes else verdict_of(check)
    return render(
        "check_reply",
        moderator=settings.mail.name,
        game=game.id,
        seat=row.seat,
        turn=turn.number,
        verdict=verdict if plays else "your seat does not play this turn",
        **counting(judged, row.version if judged.counted else 0, 0),
        unchanged_template=False,  # written before the turn's template existed
        notes=[_note(row)],
        unread_above="",  # held orders were read when they came, and so answered
        deadline=describe(turn.deadline, game.timezone),
        **asdict(awaited(work, game, turn, state, now=now)),
        paused=game.status == GameStatus.PAUSED,
        resolves_now=resolves_now,
        until=until_when(game),
        **shown(check, settings.limits.max_problems_shown),
    )


def _note(row: OrderSet) -> str:
    when = row.received_at.strftime("%Y-%m-%d %H:%M")
    return f"You sent these orders on {when} UTC; they were held until now."


def _letter(
    settings: Settings, game: Game, to: str, row: OrderSet, body: str, again: int
) -> Letter:
    # The turn opened again after a rollback: a new Message-ID (the same one would fail the
    # whole resolution, every time, and the turn would never be played).
    again_part = (f"again-{again}",) if again else ()
    parts = ("held", game.id, str(row.turn), row.seat, str(row.version), *again_part)
    return Letter(
        OutboxKind.REPLY,
        to,
        f"[{game.id}] turn {row.turn}: your held orders",
        body,
        stable_message_id(*parts, domain=settings.mail.domain),
        in_reply_to=row.message_id,
        game_id=game.id,
    )
