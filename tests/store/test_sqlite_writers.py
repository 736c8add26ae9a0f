"""SQLite's write lock between the threads of one process (pbem.store.db._WriterQueue), and
between processes (pbem.store.write_turn)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

from sqlalchemy import Engine, event, text

from pbem.store import make_engine, reading, transaction, upgrade
from pbem.store.write_turn import FileTurn


def _engine(tmp_path: Path, busy_seconds: float = 30.0) -> Engine:
    engine = make_engine(f"sqlite:///{tmp_path / 'writers.db'}", busy_seconds=busy_seconds)
    upgrade(engine)
    return engine


def test_a_thread_that_asks_for_the_lock_gets_it_after_the_writer_that_holds_it(
    tmp_path: Path,
) -> None:
    """One thread writes back to back (as turns in a deadline wave do); another asks once (as
    the courier does to record a sent mail). It gets the lock when the transaction in hand
    ends, not when the busy one happens to leave a gap: SQLite's own wait sleeps between
    tries, and a writer that begins again at once wins every time."""
    engine = _engine(tmp_path)
    done, asked = threading.Event(), threading.Event()
    commits: list[float] = []

    def busy_writer() -> None:
        while not done.is_set() and len(commits) < 300:
            with transaction(engine) as session:
                session.execute(text("SELECT 1"))
                asked.set()
                time.sleep(0.01)  # a turn's work, with the lock held
            commits.append(time.monotonic())

    writer = threading.Thread(target=busy_writer)
    writer.start()
    asked.wait(5)
    time.sleep(0.05)
    began = time.monotonic()
    with transaction(engine) as session:
        session.execute(text("SELECT 1"))
        got = time.monotonic()
    done.set()
    writer.join()
    between = [moment for moment in commits if began < moment < got]
    # The one in hand when it asked (two if it asked just as one ended); without the queue
    # it waited for dozens.
    assert len(between) <= 2
    assert len(commits) < 300


def test_a_reading_session_does_not_queue_and_the_lock_is_given_back_after_a_failure(
    tmp_path: Path,
) -> None:
    engine = _engine(tmp_path, busy_seconds=1.0)
    with transaction(engine) as session:
        session.execute(text("SELECT 1"))
        with reading(engine) as other:  # beside a writer, in the same thread
            assert other.execute(text("SELECT 1")).scalar() == 1
    other_process = sqlite3.connect(tmp_path / "writers.db", isolation_level=None)
    other_process.execute("BEGIN IMMEDIATE")
    try:
        with transaction(engine) as session:  # SQLite's own wait, then it gives up
            session.execute(text("SELECT 1"))
    except Exception as error:
        assert "locked" in str(error)
    else:
        raise AssertionError("the other process held the lock")
    finally:
        other_process.rollback()
        other_process.close()
    started = time.monotonic()
    with transaction(engine) as session:  # the queue's turn was given back with the failure
        session.execute(text("SELECT 1"))
    assert time.monotonic() - started < 1.0  # not the queue's patience, spent waiting


def test_the_writer_handed_the_turn_never_meets_the_lock_still_held(tmp_path: Path) -> None:
    """The turn goes on once the COMMIT is done, not at SQLAlchemy's commit event before it:
    the next writer's BEGIN IMMEDIATE never meets SQLite's lock, so never sleeps in SQLite's
    busy wait (here none is allowed: a lock still held fails at once)."""
    engine = _engine(tmp_path)
    engine.dispose()
    event.listen(engine, "connect", lambda dbapi, _record: dbapi.execute("PRAGMA busy_timeout=0"))
    failures: list[Exception] = []

    def writer() -> None:
        for _ in range(150):
            try:
                with transaction(engine) as session:
                    session.execute(text("CREATE TABLE IF NOT EXISTS hits (n INTEGER)"))
                    session.execute(text("INSERT INTO hits VALUES (1)"))
            except Exception as error:
                failures.append(error)

    threads = [threading.Thread(target=writer) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    with reading(engine) as session:
        assert session.execute(text("SELECT count(*) FROM hits")).scalar() == 450


_BUSY_PROCESS = """
import sys, time
from sqlalchemy import text
from pbem.store import make_engine, transaction
engine = make_engine(sys.argv[1])
commits = []
while len(commits) < 300:
    with transaction(engine) as session:
        session.execute(text("SELECT 1"))
        time.sleep(0.01)  # a mail's work, with the lock held
    commits.append(time.monotonic())
    if len(commits) == 1:
        print("writing", flush=True)
print(" ".join(map(str, commits)), flush=True)
"""


def test_a_process_that_asks_for_the_lock_gets_it_after_another_process_that_writes_on(
    tmp_path: Path,
) -> None:
    """Another process writes back to back (the daemon's intake, seen from a command on the
    command line); this one asks once (the command's one write). It gets the lock when
    the transaction in hand ends (pbem.store.write_turn): with SQLite's own wait alone, it
    got it only when the other process stopped, 300 transactions later."""
    engine = _engine(tmp_path)
    busy = subprocess.Popen(
        [sys.executable, "-c", _BUSY_PROCESS, str(engine.url)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert busy.stdout is not None
    assert busy.stdout.readline().strip() == "writing"
    time.sleep(0.05)
    began = time.monotonic()
    with transaction(engine) as session:
        session.execute(text("SELECT 1"))
        got = time.monotonic()
    commits = [float(moment) for moment in busy.stdout.readline().split()]
    busy.wait(30)
    between = [moment for moment in commits if began < moment < got]
    assert len(commits) == 300
    assert len(between) <= 2, f"waited for {len(between)} of the other process's transactions"


def test_the_turn_between_processes_is_let_go_when_its_patience_runs_out(tmp_path: Path) -> None:
    database = str(tmp_path / "turns.db")
    holder, waiter = FileTurn(database, 5.0), FileTurn(database, 0.05)
    assert holder.take()
    started = time.monotonic()
    assert not waiter.take()  # held by the other: SQLite's own wait comes next
    assert 0.05 <= time.monotonic() - started < 1.0
    holder.give_back()
    assert waiter.take()
    waiter.give_back()
    assert not FileTurn(str(tmp_path / "no such folder" / "x.db"), 5.0).take()
