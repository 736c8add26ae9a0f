"""Every mail the clocks write, and the NMR warning in a report, stays within 72 columns."""

from __future__ import annotations

from pbem.clock.control import pause, resume
from pbem.games.service import Service
from tests.clock.support import (
    DEADLINE,
    HOUR,
    clock_bodies,
    clock_game,
    clock_mail,
    command,
    orders,
    run,
)
from tests.conftest import NOW
from tests.support.games import body, outbox

REASON = "the referee is moving house and the server goes with him, " * 3


def test_clock_mail_fits_72_columns(service: Service) -> None:
    clock_game(
        service,
        reminders="24h,2h",
        abandon_after=1,
        nmr="standing",
        referees=["ref@example.org"],
        timezone="America/Argentina/Buenos_Aires",
    )
    command(service, "alice", "SET ABSENCE 2026-03-02", NOW)
    orders(service, "bob", "ADD 1", NOW)
    run(service, DEADLINE - HOUR)
    run(service, DEADLINE + 3 * HOUR)  # an outage
    with service.store.transaction() as work:
        pause(work, service.settings, "g1", now=DEADLINE, actor="cli", reason=REASON)
    with service.store.transaction() as work:
        resume(
            work,
            service.settings,
            "g1",
            now=DEADLINE + HOUR,
            actor="cli",
            reason=REASON,
        )
    run(service, DEADLINE + 28 * HOUR)  # the moved deadline, with the time the pause kept
    texts = clock_bodies(service) + [body(row) for row in outbox(service, "report")]
    texts += [body(row) for row in outbox(service, "reply")]
    moved, paused, resumed = "turn 1: deadline moved", "game paused", "game resumed"
    assert [(to.split("@")[0], subject[5:]) for to, subject in clock_mail(service)] == [
        ("alice", "turn 1: orders due in 2h"),
        ("alice", moved),
        ("bob", moved),
        ("ref", moved),
        ("alice", paused),
        ("bob", paused),
        ("alice", resumed),
        ("bob", resumed),
        ("ref", "seat alice abandoned"),
    ]
    assert any("No orders from you" in text for text in texts)
    long = [line for text in texts for line in text.splitlines() if len(line) > 72]
    assert long == []
