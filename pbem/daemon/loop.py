"""The daemon's loop: a pass (poll_once), then sleep until mail comes, a deadline falls due or
the outbox has mail to retry, and again, until SIGTERM or SIGINT.

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

from pbem.daemon.transport import PacedSender, WaitingInbox
from pbem.daemon.wake import seconds_to_sleep
from pbem.mail.backoff import Backoff
from pbem.pipeline.outbox import last_outbox_id
from pbem.pipeline.poll import PollReport, poll_once
from pbem.pipeline.service import Service
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
        self._failures = Backoff(1.0, self.cap, clock=monotonic)  # after passes that failed

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
        """One pass; None if it failed as a whole (logged)."""
        try:
            report = poll_once(
                self.service, self.inbox, self.sender, now=self._clock(), stop=self.stopping
            )
        except Exception:
            log.exception("pass failed; trying again in %.0fs", self._failures.failed())
            return None
        self._failures.succeeded()
        return report

    def run(self) -> None:
        """Passes and sleeps until a stop is requested; closes the inbox at the end."""
        log.info("serving (sleeping at most %.0fs between passes)", self.cap)
        try:
            while not self._stop_requested:
                self.run_once()
                if self._stop_requested:
                    break
                self._sleep(self._sleep_time())
            log.info("%s: stopping", self.stop_reason)
        finally:
            self.inbox.close()
            log.info("stopped")

    def _sleep_time(self) -> float:
        if self._failures.failures:
            return self._failures.remaining()
        try:
            return seconds_to_sleep(self.service, self.sender, now=self._clock(), cap=self.cap)
        except Exception:
            log.exception("cannot work out the next wake-up; sleeping %.0fs", self.cap)
            return self.cap

    def _sleep(self, seconds: float) -> None:
        log.debug("sleeping up to %.1fs", seconds)
        try:
            self._sleeping = True
            if not self._stop_requested:  # a signal may have come just before
                wake = self._new_mail_to_send()
                self.inbox.wait_for_mail(seconds, wake, OUTBOX_LOOK_SECONDS)
        except _WakeUp:
            pass
        finally:
            self._sleeping = False  # from here on, a signal only sets the flag

    def _new_mail_to_send(self) -> Callable[[], bool]:
        """Asked while sleeping: has something else queued mail since (a referee's command
        on the command line, `pbem game pause`)? Then the sleep ends and it goes out now,
        not at the next wake-up. Only new rows count: mail that waits for a retry or the
        rate limit has its own wake-up time."""
        try:
            baseline = last_outbox_id(self.service)
        except Exception:  # the database away: the pass has logged that already
            log.debug("cannot read the outbox; not watching it while asleep")
            return lambda: False

        def grown() -> bool:
            try:
                return last_outbox_id(self.service) > baseline
            except Exception:  # the database away: the next pass will say so
                return False

        return grown


def stop_on_signals(daemon: Daemon) -> None:
    """SIGTERM (systemd, docker stop) and SIGINT (Ctrl-C) ask the daemon to stop."""

    def handler(signum: int, _frame: FrameType | None) -> None:
        daemon.request_stop(signal.Signals(signum).name)
        if daemon.sleeping:
            raise _WakeUp  # out of IDLE (or a poll sleep) at once, in the main thread

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)
