"""Pipeline throughput on the maildir transport, on SQLite and PostgreSQL.

For 100 games of 6 bot seats: the order mails of every seat (the bots' orders in the
GAME/SEAT/PASSWORD envelope) go through intake and check replies (inbox maildir -> database ->
outbox maildir), then all 100 turns are resolved and reported. Prints messages per second for
the first and seconds for the second, with the reports' attachments (map picture and JSON
data) and without, --repeat times each in turn, and how much the attachments add (medians).

    .venv/bin/python bench/pipeline.py [--games 100] [--seats 6] [--backend sqlite postgresql]
                                       [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path

from sqlalchemy import create_engine, text

# bench/engine.py is named like the `engine` package; run as a script, this folder comes first
# on sys.path and would shadow the package.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from engine import get_ruleset  # noqa: E402
from pbem.clock.turns import resolve_due  # noqa: E402
from pbem.config import MaildirSettings, SecuritySettings, Settings  # noqa: E402
from pbem.games.games import pending_turn  # noqa: E402
from pbem.games.lifecycle import GameSpec, ReportOptions, SeatSpec, create_game  # noqa: E402
from pbem.games.outbox import drain  # noqa: E402
from pbem.games.service import Service  # noqa: E402
from pbem.intake.poll import take_in  # noqa: E402
from pbem.mail.maildir import MaildirInbox, MaildirSender  # noqa: E402
from pbem.store import loads, make_engine, upgrade  # noqa: E402

POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
BARE = ReportOptions(pictures=False, data=False)
SEATS = ("alice", "bruno", "chen", "dana", "emil", "fatou", "gwen", "hiro")


def main() -> int:
    args = _arguments()
    print(f"{args.games} games x {args.seats} seats of {args.ruleset}, scrypt cost 2^{args.cost}")
    for backend in args.backend:
        timed: dict[str, list[float]] = {"bare": [], "attached": []}
        # Taken in turns, so that a slow spell of the disk does not fall on one side only.
        for _ in range(args.repeat):
            for label, reports in (("bare", BARE), ("attached", ReportOptions())):
                with (
                    tempfile.TemporaryDirectory() as folder,
                    database(backend, Path(folder)) as url,
                ):
                    run = _bench(f"{backend} {label}", url, Path(folder), args, reports)
                    timed[label].append(run)
        bare, attached = (statistics.median(timed[label]) for label in ("bare", "attached"))
        print(
            f"{backend:<10} resolve + report, median of {args.repeat}: {bare:.2f} s bare, "
            f"{attached:.2f} s with attachments: they add {100 * (attached / bare - 1):.0f}% "
            "(limit 50%)"
        )
    return 0


def _arguments() -> argparse.Namespace:
    parser = game_arguments(__doc__)
    parser.add_argument("--backend", nargs="+", default=["sqlite", "postgresql"])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each kind, alternated")
    return parser.parse_args()


def game_arguments(doc: str | None) -> argparse.ArgumentParser:
    """A parser described by the first line of `doc`, with the options of the games the
    benchmarks on this set-up make (bench/intake_cpu.py too)."""
    parser = argparse.ArgumentParser(description=(doc or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seats", type=int, default=6)
    parser.add_argument("--ruleset", default="temples-and-swords")
    parser.add_argument("--cost", type=int, default=10, help="scrypt cost (log2 n); config: 14")
    return parser


@contextmanager
def database(backend: str, folder: Path) -> Iterator[str]:
    if backend == "sqlite":
        yield f"sqlite:///{folder / 'bench.db'}"
        return
    name = f"pbem_bench_{uuid.uuid4().hex[:8]}"
    admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield POSTGRES.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def _bench(
    backend: str, url: str, folder: Path, args: argparse.Namespace, reports: ReportOptions
) -> float:
    """The run of one backend; returns the seconds to resolve and report the turns."""
    settings = replace(
        Settings(),
        maildir=MaildirSettings(inbox=str(folder / "in"), outbox=str(folder / "out")),
        security=SecuritySettings(password_cost=args.cost),
    )
    service = Service(make_engine(url), settings)
    upgrade(service.db)
    inbox, sender = MaildirInbox(folder / "in"), MaildirSender(folder / "out")
    _create_games(service, args, reports)
    drain(service, sender, now=NOW)  # the start mails, not part of the measure
    count = _deliver_orders(service, inbox)

    started = time.perf_counter()
    statuses = take_in(service, inbox, now=NOW)
    replies = drain(service, sender, now=NOW).sent
    intake = time.perf_counter() - started
    assert statuses == {"accepted": count} and replies == count, (statuses, replies)

    started = time.perf_counter()
    turns = resolve_due(service, now=NOW)
    mailed = drain(service, sender, now=NOW).sent
    resolution = time.perf_counter() - started
    assert len(turns) == args.games, len(turns)
    print(
        f"{backend:<19} intake + check replies: {count} mails in {intake:.2f} s = "
        f"{count / intake:.0f} mails/s; resolve + report {len(turns)} turns "
        f"({mailed} mails): {resolution:.2f} s"
    )
    service.db.dispose()
    return resolution


def _create_games(service: Service, args: argparse.Namespace, reports: ReportOptions) -> None:
    for number in range(args.games):
        seats = [SeatSpec(s, f"{s}.{number}@bench.invalid", f"pw-{s}") for s in SEATS[: args.seats]]
        spec = GameSpec(
            id=f"b{number}", ruleset=args.ruleset, seats=seats, seed=number, reports=reports
        )
        with service.store.transaction() as work:
            create_game(work, service.settings, spec, now=NOW)


def _deliver_orders(service: Service, inbox: MaildirInbox, tag: str = "") -> int:
    """Every seat's orders for its game's pending turn, mailed to `inbox`; `tag` makes their
    Message-IDs new (the same orders mailed again)."""
    count = 0
    with service.store.transaction() as work:
        for game in work.games.all_games():
            turn = pending_turn(work, game)
            assert turn is not None
            ruleset, state = get_ruleset(game.ruleset), loads(turn.state_before)
            for seat in ruleset.seats_to_order(state):
                text = ruleset.bot_orders(state, seat, game.seed)
                inbox.deliver(_mail(game.id, seat, turn.number, text, tag))
                count += 1
    return count


def _mail(game: str, seat: str, turn: int, orders: str, tag: str = "") -> bytes:
    message = EmailMessage()
    message["From"] = f"{seat}.{game[1:]}@bench.invalid"
    message["To"] = "moderator@pbem.localhost"
    message["Subject"] = f"{game} orders"
    message["Message-ID"] = f"<{game}-{turn}-{seat}{tag}@bench.invalid>"
    body = f"GAME {game} SEAT {seat} PASSWORD pw-{seat}\nTURN {turn}\n{orders.strip()}\nEND\n"
    message.set_content(body)
    return message.as_bytes()


if __name__ == "__main__":
    sys.exit(main())
