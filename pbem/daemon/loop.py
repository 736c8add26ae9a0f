"""The daemon's loop: a pass (poll_once: intake and the clocks), then sleep until mail comes
or one of the schedule's jobs (pbem.daemon.schedule: a game's deadline or reminder, the
safety poll, another process's change) asks for a pass, and again, until SIGTERM or SIGINT.
The outbox is sent by a courier of its own (pbem.daemon.courier; by default in a process of its
own, pbem.daemon.courier_process), woken after each pass and by the schedule's outbox jobs, so
a slow SMTP server never holds up intake. `run_once` (serve
--once) makes one whole pass, outbox included, in this thread, with no scheduler. Passes
that only take mail in look at the clocks CLOCK_SECONDS apart at most, or further if a look
would otherwise take more than LOOK_SHARE of the time (the look reads every running game);
several daemons on PostgreSQL share the inbox out by claims (pbem.store.claims).

A stop request is honoured between steps: the mail being received is finished (its
transaction committed, the IMAP message marked), then the IMAP connection is closed. A signal
that comes while the loop sleeps ends the sleep at once. A pass that fails as a whole (the
database is away) is logged and tried again after a growing delay; one game's failure never
reaches here (resolve_due logs it and carries on with the other games).
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Callable
from datetime import datetime
from types import FrameType

from pbem.clock.due import Clock
from pbem.daemon.courier import Courier
from pbem.daemon.courier_process import CourierProcess
from pbem.daemon.schedule import DaemonSchedule
from pbem.daemon.transport import PacedSender, WaitingInbox
from pbem.games.outbox import last_outbox_id
from pbem.games.service import Service
from pbem.intake.poll import PollReport, poll_once
from pbem.mail.backoff import Backoff
from pbem.store import utcnow

log = logging.getLogger(__name__)
LOOK_SECONDS = 1.0  # how often a sleeping loop looks whether a job asked for a pass
LONG_SLEEP = 86400.0  # the jobs end a sleep; this only bounds it
# A pass resolves due turns for about this long, then takes the mail in again: when the
# deadlines of many games fall at once, a player who writes meanwhile still gets a quick reply.
TURN_SECONDS = 0.5
# Another daemon has in hand every mail a pass saw (PostgreSQL, several daemons): wait this
# long before looking again, rather than fetch the same mails over and over until it is done.
ELSEWHERE_SECONDS = 0.2
# Looking at the clocks reads every running game (about 0.1 s at a thousand games, and
# about as much again to renew the schedule): between passes that only take mail in, they
# are looked at this far apart at most. A job of the schedule (a deadline, a reminder, the
# safety poll) gets its look at once, and a pass that skipped the look is followed by one in
# time.
CLOCK_SECONDS = 2.0
# ...or further apart, so that those looks take at most this share of the daemon's time:
# they find nothing to do while mail that leaves its turn waiting comes in (a deadline wave's
# intake spent a tenth of its main thread on them at 1,000 games), and their cost grows with
# the games.
LOOK_SHARE = 0.05


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
        rest_step: Callable[[float], None] = time.sleep,
        courier_process: bool = False,
    ) -> None:
        self.service = service
        self._courier_process = courier_process  # the courier in a process of its own
        self.inbox = inbox
        self.sender = sender
        self._clock = clock
        self._stop_requested = False
        self.stop_reason = ""
        self._sleeping = False
        self._monotonic = monotonic
        self._failures = Backoff(1.0, self.cap, clock=monotonic)  # after passes that failed
        self._pass_wanted = threading.Event()  # set by the schedule's jobs
        self._last_failure = ""  # what the last failed pass failed with: logged in full once
        self._rest_step = rest_step
        self._due_left: list[str] = []  # a wave's due games the last pass did not reach
        self._next_look = 0.0  # (monotonic) the clocks may be skipped until then

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

    def _pass(
        self, sender: PacedSender | None, turn_seconds: float | None = None, clocks: bool = True
    ) -> PollReport | None:
        try:
            report = poll_once(
                self.service,
                self.inbox,
                sender,
                now=self._clock(),
                stop=self.stopping,
                turn_seconds=turn_seconds,
                resume=self._due_left,
                clocks=clocks,
                monotonic=self._monotonic,
            )
        except Exception as error:  # noqa: BLE001 - the daemon must outlive a failed pass
            self._log_failure(error, self._failures.failed())
            return None
        self._due_left = report.due_left
        if self._last_failure:
            log.info("pass succeeded again after: %s", self._last_failure)
        self._failures.succeeded()
        self._last_failure = ""
        return report

    def _log_failure(self, error: Exception, delay: float) -> None:
        """The traceback once per distinct failure; while the same fault lasts, a line a try."""
        what = f"{type(error).__name__}: {str(error).strip().splitlines()[0] if str(error) else ''}"
        if what == self._last_failure:
            log.error("pass failed again (%s); trying again in %.0fs", what, delay)
        else:
            log.exception("pass failed; trying again in %.0fs", delay)
        self._last_failure = what

    def run(self) -> None:
        """Passes and sleeps until a stop is requested; closes the inbox at the end."""
        log.info("serving (a safety poll every %.0fs)", self.cap)
        courier = self._courier()
        watch = self._outbox_watch(courier)
        schedule = DaemonSchedule(
            self.service,
            clock=self._clock,
            safety_seconds=self.cap,
            wake_pass=self._pass_wanted.set,
            wake_courier=courier.wake,
            look_outbox=watch,
        )
        courier.after_drain = schedule.refresh_outbox
        courier.start()
        schedule.start()
        try:
            while not self._stop_requested:
                clocks = self._clocks_wanted()
                report = self._pass(None, TURN_SECONDS, clocks)
                if self._stop_requested:
                    break
                if report is None:  # the database is away: sending would fail the same way
                    self._rest(self._failures.remaining())
                    continue
                courier.wake()
                if report.more_due:  # a deadline wave: take the mail in, then more turns
                    continue
                if report.only_elsewhere:
                    self._rest(ELSEWHERE_SECONDS)
                    continue
                if not report.looked:  # mail only: the clocks' look comes when it may
                    self._sleep(self._next_look - self._monotonic())
                    continue
                watch.mark()
                renewed = self._monotonic()
                self._refresh(schedule, report.clocks)
                self._next_look = self._monotonic() + self._look_spacing(report, renewed)
                self._sleep(LONG_SLEEP)
            log.info("%s: stopping", self.stop_reason)
        finally:
            schedule.shutdown()
            self._stop_courier(courier)
            self.sender.close()
            self.inbox.close()
            log.info("stopped")

    def _courier(self) -> Courier | CourierProcess:
        if self._courier_process:
            return CourierProcess(self.service, cap=self.cap, monotonic=self._monotonic)
        return Courier(
            self.service, self.sender, clock=self._clock, cap=self.cap, monotonic=self._monotonic
        )

    def _clocks_wanted(self) -> bool:
        """Does this pass look at the clocks: a job asked for it, a wave goes on, or the last
        look is CLOCK_SECONDS old?"""
        wanted = self._pass_wanted.is_set() or bool(self._due_left)
        self._pass_wanted.clear()
        return wanted or self._monotonic() >= self._next_look

    def _look_spacing(self, report: PollReport, renewed: float) -> float:
        """How long after this look the next one comes, at the latest: CLOCK_SECONDS, or
        more if the look (and the schedule's renewal after it, from `renewed`) took more than
        LOOK_SHARE of that. Only a look that found nothing to do (report.clocks) counts: one
        that resolved turns was not the reading's cost."""
        if report.clocks is None:
            return CLOCK_SECONDS
        took = report.look_seconds + self._monotonic() - renewed
        return max(CLOCK_SECONDS, took / LOOK_SHARE)

    def _refresh(self, schedule: DaemonSchedule, clocks: list[Clock] | None = None) -> None:
        try:
            schedule.refresh_games(clocks)
            schedule.refresh_outbox()
        except Exception:  # the database went away since the pass: the safety poll remains
            log.exception("cannot renew the schedule; the next safety poll will")

    def _stop_courier(self, courier: Courier | CourierProcess) -> None:
        # A send in hand ends at the SMTP timeout at the latest; a little more for the commit.
        if not courier.stop(timeout=self.service.settings.smtp.timeout_seconds + 5.0):
            log.warning("a send still hangs; its mail stays queued for the next start")

    def _sleep(self, seconds: float) -> None:
        log.debug("sleeping up to %.1fs", seconds)
        try:
            self._sleeping = True
            if not self._stop_requested:  # a signal may have come just before
                self.inbox.wait_for_mail(seconds, self._woken, LOOK_SECONDS)
        except _WakeUp:
            pass
        finally:
            self._sleeping = False  # from here on, a signal only sets the flag

    def _rest(self, seconds: float) -> None:
        """Wait out the backoff after a failed pass, whatever the inbox holds: the mail that met
        the fault is still there, and waiting for mail would end at once (a pass a millisecond
        while the database is away). A stop ends the rest at its next step."""
        log.debug("resting %.1fs after a failed pass", seconds)
        end = self._monotonic() + seconds
        try:
            self._sleeping = True
            while not self._stop_requested and (left := end - self._monotonic()) > 0:
                self._rest_step(min(LOOK_SECONDS, left))
        except _WakeUp:
            pass
        finally:
            self._sleeping = False

    def _woken(self) -> bool:
        """Asked every LOOK_SECONDS while asleep: a job wants a pass, or a stop was asked
        (from a thread; a signal cuts the sleep itself)."""
        return self._pass_wanted.is_set() or self._stop_requested

    def _outbox_watch(self, courier: Courier | CourierProcess) -> OutboxWatch:
        return OutboxWatch(self.service, courier, self._pass_wanted)


class OutboxWatch:
    """The schedule's outbox watch: has another process queued mail since the last look (a
    referee's command on the command line, `pbem game pause`)? Then the courier sends it now,
    and a pass renews the games' jobs from what that process changed. Only rows newer than the
    last pass count (`mark`): the pass's own mail goes by the courier's wake after the pass,
    and mail waiting for a retry or the rate limit has its own job."""

    def __init__(
        self, service: Service, courier: Courier | CourierProcess, pass_wanted: threading.Event
    ) -> None:
        self.service = service
        self.courier = courier
        self.pass_wanted = pass_wanted
        self.seen = -1  # no look yet: the first mark or look sets it

    def mark(self) -> None:
        """After a pass: what is queued now is known."""
        newest = self._newest()
        if newest is not None:
            self.seen = newest

    def __call__(self) -> None:
        newest = self._newest()
        if newest is None:
            return
        if self.seen >= 0 and newest > self.seen:
            self.courier.wake()
            self.pass_wanted.set()
        self.seen = newest

    def _newest(self) -> int | None:
        try:
            return last_outbox_id(self.service)
        except Exception:  # noqa: BLE001 - the database away: the next pass will say so
            return None


def stop_on_signals(daemon: Daemon) -> None:
    """SIGTERM (systemd, docker stop) and SIGINT (Ctrl-C) ask the daemon to stop."""

    def handler(signum: int, _frame: FrameType | None) -> None:
        daemon.request_stop(signal.Signals(signum).name)
        if daemon.sleeping:
            raise _WakeUp  # out of IDLE (or a poll sleep) at once, in the main thread

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)
