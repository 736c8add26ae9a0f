"""A referee who sent STOP (the fresh-eyes finding 7): their mail commands were carried out
with no result mailed (every seat told of a new deadline, the referee nothing). They are not
carried out now: the mail is set aside, nothing is mailed, and the command line still serves;
and the other referees are told when a co-referee stops."""

from __future__ import annotations

from datetime import datetime

import pytest
from sqlmodel import select

from pbem.cli import main
from pbem.games.lifecycle import SeatSpec
from pbem.games.service import Service
from pbem.games.stops import stop_token
from pbem.intake.intake import receive, replay
from pbem.passwords import hash_password
from pbem.store import MailStatus, Referee, transaction
from tests.support.games import body, game_row, new_game, outbox, quarantined
from tests.support.mails import mail

DEPUTY = "deputy@example.org"
REFEREE = "ref@example.org"


def _game_with_two_referees(service: Service, now: datetime) -> None:
    new_game(service, now, referees=[REFEREE, DEPUTY])
    with transaction(service.db) as session:
        for referee in session.exec(select(Referee)):
            referee.password_hash = hash_password(f"pw-{referee.address[:3]}", cost=4)


def _stop(service: Service, now: datetime, address: str) -> None:
    with service.store.transaction() as work:
        token = stop_token(work, address)
    raw = mail(f"STOP {token}", sender=address, subject="stop", message_id="stop@x")
    assert receive(service, raw, now=now).status == MailStatus.ANSWERED


def test_a_stopped_referees_mail_commands_are_not_carried_out(
    service: Service, now: datetime
) -> None:
    _game_with_two_referees(service, now)
    _stop(service, now, DEPUTY)
    before = len(outbox(service))
    raw = mail(
        "GAME g1 REFEREE pw-dep\nPAUSE BECAUSE I am away",
        sender=DEPUTY,
        subject="pause",
        message_id="pause@x",
    )
    receipt = receive(service, raw, now=now)
    assert receipt.status == MailStatus.QUARANTINED and receipt.replies == []
    assert game_row(service).paused_at is None  # nothing done
    assert len(outbox(service)) == before  # nobody mailed
    [entry] = quarantined(service)
    assert entry.reason == "stopped"
    # Once the referee takes the STOP back, the mail set aside is replayed and carried out;
    # the other referee is told that the deputy gets mail again.
    with service.store.transaction() as work:
        token = stop_token(work, DEPUTY)
    raw = mail(f"UNSTOP {token}", sender=DEPUTY, subject="back", message_id="back@x")
    assert receive(service, raw, now=now).replies[0].recipient == DEPUTY
    told = [row.subject for row in outbox(service) if row.recipient == REFEREE]
    assert told[-1] == f"[g1] referee {DEPUTY} gets mail again"
    assert replay(service, entry.id, now=now).status == MailStatus.ANSWERED
    assert game_row(service).paused_at is not None


def test_the_other_referees_are_told_when_a_co_referee_stops(
    service: Service, now: datetime
) -> None:
    _game_with_two_referees(service, now)
    _stop(service, now, DEPUTY)
    told = [row for row in outbox(service) if row.kind == "referee"]
    assert [(row.recipient, row.subject) for row in told] == [
        (REFEREE, f"[g1] referee {DEPUTY} asked for no more mail")
    ]
    text = " ".join(body(told[0]).split())
    assert "Referee mail from it is not carried out" in text


def test_quarantine_list_does_not_count_a_stopped_referees_mail_as_answered(
    service: Service, now: datetime, capsys: pytest.CaptureFixture[str]
) -> None:
    # Set aside for a STOP, the mail got no answer: the summary must not say it was answered.
    _game_with_two_referees(service, now)
    _stop(service, now, DEPUTY)
    raw = mail("GAME g1 REFEREE pw-dep\nPAUSE BECAUSE away", sender=DEPUTY, message_id="p@x")
    assert receive(service, raw, now=now).status == MailStatus.QUARANTINED
    url = service.db.url.render_as_string(hide_password=False)
    assert main(["--db", url, "quarantine", "list"]) == 0
    summary = capsys.readouterr().out.splitlines()[-1]
    assert "0 were refused and answered" in summary, summary
    assert "1 set aside unanswered (stopped: the sender sent STOP)" in summary, summary


def test_the_referees_stop_notice_fits_72_columns_with_long_names(
    service: Service, now: datetime
) -> None:
    # A 12-character seat, a long game id and a long address: the commands it shows are
    # broken where a referee can still use them (a REASON line, a shell's backslash).
    game, seat = "summer-league-2026-division-a", "twelvechars1"
    address = "a.very.long.address.for.testing@mail.example.org"
    seats = (SeatSpec(seat, address, "pw-1"), SeatSpec("bob", "bob@example.org", "pw-2"))
    new_game(service, now, game=game, seats=seats, referees=[REFEREE])
    _stop(service, now, address)
    [notice] = [row for row in outbox(service) if row.recipient == REFEREE]
    text = body(notice)
    assert max(len(line) for line in text.splitlines()) <= 72, text
    assert f"    REASON {seat} asked for no more mail\n" in text, text
    assert f"    REPLACE {seat} <their address> 48h\n" in text, text
    assert f"    pbem referee {game} \\\n        replace {seat} <their address>" in text, text
    assert f"    pbem unstop {address} \\\n        --reason" in text, text
