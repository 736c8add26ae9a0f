"""How long the daemon's two threads may sleep: the intake loop until the clocks' next work
(pbem.clock.next_wakeup), the courier until the next outbox retry (or the moment the sender is
ready again while mail waits); neither longer than the cap."""

from __future__ import annotations

from datetime import datetime

from pbem.clock import next_wakeup
from pbem.daemon.transport import PacedSender
from pbem.games.outbox_rows import next_send_time
from pbem.games.service import Service
from pbem.store import transaction, utc


def clock_wait(service: Service, *, now: datetime, cap: float) -> float:
    # The clocks' next work (deadline plus grace, a reminder, an absence ending) lies ahead of
    # `now` by definition: a turn already due is this pass's work, and one whose resolution
    # keeps failing is tried again at the next wake-up rather than at once, in a spin.
    clock_due = next_wakeup(service, now)
    if clock_due is None:
        return cap
    return max(0.0, min(cap, (utc(clock_due) - utc(now)).total_seconds()))


def mail_wait(service: Service, sender: PacedSender, *, now: datetime, cap: float) -> float:
    with transaction(service.db) as session:
        mail_due = next_send_time(session)
    if mail_due is None:
        return cap
    return max(0.0, min(cap, max((mail_due - utc(now)).total_seconds(), sender.ready_in())))
