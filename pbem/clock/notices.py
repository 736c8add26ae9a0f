"""The clocks' mails: reminders, abandoned seats, deadlines moved after an outage, pause and
resume. Each has a stable Message-ID made of what it is about, so a rerun after a crash
cannot queue it twice (queue_once looks first; the outbox's Message-ID is unique)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from engine import get_ruleset
from pbem.config import Settings
from pbem.deadlines.policy import format_duration
from pbem.deadlines.stored import describe
from pbem.games.counted import until_when
from pbem.games.outbox import Letter, queue
from pbem.games.paused import after_resume
from pbem.games.stale import topic
from pbem.mail.compose import stable_message_id
from pbem.store import Game, GameStatus, Outbox, OutboxKind, Seat, utc
from pbem.store.work import PerTransaction, Work
from pbem.templates import render

KIND = OutboxKind.CLOCK  # the outbox kind of every mail made here


when = describe  # a deadline as players read it, with the game's local time


def _letter(
    settings: Settings,
    game: Game,
    to: str,
    subject: str,
    template: str,
    *id_parts: str,
    stale: Stale | None = None,
    earlier: tuple[News, ...] = (),
    **facts: Any,
) -> Letter:
    told = [(news.line, news.reason) for news in earlier]
    body = render(template, moderator=settings.mail.name, game=game.id, earlier=told, **facts)
    message_id = stable_message_id(template, game.id, *id_parts, to, domain=settings.mail.domain)
    stale = stale or Stale()
    subject = "; ".join(dict.fromkeys([*(news.subject for news in earlier), subject]))
    return Letter(
        KIND,
        to,
        f"[{game.id}] {subject}",
        body,
        message_id,
        game_id=game.id,
        expires_at=stale.at,
        topic=topic(stale.topic, game.id, to) if stale.topic else "",
    )


@dataclass(frozen=True)
class Stale:
    """When a notice goes stale (pbem.games.stale): at a moment, and when a newer notice of
    the same topic to the same address in the same game is queued."""

    at: datetime | None = None
    topic: str = ""


def queue_once(work: Work, settings: Settings, letter: Letter, *, now: datetime) -> Outbox | None:
    """Queue `letter` unless a mail with its Message-ID was queued before: a turn resolved
    again after a referee's rollback may abandon the same seat again, and a duplicate id
    would fail the whole transaction. The row queued, if any."""
    if work.outbox.is_queued(letter.message_id):
        return None
    return queue(work, settings, letter, now=now)


@dataclass(frozen=True)
class News:
    """A change to the game's clock told to a seat (a pause, a resume, a moved deadline), as
    a later notice of the same transaction recalls it above its own (queue_news)."""

    subject: str  # the notice's subject, without the game's tag
    line: str  # what happened, in the past tense: true whatever came after it
    reason: str


# The clock notices queued in a transaction: (game, address) -> the row and the news it told.
_TOLD: PerTransaction[dict[tuple[str, str], tuple[int, tuple[News, ...]]]] = PerTransaction(dict)


def queue_news(
    work: Work,
    settings: Settings,
    key: tuple[str, str],
    build: Callable[..., Letter],
    news: News,
    *,
    now: datetime,
) -> None:
    """Queue the clock notice `build(earlier=...)` makes for `key` (its game and address):
    one mail a seat and transaction. A notice queued to the same address about the same game
    earlier in this transaction (a referee mail's RESUME, then its DEADLINE) is taken back
    before anyone could send it, and the new one recalls its news, reasons and all, above its
    own: the seat gets one mail, which says where things stand when it is sent, not one
    already stale."""
    told = _TOLD.of(work)
    earlier: tuple[News, ...] = ()
    found = told.pop(key, None)
    # The row is gone if a refused command's SAVEPOINT was undone.
    if found is not None and work.outbox.take_back_unsent(found[0]):
        earlier = found[1]
    queued = queue_once(work, settings, build(earlier=earlier), now=now)
    if queued is not None and queued.id is not None:
        told[key] = (queued.id, (*earlier, news))


def reminder_letter(
    settings: Settings, game: Game, turn: int, deadline: datetime, seat: Seat, before: timedelta
) -> Letter:
    return _letter(
        settings,
        game,
        seat.address,
        f"turn {turn}: orders due in {format_duration(before)}",
        "reminder",
        str(turn),
        seat.name,
        str(int(before.total_seconds())),
        # Worthless once the deadline it announces has passed; a nearer reminder (or one for
        # the next turn) says what is true now.
        stale=Stale(at=deadline, topic="reminder"),
        seat=seat.name,
        turn=turn,
        deadline=when(deadline, game.timezone),
        before=format_duration(before),
        title=get_ruleset(game.ruleset).title,
    )


def abandoned_letter(settings: Settings, game: Game, turn: int, seat: Seat, to: str) -> Letter:
    return _letter(
        settings,
        game,
        to,
        f"seat {seat.name} abandoned",
        "abandoned",
        str(turn),
        seat.name,
        seat=seat.name,
        address=seat.address,
        turn=turn,
        missed=seat.missed,
    )


def outage_letter(
    settings: Settings, game: Game, turn: int, old: datetime, new: datetime, to: str
) -> Letter:
    return _letter(
        settings,
        game,
        to,
        f"turn {turn}: deadline moved",
        "deadline_moved",
        str(turn),
        utc(old).isoformat(),
        stale=Stale(at=new, topic="deadline-moved"),
        turn=turn,
        old=when(old, game.timezone),
        new=when(new, game.timezone),
    )


def pause_letter(
    settings: Settings,
    game: Game,
    to: str,
    *,
    paused: bool,
    turn: int,
    reason: str,
    deadline: datetime | None,
    at: datetime,
    earlier: tuple[News, ...] = (),
) -> Letter:
    template = "paused" if paused else "resumed"
    return _letter(
        settings,
        game,
        to,
        f"game {template}",
        template,
        str(turn),
        utc(at).isoformat(),
        # A resume queued while the pause notice still waits says what is true now.
        stale=Stale(topic="pause"),
        earlier=earlier,
        turn=turn,
        reason=reason,
        deadline=when(deadline, game.timezone),
    )


def deadline_letter(
    settings: Settings,
    game: Game,
    turn: int,
    to: str,
    origin: str,
    *,
    seat: str,
    old: datetime | None,
    new: datetime | None,
    reason: str,
    orders: str,
    left: str,
    policy: str = "",
    earlier: tuple[News, ...] = (),
    old_left: int | None = None,
) -> Letter:
    """A changed deadline (or, with `policy`, a changed deadline policy) told to one seat;
    `orders` is "in", "missing" or "" (the turn asks the seat for none). While paused no
    deadline stands, so the notice names the time the turn will have after the resume:
    `old_left` before the change, the game's paused_left now."""
    paused = game.status == GameStatus.PAUSED
    if paused:
        before, now = after_resume(old_left), after_resume(game.paused_left)
    else:
        before, now = when(old, game.timezone), when(new, game.timezone)
    subject = "deadline policy changed" if policy else f"turn {turn}: new deadline"
    return _letter(
        settings,
        game,
        to,
        subject,
        "deadline_changed",
        str(turn),
        origin,
        # A newer deadline notice says what is true now; one unsent by the deadline it names
        # is worthless (while paused the clock stands still: it names no moment then). The
        # policy holds for later turns: it never goes stale.
        stale=None if policy else Stale(at=_expiry(new, game), topic="deadline-moved"),
        earlier=earlier,
        seat=seat,
        turn=turn,
        old=before,
        new=now,
        reason=reason,
        orders=orders,
        left=left,
        until=until_when(game),  # what the clock does, as the check replies promise it
        paused=paused,
        policy=policy,
        title=get_ruleset(game.ruleset).title,
    )


def _expiry(deadline: datetime | None, game: Game) -> datetime | None:
    return None if game.status == GameStatus.PAUSED else deadline
