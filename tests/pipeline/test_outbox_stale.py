"""Stale notices in the outbox (pbem.games.stale): a reminder still unsent when a nearer one
is queued is superseded, one still unsent at its deadline is dropped by the drain, and mail
that players must always get (replies, reports, game-end) refuses an expiry or a topic. The
mail goes to the maildir outbox; the rows are real."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from pbem.games.outbox import Letter, drain, queue
from pbem.games.service import Service
from pbem.mail.maildir import MaildirSender
from pbem.store import transaction
from pbem.store.work import work_of
from tests.clock.support import DEADLINE, HOUR, clock_game, orders, run
from tests.support.games import outbox


def clock_rows(service: Service) -> list[tuple[str, bool, str]]:
    """(subject, sent, last error) of every clock mail, in order."""
    return [
        (row.subject, row.sent_at is not None, row.last_error) for row in outbox(service, "clock")
    ]


def test_a_nearer_reminder_supersedes_an_unsent_earlier_one(service: Service) -> None:
    clock_game(service, reminders="24h,2h")
    run(service, DEADLINE - 24 * HOUR)  # queued; the SMTP server is away: not sent
    run(service, DEADLINE - 2 * HOUR)
    alice_1d, bob_1d, alice_2h, bob_2h = outbox(service, "clock")
    assert (alice_1d.recipient, alice_2h.recipient) == ("alice@example.org",) * 2
    assert alice_1d.last_error == f"superseded by a newer notice {alice_2h.message_id}"
    assert bob_1d.last_error == f"superseded by a newer notice {bob_2h.message_id}"
    assert [row.dropped_at for row in (alice_1d, bob_1d, alice_2h, bob_2h)] == [
        DEADLINE - 2 * HOUR, DEADLINE - 2 * HOUR, None, None
    ]  # fmt: skip


def test_a_reminder_unsent_at_its_deadline_is_dropped_by_the_drain(
    service: Service, tmp_path: Path
) -> None:
    clock_game(service, reminders="2h", grace="1h")  # the turn resolves an hour after it
    run(service, DEADLINE - 2 * HOUR)
    report = drain(service, MaildirSender(tmp_path), now=DEADLINE + HOUR / 2)
    assert (report.sent, report.dropped) == (2, 2)  # the start mails; the reminders
    stale = "stale: its moment passed at 2026-03-03 12:00 UTC"
    assert clock_rows(service) == [("[g1] turn 1: orders due in 2h", False, stale)] * 2


def test_resolving_the_turn_drops_its_unsent_reminders_and_reports_go(
    service: Service, tmp_path: Path
) -> None:
    clock_game(service, reminders="2h")
    run(service, DEADLINE - 2 * HOUR)
    orders(service, "alice", "ADD 1", DEADLINE - HOUR)
    orders(service, "bob", "ADD 1", DEADLINE - HOUR)
    [turn] = run(service, DEADLINE - HOUR).turns  # every order in: resolved early
    report = drain(service, MaildirSender(tmp_path), now=DEADLINE - HOUR)
    assert (turn.turn, report.sent, report.dropped) == (1, 6, 0)  # start, replies, reports
    stale = "stale: turn 1 was resolved"
    assert clock_rows(service) == [("[g1] turn 1: orders due in 2h", False, stale)] * 2
    assert all(row.sent_at is not None for row in outbox(service, "report"))


@pytest.mark.parametrize("kind", ["reply", "report", "game-end"])
def test_mail_for_players_is_never_droppable(service: Service, now: datetime, kind: str) -> None:
    letter = Letter(kind, "a@example.org", "s", "b", "<x@y>", expires_at=now)
    with transaction(service.db) as session, pytest.raises(ValueError, match="never dropped"):
        queue(work_of(session), service.settings, letter, now=now)
    topical = Letter(kind, "a@example.org", "s", "b", "<x@y>", topic="t")
    with transaction(service.db) as session, pytest.raises(ValueError, match="never dropped"):
        queue(work_of(session), service.settings, topical, now=now)


def test_a_notice_queued_earlier_in_the_same_transaction_is_superseded_too(
    service: Service, now: datetime
) -> None:
    """Queued rows are written with the rest of the transaction, not one by one: the
    supersession must still find the notice queued just before it."""
    older = Letter("clock", "a@example.org", "in 24h", "b", "<old@y>", topic="reminder g1 a")
    newer = Letter("clock", "a@example.org", "in 2h", "b", "<new@y>", topic="reminder g1 a")
    with service.store.transaction() as work:
        queue(work, service.settings, older, now=now)
        queue(work, service.settings, newer, now=now)
    assert clock_rows(service) == [
        ("in 24h", False, "superseded by a newer notice <new@y>"),
        ("in 2h", False, ""),
    ]
