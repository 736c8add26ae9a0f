"""`pbem serve` as a process rides out its database going away: with PostgreSQL cut off (a
proxy between them, stopped), a SQLite file locked by another process past the wait
allowed, the SQLite files made read-only under it, or the disk under a SQLite file full, the
order mails that arrive meanwhile stay in
the inbox, each pass fails and waits its backoff, the daemon stays up, and once the database
is back every mail is answered once and the turn is played."""

from __future__ import annotations

import errno
import re
import signal
import sqlite3
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pbem.config import Settings
from pbem.store import utcnow
from tests.servers.moderated import Table, inbound_rows, seated_table, turn_of_game, unsent
from tests.servers.test_daemon_on_real_mail import expected
from tests.servers.test_several_daemons import Fleet
from tests.servers.world import MailWorld
from tests.support.databases import migrated_engine, postgres_database
from tests.support.proxy import Proxy
from tests.support.waiting import wait_until


@pytest.fixture
def cut_off(
    world: MailWorld, settings: Settings, tmp_path: Path
) -> Iterator[tuple[Table, Proxy, Fleet]]:
    """A table whose daemon reaches PostgreSQL through a proxy; the test reads it directly."""
    with postgres_database() as url:
        engine = migrated_engine(url)
        proxy = Proxy(5432)
        proxy.start()
        table = seated_table(world, engine, settings, utcnow(), tmp_path)
        through = url.replace("127.0.0.1:5432", f"127.0.0.1:{proxy.port}")
        config = table.config.read_text().replace(f'url = "{url}"', f'url = "{through}"')
        assert through in config
        table.config.write_text(config)
        fleet = Fleet(table.config, tmp_path)
        try:
            yield table, proxy, fleet
        finally:
            fleet.close()
            proxy.stop()
            engine.dispose()


@pytest.fixture
def locked(
    world: MailWorld, settings: Settings, tmp_path: Path
) -> Iterator[tuple[Table, sqlite3.Connection, Fleet]]:
    """A table on a SQLite file its daemon waits 0.5 s for, and a connection to lock it."""
    engine = migrated_engine(f"sqlite:///{tmp_path / 'pbem.db'}")
    table = seated_table(world, engine, settings, utcnow(), tmp_path)
    config = table.config.read_text().replace("[database]\n", "[database]\nbusy_seconds = 0.5\n")
    table.config.write_text(config)
    other = sqlite3.connect(tmp_path / "pbem.db", isolation_level=None)
    fleet = Fleet(table.config, tmp_path)
    try:
        yield table, other, fleet
    finally:
        fleet.close()
        other.close()
        engine.dispose()


@pytest.fixture
def small_disk(
    world: MailWorld, settings: Settings, tmp_path: Path
) -> Iterator[tuple[Table, Path, Fleet]]:
    """A table on a SQLite file alone on a small filesystem of its own (a tmpfs of 32 MB),
    and the path of a file that fills it."""
    disk = tmp_path / "disk"
    disk.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=32m", "tmpfs", str(disk)], check=True)
    try:
        engine = migrated_engine(f"sqlite:///{disk / 'pbem.db'}")
        table = seated_table(world, engine, settings, utcnow(), tmp_path)
        fleet = Fleet(table.config, tmp_path)
        try:
            yield table, disk / "filler", fleet
        finally:
            fleet.close()
            engine.dispose()
    finally:
        subprocess.run(["umount", "--lazy", str(disk)], check=True)


@pytest.fixture
def read_only(
    world: MailWorld, settings: Settings, tmp_path: Path
) -> Iterator[tuple[Table, Path, Fleet]]:
    """A table on a SQLite file in a folder of its own, which the test makes read-only."""
    folder = tmp_path / "database"
    folder.mkdir()
    engine = migrated_engine(f"sqlite:///{folder / 'pbem.db'}")
    table = seated_table(world, engine, settings, utcnow(), tmp_path)
    fleet = Fleet(table.config, tmp_path)
    try:
        yield table, folder, fleet
    finally:
        _immutable(folder, False)
        fleet.close()
        engine.dispose()


def _immutable(folder: Path, on: bool) -> None:
    """Make the folder, the database and its -wal immutable, or writable again. Immutable
    holds for root too, and for files open already: writing them fails (on ext4, where the
    tests run), and opening the database to write fails. Not the -shm: SQLite maps it into
    memory, and a write to the mapping of an immutable file kills the process (SIGBUS), as it
    would on a file system gone read-only; the SIGKILL tests cover a daemon killed."""
    paths = [str(folder), *(str(path) for path in folder.iterdir() if path.suffix != ".db-shm")]
    subprocess.run(["chattr", "+i" if on else "-i", *paths], check=True)
    if on:
        with pytest.raises(PermissionError):  # the fault is real, not a flag the system ignores
            (folder / "pbem.db").open("ab").close()


def _fill(path: Path) -> None:
    """Write `path` until its filesystem has no room left."""
    block = b"\0" * (1 << 20)
    with path.open("wb") as filler:
        try:
            while True:
                filler.write(block)
                filler.flush()
        except OSError as error:
            assert error.errno == errno.ENOSPC, error


def test_the_daemon_rides_out_postgresql_going_away(
    cut_off: tuple[Table, Proxy, Fleet],
) -> None:
    table, proxy, fleet = cut_off
    # Two failures: the pooled connection lost under a statement (connections are pinged
    # only after a while idle, pbem.store.db), then the new ones refused until it is back.
    _ride_out(
        table, fleet, proxy.stop, proxy.start, "server closed the connection|Connection refused"
    )


def test_the_daemon_rides_out_a_sqlite_file_locked_too_long(
    locked: tuple[Table, sqlite3.Connection, Fleet],
) -> None:
    table, other, fleet = locked
    _ride_out(
        table, fleet, lambda: other.execute("BEGIN EXCLUSIVE"), other.rollback, "database is locked"
    )


def test_the_daemon_rides_out_the_disk_under_sqlite_filling_up(
    small_disk: tuple[Table, Path, Fleet],
) -> None:
    table, filler, fleet = small_disk
    _ride_out(table, fleet, lambda: _fill(filler), filler.unlink, "database or disk is full")


def test_the_daemon_rides_out_its_sqlite_files_made_read_only(
    read_only: tuple[Table, Path, Fleet],
) -> None:
    table, folder, fleet = read_only
    _ride_out(
        table, fleet, lambda: _immutable(folder, True), lambda: _immutable(folder, False),
        "readonly database|disk I/O error|unable to open database file",
    )  # fmt: skip


def _ride_out(
    table: Table, fleet: Fleet, fault: Callable[[], object], mend: Callable[[], object], why: str
) -> None:
    """`why`: a regular expression each failed try's line matches."""
    fleet.start(0)
    assert table.wait_for_subjects(1, timeout=30) == expected(0)

    orders = table.orders()
    fault()  # the database goes away ...
    table.post(orders)
    wait_until(lambda: len(_failures(table, "intake")) >= 3, timeout=60)
    assert fleet.running[0].poll() is None  # still up
    assert table.wait_for_subjects(1, timeout=0) == expected(0)  # nobody answered yet

    mend()  # ... and comes back
    assert table.wait_for_subjects(3, timeout=60) == expected(1)
    wait_until(lambda: unsent(table.service) == 0, timeout=30)
    assert inbound_rows(table.service) == [("accepted", 1)] * 3
    assert turn_of_game(table.service) == 2
    wait_until(lambda: fleet.handles_sigterm(0), timeout=10)
    assert fleet.stop(0, signal.SIGTERM) == 0
    # Each runner (intake, and the clocks when woken meanwhile): one traceback for each
    # distinct failure (a read-only file fails a write one way and a BEGIN another), then a
    # line a failed try; each waited out, longer each time (backed off, not spun).
    for runner in ("intake", "the clocks' look"):
        failed = _failures(table, runner)
        if runner == "intake" or failed:
            _backed_off(runner, failed, why)


def _failures(table: Table, runner: str) -> list[str]:
    return [line for line in table.log.read_text().splitlines() if f"{runner} failed" in line]


def _backed_off(runner: str, failed: list[str], why: str) -> None:
    assert f"{runner} failed; trying again in 1s" in failed[0]
    distinct = [line for line in failed if f"{runner} failed; trying again" in line]
    repeated = [line for line in failed if f"{runner} failed again (" in line]
    assert len(distinct) + len(repeated) == len(failed) and len(distinct) <= len(why.split("|"))
    assert all(re.search(why, line) for line in repeated)
    waits = [int(line.rsplit(" in ", 1)[1].rstrip("s")) for line in failed]
    assert waits == sorted(waits)
