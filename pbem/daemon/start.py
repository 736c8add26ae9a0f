"""The start of `pbem serve`: the database reached, then brought up to date.

A daemon started before its database (a boot where PostgreSQL comes up later, a database
server restarting) waits for it as the loop waits out an outage once running: tries again
after delays that double from 1 s up to [service] max_wait_seconds, a log line a try, until
it answers or SIGTERM/SIGINT ends the wait. One pass (`--once`, for cron) does not wait: the
pass fails, in one line, and cron tries again at its next run."""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

from pbem.games.service import Service
from pbem.mail.backoff import Backoff

log = logging.getLogger(__name__)
STEP_SECONDS = 1.0  # a stop asked while waiting ends the wait within this


def reach_database(
    service: Service,
    *,
    once: bool,
    stopped: list[str],
    sleep: Callable[[float], None] = time.sleep,
) -> bool:
    """True once the database answers; False when it does not and `once`, or when a stop was
    asked (`stopped`, see stop_requests) before or while waiting (both logged)."""
    backoff = Backoff(1.0, float(service.settings.service.max_wait_seconds))
    while not stopped and (problem := unreachable(service)) and not once:
        delay = backoff.failed()
        log.error("database unreachable (%s); trying again in %.0fs", problem, delay)
        _wait(delay, stopped, sleep)
    if stopped:
        log.info("%s: stopping", stopped[0])
        return False
    if problem:
        log.error("database unreachable: %s", problem)
        print(f"database unreachable: {problem}")
        return False
    return True


def unreachable(service: Service) -> str:
    """Why the database does not answer (the driver's first line), or ''."""
    return service.store.why_unreachable()


def migrate_at_start(service: Service) -> None:
    """Apply pending migrations ([database] migrate = "auto", what an upgrade needs), or
    refuse with what to do ("refuse")."""
    database = service.settings.database
    pending = service.store.pending_revisions()
    if pending and database.migrate == "refuse":
        raise service.store.not_ready(database.url, pending)
    if pending:
        service.store.upgrade()
        print(f"database {database.url}: applied {', '.join(sorted(pending))}")


def _wait(seconds: float, stopped: list[str], sleep: Callable[[float], None]) -> None:
    """Sleep `seconds` in steps, or until a stop is asked."""
    end = time.monotonic() + seconds
    while not stopped and (left := end - time.monotonic()) > 0:
        sleep(min(STEP_SECONDS, left))


@contextmanager
def stop_requests() -> Iterator[list[str]]:
    """While the block runs, SIGTERM and SIGINT are noted (their name in the list) rather
    than killing the process, until the daemon puts its own handlers in (and it reads the
    list: a stop asked during the start is a stop, exit 0, whenever it came); the handlers
    before are put back after."""
    stopped: list[str] = []
    if threading.current_thread() is not threading.main_thread():
        yield stopped  # only the main thread may set handlers; a caller's thread stops so
        return

    def note(signum: int, _frame: FrameType | None) -> None:
        stopped.append(signal.Signals(signum).name)

    before = {sig: signal.signal(sig, note) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield stopped
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)
