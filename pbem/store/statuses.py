"""The statuses and kinds of the rows, as enums whose values are the strings stored: a member is
a str, so it is written as its value, and the columns stay VARCHAR (no migration, no database
enum type). StoredAs reads a column's value back as its member, and refuses to write a value
that is none. SeedNumber, a game's seed: a VARCHAR read back as an int."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Generic, TypeVar

from sqlalchemy import Dialect, String
from sqlalchemy.types import TypeDecorator


class GameStatus(StrEnum):
    OPEN = "open"  # seats still to fill by JOIN; no turn yet
    RUNNING = "running"
    PAUSED = "paused"  # the clock stands still (pbem.clock.control)
    ENDED = "ended"


class SeatStatus(StrEnum):
    ACTIVE = "active"
    ABANDONED = "abandoned"  # missed abandon_after turns in a row (pbem.clock.nmr)
    DISORDER = "disorder"  # civil disorder: no orders until a new player takes it
    EJECTED = "ejected"  # a referee removed its player; civil disorder until replaced
    BOT = "bot"  # the ruleset's bot plays it (a referee's BOT, or RESIGN with resign=bot)


class MailStatus(StrEnum):
    """An inbound mail's status (InboundMessage.status), and what became of a mail taken in
    (pbem.intake.receipt.Receipt)."""

    RECEIVED = "received"  # recorded, not handled yet (or released from quarantine)
    ACCEPTED = "accepted"  # orders stored
    ANSWERED = "answered"  # a command done, or orders not counted
    IGNORED = "ignored"  # never answered: an auto-reply, a bounce, a mailing list...
    QUARANTINED = "quarantined"
    # A receipt's alone, never stored: the mail's Message-ID was recorded already.
    DUPLICATE = "duplicate"


class OutboxKind(StrEnum):
    """What an outbox row is (Outbox.kind, pbem.games.outbox.Letter.kind)."""

    REPLY = "reply"  # to a mail just received: sent first (pbem.store.outbox_rows.REPLY)
    REPORT = "report"  # a turn's report, or the game's start
    GAME_END = "game-end"
    CLOCK = "clock"  # deadlines, reminders, pause and resume (pbem.clock.notices)
    REFEREE = "referee"  # to a referee
    ANNOUNCEMENT = "announcement"  # a referee's message to the players
    BOUNCE = "bounce"  # a mail refused for good, told to the game's referees
    PRESS = "press"  # press relayed between seats (pbem.intake.press)


E = TypeVar("E", bound=StrEnum)


class StoredAs(TypeDecorator[E], Generic[E]):
    """A VARCHAR column of `enum`'s values, read back as members. To the database (and to the
    migrations' comparison) it is the String it was."""

    impl = String
    cache_ok = True

    def __init__(self, enum: type[E], length: int) -> None:
        super().__init__(length=length)
        self.enum = enum
        self.length = length
        self._members: dict[str, E] = {member.value: member for member in enum}

    def process_bind_param(self, value: Any, dialect: Dialect) -> str | None:
        if value is None:
            return None
        member = self._members.get(value)
        if member is None:
            raise ValueError(f"{value!r} is not a {self.enum.__name__}")
        return member.value

    def process_result_value(self, value: Any, dialect: Dialect) -> E | None:
        return None if value is None else self._members[value]


class SeedNumber(TypeDecorator[int]):
    """A game's seed: a whole number of up to 40 digits (a 128-bit seed has 39), stored as
    its decimal text, the text the dice and the commitment hash (engine.dice,
    pbem.games.commitment), and read back as the same int. No integer type of SQLite or
    PostgreSQL holds 2**128, and NUMERIC on SQLite would round it through a float."""

    impl = String
    cache_ok = True

    def __init__(self) -> None:
        super().__init__(length=40)

    def process_bind_param(self, value: Any, dialect: Dialect) -> str | None:
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"a seed is a whole number, not {value!r}")
        return str(value)

    def process_result_value(self, value: Any, dialect: Dialect) -> int | None:
        return None if value is None else int(value)
