"""One pass of the moderator: take every waiting mail in (marking each done only after its
transaction committed), resolve the turns that are due, and drain the outbox."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from pbem.pipeline.intake import receive
from pbem.pipeline.outbox import DrainReport, drain
from pbem.pipeline.protocols import Inbox, Sender
from pbem.pipeline.service import Service
from pbem.pipeline.turns import TurnSummary, resolve_due


@dataclass
class PollReport:
    statuses: Counter[str] = field(default_factory=Counter)
    turns: list[TurnSummary] = field(default_factory=list)
    drained: DrainReport = field(default_factory=lambda: DrainReport(0, 0))

    @property
    def received(self) -> int:
        return sum(self.statuses.values())


def take_in(service: Service, inbox: Inbox, *, now: datetime) -> Counter[str]:
    statuses: Counter[str] = Counter()
    for item in inbox.pending():
        receipt = receive(service, item.raw, now=now)
        inbox.mark_done(item.key)  # after the commit: a crash before here means a redo
        statuses[receipt.status] += 1
    return statuses


def poll_once(service: Service, inbox: Inbox, sender: Sender, *, now: datetime) -> PollReport:
    report = PollReport(statuses=take_in(service, inbox, now=now))
    report.turns = resolve_due(service, now=now)
    report.drained = drain(service, sender, now=now)
    return report
