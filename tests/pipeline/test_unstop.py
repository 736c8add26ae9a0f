"""UNSTOP's gaps (the fresh-eyes findings 5, 6 and 10): a stopped address that lost its code
gets its mail back through the operator (`pbem unstop`, audited); the answer to UNSTOP says
what changed meanwhile (a seat given to another player); an UNSTOP that changes nothing is
answered only with the address's code, so that a forged From mails no stranger; STOP and
UNSTOP are in the game's audit log, and `pbem game show` shows a stopped seat."""

from __future__ import annotations

from datetime import datetime
from itertools import count

import pytest
from sqlmodel import col, select

from pbem.cli import main
from pbem.games.service import Service
from pbem.games.stops import stop_token
from pbem.intake.intake import Receipt, receive
from pbem.store import AuditLog, MailStatus, MailStop, transaction
from tests.support.games import body, new_game, outbox
from tests.support.mails import mail

ALICE = "alice@example.org"
REFEREE = "ref@example.org"
_IDS = count(1)


def _send(service: Service, now: datetime, text: str, sender: str = ALICE) -> Receipt:
    raw = mail(text, sender=sender, subject="hello", message_id=f"u{next(_IDS)}@x")
    return receive(service, raw, now=now)


def _token(service: Service, address: str) -> str:
    with service.store.transaction() as work:
        return stop_token(work, address)


def _stopped(service: Service) -> list[str]:
    with transaction(service.db) as session:
        return sorted(row.address for row in session.exec(select(MailStop)))


def _audit(service: Service, *actions: str) -> list[tuple[str, str, str | None, str]]:
    with transaction(service.db) as session:
        query = select(AuditLog).where(col(AuditLog.action).in_(actions))
        rows = session.exec(query.order_by(col(AuditLog.id)))
        return [(row.actor, row.action, row.game_id, row.detail) for row in rows]


def _cli(service: Service, now: datetime, *argv: str) -> int:
    url = service.db.url.render_as_string(hide_password=False)
    return main(["--db", url, "--now", now.isoformat(), *argv])


def test_unstop_that_changes_nothing_is_answered_only_with_the_addresss_code(
    service: Service, now: datetime
) -> None:
    """Finding 6: a forged UNSTOP from an address that never sent STOP made us mail it, each
    time. Without that address's own code it is not answered; with it (only mail to that
    address carries it) the reader is told there was nothing to start again."""
    victim = "victim3@other.example"
    for text in ("UNSTOP", "UNSTOP ABCDEFGH12345678", f"UNSTOP {_token(service, ALICE)}"):
        receipt = _send(service, now, text, victim)
        assert receipt.replies == [] and receipt.status == MailStatus.IGNORED, text
    assert outbox(service) == []
    receipt = _send(service, now, f"UNSTOP {_token(service, victim)}", victim)
    assert [row.recipient for row in receipt.replies] == [victim]
    assert "was not stopped" in body(receipt.replies[0])


def test_the_unstop_answer_names_a_seat_given_away_while_stopped(
    service: Service, now: datetime, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding 5: carol's seat was REPLACEd while she was stopped (its notice dropped); her
    UNSTOP answer said only that her mail comes again."""
    new_game(service, now, referees=(REFEREE,))
    token = _token(service, ALICE)
    _send(service, now, f"STOP {token}")
    reason = "alice asked for no more mail"
    replace = ("referee", "g1", "replace", "alice", "carol@example.org", "48h", "--reason", reason)
    assert _cli(service, now, *replace) == 0
    capsys.readouterr()
    receipt = _send(service, now, f"UNSTOP {token}")
    text = " ".join(body(receipt.replies[0]).split())
    assert "Seat alice in game g1 is no longer yours" in text, text
    assert "Your seats" not in text
    assert "is not sent now" in text  # what was dropped stays dropped
    assert "REPORT" not in text, text  # no seat left to ask a report of


def test_stop_and_unstop_are_in_the_games_audit_log_and_game_show(
    service: Service, now: datetime, capsys: pytest.CaptureFixture[str]
) -> None:
    new_game(service, now, referees=(REFEREE,))
    token = _token(service, ALICE)
    _send(service, now, f"STOP {token}")
    assert _cli(service, now, "game", "show", "g1") == 0
    shown = capsys.readouterr().out
    [seat_line] = [line for line in shown.splitlines() if "seat alice" in line]
    assert "mail stopped (STOP)" in seat_line
    assert "mail stopped" not in next(line for line in shown.splitlines() if "seat bob" in line)
    _send(service, now, f"UNSTOP {token}")
    assert _audit(service, "mail-stopped", "mail-started") == [
        (ALICE, "mail-stopped", "g1", "alice"),
        (ALICE, "mail-started", "g1", "alice"),
    ]


def test_the_operator_lifts_a_stop_audited_and_the_player_and_referees_told(
    service: Service, now: datetime, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding 5: a player who deleted the one STOP answer had no way back; the operator
    lifts the stop (having made sure, by other means, that the address's reader asks)."""
    new_game(service, now, referees=(REFEREE,))
    _send(service, now, f"STOP {_token(service, ALICE)}")
    capsys.readouterr()
    assert _cli(service, now, "unstop", ALICE.upper(), "--reason", "she phoned") == 0
    assert f"mail to {ALICE} again" in capsys.readouterr().out
    assert _stopped(service) == []
    [told] = [row for row in outbox(service, "reply") if row.recipient == ALICE][-1:]
    assert told.dropped_at is None
    assert f"Mail from this moderator goes to {ALICE} again" in " ".join(body(told).split())
    referee = [row for row in outbox(service) if row.recipient == REFEREE][-1]
    assert referee.subject == "[g1] alice gets mail again"
    assert _audit(service, "mail-started") == [
        ("cli", "mail-started", "g1", "alice: by the operator: she phoned")
    ]
    # an address not stopped: said so, nothing mailed
    before = len(outbox(service))
    assert _cli(service, now, "unstop", ALICE, "--reason", "again") == 2
    assert "was not stopped" in capsys.readouterr().err
    assert len(outbox(service)) == before


def test_the_log_says_what_a_stop_did_and_that_a_stopped_addresss_reply_was_not_sent(
    service: Service, now: datetime
) -> None:
    """Finding 10 (`mail in: answered ()` for a STOP by the unsubscribe mailto's subject)
    and 5 (HELP from a stopped address logged `answered (HELP)`, nothing sent)."""
    new_game(service, now)
    raw = mail("", sender=ALICE, subject=f"STOP {_token(service, ALICE)}", message_id="s@x")
    assert receive(service, raw, now=now).outcome == f"STOP: no more mail to {ALICE}"
    again = _send(service, now, f"STOP {_token(service, ALICE)}")  # was `answered ()`
    assert again.status == MailStatus.IGNORED
    assert again.outcome == f"STOP: {ALICE} is stopped already"
    outcome = _send(service, now, "HELP").outcome
    assert "not sent" in outcome and "STOP" in outcome, outcome


def test_game_show_marks_a_stopped_referee(
    service: Service, now: datetime, capsys: pytest.CaptureFixture[str]
) -> None:
    new_game(service, now, referees=(REFEREE,))
    _send(service, now, f"STOP {_token(service, REFEREE)}", sender=REFEREE)
    assert _cli(service, now, "game", "show", "g1") == 0
    shown = capsys.readouterr().out
    [line] = [line for line in shown.splitlines() if f"referee {REFEREE}" in line]
    assert "mail stopped (STOP)" in line, shown
