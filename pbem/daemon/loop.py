"""The daemon: four runners, each woken by its Wake (pbem.daemon.wake), and the one clock that
sets those wakes on time (pbem.daemon.schedule).

- Intake (`MailIn`, pbem.daemon.runners) runs in the main thread, which owns the IMAP
  connection: it takes the waiting mail in, then waits on the inbox (IDLE) until mail comes
  or its wake is set.
- The clocks (`Clocks`) run in a thread of their own: a deadline's job wakes them for that
  game, a mail that made work due for its game, the safety poll for every game.
- The courier (pbem.daemon.courier, a thread) drains the outbox when woken, so a slow SMTP
  server never holds up intake or the turns.
- The web archive's writer (`Archive`, a thread), when the command line hands one in: the
  games changed in the runners' commits (pbem.store.changes), written one at a time while
  the clocks have no look in hand.

At a start the clocks look at every game first; the courier sends replies at once, and bulk
mail only once that look is done, so that an outage's overdue deadlines are pushed back (and
stale notices superseded) before any of it goes. Intake starts at once. `run_once` (serve
--once) does each runner's work once, in this thread, with no scheduler.

A stop request is honoured between units of work: the mail being received is finished (its
transaction committed, the IMAP message marked), the game in hand resolved, the mail in hand
sent; then the connections are closed. A signal that comes while intake waits ends the wait
at once. Several daemons on PostgreSQL share the inbox out by claims (pbem.store.claims) and
the outbox by row locks (pbem.store.outbox_hold).
"""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable
from datetime import datetime
from types import FrameType

from pbem.clock.run import ClockSummary
from pbem.daemon.courier import Courier
from pbem.daemon.runners import Archive, Clocks, MailIn, Retries
from pbem.daemon.schedule import DaemonSchedule, Woken
from pbem.daemon.transport import PacedSender, WaitingInbox
from pbem.daemon.wake import Due
from pbem.games.service import Service
from pbem.intake.poll import PollReport, poll_once
from pbem.store import utcnow

log = logging.getLogger(__name__)
LONG_SLEEP = 86400.0  # intake waits for mail or its wake; this only bounds the wait


class _WakeUp(BaseException):
    """Raised by the signal handler into a waiting intake. A BaseException, so that no
    `except Exception` on the way (in a library) can swallow it."""


class Daemon:
    def __init__(
        self,
        service: Service,
        inbox: WaitingInbox,
        sender: PacedSender,
        *,
        clock: Callable[[], datetime] = utcnow,
        archive: Callable[[str], None] | None = None,
    ) -> None:
        self.service = service
        self.inbox = inbox
        self.sender = sender
        self._clock = clock
        self._stop_requested = False
        self.stop_reason = ""
        self._sleeping = False
        self.schedule: DaemonSchedule | None = None  # while running
        self._courier: Courier | None = None
        # The clocks' first look at a start is done: an outage's deadlines pushed back and
        # stale notices superseded before the courier sends bulk mail (a reply never waits).
        self._looked = threading.Event()
        self.clocks = Clocks(
            service,
            clock=clock,
            stopping=self.stopping,
            courier=self._wake_courier,
            retries=Retries("the clocks' look", self.cap, self._retry("clocks")),
            renew=self._renew,
        )
        self.mail_in = MailIn(
            service,
            inbox,
            clock=clock,
            stopping=self.stopping,
            clocks=self.clocks.wake,
            courier=self._wake_courier,
            retries=Retries("intake", self.cap, self._retry("intake")),
        )
        # The web archive's writer, if the command line gave one: `archive(game_id)`.
        self.archive = (
            Archive(archive, stopping=self.stopping, foreground=self.clocks.foreground)
            if archive
            else None
        )

    @property
    def cap(self) -> float:
        return float(self.service.settings.service.max_wait_seconds)

    def stopping(self) -> bool:
        return self._stop_requested

    @property
    def sleeping(self) -> bool:
        return self._sleeping

    def request_stop(self, why: str = "asked to stop") -> None:
        """Stop after the work in hand (see stop_on_signals)."""
        self._stop_requested = True
        self.stop_reason = why  # logged by the loop: a signal handler should not log
        self.mail_in.wake.set()
        self.clocks.wake.set()

    def run_once(self) -> PollReport | None:
        """Each runner's work once, in this thread; None if it failed as a whole (logged)."""
        try:
            return poll_once(
                self.service, self.inbox, self.sender, now=self._clock(), stop=self.stopping
            )
        except Exception:  # serve --once says so in its exit code
            log.exception("pass failed")
            return None

    def run(self) -> None:
        """The runners until a stop is requested; closes the inbox at the end."""
        log.info("serving (a safety poll every %.0fs)", self.cap)
        courier = self._courier = self._new_courier()
        schedule = self.schedule = DaemonSchedule(
            self.service,
            clock=self._clock,
            safety_seconds=self.cap,
            wake=Woken(self.mail_in.wake.set, self.clocks.wake.set, courier.wake),
        )
        courier.after_drain = schedule.refresh_outbox
        courier.start()
        courier.wake()  # the replies waiting from before go now; bulk mail after the first look
        try:
            self.clocks.wake.set()  # every game; bulk mail waits for this first look
            self.clocks.start()
            if self.archive is not None:
                self.archive.start()
                # The archive's writes go by its runner, not the committer.
                self.service.store.unwatch_changes()
                self.service.store.watch_changes(self.archive.changed)
            schedule.start()
            self._take_mail_in()
            log.info("%s: stopping", self.stop_reason)
        finally:
            if self.archive is not None:
                self.service.store.unwatch_changes()
            schedule.shutdown()
            self._stop_runners(courier)
            self.sender.close()
            self.inbox.close()
            log.info("stopped")

    def _take_mail_in(self) -> None:
        """Intake's loop, in this thread."""
        while not self._stop_requested:
            report = self.mail_in.step()
            if self._stop_requested:
                break
            if report is None:  # failed: its retry's job wakes it
                self._wait(self.mail_in.rest)
            elif report.only_elsewhere:
                self._look_again()
                self._wait(self.mail_in.rest)
            else:
                self._wait(lambda: self.mail_in.wait(LONG_SLEEP))

    def _look_again(self) -> None:
        if self.schedule is not None:
            self.schedule.look_again()

    def _new_courier(self) -> Courier:
        bulk = threading.Event()  # set after the clocks' first look (send_bulk)
        return Courier(self.service, self.sender, clock=self._clock, cap=self.cap, bulk=bulk)

    def _wake_courier(self) -> None:
        if self._courier is not None:
            self._courier.wake()

    def _retry(self, runner: str) -> Callable[[float], None]:
        """How a runner asks the schedule for its next try (no schedule: serve --once)."""

        def retry(seconds: float) -> None:
            wake = self.mail_in.wake.set if runner == "intake" else self.clocks.wake.set
            if self.schedule is not None:
                self.schedule.retry(runner, seconds, wake)

        return retry

    def _renew(self, summary: ClockSummary, due: Due) -> None:
        """After a look of the clocks: the looked-at games' jobs at their next wakeups."""
        if self.schedule is None:
            return
        if due.everything and not self._looked.is_set() and self._courier is not None:
            self._looked.set()  # the start's look is done: bulk mail may go
            self._courier.send_bulk()
        if due.everything:
            self.schedule.renew_games(summary.games)
        else:
            self.schedule.renew_games(only=due.games)

    def _stop_runners(self, courier: Courier) -> None:
        # A turn in hand ends with its transaction; a send in hand at the SMTP timeout at the
        # latest; a little more for the commit.
        patience = self.service.settings.smtp.timeout_seconds + 5.0
        if not self.clocks.stop(timeout=patience):
            log.warning("a turn is still being resolved; it is rolled back at exit")
        if self.archive is not None and not self.archive.stop(timeout=patience):
            log.warning("a game's web archive is still being written; the next change writes it")
        if not courier.stop(timeout=patience):
            log.warning("a send still hangs; its mail stays queued for the next start")

    def _wait(self, wait: Callable[[], None]) -> None:
        try:
            self._sleeping = True
            if not self._stop_requested:  # a signal may have come just before
                wait()
        except _WakeUp:
            pass
        finally:
            self._sleeping = False  # from here on, a signal only sets the flag


def stop_on_signals(daemon: Daemon) -> None:
    """SIGTERM (systemd, docker stop) and SIGINT (Ctrl-C) ask the daemon to stop."""

    def handler(signum: int, _frame: FrameType | None) -> None:
        daemon.request_stop(signal.Signals(signum).name)
        if daemon.sleeping:
            raise _WakeUp  # out of IDLE (or a rest) at once, in the main thread

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)
