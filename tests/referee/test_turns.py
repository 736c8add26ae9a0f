"""Preview (to the referees only, nothing stored) and process now."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlmodel import select

from pbem.cli import main
from pbem.clock.turns import resolve_due
from pbem.deadlines.options import ClockOptions
from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.store import Referee, Seat, transaction
from tests.referee.support import REFEREE, Channel, referee_game
from tests.support.games import body, game_row, outbox, turns
from tests.support.mails import order_mail

PREVIEW = """\
Preview of turn 1 of game g1 (Counting (a test ruleset)).
Nothing was stored: this is what the turn would give if it were resolved
now, each seat played as the turn would play it. Only the referees get
this mail.
Orders in from: alice
No orders yet from: bob. As the turn would play each seat:
  bob: no orders: its standing orders only

== What would happen ==
alice: [add] alice adds 2
alice: [bonus] alice rolls 2 for a bonus
bob: [bonus] bob rolls 1 for a bonus

== Orders ==
alice:
  line 1: ADD 2 - done
bob (no orders yet: see above):
  (no orders)

== Map after the turn ==
*alice      ##                             2
 bob                                       0

== Standing after the turn ==
alice 2, bob 0

-- \nPBEM Moderator - send HELP for the mail commands.
"""


def test_preview_mails_only_the_referees(service: Service, now: datetime, via: Channel) -> None:
    referee_game(service, now)
    with transaction(service.db) as session:
        session.add(Referee(game_id="g1", address="second@example.org"))
    receive(service, order_mail("g1", "alice", "pw-alice", "ADD 2\n"), now=now)
    before = len(outbox(service))
    assert via.run("preview", reason="checking the bonus") == (
        "preview of turn 1 mailed to 2 referee(s)"
    )
    mails = [row for row in outbox(service)[before:] if row.kind == "referee"]
    assert [row.recipient for row in mails] == [REFEREE, "second@example.org"]
    assert mails[0].subject == "[g1] preview of turn 1"
    assert body(mails[0]) == PREVIEW.replace("*alice", " alice")
    others = [row for row in outbox(service)[before:] if row.kind != "referee"]
    assert [row.recipient for row in others] == ([REFEREE] if via.way == "mail" else [])
    [turn] = turns(service)
    assert (turn.state_after, turn.record, turn.resolved_at) == (None, None, None)


def test_a_preview_of_standing_orders_says_whose_orders_are_in_and_what_it_plays(
    service: Service, now: datetime, via: Channel
) -> None:
    """Issue 43, point 5: with nmr = standing the preview said "Orders in from: alice, bob"
    while it played bob's last turn's orders and nobody had sent any for this turn."""
    referee_game(service, now, clock=ClockOptions(nmr="standing"))
    receive(service, order_mail("g1", "alice", "pw-alice", "ADD 2\n"), now=now)
    receive(service, order_mail("g1", "bob", "pw-bob", "ADD 1\n", message_id="b1@x"), now=now)
    resolve_due(service, now=now)  # turn 1, both in: turn 2 is pending, nobody's orders in
    assert game_row(service).turn == 2
    before = len(outbox(service))
    via.run("preview")
    [mail] = [row for row in outbox(service)[before:] if row.recipient == REFEREE][:1]
    text = body(mail)
    assert "Orders in from: nobody\n" in text
    assert (
        "No orders yet from: alice, bob. As the turn would play each seat:\n"
        "  alice: its last orders again, as the game plays a seat without orders\n"
        "    (nmr standing)\n"
    ) in text
    assert "alice (no orders yet: see above):\n  line 1: ADD 2 - done\n" in text


def test_a_preview_says_why_orders_on_file_are_not_played(
    service: Service, now: datetime, via: Channel
) -> None:
    """Issue 43 (found by the conversation machine): a seat in civil disorder with orders on
    file was listed under "No orders yet from", and "Orders in from: nobody" did not say why
    its orders were not among them. The turn plays it with no orders, whatever is on file
    (docs/referee.md, "disorder SEAT"); the preview says so, and why."""
    referee_game(service, now)
    receive(service, order_mail("g1", "alice", "pw-alice", "ADD 2\n"), now=now)
    via.run("disorder", "alice", reason="gone")
    before = len(outbox(service))
    via.run("preview")
    [mail] = [row for row in outbox(service)[before:] if row.recipient == REFEREE][:1]
    text = body(mail)
    assert "Orders in from: nobody\n" in text
    assert "No orders yet from: bob. As the turn would play each seat:\n" in text
    assert (
        "Orders on file not played: alice. As the turn would play each seat:\n"
        "  alice: no orders: its standing orders only (it is in civil disorder:\n"
        "    nobody plays it)\n"
    ) in text
    assert "alice (orders on file not played: see above):\n  (no orders)\n" in text


def test_process_resolves_the_pending_turn_now(
    service: Service, now: datetime, via: Channel
) -> None:
    referee_game(service, now)
    receive(service, order_mail("g1", "alice", "pw-alice", "ADD 2\n"), now=now)
    assert via.run("process", reason="bob is away all week") == (
        "turn 1 resolved: 1 orders, 3 events"
    )
    assert game_row(service).turn == 2
    assert turns(service)[0].resolved_at is not None
    reports = [row.recipient for row in outbox(service, "report")][2:]  # after the start mails
    assert reports == ["alice@example.org", "bob@example.org"]


def test_process_refuses_a_paused_game(service: Service, now: datetime, via: Channel) -> None:
    referee_game(service, now)
    via.run("pause")
    assert via.refuse("process") == "game g1 is paused; resume it first"


def _report(service: Service, seat: str, turn: int) -> str:
    [row] = [
        row
        for row in outbox(service, "report")
        if row.subject == f"[g1] turn {turn} report" and row.recipient.startswith(seat)
    ]
    return body(row)


def _seat_missed(service: Service, name: str) -> int:
    with transaction(service.db) as session:
        return session.exec(select(Seat).where(Seat.name == name)).one().missed


FORCED_NOTE = (
    "== Referee notes ==\n"
    "turn 1 was played before its deadline (2026-03-03 12:00 UTC), at the\n"
    "    referee's word: a seat without orders has not missed a turn. Why:\n"
    "    bob is away all week\n"
)


def test_a_forced_turn_is_no_missed_turn_and_its_report_says_why(
    service: Service, now: datetime, via: Channel
) -> None:
    """PROCESS before the deadline: bob, who sent nothing, is not charged a missed turn, and
    the turn's own reports say it was forced (the next turn's say nothing of it)."""
    referee_game(service, now)
    receive(service, order_mail("g1", "alice", "pw-alice", "ADD 2\n"), now=now)
    via.run("process", reason="bob is away all week")
    assert _seat_missed(service, "bob") == 0
    bob = _report(service, "bob", 1)
    assert (
        "== No orders from you ==\n"
        "Turn 1 was played early, at the referee's word, without orders from you.\n"
        "It does not count as a missed turn.\n"
    ) in bob
    assert FORCED_NOTE in bob and FORCED_NOTE in _report(service, "alice", 1)
    for seat in ("alice", "bob"):
        raw = order_mail("g1", seat, f"pw-{seat}", "ADD 1\n", message_id=f"{seat}2@x")
        receive(service, raw, now=now)
    assert [summary.turn for summary in resolve_due(service, now=now)] == [2]
    assert "== Referee notes ==" not in _report(service, "alice", 2)


def test_turn_run_before_the_deadline_is_forced_too(
    service: Service, now: datetime, capsys: pytest.CaptureFixture[str]
) -> None:
    referee_game(service, now)
    receive(service, order_mail("g1", "alice", "pw-alice", "ADD 2\n"), now=now)
    url = service.db.url.render_as_string(hide_password=False)
    argv = ["--db", url, "--now", now.isoformat(), "turn", "run", "g1"]
    assert main([*argv, "--reason", "bob is away all week"]) == 0
    assert _seat_missed(service, "bob") == 0
    assert FORCED_NOTE in _report(service, "alice", 1)


def test_a_turn_run_after_its_deadline_counts_the_missed_turn(
    service: Service, now: datetime, capsys: pytest.CaptureFixture[str]
) -> None:
    """The deadline has passed (the clock would resolve it on its next look): no seat was
    cut short, and bob's miss counts."""
    referee_game(service, now)
    late = Channel("cli", service, now + timedelta(hours=49), capsys)
    late.run("process", reason="the daemon is down")
    assert _seat_missed(service, "bob") == 1
    assert "We had no orders from you for turn 1: 1 turn in a row.\n" in _report(service, "bob", 1)
    assert "at the referee's word" not in _report(service, "bob", 1)
