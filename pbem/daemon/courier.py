"""The daemon's sender: drains the outbox in a thread of its own, so that an SMTP server that is
slow, or accepts the connection and never answers, holds up only the sending (each send ends
at [smtp] timeout_seconds), never intake or the clocks.

The intake loop wakes it after each pass; otherwise it sleeps until the next retry is due (or
the sender is ready again), at most the daemon's cap. It makes its first drain only when woken:
at a start, the first pass (which may push back deadlines after an outage, superseding stale
notices) runs before anything is sent. A drain that fails as a whole (the database is away)
is logged and tried again after a growing delay.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from datetime import datetime

from pbem.daemon.transport import PacedSender
from pbem.daemon.wake import mail_wait
from pbem.games.outbox import drain
from pbem.games.outbox_rows import reply_due
from pbem.games.service import Service
from pbem.intake.poll import log_drained
from pbem.mail.backoff import Backoff
from pbem.store import transaction

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
    ) -> None:
        self.service = service
        self.sender = sender
        self._clock = clock
        self._cap = cap
        self._woken = threading.Event()
        self._stopping = threading.Event()
        self._failures = Backoff(1.0, cap, clock=monotonic)
        self._thread = threading.Thread(target=self._run, name="pbem-courier", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def wake(self) -> None:
        """Mail may be due: drain now (or right after the drain in hand)."""
        self._woken.set()

    def stop(self, timeout: float) -> bool:
        """Stop after the mail in hand; wait at most `timeout` seconds. False if still busy
        (a send that has not timed out yet: the mail stays unsent, and goes at the next start)."""
        self._stopping.set()
        self._woken.set()
        if self._thread.is_alive():
            self._thread.join(timeout)
        return not self._thread.is_alive()

    def _run(self) -> None:
        self._woken.wait()
        while not self._stopping.is_set():
            self._woken.clear()
            self._woken.wait(self._drain())

    def _reply_waiting(self) -> bool:
        try:
            with transaction(self.service.db) as session:
                return reply_due(session, self._clock())
        except Exception:  # the database away: the drain will say so
            return False

    def _drain(self) -> float:
        """One drain; how long to sleep before the next."""
        waiting = self.sender.ready_in()
        # Backing off from a server that is away, or at the rate limit as bulk mail sees it:
        # a reply waiting may still go, in the part of the limit kept for replies.
        if waiting > 0 and not self._reply_waiting():
            return waiting
        try:
            report = drain(self.service, self.sender, now=self._clock(), stop=self._stopping.is_set)
            log_drained(report)
            self._failures.succeeded()
            return mail_wait(self.service, self.sender, now=self._clock(), cap=self._cap)
        except Exception:
            log.exception("sending failed; trying again in %.0fs", self._failures.failed())
            return self._failures.remaining()
