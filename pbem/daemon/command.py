"""`pbem serve`: the daemon on the command line, or one pass of it with --once (for cron)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from datetime import datetime

from pbem.daemon.loop import Daemon, stop_on_signals
from pbem.daemon.start import migrate_at_start, reach_database, stop_requests
from pbem.daemon.transport import open_transport
from pbem.errors import UsageError
from pbem.games.outbox_prune import described
from pbem.games.seat_passwords import check_key
from pbem.games.service import Service
from pbem.games.site_links import site_secret
from pbem.intake.poll import PollReport
from pbem.logs import configure_logging
from pbem.store import Outbox, utc, utcnow
from pbem.store.migrate import check_present

Handler = Callable[[argparse.Namespace], int]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser], handler: Handler) -> None:
    text = "run the moderator: take mail in, resolve due turns, send mail, until stopped"
    serve = sub.add_parser("serve", help=text, description=text)
    serve.set_defaults(handler=handler)
    serve.add_argument("--once", action="store_true", help="one pass, then exit (cron, tests)")


def serve(
    service: Service,
    *,
    once: bool,
    now: datetime | None = None,
    archive: Callable[[str], None] | None = None,
) -> int:
    """Run until SIGTERM/SIGINT (0), or one pass with `once`: 0, or 1 if the pass failed as
    a whole (the database unreachable too), could not read the inbox or failed a game's clock
    work (PollReport.failed). The database must be there (`pbem init`); one that does not
    answer yet is waited for, one that is behind is migrated (pbem.daemon.start). `archive`:
    the web archive's writer of one game, run by the daemon's archive runner."""
    if now is not None and not once:
        raise UsageError("--now goes with serve --once only: the daemon runs on the clock")
    check_present(service.settings.database.url)  # made by `pbem init`, as for every command
    configure_logging(service.settings.logging)
    # From here a SIGTERM is a stop, never a kill and never lost: noted until the daemon's
    # own handlers take over, and read by it then (systemd may stop a daemon while it starts).
    with stop_requests() as stopped:
        if not reach_database(service, once=once, stopped=stopped):
            return 0 if stopped else 1  # a stop came while starting, or the pass failed (cron)
        migrate_at_start(service)
        check_key(service.settings.security)  # a key misconfigured stops the start, not a mail
        if service.settings.web.enabled:  # so does a site secret that cannot be made or read
            site_secret(service.settings.web)
        with service.store.only_daemon():
            return _serve(service, once=once, now=now, stopped=stopped, archive=archive)


def _serve(
    service: Service,
    *,
    once: bool,
    now: datetime | None,
    stopped: list[str],
    archive: Callable[[str], None] | None,
) -> int:
    inbox, sender = open_transport(service.settings)
    clock = (lambda: now) if now is not None else utcnow
    daemon = Daemon(service, inbox, sender, clock=clock, archive=archive)
    if not once:
        stop_on_signals(daemon)
        for name in stopped:  # asked before the daemon's handlers were in
            daemon.request_stop(name)
        daemon.run()
        return 0
    try:
        report = daemon.run_once()
    finally:
        sender.close()
        inbox.close()
    if report is None:
        return 1
    for line in summary(report):
        print(line)
    return 1 if report.failed else 0


def summary(report: PollReport) -> list[str]:
    statuses = ", ".join(f"{count} {status}" for status, count in sorted(report.statuses.items()))
    lines = [f"mail in: {report.received} ({statuses or 'none'})"]
    if report.inbox_error:
        lines.append(f"inbox unavailable: {report.inbox_error}")
    for turn in report.turns:
        lines.append(
            f"resolved {turn.game} turn {turn.turn}" + (" - game over" if turn.ended else "")
        )
    if report.reminders:
        lines.append(f"reminders: {report.reminders} queued")
    if report.failed_games:
        lines.append(f"clock work failed for: {', '.join(report.failed_games)} (see the log)")
    drained = report.drained
    dropped = f", {drained.dropped} dropped" if drained.dropped else ""
    lines.append(
        f"mail out: {drained.sent} sent, {drained.failed} not sent, {drained.bounced} bounced"
        + dropped
    )
    if drained.stopped:
        lines.append(f"outbox stopped: {drained.stopped}")
    if report.pruned.mails:
        lines.append(f"outbox: {described(report.pruned)}")
    return lines


def outbox_lines(service: Service, *, include_sent: bool = False) -> list[str]:
    """`pbem outbox list`: mail not sent (waiting, bounced or dropped), oldest first."""
    with service.store.transaction() as work:
        rows = work.outbox.listed(include_sent=include_sent)
    lines = [
        f"{row.id:>6} {utc(row.created_at):%Y-%m-%d %H:%M} {row.kind:<9} {row.recipient:<28} "
        f"{outbox_state(row):<22} {row.attempts:>2} {row.last_error[:60]}"
        for row in rows
    ]
    return lines or [
        "the outbox is empty" if include_sent else "no mail waiting, bounced or dropped"
    ]


def outbox_state(row: Outbox) -> str:
    if row.sent_at is not None:
        pruned = " pruned" if row.pruned_at is not None else ""  # its bytes dropped
        return f"sent {utc(row.sent_at):%m-%d %H:%M}{pruned}"
    if row.bounced_at is not None:
        return f"bounced {utc(row.bounced_at):%m-%d %H:%M}"
    if row.dropped_at is not None:
        return f"dropped {utc(row.dropped_at):%m-%d %H:%M}"
    if row.next_attempt_at is not None:
        return f"retry {utc(row.next_attempt_at):%m-%d %H:%M}"
    return "waiting"
