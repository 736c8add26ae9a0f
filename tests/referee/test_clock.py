"""The clock by hand: pause and resume, move the deadline, change the deadline policy."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from pbem.clock.turns import resolve_due
from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.store import loads, utc
from tests.referee.support import Channel, referee_audit, referee_game
from tests.support.games import body, game_row, orders, quarantined, turns
from tests.support.mails import order_mail


def _deadline(service: Service) -> datetime | None:
    deadline = turns(service)[-1].deadline
    return utc(deadline) if deadline else None


def test_pause_stops_resolution_and_keeps_orders(
    service: Service, now: datetime, via: Channel
) -> None:
    referee_game(service, now)
    assert via.run("pause", reason="the referee is on holiday") == "game g1 paused"
    assert game_row(service).status == "paused"
    receipt = receive(service, order_mail("g1", "alice", "pw-alice", "ADD 1\n"), now=now)
    assert (receipt.status, receipt.outcome) == (
        "accepted",
        "orders stored for alice, turn 1: 1 accepted, 0 rejected",
    )
    [reply] = receipt.replies
    assert "Game g1 is paused. These orders are kept as your orders for turn 1" in " ".join(
        body(reply).split()
    )
    assert resolve_due(service, now=now + timedelta(days=30)) == []
    assert via.refuse("pause") == "game g1 is paused, not running"
    via.run("resume")
    assert [row.seat for row in orders(service)] == ["alice"]


def test_resume_moves_the_deadline_on_by_the_pause(
    service: Service, now: datetime, via: Channel
) -> None:
    referee_game(service, now)
    via.run("pause")
    via.now = now + timedelta(hours=5)
    assert via.run("resume", reason="back home") == (
        "game g1 resumed; deadline 2026-03-03 17:00 UTC"
    )
    assert game_row(service).status == "running"
    assert _deadline(service) == datetime(2026, 3, 3, 17, 0, tzinfo=UTC)
    detail = loads(referee_audit(service)[-1].detail)
    assert detail["changes"][0]["before"] == "2026-03-03 12:00 UTC"
    assert detail["changes"][0]["after"] == "2026-03-03 17:00 UTC"
    assert via.refuse("resume") == "game g1 is running, not paused"


def test_extend_shorten_and_set_the_deadline(service: Service, now: datetime, via: Channel) -> None:
    referee_game(service, now)
    told = "every seat was told; no orders yet from alice, bob"
    assert via.run("deadline", "extend", "24h") == (
        f"deadline of turn 1: 2026-03-04 12:00 UTC; {told}"
    )
    assert via.run("deadline", "shorten", "90m") == (
        f"deadline of turn 1: 2026-03-04 10:30 UTC; {told}"
    )
    assert via.run("deadline", "set", "2026-03-02T08:00") == (
        f"deadline of turn 1: 2026-03-02 08:00 UTC; {told}"
    )
    assert _deadline(service) == datetime(2026, 3, 2, 8, 0, tzinfo=UTC)
    assert via.refuse("deadline", "extend", "soon") == (
        "'soon' is not a duration like 30m, 12h or 2d"
    )
    changes = [loads(entry.detail)["changes"][0]["effect"] for entry in referee_audit(service)]
    assert changes[0] == (
        "the deadline of turn 1 moved from 2026-03-03 12:00 UTC to 2026-03-04 12:00 UTC"
    )


def test_change_the_deadline_policy(service: Service, now: datetime, via: Channel) -> None:
    referee_game(service, now)
    assert via.run("policy", "interval:24h") == (
        "deadline policy interval:24h from the next turn on (the pending deadline is unchanged)"
    )
    assert game_row(service).deadline_policy == "interval:24h"
    # The wording of the policies is the game clock's (pbem/deadlines/policy.py).
    assert via.refuse("policy", "fortnightly").startswith(
        "deadline policy 'fortnightly' is not 'none', 'interval:<duration>'"
    )
    assert game_row(service).deadline_policy == "interval:24h"
    assert quarantined(service) == []
