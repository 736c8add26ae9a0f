"""What a mail of commands may cost (issue 42, found by a tester after the caps on reading):
each command reads the database, so a mail runs at most `[limits] max_commands` of them and
answers the rest in one line; and two JOINs of one game in one mail are one JOIN, not a crash."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import select

from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.store import JoinRequest, transaction
from tests.support.games import body, new_game, quarantined
from tests.support.mails import mail


def test_a_mail_of_thousands_of_commands_runs_twenty_and_says_so_in_one_line(
    service: Service, now: datetime
) -> None:
    new_game(service, now)
    text = "\n".join(["STATUS g1"] * 4_990)
    receipt = receive(service, mail(text, sender="mal@evil.example"), now=now)
    [reply] = receipt.replies
    answer = body(reply)
    most = service.settings.limits.max_commands
    assert answer.count("Turn 1, orders due by") == most  # the first twenty STATUS, and no more
    assert f"line {most + 1} and the {4_990 - most - 1} after it" in answer
    assert f"not run: a mail runs at most {most} commands" in answer
    assert len(reply.raw) < 16_000


def test_two_joins_of_one_game_in_one_mail_are_one_join(service: Service, now: datetime) -> None:
    new_game(service, now, seats=(), signup_seats=2)
    text = "JOIN g1 aa PASSWORD abcdefgh\nJOIN g1 bb PASSWORD abcdefgh\n"
    receipt = receive(service, mail(text, sender="mal@evil.example"), now=now)
    assert [q.reason for q in quarantined(service)] in ([], ["join"])
    with transaction(service.db) as session:
        [request] = session.exec(select(JoinRequest)).all()
    assert request.seat == "aa"
    assert "CONFIRM" in body(receipt.replies[0])
