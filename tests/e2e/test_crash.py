"""Crash safety: a real worker process is killed with SIGKILL at random moments while it works
through 500 mails (intake, then resolution and the outbox drain) and is restarted each time.
The end state must equal that of a run without crashes: every mail recorded and applied once,
every reply and report in the outbox table once and sent."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import time
from datetime import datetime, timedelta
from email import message_from_bytes
from pathlib import Path

import pytest
from sqlalchemy import Engine
from sqlmodel import col, select

from pbem.config import LimitSettings, SecuritySettings, Settings
from pbem.games.lifecycle import SeatSpec
from pbem.games.service import Service
from pbem.intake.poll import poll_once
from pbem.mail.maildir import MaildirInbox, MaildirSender
from pbem.store import InboundMessage, OrderSet, Outbox, Turn, transaction
from tests.support.databases import migrated_engine
from tests.support.games import new_game
from tests.support.mails import mail, order_mail

REPO = Path(__file__).resolve().parents[2]
GAMES = [f"g{n}" for n in range(10)]
SEATS = [f"s{n}" for n in range(5)]
MAILS = 500
START = datetime(2026, 3, 1, 12, 0).astimezone()
LATER = START + timedelta(hours=49)  # past every deadline: phase two resolves every game


def _mails(seed: int) -> list[bytes]:
    """500 mails: orders (some replacing earlier ones, some with bad lines), wrong passwords,
    commands, and resends of earlier mails (same Message-ID)."""
    rng = random.Random(seed)
    mails: list[bytes] = []
    while len(mails) < MAILS:
        game, seat, n = rng.choice(GAMES), rng.choice(SEATS), len(mails)
        roll = rng.random()
        if roll < 0.05 and mails:
            mails.append(rng.choice(mails))
            continue
        sender = f"{seat}.{game}@example.org"
        password = "wrong" if roll < 0.12 else f"pw-{game}-{seat}"
        if roll < 0.2:
            mails.append(
                mail(rng.choice(["HELP", f"STATUS {game}"]), sender=sender, message_id=f"c{n}@x")
            )
            continue
        orders = f"ADD {rng.randint(1, 4)}\nATTACK {rng.choice(SEATS)}\n"
        mails.append(order_mail(game, seat, password, orders, sender=sender, message_id=f"o{n}@x"))
    return mails


def _settings(url: str, folder: Path) -> Settings:
    return Settings().__class__(
        database=Settings().database.__class__(url=url),
        maildir=Settings().maildir.__class__(inbox=str(folder / "in"), outbox=str(folder / "out")),
        limits=LimitSettings(replies_per_sender=10_000),
        security=SecuritySettings(password_cost=4),
    )


def _config_file(settings: Settings, path: Path) -> Path:
    path.write_text(
        f'[database]\nurl = "{settings.database.url}"\n'
        f'[maildir]\ninbox = "{settings.maildir.inbox}"\noutbox = "{settings.maildir.outbox}"\n'
        f"[limits]\nreplies_per_sender = {settings.limits.replies_per_sender}\n"
        f"[security]\npassword_cost = {settings.security.password_cost}\n"
    )
    return path


def _setup(service: Service, mails: list[bytes]) -> None:
    for game in GAMES:
        seats = [SeatSpec(s, f"{s}.{game}@example.org", f"pw-{game}-{s}") for s in SEATS]
        new_game(
            service, START, game=game, seats=seats, options={"target": 100}, early_processing=False
        )
    inbox = MaildirInbox(Path(service.settings.maildir.inbox))
    for raw in mails:
        inbox.deliver(raw)


def _snapshot(engine: Engine) -> dict[str, object]:
    with transaction(engine) as session:
        inbound = session.exec(select(InboundMessage).order_by(col(InboundMessage.message_id)))
        outbox = session.exec(select(Outbox).order_by(col(Outbox.message_id)))
        turns = session.exec(select(Turn).order_by(col(Turn.game_id), col(Turn.number)))
        orders = session.exec(select(OrderSet).order_by(col(OrderSet.game_id), col(OrderSet.seat)))
        return {
            "inbound": [(m.message_id, m.status, m.outcome, m.attempts) for m in inbound],
            "outbox": [
                (o.message_id, o.kind, o.recipient, o.raw, o.sent_at is not None) for o in outbox
            ],
            "turns": [
                (t.game_id, t.number, t.state_before, t.state_after, t.record) for t in turns
            ],
            "orders": [(o.game_id, o.seat, o.text, o.version, o.message_id) for o in orders],
        }


class Worker:
    def __init__(self, config: Path) -> None:
        self.config = config
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.e2e.crash_worker"],
            cwd=REPO,
            text=True,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        assert self._line() == "ready"

    def _line(self) -> str:
        assert self.process.stdout is not None
        return self.process.stdout.readline().strip()

    def run(self, now: datetime, kill_after: float | None) -> bool:
        """One `pbem poll --once`; killed after `kill_after` seconds. True if it was killed."""
        pid = self.start(now)
        if kill_after is not None:
            time.sleep(kill_after)
            with contextlib.suppress(ProcessLookupError):  # it may have finished
                os.kill(pid, signal.SIGKILL)
        return self.finish()

    def start(self, now: datetime) -> int:
        """Start one `pbem poll --once` in a child process; its pid."""
        assert self.process.stdin is not None
        self.process.stdin.write(
            f"run --config {self.config} --now {now.isoformat()} poll --once\n"
        )
        self.process.stdin.flush()
        return int(self._line().split()[1])

    def finish(self) -> bool:
        """Wait for the child; True if it was killed, else it must have succeeded."""
        status = int(self._line().split()[1])
        if os.WIFSIGNALED(status):
            assert os.WTERMSIG(status) == signal.SIGKILL
            return True
        assert os.WEXITSTATUS(status) == 0
        return False

    def exit_code(self) -> int:
        """Wait for the child, which must not have been killed; its exit code."""
        status = int(self._line().split()[1])
        assert not os.WIFSIGNALED(status)
        return os.WEXITSTATUS(status)

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=10)


def _crash_through(worker: Worker, now: datetime, rng: random.Random, kills: int) -> int:
    killed = 0
    for _ in range(kills):
        killed += worker.run(now, kill_after=rng.uniform(0.005, 0.25))
    worker.run(now, kill_after=None)  # then one run to the end
    return killed


SEED = 3


@pytest.fixture(scope="module")
def mails() -> list[bytes]:
    return _mails(SEED)


@pytest.fixture(scope="module")
def reference(mails: list[bytes], tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """The end state of the same work done in-process without crashes (on SQLite; the stored
    outputs are the same byte for byte on PostgreSQL)."""
    folder = tmp_path_factory.mktemp("reference")
    url = f"sqlite:///{folder / 'reference.db'}"
    service = Service(migrated_engine(url), _settings(url, folder))
    _setup(service, mails)
    inbox = MaildirInbox(Path(service.settings.maildir.inbox))
    sender = MaildirSender(Path(service.settings.maildir.outbox))
    poll_once(service, inbox, sender, now=START)
    poll_once(service, inbox, sender, now=LATER)
    snapshot = _snapshot(service.db)
    service.db.dispose()
    return snapshot


def test_killed_workers_lose_nothing_and_apply_nothing_twice(
    db: Engine, tmp_path: Path, mails: list[bytes], reference: dict[str, object]
) -> None:
    url = db.url.render_as_string(hide_password=False)
    if url.startswith("sqlite"):
        url = f"sqlite:///{tmp_path / 'crash.db'}"
        db = migrated_engine(url)
    crashed = Service(db, _settings(url, tmp_path / "crashed"))
    _setup(crashed, mails)
    worker = Worker(_config_file(crashed.settings, tmp_path / "pbem.toml"))
    rng = random.Random(SEED)
    killed = _crash_through(worker, START, rng, kills=16)
    killed += _crash_through(worker, LATER, rng, kills=8)
    worker.close()

    assert killed >= 8, "the kills should mostly land while the worker works"
    assert MaildirInbox(Path(crashed.settings.maildir.inbox)).pending() == []
    assert len(reference["inbound"]) == len(set(mails))  # type: ignore[arg-type]
    assert _snapshot(crashed.db) == reference
    sent = _sent_ids(Path(crashed.settings.maildir.outbox))
    outbox_ids = {row[0] for row in reference["outbox"]}  # type: ignore[attr-defined]
    # Every reply exactly once: a kill between a delivery and the commit marking it sent makes
    # the drainer send it again, and the maildir sender knows the Message-ID already.
    assert sorted(sent) == sorted(outbox_ids)


def _sent_ids(folder: Path) -> list[str]:
    return [
        str(message_from_bytes(path.read_bytes())["Message-ID"])
        for sub in ("new", "cur")
        for path in (folder / sub).iterdir()
    ]


def test_two_workers_at_once_take_each_mail_once(
    db: Engine, tmp_path: Path, mails: list[bytes]
) -> None:
    """Two pollers on one inbox and one database: each mail is applied by one of them. On
    SQLite the second is refused (exit 2) while the first runs (pbem.store.daemon_lock); the
    first then takes every mail."""
    url = db.url.render_as_string(hide_password=False)
    sqlite = url.startswith("sqlite")
    if sqlite:
        url = f"sqlite:///{tmp_path / 'both.db'}"
        db = migrated_engine(url)
    service = Service(db, _settings(url, tmp_path))
    some = mails[:100]
    _setup(service, some)
    config = _config_file(service.settings, tmp_path / "pbem.toml")
    workers = [Worker(config), Worker(config)]
    for worker in workers:
        worker.start(START)
    codes = sorted(worker.exit_code() for worker in workers)
    assert codes in ([0, 0], [0, 2]) if sqlite else codes == [0, 0]
    for worker in workers:
        worker.close()
    state = _snapshot(db)
    inbound = state["inbound"]
    assert len(inbound) == len(set(some))  # type: ignore[arg-type]
    assert {attempts for *_, attempts in inbound} == {1}  # type: ignore[attr-defined]
    accepted = sum(1 for _, status, *_ in inbound if status == "accepted")  # type: ignore[attr-defined]
    assert sum(version for *_, version, _ in state["orders"]) == accepted  # type: ignore[attr-defined]
    assert MaildirInbox(Path(service.settings.maildir.inbox)).pending() == []
