"""The world the conversation machine plays in: one game on a fresh database, the players and
the referee who mail it, the moderator's clock, and every mail the moderator queued.

A step is one thing a person or the clock does: a mail taken in as the daemon takes it in
(`receive`, then the clocks' look at that game, as a mail that completes a turn wakes them),
or the clock moved on and looked at. After it, `Step` holds what the step queued and what the
database says, for the invariants (tests/machine/invariants.py) to compare.
"""

from __future__ import annotations

import logging
import re
import shutil
import tempfile
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from sqlmodel import col, select

from engine import get_ruleset
from pbem.clock.run import run_due
from pbem.config import SecuritySettings, Settings
from pbem.games.games import awaited, stored_orders, turn_of
from pbem.games.lifecycle import GameSpec, PressOptions, SeatSpec, create_game
from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.mail.compose import text_of
from pbem.referee.roles import give_passwords
from pbem.store import (
    Game,
    GameStatus,
    Outbox,
    Seat,
    Turn,
    loads,
    make_engine,
    transaction,
    utc,
)
from pbem.store.work import work_of
from tests.support.databases import migrated_engine

START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
REFEREE = "ref@referee.example"
STRANGER = "stranger@outside.example"
GAME = "m1"
# Names found in no handbook or template, so that a mail naming a seat is about that seat.
SEATS = ("ysolde", "orrin", "tamsin")
_MIGRATED: dict[str, Path] = {}


@dataclass(frozen=True)
class Person:
    """Someone who mails the moderator: a seat's player, the referee, or a stranger."""

    name: str
    address: str
    password: str


@dataclass(frozen=True)
class Mail:
    """What the moderator queued: its recipient, subject, text, and the mail it answers."""

    id: int
    kind: str
    recipient: str
    subject: str
    text: str
    in_reply_to: str
    raw: bytes

    @property
    def everything(self) -> str:
        """Every byte a reader could see, decoded: headers, text and attachments."""
        parsed = message_from_bytes(self.raw, policy=policy.default)
        parts = [str(value) for value in parsed.values()]
        for part in parsed.walk():
            if part.get_content_maintype() in ("text", "application"):
                payload = part.get_payload(decode=True)
                if isinstance(payload, bytes):
                    parts.append(payload.decode("utf-8", "replace"))
        return "\n".join(parts)


@dataclass(frozen=True)
class Facts:
    """What the database says of the game at one moment."""

    status: str
    turn: int
    deadline: datetime | None
    resolved: int  # turns resolved so far
    seats: dict[str, str]  # seat -> status
    addresses: dict[str, str]  # seat -> address
    have_orders: tuple[str, ...]  # seats with orders stored for the current turn
    waiting: tuple[str, ...]  # seats the current turn still waits for (pbem's own reading)
    asked: tuple[str, ...]  # seats the ruleset asks for orders this turn
    absent: tuple[str, ...]  # seats away (SET ABSENCE) today
    early: bool  # the game resolves a turn as soon as every seat's orders are in


@dataclass
class Step:
    """One step: who did what, the mail it sent (if any), and what it brought about."""

    actor: str
    action: str
    now: datetime
    before: Facts
    after: Facts
    sent: Person | None = None
    message_id: str = ""
    body: str = ""
    status: str = ""
    queued: list[Mail] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # what pbem logged as failed meanwhile


class _Failures(logging.Handler):
    """What pbem logs at ERROR: work that failed and was rolled back (a turn's resolution,
    a clock's look), which the mail alone would not show."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        cause = f": {record.exc_info[1]!r}" if record.exc_info else ""
        self.seen.append(f"{record.getMessage()}{cause}"[:300])

    def take(self) -> list[str]:
        seen, self.seen = self.seen, []
        return seen


def _settings() -> Settings:
    settings = Settings()
    # A cheap password hash, and no cap on replies: the machine mails far more often than a
    # person could, and a reply held back by the cap would read as an unanswered mail.
    limits = replace(settings.limits, replies_per_sender=100_000)
    return replace(settings, security=SecuritySettings(password_cost=4), limits=limits)


def _database(folder: Path) -> str:
    """A migrated SQLite database in `folder`, copied from one migrated once per process."""
    if "template" not in _MIGRATED:
        template = Path(tempfile.mkdtemp(prefix="pbem-machine-")) / "template.db"
        migrated_engine(f"sqlite:///{template}").dispose()
        _MIGRATED["template"] = template
    target = folder / "pbem.db"
    shutil.copyfile(_MIGRATED["template"], target)
    target.chmod(0o600)  # as pbem makes a database of its own
    return f"sqlite:///{target}"


class World:
    """One game of `ruleset` with `seats` players and a referee, at START."""

    def __init__(self, ruleset: str, seats: int = 3, **spec: Any) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="pbem-machine-"))
        self.engine = make_engine(_database(self.folder))
        self.service = Service(self.engine, _settings())
        self.now = START
        self.ruleset = get_ruleset(ruleset)
        names = SEATS[:seats]
        self.players = {
            name: Person(name, f"{name}@players.example", f"pw-{name}-{i}x7")
            for i, name in enumerate(names)
        }
        self.passwords_ever: set[str] = {p.password for p in self.players.values()}
        self.sequence = 0
        self.seen = 0
        self.failures = _Failures()
        logging.getLogger("pbem").addHandler(self.failures)
        specs = [SeatSpec(p.name, p.address, p.password) for p in self.players.values()]
        spec.setdefault("deadline_policy", "interval:6h")
        spec.setdefault("press", PressOptions(grey=True))
        game = GameSpec(
            id=GAME,
            ruleset=self.ruleset.id,
            seats=specs,
            seed=7,
            seed_salt="0" * 32,
            referees=(REFEREE,),
            **spec,
        )
        with self.service.store.transaction() as work:
            row = create_game(work, self.service.settings, game, now=self.now)
            give_passwords(work, self.service.settings, row, now=self.now)
        self.opening = self.take_queued()
        password = re.search(r"Your password: (\S+)", _only(self.opening, REFEREE).text)
        assert password is not None, "the referee's password mail"
        self.referee = Person("referee", REFEREE, password.group(1))
        self.passwords_ever.add(self.referee.password)

    def close(self) -> None:
        logging.getLogger("pbem").removeHandler(self.failures)
        self.engine.dispose()
        shutil.rmtree(self.folder, ignore_errors=True)

    # -- what the database says ---------------------------------------------------------

    def facts(self) -> Facts:
        with transaction(self.service.db) as session:
            game = session.get(Game, GAME)
            assert game is not None
            seats = list(session.exec(select(Seat).where(Seat.game_id == GAME)))
            turn = turn_of(session, GAME, game.turn)
            resolved = session.exec(
                select(Turn).where(Turn.game_id == GAME, col(Turn.resolved_at).is_not(None))
            ).all()
            have: tuple[str, ...] = ()
            waiting: tuple[str, ...] = ()
            asked: tuple[str, ...] = ()
            if turn is not None and turn.resolved_at is None:
                have = tuple(sorted(stored_orders(session, GAME, turn.number)))
                state = loads(turn.state_before)
                asked = tuple(self.ruleset.seats_to_order(state))
                waiting = tuple(awaited(work_of(session), game, turn, state, now=self.now).waiting)
            today = self.now.date()
            return Facts(
                status=str(game.status),
                turn=game.turn,
                deadline=utc(turn.deadline) if turn and turn.deadline else None,
                resolved=len(resolved),
                seats={seat.name: str(seat.status) for seat in seats},
                addresses={seat.name: seat.address for seat in seats},
                have_orders=have,
                waiting=waiting,
                asked=asked,
                absent=tuple(
                    s.name for s in seats if s.absent_until is not None and s.absent_until >= today
                ),
                early=game.early_processing,
            )

    def state(self) -> dict[str, Any]:
        with transaction(self.service.db) as session:
            game = session.get(Game, GAME)
            assert game is not None
            turn = turn_of(session, GAME, game.turn)
            assert turn is not None
            return dict(loads(turn.state_before))

    @property
    def running(self) -> bool:
        return self.facts().status in (GameStatus.RUNNING, GameStatus.PAUSED)

    def take_queued(self) -> list[Mail]:
        """The mail queued since the last call, in order."""
        with transaction(self.service.db) as session:
            rows = session.exec(
                select(Outbox).where(col(Outbox.id) > self.seen).order_by(col(Outbox.id))
            ).all()
            mails = [_mail(row) for row in rows]
        if mails:
            self.seen = mails[-1].id
        return mails

    # -- steps ----------------------------------------------------------------------------

    def mail(
        self,
        sender: Person,
        body: str,
        action: str,
        *,
        subject: str = "orders",
        headers: dict[str, str] | None = None,
    ) -> Step:
        """`sender` mails `body`; the moderator takes it in, then its clocks look at the game."""
        self.sequence += 1
        message_id = f"<step{self.sequence}@{sender.address.split('@')[1]}>"
        message = EmailMessage()
        message["From"] = sender.address
        message["To"] = "moderator@pbem.localhost"
        message["Subject"] = subject
        message["Message-ID"] = message_id
        for name, value in (headers or {}).items():
            message[name] = value
        message.set_content(body)
        before = self.facts()
        receipt = receive(self.service, message.as_bytes(), now=self.now)
        run_due(self.service, self.now, only=[GAME])
        return Step(
            actor=sender.name,
            action=action,
            now=self.now,
            before=before,
            after=self.facts(),
            sent=sender,
            message_id=message_id,
            body=body,
            status=str(receipt.status),
            queued=self.take_queued(),
            errors=self.failures.take(),
        )

    def tick(self, minutes: int) -> Step:
        """The clock moves on `minutes` and the moderator's clocks look at every game."""
        before = self.facts()
        self.now += timedelta(minutes=minutes)
        run_due(self.service, self.now)
        return Step(
            actor="clock",
            action=f"tick {minutes}m",
            now=self.now,
            before=before,
            after=self.facts(),
            queued=self.take_queued(),
            errors=self.failures.take(),
        )


def _mail(row: Outbox) -> Mail:
    message = message_from_bytes(row.raw, policy=policy.default)
    assert isinstance(message, EmailMessage)
    return Mail(
        id=row.id or 0,
        kind=str(row.kind),
        recipient=row.recipient.lower(),
        subject=row.subject,
        text=text_of(message),
        in_reply_to=str(message.get("In-Reply-To", "")),
        raw=row.raw,
    )


def _only(mails: list[Mail], recipient: str) -> Mail:
    [found] = [mail for mail in mails if mail.recipient == recipient]
    return found
