"""A deadline wave on one machine: N games of 6 seats, on the real mail stack, against the raw
mail stack doing the same mail work without pbem.

Starts the tests' private Dovecot (IMAP, LMTP) and SMTP relay on loopback, creates N games
(default 1,000) across the five rulesets, 6 seats each, every seat with its own password hashed
at the production cost, and `pbem serve` in a process of its own. Each wave then:

1. SMTP in: every seat's order mail handed to the relay (the daemon held with SIGSTOP, so this
   is the players' side alone);
2. intake: the daemon takes them in and every check reply is sent;
3. deadline: every game's deadline set to now; all turns resolved and every report sent, while
   a probe player mails orders of another game every half second and times its check replies.

The first wave meets a daemon just started, the second one the same daemon a turn later (each
check remembered). With a check key (the default, as docs/operations.md advises) the first wave
finds every seat's check stored when its game was made, as a restarted daemon does; with
--no-check-key it checks every password by scrypt. Then the raw stack does the same work with
smtplib and imap-tools: the same order mails in, fetched by IMAP and moved to the processed
folder a hundred at a time (as the daemon does, with the default settings), and the replies
and reports pbem stored sent out again as they stand, a pass a wave on the same accounts (the
reports in the first only). Prints each stage's figures, the ratio of pbem's throughput to the
raw stack's pass of the same number, the daemon's peak RSS, the probe's latencies and the
database's growth a game-turn (its size after the waves less its size once the games were
made), for SQLite and PostgreSQL.

    .venv/bin/python bench/scale.py [--games 1000] [--backend sqlite postgresql] [--cost 14]

No --reference COMMIT here (bench/engine.py has one): the engine is pure, so another commit's
engine/ runs in this environment, but the service is not. Another commit's pbem brings its own
database schema and migrations, configuration and mail handling, and this bench makes its
games through pbem itself, so the two cannot run side by side in one environment. The
reference measured in the same run is the raw mail stack instead: every stage is printed as a
ratio to it ("x raw"), which does not depend on the machine or the hour. To compare two commits,
run each one's own bench/scale.py from a checkout of it and compare those ratios; the
engine's share of a wave (resolving turns, the order check) is what bench/engine.py compares.
"""

from __future__ import annotations

import argparse
import base64
import os
import re
import signal
import smtplib
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import make_msgid
from pathlib import Path

from imap_tools import MailBoxUnencrypted
from sqlalchemy import Engine, func, text, update
from sqlmodel import col, select
from sqlmodel.sql.expression import SelectOfScalar

# bench/engine.py is named like the `engine` package; run as a script, this folder comes first
# on sys.path and would shadow the package. The repository root brings in the test helpers.
_HERE = Path(__file__).resolve().parent
REPO = _HERE.parent
sys.path[:] = [str(REPO), *(p for p in sys.path if Path(p or ".").resolve() != _HERE)]

from bench.pipeline import database  # noqa: E402
from engine import all_rulesets, get_ruleset  # noqa: E402
from pbem.config import SecuritySettings, Settings  # noqa: E402
from pbem.games.games import pending_turn  # noqa: E402
from pbem.games.lifecycle import GameSpec, SeatSpec, create_game  # noqa: E402
from pbem.games.seat_passwords import check_key  # noqa: E402
from pbem.passwords import hash_password, password_check  # noqa: E402
from pbem.store import Game, loads, make_engine, transaction, upgrade, utcnow  # noqa: E402
from pbem.store.models import InboundMessage, Outbox, Seat, Turn  # noqa: E402
from pbem.store.work import work_of  # noqa: E402
from tests.servers.dovecot import Account  # noqa: E402
from tests.servers.world import MailWorld, running_world, serve_config  # noqa: E402

SEATS = ("alice", "bruno", "chen", "dana", "emil", "fatou")
PROBE = "probe"


@dataclass
class Stage:
    name: str
    mails: int
    seconds: float
    cpu: float = 0.0  # the daemons' CPU seconds (user + system) in the stage, if measured
    main_cpu: float = 0.0  # of which the daemons' main threads' (intake, the clocks)

    @property
    def rate(self) -> float:
        return self.mails / self.seconds


@dataclass
class Run:
    """What one backend's waves measured."""

    backend: str
    stages: list[Stage] = field(default_factory=list)
    probe: dict[str, list[float]] = field(default_factory=dict)  # wave -> latencies
    daemons: int = 1
    peak_rss_mb: float = 0.0  # of all the daemons together
    mails: list[tuple[Account, bytes]] = field(default_factory=list)  # the first wave's orders
    replies: list[bytes] = field(default_factory=list)  # and pbem's answers to them
    reports: list[bytes] = field(default_factory=list)
    # The database's size and the bytes of the mail its outbox keeps, once the games were
    # made and after the waves: their growth a game-turn.
    size_before: tuple[int, int] = (0, 0)
    size_after: tuple[int, int] = (0, 0)


@dataclass
class Table:
    """One backend's world: the moderator's and players' accounts, the database, the daemon."""

    world: MailWorld
    url: str
    folder: Path
    moderator: Account
    players: list[Account]  # one a seat position, its mailbox shared by every game's seat
    probe: Account
    passwords: dict[tuple[str, str], str]  # (game, seat) -> password


def main() -> int:
    args = _arguments()
    names = [(f"s{n}", seat) for n in range(args.games) for seat in SEATS]
    passwords = {key: f"pw-{key[0]}-{key[1]}" for key in names}
    print(f"{args.games} games x {len(SEATS)} seats, scrypt cost 2^{args.cost}: hashing...")
    hashes = _hashes(passwords, args.cost)
    runs: list[Run] = []
    with running_world() as world:
        for backend in args.backend:
            with tempfile.TemporaryDirectory() as folder, database(backend, Path(folder)) as url:
                table = _table(world, url, Path(folder), passwords)
                runs.append(_pbem(table, backend, hashes, args))
        raw = _raw(world, runs[-1], args.waves)
        # Only the last run's mail is needed: the raw stack sends it again.
    _print(runs, raw, args)
    return 0


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--backend", nargs="+", default=["sqlite", "postgresql"])
    parser.add_argument("--cost", type=int, default=14, help="scrypt cost (log2 n); config: 14")
    parser.add_argument("--waves", type=int, default=2, help="the first cold, the rest warm")
    parser.add_argument(
        "--no-check-key", dest="check_key", action="store_false",
        help="no [security] check key: the first wave checks every password by scrypt",
    )  # fmt: skip
    parser.add_argument("--daemons", type=int, default=1, help="on PostgreSQL: pbem serve x N")
    parser.add_argument(
        "--archive", action="store_true", help="the daemons write the web archive too"
    )
    parser.add_argument(
        "--connections", type=int, default=0,
        help="[smtp] connections of the daemons (0: the configuration's default)",
    )  # fmt: skip
    return parser.parse_args()


def _hashes(passwords: dict[tuple[str, str], str], cost: int) -> dict[tuple[str, str], str]:
    """Every seat's password hashed at `cost`, on every core: setup, not measured."""
    started = time.perf_counter()
    with ProcessPoolExecutor() as pool:
        hashed = pool.map(_hash, passwords.values(), [cost] * len(passwords), chunksize=64)
        result = dict(zip(passwords, hashed, strict=True))
    print(f"  {len(result)} hashes in {time.perf_counter() - started:.0f} s")
    return result


def _hash(password: str, cost: int) -> str:
    return hash_password(password, cost=cost)


def _table(
    world: MailWorld, url: str, folder: Path, passwords: dict[tuple[str, str], str]
) -> Table:
    players = [world.account(seat) for seat in SEATS]
    moderator, probe = world.account("moderator"), world.account(PROBE)
    return Table(world, url, folder, moderator, players, probe, passwords)


# -- pbem -----------------------------------------------------------------------------------


def _pbem(
    table: Table, backend: str, hashes: dict[tuple[str, str], str], args: argparse.Namespace
) -> Run:
    run = Run(backend)
    started = time.perf_counter()
    key = _check_key(table.folder) if args.check_key else ""
    _create_games(table, hashes, args.cost, key)
    print(f"{backend}: {args.games} games created in {time.perf_counter() - started:.0f} s")
    run.size_before = _database_size(table.url), _outbox_bytes(table.url)
    more: dict[str, dict[str, str | int]] = {
        # max_wait_seconds: notices the deadlines set from outside soon
        "service": {"max_wait_seconds": 2},
        "security": {"check_key_file": key},
        # The web archive off unless asked for: a daemon's own work, measured apart.
        "web": {"enabled": int(args.archive), "folder": str(table.folder / "web"),
                "secret_file": str(table.folder / "web-secret")},
    }  # fmt: skip
    if args.connections:
        more["smtp"] = {"connections": args.connections}
    config = serve_config(
        table.world, table.folder, table.moderator, table.url, cost=args.cost, more=more
    )
    count = args.daemons if backend == "postgresql" else 1  # SQLite takes one daemon
    run.daemons = count
    command = [sys.executable, "-m", "pbem", "serve", "--config", str(config)]
    daemons = [subprocess.Popen(command, cwd=REPO) for _ in range(count)]
    try:
        _wait(lambda: _log(table).count("serving") == count, 60, "the daemons to start")
        for wave in range(1, args.waves + 1):
            label = "cold" if wave == 1 else "warm"
            _wave(table, daemons, run, f"wave {wave} ({label})")
        run.peak_rss_mb = sum(_peak_rss_mb(pid) for pid in _processes(daemons))
    finally:
        for daemon in daemons:
            daemon.send_signal(signal.SIGTERM)
        codes = [daemon.wait(timeout=120) for daemon in daemons]
    assert codes == [0] * count, f"the daemons ended with {codes}: see {config.parent}/pbem.log"
    run.size_after = _database_size(table.url), _outbox_bytes(table.url)
    run.replies, run.reports = _sent_mail(table, len(run.mails))
    return run


def _check_key(folder: Path) -> str:
    """A check key file, as an operator makes one: its path."""
    path = folder / "check-key"
    path.write_text(base64.b64encode(os.urandom(32)).decode() + "\n")
    path.chmod(0o600)
    return str(path)


def _create_games(
    table: Table, hashes: dict[tuple[str, str], str], cost: int, key_file: str
) -> None:
    """The games, each seat's hash as made at the production cost (made here at the lowest
    cost, then replaced: hashing is setup), with its check under the key in `key_file` if
    any; their start mails counted as sent."""
    db = make_engine(table.url)
    upgrade(db)
    settings = Settings(security=SecuritySettings(password_cost=4, check_key_file=key_file))
    key = check_key(settings.security)
    rulesets = [ruleset.id for ruleset in all_rulesets()]
    games = sorted({game for game, _ in table.passwords}, key=lambda g: int(g[1:]))
    now = utcnow()
    for number, game in enumerate(games):
        seats = [
            SeatSpec(seat, seat_address(player, game), table.passwords[game, seat])
            for seat, player in zip(SEATS, table.players, strict=True)
        ]
        spec = GameSpec(
            game, rulesets[number % len(rulesets)], seats, seed=number,
            deadline_policy="interval:7d", early_processing=False,
        )  # fmt: skip
        with transaction(db) as session:
            create_game(work_of(session), settings, spec, now=now)
            for seat in session.exec(select(Seat).where(Seat.game_id == game)):
                seat.password_hash = hashes[game, seat.name]
                password = table.passwords[game, seat.name]
                seat.password_check = password_check(password, seat.password_hash, key)
    probe = [
        SeatSpec(PROBE, table.probe.address, "pw-probe"),
        SeatSpec("other", table.players[0].address, "pw-other"),
    ]
    cheap = replace(settings, security=replace(settings.security, password_cost=cost))
    with transaction(db) as session:
        create_game(
            work_of(session), cheap,
            GameSpec(PROBE, "temples-and-swords", probe, seed=1, early_processing=False),
            now=now,
        )  # fmt: skip
        session.execute(update(Outbox).values(sent_at=now))
    db.dispose()


def _wave(table: Table, daemons: list[subprocess.Popen[bytes]], run: Run, wave: str) -> None:
    db = make_engine(table.url)
    mails = _order_mails(table, db)
    answered, bulk = _answered(db) + len(mails), _bulk_mail(db)
    if not run.mails:
        run.mails = mails
    for daemon in daemons:
        os.kill(daemon.pid, signal.SIGSTOP)  # the players' side alone
    try:
        started = time.perf_counter()
        _submit(table.world, mails)
        run.stages.append(Stage(f"{wave}: SMTP in", len(mails), time.perf_counter() - started))
    finally:
        for daemon in daemons:
            os.kill(daemon.pid, signal.SIGCONT)
    started, cpu = time.perf_counter(), _cpu_seconds(daemons)
    _wait(lambda: _answered(db) >= answered and _unsent(db) == 0, 3600, "the replies")
    intake = Stage(
        f"{wave}: intake + replies", len(mails), time.perf_counter() - started,
        *(now - before for now, before in zip(_cpu_seconds(daemons), cpu, strict=True)),
    )  # fmt: skip
    _set_deadlines(db)
    with _probe(table, db) as latencies:
        begun, cpu = time.perf_counter(), _cpu_seconds(daemons)
        _wait(lambda: _pending_turns(db) == 0 and _unsent(db) == 0, 3600, "the reports")
        seconds = time.perf_counter() - begun
        used = [now - before for now, before in zip(_cpu_seconds(daemons), cpu, strict=True)]
    reports = Stage(f"{wave}: resolve + reports", _bulk_mail(db) - bulk, seconds, *used)
    run.stages += [intake, reports]
    run.probe[wave] = latencies
    print(f"  {wave}: {intake.seconds:.0f} s intake, {reports.seconds:.0f} s resolution")
    db.dispose()


def _order_mails(table: Table, db: Engine) -> list[tuple[Account, bytes]]:
    """Every seat's order mail for its game's pending turn: (sender, bytes)."""
    players = dict(zip(SEATS, table.players, strict=True))
    mails = []
    with transaction(db) as session:
        for game in session.exec(select(Game).where(Game.id != PROBE, Game.status == "running")):
            turn = pending_turn(work_of(session), game)
            assert turn is not None
            ruleset, state = get_ruleset(game.ruleset), loads(turn.state_before)
            for seat in ruleset.seats_to_order(state):
                orders = ruleset.bot_orders(state, seat, game.seed + turn.number)
                body = (
                    f"GAME {game.id} SEAT {seat} PASSWORD {table.passwords[game.id, seat]}\n"
                    f"TURN {turn.number}\n{orders.strip()}\nEND\n"
                )
                sender = players[seat]
                mail = _mail(seat_address(sender, game.id), table.moderator, body)
                mails.append((sender, mail))
    return mails


def seat_address(player: Account, game: str) -> str:
    """The seat's own address, delivered to its player's mailbox: alice+s7@.... Each seat
    writes from its own address, as 6,000 players would: with six addresses for them all,
    each reply's per-address limit counted that address's thousands of mails in the window
    (the limit raised to let them through), a cost no real campaign has."""
    local, _, domain = player.address.partition("@")
    return f"{local}+{game}@{domain}"


def _mail(sender: str, moderator: Account, body: str) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = moderator.address
    message["Subject"] = "orders"
    message["Message-ID"] = make_msgid(domain="players.pbem.test")
    message.set_content(body)
    return message.as_bytes(policy=SMTP)


def _submit(world: MailWorld, mails: list[tuple[Account, bytes]], to: str = "") -> None:
    """Each mail handed to the relay by its sender, logged in (one connection per sender, as
    a mail client that sends a queue would); to the mail's own To unless `to` is given."""
    by_sender: dict[Account, list[bytes]] = {}
    for sender, raw in mails:
        by_sender.setdefault(sender, []).append(raw)
    for sender, raws in by_sender.items():
        with smtplib.SMTP("127.0.0.1", world.smtp["plain"].port, timeout=30) as client:
            client.login(sender.address, sender.password)
            for raw in raws:
                recipient = to or _header(raw, "To")
                client.sendmail(sender.address, [recipient], raw)


def _header(raw: bytes, name: str) -> str:
    head = raw.split(b"\n\n", 1)[0].decode()
    return next(
        line.split(":", 1)[1].strip() for line in head.splitlines() if line.startswith(f"{name}:")
    )


def _set_deadlines(db: Engine) -> None:
    """Every pending turn but the probe's due now."""
    with transaction(db) as session:
        pending = col(Turn.resolved_at).is_(None) & (Turn.game_id != PROBE)
        session.execute(update(Turn).where(pending).values(deadline=utcnow()))


def _count(db: Engine, query: SelectOfScalar[int]) -> int:
    with transaction(db) as session:
        return session.exec(query).one()


def _answered(db: Engine) -> int:
    """Inbound mails whose processing is done."""
    return _count(db, select(func.count()).where(InboundMessage.status != "received"))


def _unsent(db: Engine) -> int:
    done = col(Outbox.sent_at).is_not(None) | col(Outbox.bounced_at).is_not(None)
    return _count(db, select(func.count()).select_from(Outbox).where(~done))


def _database_size(url: str) -> int:
    """The database's bytes on disk: SQLite's file and its write-ahead log, PostgreSQL's
    pg_database_size (its tables, indexes and TOAST, dead rows included until vacuumed)."""
    db = make_engine(url)
    try:
        if db.dialect.name == "sqlite":
            path = Path(str(db.url.database))
            wal = path.with_name(path.name + "-wal")
            return path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)
        with db.connect() as connection:
            query = text("SELECT pg_database_size(current_database())")
            return int(connection.execute(query).scalar_one())
    finally:
        db.dispose()


def _outbox_bytes(url: str) -> int:
    """The bytes of the mail the outbox keeps (pruned mail keeps none)."""
    db = make_engine(url)
    try:
        return _count(db, select(func.coalesce(func.sum(func.length(Outbox.raw)), 0)))
    finally:
        db.dispose()


def _pending_turns(db: Engine) -> int:
    query = select(func.count()).select_from(Turn).where(col(Turn.resolved_at).is_(None))
    return _count(db, query.where(Turn.game_id != PROBE, col(Turn.deadline) <= utcnow()))


def _bulk_mail(db: Engine) -> int:
    """Mails to players other than replies (reports, game ends), sent so far."""
    kinds = col(Outbox.kind).in_(("report", "game-end"))
    return _count(
        db, select(func.count()).select_from(Outbox).where(kinds, Outbox.game_id != PROBE)
    )


@contextmanager
def _probe(table: Table, db: Engine) -> Iterator[list[float]]:
    """A player of the probe game mails orders every half second while the body runs; the
    seconds from handing each to the relay to its check reply stored in the mailbox."""
    with transaction(db) as session:
        game = session.get(Game, PROBE)
        assert game is not None
        turn = pending_turn(work_of(session), game)
        assert turn is not None
        state, number = loads(turn.state_before), turn.number
    orders = get_ruleset(game.ruleset).bot_orders(state, PROBE, 1)
    body = f"GAME {PROBE} SEAT {PROBE} PASSWORD pw-probe\nTURN {number}\n{orders.strip()}\nEND\n"
    latencies: list[float] = []
    done = threading.Event()

    def write() -> None:
        relay, address = table.world.relay, table.probe.address
        while not done.is_set():
            wanted = relay.delivered_to(address) + 1
            started = time.perf_counter()
            _submit(table.world, [(table.probe, _mail(table.probe.address, table.moderator, body))])
            _wait(lambda: relay.delivered_to(address) >= wanted, 600, "a probe reply", 0.005)  # noqa: B023
            latencies.append(time.perf_counter() - started)
            done.wait(0.5)

    thread = threading.Thread(target=write, name="probe")
    thread.start()
    try:
        yield latencies
    finally:
        done.set()
        thread.join()


def _wait(ready: Callable[[], bool], timeout: float, what: str, every: float = 0.5) -> None:
    deadline = time.monotonic() + timeout
    while not ready():
        if time.monotonic() > deadline:
            raise TimeoutError(f"waited {timeout:.0f} s for {what}")
        time.sleep(every)


def _log(table: Table) -> str:
    path = table.folder / "pbem.log"
    return path.read_text() if path.exists() else ""


def _cpu_seconds(daemons: list[subprocess.Popen[bytes]]) -> tuple[float, float]:
    """The daemons' CPU time so far, user and system: every thread's, and the main threads'
    alone. pbem's own cost, which the wall time hides when the mail servers and the daemon
    share the cores; the main thread's tells whether intake is bound by it (busy all along)
    or waits (for the interpreter, the write lock, the servers). Any process a daemon
    starts counts with it."""
    every = sum(_ticks(Path(f"/proc/{pid}/stat")) for pid in _processes(daemons))
    main = sum(_ticks(Path(f"/proc/{d.pid}/task/{d.pid}/stat")) for d in daemons)
    tick = os.sysconf("SC_CLK_TCK")
    return every / tick, main / tick


def _processes(daemons: list[subprocess.Popen[bytes]]) -> list[int]:
    """The daemons and the processes they started."""
    pids = []
    for daemon in daemons:
        pids.append(daemon.pid)
        for children in Path(f"/proc/{daemon.pid}/task").glob("*/children"):
            pids.extend(int(pid) for pid in children.read_text().split())
    return pids


def _ticks(stat: Path) -> int:
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)


def _peak_rss_mb(pid: int) -> float:
    """The process's peak resident set (VmHWM), in MB."""
    status = Path(f"/proc/{pid}/status").read_text()
    line = next(line for line in status.splitlines() if line.startswith("VmHWM:"))
    return int(line.split()[1]) / 1024


def _sent_mail(table: Table, count: int) -> tuple[list[bytes], list[bytes]]:
    """The first `count` check replies and reports pbem sent, as stored: the raw stack's
    outgoing mail."""
    db = make_engine(table.url)
    with transaction(db) as session:
        found = []
        for kind in ("reply", "report"):
            query = select(Outbox.raw).where(Outbox.kind == kind, Outbox.game_id != PROBE)
            rows = session.exec(query.order_by(col(Outbox.id)).limit(count))
            # As on the wire: smtplib sends bytes as they are, and SMTP wants CRLF.
            found.append([re.sub(rb"\r?\n", b"\r\n", raw) for raw in rows])
    db.dispose()
    return found[0], found[1]


# -- the raw stack ----------------------------------------------------------------------------


def _raw(world: MailWorld, run: Run, waves: int) -> list[list[Stage]]:
    """The same mail work with smtplib and imap-tools alone, a pass a wave on the same
    accounts: a wave's mail meets mailboxes that hold the waves' before, as the daemon's
    does (the second wave's SMTP in, with the daemon stopped, ran at three quarters of a
    first pass's pace). The reports are sent in the first pass only."""
    sink, readers = world.account("raw-moderator"), [world.account("raw") for _ in SEATS]
    passes = []
    for wave in range(waves):
        started = time.perf_counter()
        _submit(world, run.mails, to=sink.address)
        smtp_in = Stage("SMTP in", len(run.mails), time.perf_counter() - started)
        started = time.perf_counter()
        fetched = _fetch_and_move(world, sink)
        fetching = time.perf_counter() - started
        assert fetched == len(run.mails), (fetched, len(run.mails))
        started = time.perf_counter()
        _send_out(world, run.replies, readers)
        replies = time.perf_counter() - started
        stages = [
            smtp_in,
            Stage("IMAP fetch + move", fetched, fetching),
            Stage("SMTP out: replies", len(run.replies), replies),
        ]
        if wave == 0:
            started = time.perf_counter()
            _send_out(world, run.reports, readers)
            stages.append(
                Stage("SMTP out: reports", len(run.reports), time.perf_counter() - started)
            )
        passes.append(stages)
    return passes


def _fetch_and_move(world: MailWorld, account: Account) -> int:
    """Every message fetched a hundred at a time and the hundred moved to the processed folder
    in one command, as pbem's inbox does (pbem.intake.poll marks a batch done at once)."""
    count = 0
    with MailBoxUnencrypted("127.0.0.1", world.dovecot.imap_port, timeout=30) as box:
        box.login(account.address, account.password, initial_folder="INBOX")
        if not box.folder.exists("Processed"):  # made by the first pass
            box.folder.create("Processed")
        box.folder.set("INBOX")
        while uids := box.uids("ALL")[:100]:
            typ, data = box.client.uid("FETCH", ",".join(uids), "(UID BODY.PEEK[])")
            assert typ == "OK", data
            count += sum(1 for part in data if isinstance(part, tuple))
            box.move(uids, "Processed")
    return count


def _send_out(world: MailWorld, raws: list[bytes], readers: list[Account]) -> None:
    """The mails sent as they stand through the submission port (STARTTLS, AUTH), one
    connection for all, to the readers in turn."""
    tls = ssl.create_default_context(cafile=str(world.cert))
    sender = world.account("raw-sender")
    with smtplib.SMTP("127.0.0.1", world.smtp["starttls"].port, timeout=30) as client:
        client.starttls(context=tls)
        client.login(sender.address, sender.password)
        for number, raw in enumerate(raws):
            client.sendmail(sender.address, [readers[number % len(readers)].address], raw)


# -- the figures ------------------------------------------------------------------------------


def _print(runs: list[Run], raw: list[list[Stage]], args: argparse.Namespace) -> None:
    raw_reports = raw[0][3].rate
    bases = []  # each pass's rates, the base of the wave of the same number
    for number, stages in enumerate(raw, start=1):
        smtp_in, fetch, replies = stages[:3]
        raw_intake = fetch.mails / (fetch.seconds + replies.seconds)
        bases.append({"SMTP in": smtp_in.rate, "intake": raw_intake, "resolve": raw_reports})
        print()
        print(f"raw mail stack, pass {number}, {fetch.mails} mails:")
        for stage in stages:
            print(f"  {stage.name:<22} {stage.seconds:7.1f} s {stage.rate:8.1f} mails/s")
        print(f"  {'intake (fetch+replies)':<22} {'':9} {raw_intake:8.1f} mails/s")
    for run in runs:
        print()
        print(
            f"pbem on {run.backend}, {args.games} games x {len(SEATS)} seats, "
            f"scrypt 2^{args.cost}"
            f"{', web archive' if args.archive else ''}"
            f"{f', {args.connections} SMTP connections' if args.connections else ''}:"
        )
        for stage in run.stages:
            wave, what = stage.name.split(": ")
            base = bases[int(wave.split()[1]) - 1]
            ratio = next(rate for key, rate in base.items() if key in what)
            cpu = (
                f"  pbem CPU {1000 * stage.cpu / stage.mails:5.1f} ms/mail, main thread busy "
                f"{100 * stage.main_cpu / stage.seconds:3.0f}%"
                if stage.cpu
                else ""
            )
            print(
                f"  {stage.name:<34} {stage.mails:6d} mails {stage.seconds:7.1f} s "
                f"{stage.rate:8.1f} mails/s  {stage.rate / ratio:5.2f} x raw{cpu}"
            )
        for wave, latencies in run.probe.items():
            whole = sum(stage.seconds for stage in run.stages if stage.name.startswith(wave))
            print(f"  {wave}: the whole wave {whole:.0f} s; {_latency(latencies)}")
        print(f"  peak RSS of the daemons: {run.peak_rss_mb:.0f} MB")
        print(f"  {_growth(run, args)}")


def _growth(run: Run, args: argparse.Namespace) -> str:
    """The database's growth a game-turn over the waves (each wave a turn of every game),
    and the outbox's mail bytes of it."""
    game_turns = args.games * args.waves
    (before, outbox_before), (after, outbox_after) = run.size_before, run.size_after
    grown, mail = (after - before) / game_turns, (outbox_after - outbox_before) / game_turns
    return (
        f"database {before / 1e6:.1f} MB -> {after / 1e6:.1f} MB over {game_turns} "
        f"game-turns: {grown / 1e3:.1f} kB a game-turn, of which the outbox's mail "
        f"{mail / 1e3:.1f} kB ({(grown - mail) / 1e3:.1f} kB stay once it is pruned)"
    )


def _latency(latencies: list[float]) -> str:
    if len(latencies) < 2:
        return f"probe: {len(latencies)} replies"
    p95 = statistics.quantiles(latencies, n=100, method="inclusive")[94]
    return (
        f"probe check replies during resolution: {len(latencies)}, median "
        f"{statistics.median(latencies):.2f} s, p95 {p95:.2f} s, max {max(latencies):.2f} s"
    )


if __name__ == "__main__":
    sys.exit(main())
