"""AUDIT: the game's audit log read back for a referee, the newest entries, the same text on
the command line (`pbem referee g1 audit [N]`) and by referee mail; it needs no reason and
writes no audit row of its own."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from pbem.cli import main
from pbem.clock import run_due
from pbem.games.audit import audit
from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.store import dumps
from tests.referee.support import REFEREE, Channel, referee_audit, referee_game, referee_mail
from tests.support.games import body


def test_audit_shows_who_did_what_and_why(service: Service, now: datetime, via: Channel) -> None:
    referee_game(service, now)
    via.run("pause", reason="the referee is away until Monday")
    shown = via.run("audit")
    actor = REFEREE if via.way == "mail" else "cli"
    assert shown == (
        "the audit log of game g1: all 4 entries, oldest first, in UTC "
        "2026-03-01 12:00 cli game-created: counting, 2 seats "
        "2026-03-01 12:00 pipeline game-started: alice, bob "
        f"2026-03-01 12:00 {actor} game-paused: the referee is away until Monday "
        f"2026-03-01 12:00 {actor} pause why: the referee is away until Monday "
        "result: game g1 paused"
    ), shown
    # Reading the log changes nothing, so it is not in the log (nor needs a reason).
    assert [entry.action for entry in referee_audit(service)] == ["referee-pause"]


def _run_cli(service: Service, now: datetime, *args: str) -> int:
    url = service.db.url.render_as_string(hide_password=False)
    return main(["--db", url, "--now", now.isoformat(), "referee", "g1", *args])


def test_the_newest_entries_the_same_by_mail_and_command_line_without_a_reason(
    service: Service, now: datetime, capsys: pytest.CaptureFixture[str]
) -> None:
    referee_game(service, now)
    for hour in range(1, 5):
        later = now + timedelta(hours=hour)
        _run_cli(service, later, "pause" if hour % 2 else "resume", "--reason", f"step {hour}")
    capsys.readouterr()
    assert _run_cli(service, now, "audit", "3") == 0  # no --reason
    printed = capsys.readouterr().out
    assert printed == (
        "the audit log of game g1: the newest 3 of 10 entries, oldest first, in\n"
        "    UTC; AUDIT <n> shows the newest n (up to 500)\n"
        "2026-03-01 15:00  cli  pause\n"
        "    why: step 3\n"
        "    result: game g1 paused\n"
        "2026-03-01 16:00  cli  game-resumed: step 4\n"
        "2026-03-01 16:00  cli  resume\n"
        "    why: step 4\n"
        "    result: game g1 resumed; deadline 2026-03-03 14:00 UTC\n"
    )
    receipt = receive(service, referee_mail("AUDIT 3\n"), now=now)  # no BECAUSE
    [reply] = receipt.replies
    assert reply.recipient == REFEREE
    assert f"Results:\n> AUDIT 3\n{printed}" in body(reply)
    assert len(referee_audit(service)) == 4  # the four pauses and resumes only


def test_audit_refuses_a_count_it_cannot_show(
    service: Service, now: datetime, via: Channel
) -> None:
    referee_game(service, now)
    assert via.refuse("audit", "0") == "how many entries: 1 to 500, not 0"
    assert via.refuse("audit", "501") == "how many entries: 1 to 500, not 501"
    assert via.refuse("audit", "all") == "how many entries is a whole number, not 'all'"
    assert via.refuse("audit", "2", "3") == "expected at most 1 argument: audit [N]"


def test_a_long_entry_keeps_to_the_mail_width_and_a_few_lines(
    service: Service, now: datetime, capsys: pytest.CaptureFixture[str]
) -> None:
    referee_game(service, now)
    detail = {
        "reason": "the rollback " * 12,
        "args": ["ann", "LABOR C4 2\nTECH 2\n" + "MOVE D5 E5 " * 30],
        "result": "\n".join(f"turn {n} came out identical" for n in range(1, 11)),
    }
    with service.store.transaction() as work:
        audit(work, now, "ref@example.org", "referee-orders", "g1", dumps(detail))
    _run_cli(service, now, "audit", "1")
    lines = capsys.readouterr().out.splitlines()[2:]
    assert max(len(line) for line in lines) <= 72, lines
    assert lines[0].startswith("2026-03-01 12:00  ref@example.org  orders ann LABOR C4 2; TECH 2;")
    assert len(lines) == 6 and lines[-1].startswith("    (... "), lines
    assert lines[-1].endswith(" more lines)")


def test_times_in_the_audit_log_read_as_the_product_shows_times(
    service: Service, now: datetime, via: Channel
) -> None:
    """A deadline moved after an outage was logged, and shown, as raw ISO timestamps
    (2026-03-03T12:00:00+00:00); every other time the product shows reads 2026-03-03 12:00 UTC.
    Entries written before (their detail as stored) read the same."""
    referee_game(service, now)
    run_due(service, now=now + timedelta(days=4))  # the moderator was down at the deadline
    with service.store.transaction() as work:
        detail = "turn 1: deadline 2026-03-03T12:00:00+00:00 -> 2026-03-06T12:00:00.5+00:00"
        audit(work, now, "clock", "deadline-moved", "g1", detail)
    shown = via.run("audit")
    assert "T12:00" not in shown and "+00:00" not in shown, shown
    moved = "deadline-moved: turn 1: deadline 2026-03-03 12:00 UTC -> 2026-03-06 12:00 UTC"
    assert shown.count(moved) == 2, shown
