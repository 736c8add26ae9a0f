"""The statuses and kinds are enums of exactly the strings the databases hold (no migration
came with them): what is stored reads back as a member, and nothing else can be written."""

from __future__ import annotations

import re
from datetime import datetime
from enum import StrEnum
from pathlib import Path

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import StatementError
from sqlmodel import select

from pbem.store import (
    Game,
    GameStatus,
    InboundMessage,
    MailStatus,
    Outbox,
    OutboxKind,
    Seat,
    SeatStatus,
    transaction,
)

MIGRATIONS = Path(__file__).parents[2] / "pbem" / "migrations" / "versions"

# The values stored before the enums: a value renamed or dropped here needs a migration of
# the rows that hold it.
STORED = {
    GameStatus: {"open", "running", "paused", "ended"},
    SeatStatus: {"active", "abandoned", "disorder", "ejected", "bot"},
    # "duplicate" is a receipt's alone, never stored.
    MailStatus: {"received", "accepted", "answered", "ignored", "quarantined", "duplicate"},
    OutboxKind: {
        "reply", "report", "game-end", "clock", "referee", "announcement", "bounce", "press",
    },
}  # fmt: skip
COLUMNS: dict[type[StrEnum], tuple[str, str]] = {
    GameStatus: ("game", "status"),
    SeatStatus: ("seat", "status"),
    MailStatus: ("inbound_message", "status"),
    OutboxKind: ("outbox", "kind"),
}


@pytest.mark.parametrize("enum", list(STORED), ids=lambda enum: enum.__name__)
def test_the_members_are_the_strings_stored(enum: type[StrEnum]) -> None:
    assert {member.value for member in enum} == STORED[enum]


def test_the_defaults_are_members() -> None:
    assert Game.model_fields["status"].default is GameStatus.RUNNING
    assert Seat.model_fields["status"].default is SeatStatus.ACTIVE
    assert InboundMessage.model_fields["status"].default is MailStatus.RECEIVED


def test_the_values_the_migrations_write_are_members() -> None:
    """The migrations' SQL names statuses and kinds by their strings (0006: the replies'
    priority); each is a member of its column's enum."""
    found = 0
    for script in MIGRATIONS.glob("*.py"):
        for table, column, enum in _table_columns():
            pattern = rf"{table}\b[^;\"]*\b{column}\s*(?:=|IN)\s*\(?'([^']*)'"
            for value in re.findall(pattern, script.read_text(), re.IGNORECASE):
                assert value in STORED[enum], (script.name, table, column, value)
                found += 1
    assert found >= 1  # 0006 sets the replies' priority by kind = 'reply'


def _table_columns() -> list[tuple[str, str, type[StrEnum]]]:
    return [(table, column, enum) for enum, (table, column) in COLUMNS.items()]


def _insert_rows(db: Engine, now: datetime) -> None:
    """One row of every stored value, written as the strings themselves (as before)."""
    with db.begin() as connection:
        for number, status in enumerate(sorted(STORED[GameStatus])):
            connection.execute(
                text(
                    "INSERT INTO game (id, ruleset, options, seed, seed_salt, status, "
                    "deadline_policy, early_processing, address_check, signup_seats, turn, "
                    "result, created_at, announce_referee_actions, timezone, grace_seconds, "
                    "reminders, nmr, abandon_after, wait_for_absent, resign, press, grey_press, "
                    "press_to_referees, press_after_end, pictures, report_data, chart_every) "
                    "VALUES (:id, 'counting', '{}', 1, '', :status, 'interval:48h', true, "
                    "false, 0, 0, '', :now, true, 'UTC', 0, '', 'no-orders', 0, false, "
                    "'replace', true, false, false, false, true, true, 10)"
                ),
                {"id": f"g{number}", "status": status, "now": now},
            )
        for position, status in enumerate(sorted(STORED[SeatStatus])):
            connection.execute(
                text(
                    "INSERT INTO seat (game_id, name, position, address, password_hash, "
                    "password_check, status, missed, pending_address, pending_code, "
                    "press_muted, pictures, report_data) VALUES ('g0', :name, :position, "
                    "'', '', '', :status, 0, '', '', '', true, true)"
                ),
                {"name": status, "position": position, "status": status},
            )
        for status in sorted(STORED[MailStatus] - {MailStatus.DUPLICATE}):
            connection.execute(
                text(
                    "INSERT INTO inbound_message (message_id, raw, sender, subject, "
                    "received_at, status, outcome, attempts) VALUES (:id, :raw, '', '', :now, "
                    ":status, '', 1)"
                ),
                {"id": status, "raw": b"raw", "now": now, "status": status},
            )
        for kind in sorted(STORED[OutboxKind]):
            connection.execute(
                text(
                    "INSERT INTO outbox (message_id, kind, recipient, subject, raw, created_at, "
                    "attempts, last_error, priority, topic) VALUES (:id, :kind, 'a@x', '', "
                    ":raw, :now, 0, '', 1, '')"
                ),
                {"id": kind, "kind": kind, "raw": b"raw", "now": now},
            )


def test_every_stored_value_reads_back_as_a_member(db: Engine, now: datetime) -> None:
    _insert_rows(db, now)
    with transaction(db) as session:
        read = {
            GameStatus: [row.status for row in session.exec(select(Game))],
            SeatStatus: [row.status for row in session.exec(select(Seat))],
            MailStatus: [row.status for row in session.exec(select(InboundMessage))],
            OutboxKind: [row.kind for row in session.exec(select(Outbox))],
        }
    for enum, values in read.items():
        assert all(type(value) is enum for value in values), (enum, values)
        assert {value.value for value in values} == STORED[enum] - {"duplicate"}


def test_a_member_is_written_as_its_string(db: Engine, now: datetime) -> None:
    _insert_rows(db, now)
    with transaction(db) as session:
        game = session.get(Game, "g0")
        assert game is not None
        game.status = GameStatus.PAUSED
        session.add(game)
    with db.connect() as connection:
        stored = connection.execute(text("SELECT status FROM game WHERE id = 'g0'")).scalar()
    assert type(stored) is str
    assert stored == "paused"


def test_a_value_that_is_no_member_is_refused(db: Engine, now: datetime) -> None:
    _insert_rows(db, now)
    refused = pytest.raises(StatementError, match="'sleeping' is not a GameStatus")
    with refused, transaction(db) as session:
        game = session.get(Game, "g0")
        assert game is not None
        game.status = "sleeping"  # type: ignore[assignment]
        session.add(game)
    with db.connect() as connection:
        stored = connection.execute(text("SELECT status FROM game WHERE id = 'g0'")).scalar()
    assert stored == "ended"  # g0: the first of the sorted statuses, unchanged


def test_a_query_compares_with_a_member(db: Engine, now: datetime) -> None:
    _insert_rows(db, now)
    with transaction(db) as session:
        query = select(Game.id).where(Game.status == GameStatus.OPEN)
        assert list(session.exec(query)) == ["g1"]  # g0 to g3: ended, open, paused, running


# A status or an outbox kind written as a string in pbem/: compared, assigned, finished with
# (MailContext.finish), or a Letter's kind. Each is the enum's member instead. The migrations'
# SQL keeps the strings of its time (test_the_values_the_migrations_write_are_members).
LITERALS = {
    "compared": r"\.status\)?\s*(?:==|!=)\s*[\"']",
    "compared with several": r"\bstatus\s+(?:not\s+)?in\s*[(\[{]\s*[\"']",
    "assigned": r"(?:\.status\s*=|\bstatus=)\s*[\"']",
    "finished with": r"\.finish\(\s*[\"']",
    "an outbox kind compared": r"\b(?:letter|row|Outbox)\.kind\)?\s*(?:==|!=)\s*[\"']",
    "a Letter's kind": r"(?:\bLetter\(\s*|\bkind\s*=\s*)[\"']",
}


def literals_in(source: str) -> list[str]:
    found = []
    for what, pattern in LITERALS.items():
        for match in re.finditer(pattern, source):
            line = source.count("\n", 0, match.start()) + 1
            found.append(f"line {line}: {what}")
    return found


def test_no_status_or_kind_is_a_string_literal_in_pbem() -> None:
    package = Path(__file__).parents[2] / "pbem"
    found = [
        f"{path.relative_to(package.parent)} {where}"
        for path in sorted(package.rglob("*.py"))
        if "migrations" not in path.parts
        for where in literals_in(path.read_text())
    ]
    assert found == []


@pytest.mark.parametrize(
    "source",
    [
        'if game.status == "running":',
        'if ctx.game.status != "paused":',
        'if game.status not in ("running", "paused"):',
        'seat.address, seat.status = "", "ejected"',
        'Game(id="g", status="open")',
        'context.finish("answered", "HELP")',
        'col(Outbox.kind) == "reply"',
        'Letter(\n    "report",\n    seat.address,',
        'ctx.send(address, "subject", body, kind="announcement")',
    ],
)
def test_the_check_finds_the_literals_of_before(source: str) -> None:
    assert literals_in(source)


def test_the_check_leaves_other_strings_alone() -> None:
    assert not literals_in('shape = draw.ellipse if troops.kind == "army" else draw.rectangle')
    assert not literals_in('what="order reference" if kind == "orders" else "rules"')
    assert not literals_in("if game.status == GameStatus.RUNNING:")
