"""The tables. JSON is kept as canonical text (sorted keys) so the same stored inputs give the
same stored outputs byte for byte on SQLite and PostgreSQL alike; times are aware UTC."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Column, Index, LargeBinary, Text, UniqueConstraint, text
from sqlmodel import Field, SQLModel

from pbem.store.statuses import (
    GameStatus,
    MailStatus,
    OutboxKind,
    SeatStatus,
    SeedNumber,
    StoredAs,
)


class Game(SQLModel, table=True):
    id: str = Field(primary_key=True, max_length=64)
    ruleset: str = Field(max_length=64)
    options: str = Field(sa_column=Column(Text, nullable=False))  # canonical JSON
    # 128 random bits (pbem.games.commitment.new_seed); games made before 0014 keep the 31
    # bits they were made with. Stored as its decimal text: no integer column holds 2**128.
    seed: int = Field(sa_column=Column(SeedNumber(), nullable=False))
    # Secret with the seed until the game ends: the start mail's commitment is the SHA-256 of
    # both (pbem.proof), so a small seed cannot be found by trying every one. '' before 0007.
    seed_salt: str = Field(default="", max_length=64)
    status: GameStatus = Field(
        default=GameStatus.RUNNING,
        sa_column=Column(StoredAs(GameStatus, 16), nullable=False, default=GameStatus.RUNNING),
    )
    deadline_policy: str = Field(default="interval:48h", max_length=128)
    early_processing: bool = True
    address_check: bool = False
    signup_seats: int = 0  # seats still to fill by JOIN while status is open
    turn: int = 0  # the pending turn's number, 0 before the game starts
    result: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    created_at: datetime
    announce_referee_actions: bool = True  # reports list what a referee changed, and why
    # The clocks (pbem/clock/): see docs/pipeline.md, "Clocks".
    timezone: str = Field(default="UTC", max_length=64)  # weekly deadlines, absence dates
    grace_seconds: int = 0  # a turn resolves this long after its deadline
    reminders: str = Field(default="", max_length=256)  # offsets before the deadline: 24h,2h
    nmr: str = Field(default="no-orders", max_length=16)  # no-orders | standing | bot
    abandon_after: int = 0  # misses in a row that make a seat abandoned; 0: never
    wait_for_absent: bool = False  # a turn waits while a seat without orders is absent
    paused_at: datetime | None = None
    paused_left: int | None = None  # seconds the deadline was away when paused
    # What RESIGN does to a seat: replace (civil disorder, referees asked for a new player) |
    # disorder (civil disorder for good) | bot (the ruleset's bot plays it).
    resign: str = Field(default="replace", max_length=16)
    # Press between seats (pbem.intake.press): allowed at all; anonymous ("grey") press
    # allowed; the referees copied on private press; press after the game has ended.
    press: bool = True
    grey_press: bool = False
    press_to_referees: bool = False
    press_after_end: bool = False
    # Attachments to the reports (pbem.games.attachments): the map picture and the campaign
    # chart; the report's data as JSON; a chart every this many turns (0: only at the end).
    pictures: bool = True
    report_data: bool = True
    chart_every: int = 10


class Seat(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("game_id", "name"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True, max_length=64)
    name: str = Field(max_length=64)
    position: int
    address: str = Field(max_length=320)
    password_hash: str = Field(max_length=256)
    # The HMAC of the password and hash under the check key (pbem.games.seat_passwords); ''
    # without a key, or until the password is given.
    password_check: str = Field(default="", max_length=64)
    status: SeatStatus = Field(
        default=SeatStatus.ACTIVE,
        sa_column=Column(StoredAs(SeatStatus, 16), nullable=False, default=SeatStatus.ACTIVE),
    )
    missed: int = 0  # turns in a row resolved without this seat's orders
    # The first turn its present player gives orders for (a referee's REPLACE sets it): the
    # seat's orders of the turns before were a former player's, never replayed for this one
    # as standing orders (pbem.clock.nmr). 0: the seat's first player.
    player_from: int = 0
    absent_until: date | None = None  # announced with SET ABSENCE; through this day
    # SET ADDRESS waiting for CONFIRM from the new address: the address, the code's SHA-256,
    # when it was asked (the code expires), the wrong codes sent from there since (a few void
    # the change: pbem.intake.codes).
    pending_address: str = Field(default="", max_length=320)
    pending_code: str = Field(default="", max_length=64)
    pending_since: datetime | None = None
    pending_misses: int = 0
    # SET PRESS OFF: "*" for all press, else the comma-separated seats whose press is muted.
    press_muted: str = Field(default="", max_length=512)
    # SET PICTURES OFF and SET DATA OFF: no pictures, no JSON data with this seat's reports.
    pictures: bool = True
    report_data: bool = True


class Referee(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("game_id", "address"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True, max_length=64)
    address: str = Field(max_length=320)
    password_hash: str = Field(default="", max_length=256)  # '' until referee mail commands


class Turn(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("game_id", "number"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True, max_length=64)
    number: int
    state_before: str = Field(sa_column=Column(Text, nullable=False))
    state_after: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    record: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    deadline: datetime | None = None
    resolved_at: datetime | None = None
    opened_at: datetime | None = None  # None for turns opened before the clocks
    # Seats resolved without orders, canonical JSON: {seat: {missed, absent, abandoned}}
    nmr: str = Field(default="{}", sa_column=Column(Text, nullable=False, default="{}"))


class OrderSet(SQLModel, table=True):
    """One seat's orders for one turn: the whole order text of its latest order mail."""

    __tablename__ = "order_set"
    __table_args__ = (UniqueConstraint("game_id", "turn", "seat"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", max_length=64)
    turn: int
    seat: str = Field(max_length=64)
    text: str = Field(sa_column=Column(Text, nullable=False))
    line_map: str = Field(sa_column=Column(Text, nullable=False))  # JSON: mail line of each line
    message_id: str = Field(max_length=998)
    version: int = 1  # how many order mails this turn; above 1 means replaced
    received_at: datetime


class InboundMessage(SQLModel, table=True):
    __tablename__ = "inbound_message"
    id: int | None = Field(default=None, primary_key=True)
    message_id: str = Field(unique=True, max_length=998)
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    sender: str = Field(default="", max_length=998)
    subject: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    received_at: datetime
    status: MailStatus = Field(
        default=MailStatus.RECEIVED,
        sa_column=Column(StoredAs(MailStatus, 16), nullable=False, default=MailStatus.RECEIVED),
    )
    outcome: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    game_id: str | None = Field(default=None, max_length=64)
    seat: str | None = Field(default=None, max_length=64)
    attempts: int = 1  # 1 + replays


class Quarantine(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    inbound_id: int = Field(foreign_key="inbound_message.id", index=True)
    reason: str = Field(max_length=64)  # a short code: envelope, unknown-game, password, error...
    error: str = Field(sa_column=Column(Text, nullable=False))
    created_at: datetime
    released_at: datetime | None = None  # set when replayed


# An outbox row still to send (pbem.store.outbox_rows.waiting): on PostgreSQL the rows a drain
# reads, in its order, from an index of their own (the outbox keeps a row of every mail sent).
# SQLite's planner reads them by ix_outbox_sent_at (sent_at IS NULL) and would not use it.
_WAITING = text("sent_at IS NULL AND bounced_at IS NULL AND dropped_at IS NULL")
# A sent mail whose bytes are still kept (pbem.games.outbox_prune): the prune reads the oldest
# of them from this index alone, not every row ever sent (on both databases).
_KEPT = text("pruned_at IS NULL AND sent_at IS NOT NULL")


class Outbox(SQLModel, table=True):
    __table_args__ = (
        Index("ix_outbox_recipient_created", "recipient", "created_at"),
        Index(
            "ix_outbox_waiting",
            "priority",
            "id",
            postgresql_where=_WAITING,
            info={"only": "postgresql"},
        ).ddl_if(dialect="postgresql"),
        Index("ix_outbox_kept", "sent_at", postgresql_where=_KEPT, sqlite_where=_KEPT),
    )
    id: int | None = Field(default=None, primary_key=True)
    message_id: str = Field(unique=True, max_length=998)
    kind: OutboxKind = Field(sa_column=Column(StoredAs(OutboxKind, 32), nullable=False))
    recipient: str = Field(max_length=320)
    subject: str = Field(sa_column=Column(Text, nullable=False))
    # The mail as sent; empty once pruned (pruned_at set: [outbox] keep_sent_days).
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    game_id: str | None = Field(default=None, max_length=64)
    created_at: datetime
    sent_at: datetime | None = Field(default=None, index=True)
    attempts: int = 0
    last_error: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    # Not tried again before this time (the server deferred it); None: at the next drain.
    next_attempt_at: datetime | None = None
    bounced_at: datetime | None = None  # refused for good, or deferred too long: never sent
    # 0: a reply to a person who just wrote, sent first; 1: bulk (reports, reminders...).
    priority: int = 1
    # A notice whose moment passes (pbem.games.stale): not sent from expires_at on, and
    # superseded by a newer notice of the same topic; either way dropped, the reason in
    # last_error. Reports and replies have neither and are never dropped.
    expires_at: datetime | None = None
    topic: str = Field(default="", max_length=200, index=True)
    dropped_at: datetime | None = None
    # When a sent mail's bytes were dropped (raw emptied); the row stays, for the audit, the
    # reply limit's count and the Message-ID's uniqueness.
    pruned_at: datetime | None = None


class Press(SQLModel, table=True):
    """One relayed press mail, so that a plain reply to it can go back the same way: the
    relayed mail's Message-ID names it (and cannot be guessed)."""

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True, max_length=64)
    message_id: str = Field(unique=True, max_length=998)  # of the relayed mail
    sender: str = Field(max_length=64)  # the seat that wrote it
    recipient: str = Field(max_length=64)  # the seat it went to
    anonymous: bool = False
    created_at: datetime


class AuditLog(SQLModel, table=True):
    __tablename__ = "audit_log"
    id: int | None = Field(default=None, primary_key=True)
    at: datetime
    actor: str = Field(max_length=320)  # cli, pipeline, a seat or referee address
    action: str = Field(max_length=64)
    game_id: str | None = Field(default=None, max_length=64)
    detail: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))


class RefereeNote(SQLModel, table=True):
    """What a referee changed and why, for the reports of `turn` (the turn pending when it
    was done). An edit keeps its path and value: a rerun after a rollback applies it again."""

    __tablename__ = "referee_note"
    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True, max_length=64)
    turn: int
    at: datetime
    actor: str = Field(max_length=320)
    action: str = Field(max_length=64)
    reason: str = Field(sa_column=Column(Text, nullable=False))
    effect: str = Field(sa_column=Column(Text, nullable=False))  # what changed, for players
    public: bool = True  # shown in the players' reports (unless the game opts out)
    edit_path: str = Field(default="", max_length=256)  # '' unless a state edit
    edit_value: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))


class ArchivedTurn(SQLModel, table=True):
    """A turn as it was before a referee rolled the game back: branch n of the game keeps
    every turn from the rollback point on, never deleted."""

    __tablename__ = "archived_turn"
    __table_args__ = (UniqueConstraint("game_id", "branch", "number"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True, max_length=64)
    branch: int
    number: int
    state_before: str = Field(sa_column=Column(Text, nullable=False))
    state_after: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    record: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    deadline: datetime | None = None
    resolved_at: datetime | None = None
    archived_at: datetime


class ArchivedOrderSet(SQLModel, table=True):
    """A seat's orders for a turn of an archived branch (see ArchivedTurn)."""

    __tablename__ = "archived_order_set"
    __table_args__ = (UniqueConstraint("game_id", "branch", "turn", "seat"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True, max_length=64)
    branch: int
    turn: int
    seat: str = Field(max_length=64)
    text: str = Field(sa_column=Column(Text, nullable=False))
    line_map: str = Field(sa_column=Column(Text, nullable=False))
    message_id: str = Field(max_length=998)
    version: int
    received_at: datetime


class ClockReminder(SQLModel, table=True):
    """A deadline reminder sent to one seat: at most one per (turn, seat, offset)."""

    __tablename__ = "clock_reminder"
    __table_args__ = (UniqueConstraint("game_id", "turn", "seat", "before_seconds"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", max_length=64)
    turn: int
    seat: str = Field(max_length=64)
    before_seconds: int  # the offset before the deadline it was sent for
    sent_at: datetime


class JoinRequest(SQLModel, table=True):
    """A JOIN waiting for CONFIRM from the address it came from (pbem.intake.joining): no seat
    is taken and no game mail goes to the address until it proves it reads its mail, as SET
    ADDRESS waits (pbem.intake.own_address). The password chosen is kept as its hash, the
    code as its SHA-256; one request an address and game."""

    __tablename__ = "join_request"
    __table_args__ = (UniqueConstraint("game_id", "address"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True, max_length=64)
    seat: str = Field(max_length=64)
    address: str = Field(max_length=320)
    password_hash: str = Field(max_length=256)
    code: str = Field(max_length=64)
    asked_at: datetime
    misses: int = 0  # wrong codes sent from the address since: a few void it (pbem.intake.codes)


class MailStop(SQLModel, table=True):
    """An address that asked for no more mail (STOP, pbem.intake.stop): nothing is sent to it."""

    __tablename__ = "mail_stop"
    address: str = Field(primary_key=True, max_length=320)
    stopped_at: datetime


class SiteKey(SQLModel, table=True):
    """A secret of the site's, made at its first use: the key of each address's STOP token
    (pbem.games.stops), the same for every process on the database."""

    __tablename__ = "site_key"
    name: str = Field(primary_key=True, max_length=32)
    value: str = Field(max_length=128)
