"""The daemon's runners, in the manner of Mailman 3's core: each owns one queue or one kind
of due work, waits on one `Wake` (pbem.daemon.wake) until there may be work, then does it
one unit per transaction. The schedule (pbem.daemon.schedule, the one clock) and the other
runners wake them. The timing a runner keeps is only what lives in it: intake asks its wake
while the inbox's wait goes on (IMAP IDLE ends at the server's word alone), and the clocks'
look prunes sent mail at most every pbem.games.outbox_prune.EVERY.

- `MailIn` owns the inbox: every waiting mail taken in, one transaction each, then a wait on
  the inbox itself (IMAP IDLE) until mail comes or its Wake is set. A mail that may have made
  clock work due (the last orders of a turn, a referee's command) wakes the clocks for its
  game, and the courier for its reply.
- `Clocks` owns the due work of the games: the turns, the reminders, the outage push-back,
  the pruning of sent mail (pbem.clock.run), one game per transaction; for the games its
  Wake names (a deadline's job, a mail), or for every game (the start, the safety poll).
  After a look it lays the named games' jobs anew in the schedule.
- The courier (pbem.daemon.courier) owns the outbox, and keeps its sender's pacing.
- `Archive` owns the web archive's writes (pbem.web, handed in by the command line): the
  games whose players were told of a change, one game at a time, after the commits of the
  other runners, so that drawing a turn's map and chart holds up no reply, and a look of the
  clocks by one game's write at most (pbem.daemon.wake.Foreground).

A runner whose work fails as a whole (the database is away) logs it and asks the schedule to
wake it again after a growing delay (`retry`); one game's failure never reaches here.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime

from pbem.clock import run_due
from pbem.clock.run import ClockSummary
from pbem.daemon.transport import WaitingInbox
from pbem.daemon.wake import Due, Foreground, Wake
from pbem.games.service import Service
from pbem.intake.poll import PollReport, log_clock_work, take_in
from pbem.mail.backoff import Backoff

log = logging.getLogger(__name__)


class Retries:
    """A runner's growing delay after work that failed as a whole: the failure is logged
    (its traceback once while the same fault lasts), and the schedule wakes the runner again
    after the delay."""

    def __init__(self, what: str, cap: float, retry: Callable[[float], None]) -> None:
        self._what = what
        self._backoff = Backoff(1.0, cap)
        self._retry = retry
        self._last = ""  # what the last failure failed with

    def failed(self, error: Exception) -> None:
        delay = self._backoff.failed()
        first = str(error).strip().splitlines()[0] if str(error).strip() else ""
        what = f"{type(error).__name__}: {first}"
        if what == self._last:
            log.error("%s failed again (%s); trying again in %.0fs", self._what, what, delay)
        else:
            log.exception("%s failed; trying again in %.0fs", self._what, delay)
        self._last = what
        self._retry(delay)

    def succeeded(self) -> None:
        if self._last:
            log.info("%s succeeded again after: %s", self._what, self._last)
        self._backoff.succeeded()
        self._last = ""


class MailIn:
    """The inbox's runner (in the daemon's main thread, which owns the IMAP connection)."""

    def __init__(
        self,
        service: Service,
        inbox: WaitingInbox,
        *,
        clock: Callable[[], datetime],
        stopping: Callable[[], bool],
        clocks: Wake,
        courier: Callable[[], None],
        retries: Retries,
    ) -> None:
        self.service = service
        self.inbox = inbox
        self.wake = Wake()  # the safety poll, a retry, a look again at mail held elsewhere
        self._clock = clock
        self._stopping = stopping
        self._clocks = clocks
        self._courier = courier
        self.retries = retries

    def step(self) -> PollReport | None:
        """Take every waiting mail in; None if that failed as a whole (logged, retried)."""
        report = PollReport()
        try:
            report.statuses = take_in(
                self.service, self.inbox, now=self._clock(), stop=self._stopping, report=report
            )
        except Exception as error:  # noqa: BLE001 - the daemon must outlive a failed step
            self.retries.failed(error)
            return None
        self.retries.succeeded()
        games = report.clock_games
        if None in games:  # a mail of no one game
            self._clocks.set()
        elif games:
            self._clocks.set(*(game for game in games if game is not None))
        if report.received and not self._stopping():  # a stop: the next start sends
            self._courier()
        return report

    def wait(self, seconds: float) -> None:
        """Until mail may be waiting, the wake is set, or `seconds` passed. After a failed
        step, or when every mail was in another daemon's hands, the inbox would answer at
        once (the mail is still there): then the wake alone is waited for."""
        self.inbox.wait_for_mail(seconds, self.wake)  # a stop sets the wake too
        self.wake.take()

    def rest(self) -> None:
        """Until the wake is set (a retry's job, a look again, the safety poll, a stop)."""
        if not self._stopping():
            self.wake.wait()
        self.wake.take()


class _Threaded:
    """A runner in a thread of its own: started, and stopped by its wake and `stopping`."""

    wake: Wake

    def __init__(self, name: str) -> None:
        self.wake = Wake()
        self._thread = threading.Thread(target=self.run, name=name, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float) -> bool:
        """Stop after the unit of work in hand; False if it did not end within `timeout`."""
        self.wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout)
        return not self._thread.is_alive()

    def run(self) -> None:
        raise NotImplementedError


class Clocks(_Threaded):
    """The games' due work (in a thread of its own)."""

    def __init__(
        self,
        service: Service,
        *,
        clock: Callable[[], datetime],
        stopping: Callable[[], bool],
        courier: Callable[[], None],
        retries: Retries,
        renew: Callable[[ClockSummary, Due], None],
    ) -> None:
        super().__init__("pbem-clocks")
        self.service = service
        self._clock = clock
        self._stopping = stopping
        self._courier = courier
        self.retries = retries
        self._renew = renew
        self.foreground = Foreground()  # the archive writes only while no look is in hand

    def run(self) -> None:
        while True:
            self.wake.wait()
            if self._stopping():
                return
            with self.foreground.look():
                self.step(self.wake.take())

    def step(self, due: Due) -> ClockSummary | None:
        """The work due in the games `due` names; None if that failed as a whole."""
        only = None if due.everything else due.games
        try:
            summary = run_due(self.service, self._clock(), only=only, enough=self._stopping)
            log_clock_work(summary)
            if summary.changed or summary.pruned.mails:
                self._courier()
            self._renew(summary, due)
        except Exception as error:  # noqa: BLE001 - the daemon must outlive a failed look
            self.retries.failed(error)
            return None
        self.retries.succeeded()
        return summary


class Archive(_Threaded):
    """The web archive's writer (in a thread of its own): each game its wake names written
    once, however many changes named it meanwhile, while the clocks have no look wanted or in
    hand (`foreground`: background work, so that a deadline wave's turns are all resolved and
    their reports queued first). `write` logs
    its own failures. A stop leaves the games not written yet to the next change of each (or
    `pbem web build`)."""

    def __init__(
        self,
        write: Callable[[str], None],
        *,
        stopping: Callable[[], bool],
        foreground: Foreground | None = None,
    ) -> None:
        super().__init__("pbem-archive")
        self._write = write
        self._stopping = stopping
        self._foreground = foreground or Foreground()

    def changed(self, game_id: str) -> None:
        """A committed change of the game (pbem.store.changes): write it when we come to it."""
        self.wake.set(game_id)

    def run(self) -> None:
        while True:
            self.wake.wait()
            for game_id in sorted(self.wake.take().games):
                with self._foreground.background():
                    if self._stopping():
                        return
                    self._write(game_id)
            if self._stopping():
                return
