"""One daemon to a SQLite database: a second `pbem serve` on the same file is refused.

SQLite takes one writer at a time for the whole file, and pbem's sharing of work between
daemons rests on PostgreSQL's row locks (FOR UPDATE SKIP LOCKED), which SQLite does not have;
two daemons on one SQLite file would send mail twice. The lock is an flock on a file beside
the database, which the system lets go of when the process ends, however it ends (a SIGKILL
included), so a crashed daemon never leaves a stale lock behind.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine

from pbem.errors import UsageError
from pbem.files import PRIVATE_FILE


def lock_path(db: Engine) -> Path | None:
    """The lock file of a SQLite database file; None for PostgreSQL or an in-memory one."""
    database = db.url.database
    if db.dialect.name != "sqlite" or not database or database == ":memory:":
        return None
    return Path(f"{database}.serve-lock")


@contextmanager
def only_daemon(db: Engine) -> Iterator[None]:
    """Hold the database's daemon lock while the block runs; UsageError if another process
    holds it."""
    path = lock_path(db)
    if path is None:
        yield
        return
    # Made its user's alone whatever the umask, as the database's other lock files are.
    opened = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, PRIVATE_FILE)
    with open(opened, "a+", encoding="ascii") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "?"
            raise UsageError(
                f"another pbem serve (pid {holder}) is running on the SQLite database "
                f"{db.url.database}: SQLite takes one daemon at a time. To run several, "
                "use PostgreSQL (docs/operations.md, 'Several daemons')."
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
