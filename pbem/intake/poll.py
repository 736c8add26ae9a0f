"""One pass of the moderator: take every waiting mail in (marking them done, together, only
after their transactions committed), do the clocks' work that is due (turns, reminders), and
drain the outbox (unless the caller sends apart, as the daemon does).

An inbox that cannot be reached (the IMAP server is away) ends the intake part of the pass
only: deadlines and the outbox must keep running while it is away."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, field
from datetime import datetime

from pbem.clock import run_due
from pbem.clock.run import ClockSummary
from pbem.clock.turns import TurnSummary
from pbem.games.outbox import DrainReport, drain
from pbem.games.outbox_prune import Pruned
from pbem.games.protocols import Inbox, InboxItem, Sender
from pbem.games.service import Service
from pbem.intake.ahead import Ahead
from pbem.intake.intake import Looked, receive
from pbem.intake.receipt import Receipt
from pbem.logs import log_context
from pbem.mail.imap import ImapUnavailable

log = logging.getLogger(__name__)


def _never() -> bool:
    return False


@dataclass
class PollReport:
    statuses: Counter[str] = field(default_factory=Counter)
    turns: list[TurnSummary] = field(default_factory=list)
    reminders: int = 0  # reminder mails the clocks queued
    drained: DrainReport = field(default_factory=lambda: DrainReport(0, 0))
    inbox_error: str = ""  # why intake stopped early (the inbox was unreachable), or ""
    failed_games: list[str] = field(default_factory=list)  # games whose clock work raised
    elsewhere: int = 0  # waiting mails another daemon had in hand: left to it
    # The games a mail may have made clock work due in (Receipt.clock_work); None: a mail of
    # no one game (every game is looked at).
    clock_games: set[str | None] = field(default_factory=set)
    pruned: Pruned = field(default_factory=Pruned)  # sent mail whose bytes the clocks dropped

    @property
    def only_elsewhere(self) -> bool:
        """Every mail seen was in another daemon's hands: looking again at once would only
        find them again."""
        return bool(self.elsewhere) and not self.received

    @property
    def failed(self) -> bool:
        """The pass could not do its work: the inbox was unreachable or a game's clock work
        failed (`pbem serve --once` exits non-zero). Mail the transport could not send yet
        is no failure of the pass: it waits in the outbox, and `outbox stopped` says why."""
        return bool(self.inbox_error or self.failed_games)

    @property
    def received(self) -> int:
        return sum(self.statuses.values())


def take_in(
    service: Service,
    inbox: Inbox,
    *,
    now: datetime,
    stop: Callable[[], bool] = _never,
    report: PollReport | None = None,
) -> Counter[str]:
    """Receive every waiting mail, one transaction each. `stop` is asked between mails (a
    shutdown finishes the current one); `report`, if given, learns of an unreachable inbox
    and of the mail another daemon had in hand (pbem.store.claims), which is left to it."""
    statuses: Counter[str] = Counter()
    done: list[str] = []  # received and committed, to be marked done
    try:
        # Claims are let go of when the claims close, after the marks: another daemon then
        # finds the mail gone, not waiting, and does not look at it again.
        with service.store.claims() as claims, closing(Ahead(service, claims)) as ahead:
            items = inbox.pending()
            try:
                for index, item in enumerate(items):
                    if stop():
                        break
                    if not claims.take(item.key):
                        if report is not None:
                            report.elsewhere += 1
                        continue
                    ahead.begin(items, index)
                    receipt = _take_one(service, item, now, ahead.result(item.key))
                    done.append(item.key)
                    statuses[receipt.status] += 1
                    if report is not None and receipt.clock_work:
                        report.clock_games.add(receipt.game_id)
            except BaseException:
                _mark_done_failing(inbox, done)
                raise
            # After the commits, all at once: a crash before here means a redo, which the
            # Message-ID stops at the look-ahead (recorded already) without a second answer.
            if done:
                inbox.mark_done(*done)
    except ImapUnavailable as error:
        # Whatever was received is committed; unmarked mail comes again and is a duplicate.
        log.warning("inbox unavailable: %s", error)
        if report is not None:
            report.inbox_error = str(error)
    return statuses


def _mark_done_failing(inbox: Inbox, done: list[str]) -> None:
    """Mark the mail committed before a failure done, if the inbox lets us: the failure (a
    database fault, say) is the one told, not an inbox gone away with it. Unmarked, the mails
    come again and are found recorded."""
    if not done:
        return
    try:
        inbox.mark_done(*done)
    except Exception as error:  # noqa: BLE001 - the inbox away: the first fault is told
        log.warning("%d mail(s) taken in but not marked done: %s", len(done), error)


def _take_one(service: Service, item: InboxItem, now: datetime, looked: Looked | None) -> Receipt:
    """Receive one mail (`looked` at ahead, or not); the caller marks it done."""
    with log_context(message=item.key):
        receipt = receive(service, item.raw, now=now, looked=looked)
    with log_context(game=receipt.game_id or "-", message=receipt.message_id):
        log.info("mail in: %s (%s)", receipt.status, receipt.outcome)
    return receipt


def poll_once(
    service: Service,
    inbox: Inbox,
    sender: Sender | None,
    *,
    now: datetime,
    stop: Callable[[], bool] = _never,
) -> PollReport:
    """Each runner's work once, in this thread (`pbem serve --once`, cron): intake, the
    clocks of every game, then the outbox (unless `sender` is None)."""
    report = PollReport()
    report.statuses = take_in(service, inbox, now=now, stop=stop, report=report)
    if stop():  # a shutdown: the turns and the outbox are safe to leave for the next start
        return report
    clocks = run_due(service, now, enough=stop)
    log_clock_work(clocks)
    report.turns, report.reminders = clocks.turns, clocks.reminders
    report.failed_games, report.pruned = list(clocks.failed), clocks.pruned
    if stop():
        return report
    if sender is not None:
        report.drained = drain(service, sender, now=now, stop=stop)
        log_drained(report.drained)
    return report


def log_clock_work(clocks: ClockSummary) -> None:
    if clocks.reminders:
        log.info("%d reminder(s) queued", clocks.reminders)
    for turn in clocks.turns:
        with log_context(game=turn.game):
            log.info("turn %d resolved%s", turn.turn, " - game over" if turn.ended else "")


def log_drained(drained: DrainReport) -> None:
    if drained.sent or drained.failed or drained.dropped:
        log.info(
            "mail out: %d sent, %d not sent%s%s",
            drained.sent,
            drained.failed,
            f", {drained.dropped} stale dropped" if drained.dropped else "",
            f" (stopped: {drained.stopped})" if drained.stopped else "",
        )
