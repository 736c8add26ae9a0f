"""REPORT before the first turn is played, and REPORT START at any time, send the game's start
mail again: the map and holdings of the start and the order template of the first turn. A
player who joins late (a replacement) or lost the first mail gets it; "no report yet" was all
REPORT said before turn 1."""

from __future__ import annotations

from datetime import datetime

from pbem.clock.turns import resolve_due
from pbem.games.service import Service
from pbem.intake.intake import receive
from tests.support.games import body, new_game, outbox
from tests.support.mails import mail, order_mail


def _start_mail(service: Service, seat: str) -> str:
    [row] = [
        r
        for r in outbox(service, "report")
        if "game begins" in r.subject and r.recipient == f"{seat}@example.org"
    ]
    return body(row)


def _ask(service: Service, now: datetime, line: str, n: int) -> str:
    raw = mail(
        f"GAME g1 SEAT bob PASSWORD pw-bob\n{line}\n",
        sender="bob@example.org",
        message_id=f"ask{n}@x",
    )
    receipt = receive(service, raw, now=now)
    assert receipt.status == "answered", receipt.outcome
    [reply] = receipt.replies
    assert reply.recipient == "bob@example.org"
    return body(reply)


def test_report_before_the_first_turn_is_played_sends_the_start_mail(
    service: Service, now: datetime
) -> None:
    new_game(service, now)
    assert _ask(service, now, "REPORT", 1) == _start_mail(service, "bob")


def test_report_start_sends_the_start_mail_again_at_any_turn(
    service: Service, now: datetime
) -> None:
    new_game(service, now)
    for seat in ("alice", "bob"):
        raw = order_mail("g1", seat, f"pw-{seat}", "ADD 2\n", message_id=f"{seat}@x")
        receive(service, raw, now=now)
    assert [summary.turn for summary in resolve_due(service, now=now)] == [1]
    start = _start_mail(service, "bob")
    # Sent again after turn 1 was played, it is marked as a copy and names the turn being
    # played and its deadline, not the past deadline of turn 1 and its order template: every
    # fact a mail states is true when it is sent (as a resent report's, REPORT n).
    again = _ask(service, now, "REPORT START", 1)
    assert again == _ask(service, now, "report start", 2)
    assert " ".join(again.split("\n\n")[0].split()) == (
        "This is a copy of the start mail of game g1, sent again; turn 1 has been played "
        "since. Turn 2 is being played now. Orders for turn 2 are due by 2026-03-03 12:00 UTC."
    )
    assert all(len(line) <= 72 for line in again.splitlines())
    assert "Orders for turn 1 are due by" in start and "Orders for turn 1 are due" not in again
    assert "TURN 1\n" not in again and "== Orders for turn 1 ==" not in again
    assert "Send REPORT for your latest report" in " ".join(again.split())
    assert (
        again.split("== Your holdings ==")[1].split("== Dice ==")[0]
        == (start.split("== Your holdings ==")[1].split("== Dice ==")[0])
    )
    assert _ask(service, now, "REPORT", 3).startswith(
        "Game g1 (Counting (a test ruleset)), report of turn 1 for bob\n"
    )
