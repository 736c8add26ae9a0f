"""Intake: every mail recorded once, orders checked and stored, a check reply to the seat's
registered address, failures quarantined with a reply where one is safe."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from datetime import datetime
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from pbem import passwords
from pbem.config import LimitSettings, SecuritySettings
from pbem.games.service import Service
from pbem.intake import finding, intake
from pbem.intake.context import MailContext
from pbem.intake.finding import line_count
from pbem.intake.intake import look_ahead, receive
from pbem.mail import envelope
from pbem.mail.reading import read_mail
from pbem.passwords import verify_password
from pbem.store import InboundMessage, Outbox, Seat, loads, transaction
from pbem.store.games import lock_with_turn
from pbem.store.outbox_rows import RATE_LIMITED
from pbem.store.work import work_of
from tests.support.games import body, inbound, new_game, orders, outbox, quarantined
from tests.support.mails import mail, order_mail

SIGNATURE = "-- \nPBEM Moderator - send HELP for the mail commands.\n"
FOOTER = (
    "Deadline: 2026-03-03 12:00 UTC\n"
    "Still to send orders: bob\n\n"
    "You may send new orders until the turn is resolved: at the deadline, or\n"
    "sooner, as soon as every seat's orders are in (a seat away or without a\n"
    "player is not waited for). The last mail counts, whole.\n\n" + SIGNATURE
)


def test_orders_are_checked_stored_and_answered(service: Service, now: datetime) -> None:
    new_game(service, now)
    raw = order_mail("g1", "alice", "pw-alice", "ADD 2\nATTACK bob\nADD 5\nA 1\nFLY\n")
    receipt = receive(service, raw, now=now)
    assert receipt.status == "accepted"
    assert [row.recipient for row in receipt.replies] == ["alice@example.org"]
    assert body(receipt.replies[0]) == (
        "Orders for alice in game g1, turn 1: 2 accepted, 3 rejected.\n\n"
        "Accepted (2):\n"
        "  line 2: ADD 2\n    read as: add 2 points\n"
        "  line 3: ATTACK bob\n    read as: attack seat bob\n\n"
        "Rejected (3):\n"
        "  line 4: cannot add 5 points\n"
        "    rule: Rule 2: a seat adds 1, 2 or 3 points a turn.\n"
        "  line 5: A is short for more than one order\n"
        "    it could mean: ADD | ATTACK\n"
        "  line 6: unknown order FLY\n"
        "    for example: ADD 2\n\n" + FOOTER
    )
    [stored] = orders(service)
    assert (stored.seat, stored.turn, stored.version) == ("alice", 1, 1)
    assert stored.text == "ADD 2\nATTACK bob\nADD 5\nA 1\nFLY"
    assert loads(stored.line_map) == [2, 3, 4, 5, 6]
    [message] = inbound(service)
    assert (message.status, message.game_id, message.seat) == ("accepted", "g1", "alice")
    assert message.raw == raw.replace(b"pw-alice", b"********")  # kept, its password masked


def test_an_order_mail_reads_its_game_and_turn_in_one_statement_under_the_games_lock(
    service: Service, now: datetime
) -> None:
    """A round trip fewer a mail on PostgreSQL: the game, locked against a turn resolved
    meanwhile, and its pending turn come together."""
    new_game(service, now)
    reads: list[str] = []

    def watch(_conn: object, _cursor: object, statement: str, *_: object) -> None:
        if statement.startswith("SELECT") and ("FROM game" in statement or " turn" in statement):
            reads.append(" ".join(statement.split()))

    event.listen(service.db, "before_cursor_execute", watch)
    try:
        receipt = receive(service, order_mail("g1", "alice", "pw-alice", "ADD 2\n"), now=now)
    finally:
        event.remove(service.db, "before_cursor_execute", watch)
    assert receipt.outcome == "orders stored for alice, turn 1: 1 accepted, 0 rejected"
    [read] = reads
    assert (
        "FROM game LEFT OUTER JOIN turn ON turn.game_id = game.id AND turn.number = game.turn"
        in read
    )
    if service.db.dialect.name == "postgresql":
        assert read.endswith("FOR UPDATE OF game")


def test_a_later_mail_replaces_the_earlier_orders_whole(service: Service, now: datetime) -> None:
    new_game(service, now)
    receive(service, order_mail("g1", "alice", "pw-alice", "ADD 1\nATTACK bob\n"), now=now)
    second = order_mail("g1", "alice", "pw-alice", "ADD 2\n", turn=1, message_id="m2@x")
    receipt = receive(service, second, now=now)
    assert body(receipt.replies[0]) == (
        "Orders for alice in game g1, turn 1: all accepted.\n"
        "These orders replace the orders you sent earlier for this turn (mail 2\nthis turn).\n\n"
        "Accepted (1):\n  line 3: ADD 2\n    read as: add 2 points\n\n" + FOOTER
    )
    [stored] = orders(service)
    assert (stored.text, stored.version, stored.message_id) == ("ADD 2", 2, "m2@x")


def test_quoted_lines_signature_and_text_before_game_are_ignored(
    service: Service, now: datetime
) -> None:
    new_game(service, now)
    text = (
        "Here are my orders.\n"
        "GAME g1 SEAT alice PASSWORD pw-alice\n"
        "ADD 2  # two points\n"
        "> ADD 3\n"
        "-- \n"
        "Alice\n"
    )
    receipt = receive(service, mail(text), now=now)
    assert "Accepted (1):\n  line 3: ADD 2\n    read as: add 2 points\n" in body(receipt.replies[0])
    assert (
        "Ignored (3):\n"
        "  line 1: text before the GAME line (1 line)\n"
        "  line 4: quoted text (1 line)\n"
        "  line 6: signature (1 line)\n"
    ) in body(receipt.replies[0])
    assert orders(service)[0].text == "ADD 2"


def test_a_wrong_password_is_refused_to_the_sender_and_the_seat_told_someone_tried(
    service: Service, now: datetime
) -> None:
    new_game(service, now)
    raw = order_mail("g1", "alice", "guess", "ADD 3\n", sender="eve@evil.example")
    receipt = receive(service, raw, now=now)
    assert receipt.status == "quarantined"
    [notice] = [row for row in receipt.replies if row.recipient == "alice@example.org"]
    [reply] = [row for row in receipt.replies if row.recipient == "eve@evil.example"]
    assert body(reply) == (
        'Your mail "orders" was not processed:\n'
        "wrong password for seat alice in game g1\n\n" + SIGNATURE
    )
    assert notice.subject == "[g1] a mail for alice was refused"
    assert body(notice).startswith(
        "A mail for alice in game g1 came with a wrong password from an address\n"
        "other than yours. It was refused and nothing in it was done; only its\n"
        "sender was answered.\n"
    )
    assert "guess" not in body(reply) + body(notice)
    assert orders(service) == []
    [entry] = quarantined(service)
    assert entry.reason == "password"


def test_only_the_registered_address_when_the_game_says_so(service: Service, now: datetime) -> None:
    new_game(service, now, address_check=True)
    raw = order_mail("g1", "alice", "pw-alice", "ADD 3\n", sender="alice@elsewhere.example")
    receipt = receive(service, raw, now=now)
    assert receipt.status == "quarantined"
    assert sorted(row.recipient for row in receipt.replies) == [
        "alice@elsewhere.example",  # the refusal
        "alice@example.org",  # the seat told that its password came from elsewhere
    ]
    assert quarantined(service)[0].reason == "address"


def test_unknown_game_and_seat_are_answered_to_the_sender(service: Service, now: datetime) -> None:
    new_game(service, now)
    game = receive(service, order_mail("nosuch", "alice", "pw", "ADD 1\n"), now=now)
    seat = receive(service, order_mail("g1", "carol", "pw", "ADD 1\n", message_id="m2@x"), now=now)
    assert body(game.replies[0]).startswith(
        'Your mail "orders" was not processed:\nthere is no game nosuch\n'
    )
    assert "game g1 has no seat carol\nThe seats are: alice, bob\n" in body(seat.replies[0])
    assert [q.reason for q in quarantined(service)] == ["unknown-game", "unknown-seat"]


def test_orders_for_another_turn_are_stale(service: Service, now: datetime) -> None:
    new_game(service, now)
    receipt = receive(service, order_mail("g1", "bob", "pw-bob", "ADD 1\n", turn=5), now=now)
    assert receipt.status == "quarantined"
    assert "these orders are for turn 5, but the pending turn is 1" in body(receipt.replies[0])
    assert receipt.replies[0].recipient == "bob@example.org"
    assert orders(service) == []


def test_a_message_id_seen_before_is_not_applied_again(service: Service, now: datetime) -> None:
    new_game(service, now)
    raw = order_mail("g1", "alice", "pw-alice", "ADD 1\n")
    assert receive(service, raw, now=now).status == "accepted"
    again = receive(service, raw, now=now)
    assert again.status == "duplicate"
    assert again.replies == []
    assert len(inbound(service)) == 1
    assert len(outbox(service, "reply")) == 1


def test_a_mail_recorded_after_it_was_looked_at_is_still_not_applied_again(
    service: Service, now: datetime
) -> None:
    """The look-ahead found it unrecorded, then the same mail (twice in the inbox, or taken
    in by another daemon) was recorded: the Message-ID's unique index stops it at its record."""
    new_game(service, now)
    raw = order_mail("g1", "alice", "pw-alice", "ADD 1\n")
    [looked] = look_ahead(service, [raw])
    assert not looked.recorded
    assert receive(service, raw, now=now).status == "accepted"
    again = receive(service, raw, now=now, looked=looked)
    assert (again.status, again.outcome, again.replies) == ("duplicate", "already recorded", [])
    assert len(inbound(service)) == 1
    assert len(outbox(service, "reply")) == 1
    assert len(orders(service)) == 1


def test_an_order_mail_reads_the_seats_their_room_and_the_turns_orders_in_one_statement(
    service: Service, now: datetime
) -> None:
    """Two round trips fewer a mail: the seats come with their addresses' room for replies
    and the orders stored for the turn, which the second mail of a seat replaces."""
    new_game(service, now)
    reads: list[str] = []

    def watch(_conn: object, _cursor: object, statement: str, *_: object) -> None:
        if statement.startswith("SELECT") and (
            "FROM seat" in statement or "FROM order_set" in statement
        ):
            reads.append(" ".join(statement.split()))

    event.listen(service.db, "before_cursor_execute", watch)
    try:
        for number, text in enumerate(("ADD 2\n", "ADD 3\n")):
            raw = order_mail("g1", "alice", "pw-alice", text, message_id=f"o{number}@x")
            receive(service, raw, now=now)
        receive(service, order_mail("g1", "bob", "pw-bob", "ADD 1\n", message_id="b@x"), now=now)
    finally:
        event.remove(service.db, "before_cursor_execute", watch)
    # The look-ahead's read of the seats, then the mail's own; nothing else reads them.
    per_mail = [read for read in reads if "JOIN order_set" in read]
    assert len(per_mail) == 3 and len(reads) == 6, reads
    assert all("FROM seat LEFT OUTER JOIN order_set" in read for read in per_mail)
    assert [(row.seat, row.version, row.text) for row in orders(service)] == [
        ("alice", 2, "ADD 3"),
        ("bob", 1, "ADD 1"),
    ]
    assert "Still to send orders" not in body(outbox(service, "reply")[-1])


def test_auto_replies_and_bounces_are_recorded_never_answered(
    service: Service, now: datetime
) -> None:
    new_game(service, now)
    vacation = mail("I am away", message_id="v@x", headers={"Auto-Submitted": "auto-replied"})
    bounce = mail("undeliverable", sender="MAILER-DAEMON@example.org", message_id="b@x")
    ours = mail("loop", sender="moderator@pbem.localhost", message_id="o@x")
    for raw in (vacation, bounce, ours):
        assert receive(service, raw, now=now).status == "ignored"
    assert [m.status for m in inbound(service)] == ["ignored"] * 3
    assert outbox(service, "reply") == []


def test_replies_to_one_address_are_rate_limited(service: Service, now: datetime) -> None:
    settings = replace(service.settings, limits=LimitSettings(replies_per_sender=2))
    limited = Service(service.db, settings)
    for number in range(4):
        receive(limited, mail("HELP", message_id=f"h{number}@x"), now=now)
    assert len(_sent(limited)) == 2
    assert (
        inbound(limited)[3].outcome
        == "HELP; no reply to alice@example.org: reply rate limit reached"
    )
    # the replies held back are kept for the operator to see (pbem outbox list), never sent
    held = [row for row in outbox(limited, "reply") if row.dropped_at is not None]
    assert [row.last_error for row in held] == [RATE_LIMITED] * 2


def _sent(service: Service) -> list[Outbox]:
    """The replies queued to be sent (not those held back by the reply limit)."""
    return [row for row in outbox(service, "reply") if row.dropped_at is None]


def test_only_replies_count_towards_the_reply_limit(service: Service, now: datetime) -> None:
    """An address that had more reports than the limit (a player in many games) still gets
    its replies: the cheap count of every mail to it is only a first look."""
    settings = replace(service.settings, limits=LimitSettings(replies_per_sender=2))
    limited = Service(service.db, settings)
    new_game(limited, now)  # a start mail to alice (and to bob)
    new_game(limited, now, game="g2")  # another: alice has had two mails, no reply
    receive(limited, mail("HELP", message_id="h1@x"), now=now)
    receive(limited, mail("HELP", message_id="h2@x"), now=now)
    receive(limited, mail("HELP", message_id="h3@x"), now=now)
    assert len(_sent(limited)) == 2


def test_an_order_mail_reads_its_seats_room_for_replies_with_them(
    service: Service, now: datetime
) -> None:
    """A round trip fewer a mail: whether the seat's address is under the reply limit comes
    with the seats; past it (every mail counted), the replies alone are counted, as before."""
    limited = Service(service.db, replace(service.settings, limits=LimitSettings(3)))
    new_game(limited, now)  # a start mail to alice: one of her three
    counts: list[int] = []

    def watch(_conn: object, _cursor: object, statement: str, *_: object) -> None:
        counts[-1] += statement.startswith("SELECT count(")

    event.listen(service.db, "before_cursor_execute", watch)
    try:
        for number in range(4):
            counts.append(0)
            mail = order_mail(
                "g1", "alice", "pw-alice", f"ADD {1 + number % 3}\n", message_id=f"o{number}@x"
            )
            assert receive(limited, mail, now=now).status == "accepted"
    finally:
        event.remove(service.db, "before_cursor_execute", watch)
    # Two replies under the limit, told with the seats; from three mails on, replies_allowed
    # counts (every mail, then the replies: two, room for one more; then three, none).
    assert len(_sent(limited)) == 3
    assert counts == [0, 0, 2, 2]
    assert inbound(limited)[3].outcome.endswith(
        "no reply to alice@example.org: reply rate limit reached"
    )


def test_mail_queued_to_a_seat_in_the_same_transaction_is_counted_for_its_reply(
    service: Service, now: datetime
) -> None:
    """The room read with the seats holds only until mail is queued to the address."""
    limited = Service(service.db, replace(service.settings, limits=LimitSettings(2)))
    new_game(limited, now)  # a start mail to alice: one of her two
    raw = order_mail("g1", "alice", "pw-alice", "ADD 2\n")
    with transaction(service.db) as session:
        row = InboundMessage(message_id="m@x", raw=raw, sender="a@x", subject="", received_at=now)
        context = MailContext(work_of(session), limited.settings, row, read_mail(raw), now)
        context.read_seats("g1")
        context.reply_text("alice@example.org", "one")  # the second mail: the limit
        context.reply_text("Alice@Example.org", "two")  # counted: two mails, one reply
        context.reply_text("alice@example.org", "three")  # two replies: no more
    assert [body(reply) for reply in _sent(limited)] == ["one\n", "two\n"]
    assert row.outcome == "no reply to alice@example.org: reply rate limit reached"


def test_a_crash_in_handling_quarantines_the_mail_without_reply(
    service: Service, now: datetime
) -> None:
    new_game(service, now, ruleset="counting-broken")
    receipt = receive(service, order_mail("g1", "alice", "pw-alice", "EXPLODE\n"), now=now)
    assert receipt.status == "quarantined"
    assert receipt.replies == []
    [entry] = quarantined(service)
    assert entry.reason == "error"
    assert "RuntimeError: the test ruleset exploded" in entry.error
    assert orders(service) == []
    assert inbound(service)[0].raw.endswith(b"EXPLODE\n")


def test_html_only_mail_is_read_through_its_text(service: Service, now: datetime) -> None:
    new_game(service, now)
    html = "<html><body><p>GAME g1 SEAT alice PASSWORD pw-alice</p><p>ADD 2</p></body></html>"
    raw = (
        "From: alice@example.org\nTo: moderator@pbem.localhost\nSubject: html\n"
        "Message-ID: <html@x>\nMIME-Version: 1.0\nContent-Type: text/html; charset=utf-8\n\n"
        + html
        + "\n"
    ).encode()
    receipt = receive(service, raw, now=now)
    assert receipt.status == "accepted"
    assert orders(service)[0].text == "ADD 2"
    assert "Notes:\n  read the HTML part as text\n" in body(receipt.replies[0])


def test_a_mail_over_the_size_limit_gets_a_short_refusal(service: Service, now: datetime) -> None:
    new_game(service, now)
    raw = order_mail("g1", "alice", "pw-alice", "ADD 1\n" + "# padding\n" * 250_000)
    receipt = receive(service, raw, now=now)
    assert receipt.status == "quarantined"
    assert quarantined(service)[0].reason == "too-big"
    assert body(receipt.replies[0]).startswith(
        'Your mail "orders" was not processed:\nmail is 2.5 MB, over the 2.0 MB limit\n'
    )
    assert orders(service) == []


def test_a_mail_over_the_line_limit_is_refused_without_being_walked(
    service: Service, now: datetime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Walking a 100,000-line mail for its envelope takes seconds: a mail refused unread is
    never parsed, neither before its transaction (the password look) nor in it."""
    new_game(service, now)
    walked: list[int] = []
    real_parse = envelope.parse_envelope

    def counted(text: str) -> envelope.Envelope:
        walked.append(line_count(text))
        return real_parse(text)

    monkeypatch.setattr(intake, "parse_envelope", counted)
    monkeypatch.setattr(finding, "parse_envelope", counted)
    raw = order_mail("g1", "alice", "pw-alice", "ADD 1\n" * 6_000)
    receipt = receive(service, raw, now=now)
    assert (receipt.status, quarantined(service)[0].reason) == ("quarantined", "too-long")
    assert "the mail has 6,001 lines" in body(receipt.replies[0])
    assert walked == []
    later = order_mail("g1", "bob", "pw-bob", "ADD 1\n", sender="bob@example.org", message_id="m2")
    assert receive(service, later, now=now).status == "accepted"
    assert walked  # the watch is on the parse the intake uses


def test_a_seat_hash_of_an_older_cost_is_upgraded_when_its_password_is_used(
    service: Service, now: datetime
) -> None:
    new_game(service, now)  # hashed at the tests' cost, 4
    dearer = Service(service.db, replace(service.settings, security=SecuritySettings(5)))
    receive(dearer, order_mail("g1", "alice", "pw-alice", "ADD 2"), now=now)
    with transaction(service.db) as session:
        hashes = {seat.name: seat.password_hash for seat in session.exec(select(Seat))}
    assert hashes["alice"].startswith("scrypt$32$")  # used: made anew at cost 5
    assert hashes["bob"].startswith("scrypt$16$")  # not used yet
    assert verify_password("pw-alice", hashes["alice"])


def test_the_password_is_checked_before_the_mail_holds_the_database(
    service: Service, now: datetime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """scrypt takes about 50 ms at the production cost: while it runs, no transaction of the
    mail's is open, so the courier's sends and other writers are not held up by it."""
    new_game(service, now)
    busy: list[bool] = []
    real_scrypt = passwords._scrypt

    def watched(*args: Any) -> bytes:
        busy.append(_database_held(service))
        return real_scrypt(*args)

    monkeypatch.setattr(passwords, "_scrypt", watched)
    monkeypatch.setattr(passwords, "_VERIFIED", passwords.PasswordMemory())  # nothing verified yet
    raw = order_mail("g1", "alice", "pw-alice", "ADD 2\n")
    assert receive(service, raw, now=now).status == "accepted"
    assert busy == [False]  # once, outside; inside, the check was remembered


def _database_held(service: Service) -> bool:
    """Does a transaction hold the database: on SQLite, the write lock; on PostgreSQL, a
    session idle in a transaction?"""
    if service.db.dialect.name == "sqlite":
        path = service.db.url.database
        assert path is not None
        other = sqlite3.connect(path, timeout=0, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError:
            return True
        finally:
            other.close()
        return False
    with service.db.connect() as connection:
        query = (
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE state = 'idle in transaction' AND datname = current_database()"
        )
        return bool(connection.exec_driver_sql(query).scalar())


def test_a_constraint_other_than_the_message_id_quarantines_the_mail_not_drops_it(
    service: Service, now: datetime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The row is written at the mail's first flush, so the Message-ID's unique index speaks
    there, beside every other constraint: only a Message-ID found recorded is a duplicate."""
    new_game(service, now)

    def broken(context: Any) -> None:
        raise IntegrityError("INSERT INTO order_set ...", {}, Exception("a constraint"))

    monkeypatch.setattr(intake, "handle", broken)
    receipt = receive(service, order_mail("g1", "alice", "pw-alice", "ADD 1\n"), now=now)
    assert receipt.status == "quarantined"
    assert [row.status for row in inbound(service)] == ["quarantined"]
    assert [row.reason for row in quarantined(service)] == ["error"]


def test_a_mail_context_reads_the_seats_and_the_turns_orders_when_first_asked(
    service: Service, now: datetime
) -> None:
    """Whoever asks first reads them: the answer does not depend on authenticate having run
    before (the order of the calls)."""
    new_game(service, now)
    receive(service, order_mail("g1", "bob", "pw-bob", "ADD 1\n", message_id="b@x"), now=now)
    raw = order_mail("g1", "alice", "pw-alice", "ADD 2\n")
    with transaction(service.db) as session:
        row = InboundMessage(message_id="m@x", raw=raw, sender="a@x", subject="", received_at=now)
        context = MailContext(work_of(session), service.settings, row, read_mail(raw), now)
        game, context.turn = lock_with_turn(session, "g1") or (None, None)
        assert game is not None
        assert list(context.orders_of_turn("g1")) == ["bob"]
        assert [seat.name for seat in context.seats_of("g1")] == ["alice", "bob"]
