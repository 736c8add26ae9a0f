"""The daemon's loop: a pass (poll_once: intake and the clocks), then sleep until mail comes
or a deadline falls due, and again, until SIGTERM or SIGINT. The outbox is sent by a thread of
its own (pbem.daemon.courier), woken after each pass, so a slow SMTP server never holds up
intake. `run_once` (serve --once) makes one whole pass, outbox included, in this thread.

A stop request is honoured between steps: the mail being received is finished (its
transaction committed, the IMAP message marked), then the IMAP connection is closed. A signal
that comes while the loop sleeps ends the sleep at once. A pass that fails as a whole (the
database is away) is logged and tried again after a growing delay; one game's failure never
reaches here (resolve_due logs it and carries on with the other games).
"""

from __future__ import annotations

import logging
import signal
import time
from collections.abc import Callable
from datetime import datetime
from types import FrameType

from pbem.daemon.courier import Courier
from pbem.daemon.transport import PacedSender, WaitingInbox
from pbem.daemon.wake import clock_wait
from pbem.games.outbox import last_outbox_id
from pbem.games.service import Service
from pbem.intake.poll import PollReport, poll_once
from pbem.mail.backoff import Backoff
from pbem.store import utcnow

log = logging.getLogger(__name__)
OUTBOX_LOOK_SECONDS = 2.0  # how often a sleeping daemon looks for mail queued by others


class _WakeUp(BaseException):
    """Raised by the signal handler into a sleeping loop. A BaseException, so that no
    `except Exception` on the way (in a library) can swallow it."""


class Daemon:
    def __init__(
        self,
        service: Service,
        inbox: WaitingInbox,
        sender: PacedSender,
        *,
        clock: Callable[[], datetime] = utcnow,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.service = service
        self.inbox = inbox
        self.sender = sender
        self._clock = clock
        self._stop_requested = False
        self.stop_reason = ""
        self._sleeping = False
        self._monotonic = monotonic
        self._failures = Backoff(1.0, self.cap, clock=monotonic)  # after passes that failed
        self._courier: Courier | None = None  # the sending thread, while run() runs

    @property
    def cap(self) -> float:
        return float(self.service.settings.service.max_wait_seconds)

    def stopping(self) -> bool:
        return self._stop_requested

    @property
    def sleeping(self) -> bool:
        return self._sleeping

    def request_stop(self, why: str = "asked to stop") -> None:
        """Stop after the current step (a sleep ends at its timeout; see stop_on_signals)."""
        self._stop_requested = True
        self.stop_reason = why  # logged by the loop: a signal handler should not log

    def run_once(self) -> PollReport | None:
        """One pass, the outbox included; None if it failed as a whole (logged)."""
        return self._pass(self.sender)

    def _pass(self, sender: PacedSender | None) -> PollReport | None:
        try:
            report = poll_once(
                self.service, self.inbox, sender, now=self._clock(), stop=self.stopping
            )
        except Exception:
            log.exception("pass failed; trying again in %.0fs", self._failures.failed())
            return None
        self._failures.succeeded()
        return report

    def run(self) -> None:
        """Passes and sleeps until a stop is requested; closes the inbox at the end."""
        log.info("serving (sleeping at most %.0fs between passes)", self.cap)
        courier = Courier(
            self.service, self.sender, clock=self._clock, cap=self.cap, monotonic=self._monotonic
        )
        courier.start()
        self._courier = courier
        try:
            while not self._stop_requested:
                passed = self._pass(None) is not None
                if self._stop_requested:
                    break
                if passed:  # else the database is away: sending would fail the same way
                    courier.wake()
                self._sleep(self._sleep_time())
            log.info("%s: stopping", self.stop_reason)
        finally:
            self._stop_courier(courier)
            self.inbox.close()
            log.info("stopped")

    def _stop_courier(self, courier: Courier) -> None:
        # A send in hand ends at the SMTP timeout at the latest; a little more for the commit.
        if not courier.stop(timeout=self.service.settings.smtp.timeout_seconds + 5.0):
            log.warning("a send still hangs; its mail stays queued for the next start")

    def _sleep_time(self) -> float:
        if self._failures.failures:
            return self._failures.remaining()
        try:
            return clock_wait(self.service, now=self._clock(), cap=self.cap)
        except Exception:
            log.exception("cannot work out the next wake-up; sleeping %.0fs", self.cap)
            return self.cap

    def _sleep(self, seconds: float) -> None:
        log.debug("sleeping up to %.1fs", seconds)
        try:
            self._sleeping = True
            if not self._stop_requested:  # a signal may have come just before
                self.inbox.wait_for_mail(seconds, self._watch_outbox(), OUTBOX_LOOK_SECONDS)
        except _WakeUp:
            pass
        finally:
            self._sleeping = False  # from here on, a signal only sets the flag

    def _watch_outbox(self) -> Callable[[], bool]:
        """Asked while sleeping, every OUTBOX_LOOK_SECONDS: has something else queued mail
        since (a referee's command on the command line, `pbem game pause`)? Then the courier
        is woken to send it now, not after the next pass; the sleep goes on. Only new rows
        count: mail that waits for a retry or the rate limit has its own wake-up time."""
        courier = self._courier
        try:
            seen = last_outbox_id(self.service)
        except Exception:  # the database away: the pass has logged that already
            log.debug("cannot read the outbox; not watching it while asleep")
            return lambda: False

        def look() -> bool:
            nonlocal seen
            try:
                newest = last_outbox_id(self.service)
            except Exception:  # the database away: the next pass will say so
                return False
            if newest > seen and courier is not None:
                seen = newest
                courier.wake()
            return False  # the intake sleep itself goes on

        return look


def stop_on_signals(daemon: Daemon) -> None:
    """SIGTERM (systemd, docker stop) and SIGINT (Ctrl-C) ask the daemon to stop."""

    def handler(signum: int, _frame: FrameType | None) -> None:
        daemon.request_stop(signal.Signals(signum).name)
        if daemon.sleeping:
            raise _WakeUp  # out of IDLE (or a poll sleep) at once, in the main thread

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)
