"""The daemon's sender: drains the outbox in a thread of its own, so that an SMTP server that
is slow, or accepts the connection and never answers, holds up only the sending (each send
ends at [smtp] timeout_seconds), never intake or the clocks.

Its Wake (pbem.daemon.wake) is set by intake after mail came in, by the clocks after a look
queued mail, and by the schedule's jobs (pbem.daemon.schedule): the outbox's next retry, mail
another process queued. After each drain it renews that retry job from the database
(`after_drain`). Between drains it sleeps until woken, or while the sender is paced (its
backoff, the rate limit: state of this process, not of the database), at most the daemon's
cap: the sender's pacing is the one timing it keeps.

Several mails are in the sender's hands at once when it takes several ([smtp] connections):
the drain hands each row to one of as many lanes (pbem.games.lanes), each sending on a
connection of its own, so that the server's round trip for one mail overlaps the others'.

It drains only when woken. At a start a reply goes at once, bulk mail only once the clocks'
first look is done (`send_bulk`): that look pushes back deadlines an outage overran and
supersedes the notices it made stale, and a reply never waits on it. A drain that fails as a
whole (the database is away) is logged and tried again after a growing delay.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from datetime import datetime

from pbem.daemon.transport import PacedSender
from pbem.daemon.wake import Wake
from pbem.games.lanes import Lanes
from pbem.games.outbox import drain
from pbem.games.service import Service
from pbem.intake.poll import log_drained
from pbem.mail.backoff import Backoff
from pbem.store import utc

log = logging.getLogger(__name__)


class Courier:
    def __init__(
        self,
        service: Service,
        sender: PacedSender,
        *,
        clock: Callable[[], datetime],
        cap: float,
        monotonic: Callable[[], float] = time.monotonic,
        bulk: threading.Event | None = None,
    ) -> None:
        self.service = service
        self.sender = sender
        self._clock = clock
        self._cap = cap
        self._woken = Wake()
        self._stopping = threading.Event()
        # Set once the clocks' first look at a start is done (an outage's deadlines pushed
        # back, stale notices superseded): bulk mail waits for it, a reply never does. With
        # no clocks beside it (none given) all mail goes.
        self._bulk = bulk if bulk is not None else threading.Event()
        if bulk is None:
            self._bulk.set()
        self._failures = Backoff(1.0, cap, clock=monotonic)
        width = sender.connections
        self._lanes = Lanes(width, name="pbem-courier-lane") if width > 1 else None
        self._thread = threading.Thread(target=self.run, name="pbem-courier", daemon=True)
        self.after_drain: Callable[[], None] = lambda: None  # the schedule's outbox job

    def start(self) -> None:
        self._thread.start()

    def wake(self) -> None:
        """Mail may be due: drain now (or right after the drain in hand)."""
        self._woken.set()

    def send_bulk(self) -> None:
        """The clocks' first look is done: bulk mail may go too, now."""
        self._bulk.set()
        self._woken.set()

    def stop(self, timeout: float) -> bool:
        """Stop after the mail in hand (each lane's); wait at most `timeout` seconds. False if
        still busy (a send that has not timed out yet: the mail stays unsent, and goes at the
        next start)."""
        self._stopping.set()
        self._woken.set()
        if self._thread.is_alive():
            self._thread.join(timeout)
        return not self._thread.is_alive()

    def run(self) -> None:
        """The courier's loop, in the calling thread (start() runs it in a thread of its own)
        until stopped."""
        self._woken.wait()
        try:
            while not self._stopping.is_set():
                self._woken.take()
                self._woken.wait(self._drain())
        finally:
            if self._lanes is not None:
                self._lanes.close()

    def _paced(self) -> float:
        """After a drain: mail still due (the drain's limit, or the sender pacing us) goes as
        soon as the sender is ready; else sleep until woken (the schedule's outbox job at the
        next retry, a pass), at most the cap."""
        try:
            with self.service.store.reading() as work:
                due = work.outbox.next_send_time()
        except Exception:  # noqa: BLE001 - the database away: the next drain will say so
            return self._cap
        if not self._bulk.is_set():  # bulk mail waits for send_bulk; a reply goes when it can
            return min(self._cap, self.sender.ready_in()) if self._reply_waiting() else self._cap
        if due is None or utc(due) > utc(self._clock()):
            return self._cap  # nothing due now: the schedule's outbox job wakes it at a retry
        return min(self._cap, self.sender.ready_in())

    def _reply_waiting(self) -> bool:
        try:
            with self.service.store.reading() as work:
                return work.outbox.reply_due(self._clock())
        except Exception:  # noqa: BLE001 - the database away: the drain will say so
            return False

    def _drain(self) -> float:
        """One drain; how long to sleep before the next."""
        waiting = self.sender.ready_in()
        # Backing off from a server that is away, or at the rate limit as bulk mail sees it:
        # a reply waiting may still go, in the part of the limit kept for replies.
        if waiting > 0 and not self._reply_waiting():
            return waiting
        try:
            report = drain(
                self.service,
                self.sender,
                now=self._clock(),
                stop=self._stopping.is_set,
                replies_only=not self._bulk.is_set(),
                lanes=self._lanes,
            )
            log_drained(report)
            self.after_drain()
            if report.stopped and not self.sender.ready_in():
                # The transport is away and the sender keeps no backoff of its own (a maildir
                # that cannot be written): back off here, or the due mail would spin the loop.
                return self._failures.failed()
            self._failures.succeeded()
            return self._paced()
        except Exception:
            log.exception("sending failed; trying again in %.0fs", self._failures.failed())
            return self._failures.remaining()
