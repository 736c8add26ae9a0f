"""A referee mail of several clock commands gives each seat one mail, which says where things
stand when it is sent, with every command's reason (issue 43's fresh-eyes test: RESUME and
DEADLINE in one mail gave each seat two mails, the first already stale). A new player's
welcome names the deadline as it is after the whole mail."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlmodel import col, select

from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.store import Outbox, transaction
from tests.referee.support import referee_game, referee_mail, unprocessed_of
from tests.support.games import body, outbox

HOUR = timedelta(hours=1)


def _clock_mail_to(service: Service, address: str, after: int) -> list[Outbox]:
    """The clock notices to `address` queued after outbox row `after`, sent or not (none was
    dropped: a mail taken back was never queued)."""
    with transaction(service.db) as session:
        query = select(Outbox).where(Outbox.id > after, Outbox.recipient == address)
        return list(session.exec(query.order_by(col(Outbox.id))))


def _last_id(service: Service) -> int:
    return outbox(service)[-1].id or 0


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_resume_and_deadline_in_one_mail_are_one_mail_to_each_seat(
    service: Service, now: datetime
) -> None:
    referee_game(service, now)
    receive(service, referee_mail("PAUSE BECAUSE the referee is away"), now=now + HOUR)
    before = _last_id(service)
    commands = (
        "RESUME BECAUSE the referee is back\nDEADLINE set 2026-03-10T12:00 BECAUSE holidays\n"
    )
    receive(service, referee_mail(commands), now=now + 5 * HOUR)
    for seat in ("alice", "bob"):
        [mail] = _clock_mail_to(service, f"{seat}@example.org", before)
        assert mail.subject == "[g1] game resumed; turn 1: new deadline"
        text = body(mail)
        assert text.startswith(
            "Game g1 was resumed at turn 1.\nReason: the referee is back\n\n"
            "The deadline of turn 1 in game g1 (Counting (a test ruleset)) has\nchanged.\n"
        )
        assert "Now:    2026-03-10 12:00 UTC\n\nReason: holidays\n" in text
        assert "2026-03-03" not in text.split("Now:")[1]  # no stale deadline after it


def test_one_reason_line_for_both_is_told_once_for_each(service: Service, now: datetime) -> None:
    referee_game(service, now)
    receive(service, referee_mail("PAUSE BECAUSE a test"), now=now + HOUR)
    before = _last_id(service)
    commands = "REASON the server moved\nRESUME\nDEADLINE extend 2d\n"
    receive(service, referee_mail(commands), now=now + 5 * HOUR)
    [mail] = _clock_mail_to(service, "alice@example.org", before)
    assert _flat(body(mail)).count("Reason: the server moved") == 2


def test_a_refused_command_after_a_resume_leaves_the_resume_as_it_was(
    service: Service, now: datetime
) -> None:
    referee_game(service, now)
    receive(service, referee_mail("PAUSE BECAUSE a test"), now=now + HOUR)
    before = _last_id(service)
    commands = "RESUME BECAUSE back\nDEADLINE set someday BECAUSE holidays\n"
    receipt = receive(service, referee_mail(commands), now=now + 5 * HOUR)
    assert unprocessed_of(body(receipt.replies[0]))  # the DEADLINE was refused
    [mail] = _clock_mail_to(service, "alice@example.org", before)
    assert mail.subject == "[g1] game resumed"
    assert "The deadline is now:\n\n  2026-03-03 16:00 UTC\n" in body(mail)


def test_a_new_players_welcome_names_the_deadline_after_the_whole_mail(
    service: Service, now: datetime
) -> None:
    referee_game(service, now)
    before = _last_id(service)
    commands = (
        "REPLACE bob carol@example.org BECAUSE bob left\n"
        "DEADLINE set 2026-03-10T12:00 BECAUSE holidays\n"
    )
    receive(service, referee_mail(commands), now=now + HOUR)
    [welcome] = _clock_mail_to(service, "carol@example.org", before)  # no deadline notice
    assert welcome.subject == "[g1] you now play bob"
    assert "The deadline of turn 1 is 2026-03-10 12:00 UTC.\n" in body(welcome)
    [notice] = _clock_mail_to(service, "alice@example.org", before)
    assert "Reason: holidays" in body(notice)
