"""Three `pbem serve` processes on one PostgreSQL database, against the real mail servers,
share the inbox, the due turns and the outbox, and are killed with SIGKILL at random moments
through a game of several turns (each restarted at once). Counted at the end: every order
mail answered once, every turn resolved once, every report sent once; the only mail that
may reach a player twice is one a daemon handed to the SMTP server just before it was killed
(the same Message-ID again, at most one for each kill)."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine
from sqlmodel import col, select

from engine import get_ruleset
from pbem.config import Settings
from pbem.games.games import pending_turn
from pbem.store import Game, Outbox, Turn, loads, transaction, utcnow
from pbem.store.work import work_of
from tests.servers.moderated import (
    GAME,
    SEATS,
    Table,
    inbound_rows,
    seated_table,
    turn_of_game,
    unsent,
)
from tests.servers.world import MailWorld
from tests.support.databases import empty_all_tables
from tests.support.waiting import wait_until

REPO = Path(__file__).resolve().parents[2]
DAEMONS = 3
TURNS = 4


class Fleet:
    """`pbem serve --config FILE` processes, by number; each one's error output in a file."""

    def __init__(self, config: Path, folder: Path) -> None:
        self.config, self.folder = config, folder
        self.running: dict[int, subprocess.Popen[bytes]] = {}
        self.starts = Counter[int]()

    def start(self, number: int) -> None:
        self.starts[number] += 1
        errors = open(self.folder / f"daemon-{number}-{self.starts[number]}.err", "wb")  # noqa: SIM115
        self.running[number] = subprocess.Popen(
            [sys.executable, "-m", "pbem", "serve", "--config", str(self.config)],
            cwd=REPO,
            stdout=subprocess.DEVNULL,
            stderr=errors,
        )
        errors.close()

    def stop(self, number: int, signum: int) -> int:
        process = self.running.pop(number)
        process.send_signal(signum)
        try:
            return process.wait(timeout=60)
        finally:
            # One that did not stop is killed: left running, it would hold its connections
            # and deadlock the next tests' TRUNCATE (as it did once in CI).
            if process.poll() is None:
                process.kill()
                process.wait(timeout=10)

    def handles_sigterm(self, number: int) -> bool:
        """Whether the process has its SIGTERM handler in place (Linux: /proc's SigCgt)."""
        status = Path(f"/proc/{self.running[number].pid}/status").read_text()
        caught = next(line for line in status.splitlines() if line.startswith("SigCgt:"))
        return bool(int(caught.split()[1], 16) >> (signal.SIGTERM - 1) & 1)

    def close(self) -> None:
        for number in list(self.running):
            self.stop(number, signal.SIGKILL)


@pytest.fixture
def table(world: MailWorld, postgres_engine: Engine, settings: Settings, tmp_path: Path) -> Table:
    empty_all_tables(postgres_engine)
    return seated_table(world, postgres_engine, settings, utcnow(), tmp_path)


@pytest.fixture
def fleet(table: Table, tmp_path: Path) -> Iterator[Fleet]:
    fleet = Fleet(table.config, tmp_path)
    yield fleet
    fleet.close()


def _sorted(subjects: dict[str, list[str]]) -> dict[str, list[str]]:
    # Several daemons send in parallel: a seat's check reply may come after its report.
    return {seat: sorted(found) for seat, found in subjects.items()}


def _ordering(table: Table) -> list[str]:
    """The seats the pending turn waits for (a seat knocked out sends no more orders)."""
    with transaction(table.service.db) as session:
        game = session.get(Game, GAME)
        assert game is not None
        turn = pending_turn(work_of(session), game)
        assert turn is not None
        return get_ruleset(game.ruleset).seats_to_order(loads(turn.state_before))


def _expected(ordered: dict[str, list[int]], turns: int) -> dict[str, list[str]]:
    """Each seat's mail: the start mail, a check reply for each turn it ordered, a report a
    turn."""
    return {
        seat: sorted(
            [f"[g1] game begins: you are {seat}"]
            + [f"Re: turn {n}" for n in ordered[seat]]
            + [f"[g1] turn {n} report" for n in range(1, turns + 1)]
        )
        for seat in SEATS
    }


def _wait_for_mail(table: Table, wanted: dict[str, list[str]], seed: int) -> None:
    """Every seat's mail in, or what there is, in the failure."""
    try:
        wait_until(lambda: _sorted(table.distinct_subjects()) == wanted, timeout=90)
    except AssertionError:
        found = _sorted(table.distinct_subjects())
        state = (turn_of_game(table.service), inbound_rows(table.service), unsent(table.service))
        log = table.log.read_text().splitlines()[-40:]
        raise AssertionError(f"seed {seed}: {found} {state}\n" + "\n".join(log)) from None


def test_three_daemons_share_the_work_and_ride_out_random_kills(table: Table, fleet: Fleet) -> None:
    seed = random.randrange(1 << 30)
    chance = random.Random(seed)
    for number in range(DAEMONS):
        fleet.start(number)
    ordered: dict[str, list[int]] = {seat: [] for seat in SEATS}
    _wait_for_mail(table, _expected(ordered, 0), seed)
    kills = 0
    for turn in range(1, TURNS + 1):
        for seat in _ordering(table):
            ordered[seat].append(turn)
        assert table.send_orders() == turn
        time.sleep(chance.uniform(0.0, 1.5))  # somewhere in intake, resolution or sending
        victim = chance.randrange(DAEMONS)
        assert fleet.stop(victim, signal.SIGKILL) == -signal.SIGKILL, f"seed {seed}"
        kills += 1
        fleet.start(victim)
        _wait_for_mail(table, _expected(ordered, turn), seed)
    wait_until(lambda: unsent(table.service) == 0, timeout=60)
    # A daemon just restarted may not have its signal handlers yet: wait until each has.
    wait_until(lambda: all(fleet.handles_sigterm(n) for n in range(DAEMONS)), timeout=30)
    for number in range(DAEMONS):
        assert fleet.stop(number, signal.SIGTERM) == 0, f"seed {seed}"

    orders = sum(len(turns) for turns in ordered.values())
    assert inbound_rows(table.service) == [("accepted", 1)] * orders
    assert turn_of_game(table.service) == TURNS + 1
    with transaction(table.service.db) as session:
        resolved = session.exec(select(Turn.number).where(col(Turn.resolved_at).is_not(None)))
        assert sorted(resolved) == list(range(1, TURNS + 1))
        kinds = Counter(session.exec(select(Outbox.kind)))
    assert kinds["report"] == len(SEATS) * (TURNS + 1)  # the start mails and a report a turn
    assert _sorted(table.distinct_subjects()) == _expected(ordered, TURNS)
    twice = sum(len(table.mail_of(seat)) - len(table.distinct_subjects()[seat]) for seat in SEATS)
    assert twice <= kills, f"{twice} mails sent twice for {kills} kills (seed {seed})"
    errors = "".join(path.read_text() for path in sorted(table.config.parent.glob("*.err")))
    assert "Traceback" not in errors, errors
