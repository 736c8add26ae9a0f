"""The web archive at scale: prints its figures; not a test.

N games (default 1,000) of 6 seats across the five rulesets, each played T turns by the bots
(every game's seats played by the bot when their deadline passes: no mail), on SQLite and
PostgreSQL. Then the whole site is written once (pbem.web.archive.write_site), for reference,
and --repeat times one more turn of one game is resolved and that game's archive written again
(write_game), as the daemon does after a turn. Prints the times and the site's size.

    .venv/bin/python bench/web_archive.py [--games 1000] [--turns 2] [--repeat 5]
                                          [--backend sqlite postgresql]
"""

from __future__ import annotations

import argparse
import cProfile
import os
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.append(str(_HERE))  # for bench/pipeline.py's databases

from pipeline import BARE, NOW, SEATS, database  # noqa: E402

from engine import get_ruleset  # noqa: E402
from pbem.clock.turns import resolve_due, resolve_some  # noqa: E402
from pbem.config import SecuritySettings, Settings, WebSettings  # noqa: E402
from pbem.deadlines.options import ClockOptions  # noqa: E402
from pbem.games.lifecycle import GameSpec, SeatSpec, create_game  # noqa: E402
from pbem.games.service import Service  # noqa: E402
from pbem.store import make_engine, transaction, upgrade  # noqa: E402
from pbem.web.archive import write_game, write_site  # noqa: E402

RULESETS = (
    "classical",
    "culture-and-conquest",
    "medieval-micromanager",
    "temples-and-swords",
    "tribes",
)
HOUR = timedelta(hours=1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seats", type=int, default=6)
    parser.add_argument("--turns", type=int, default=2, help="turns every game has played")
    parser.add_argument("--repeat", type=int, default=5, help="turns of one game, each timed")
    parser.add_argument("--backend", nargs="+", default=["sqlite", "postgresql"])
    parser.add_argument("--profile", default="", help="write a cProfile of the timed writes")
    args = parser.parse_args()
    print(
        f"{args.games} games x {args.seats} seats across the five rulesets, "
        f"{args.turns} turns played each; {os.cpu_count()} cores"
    )
    for backend in args.backend:
        with tempfile.TemporaryDirectory() as folder, database(backend, Path(folder)) as url:
            _bench(backend, url, Path(folder), args)
    return 0


def _bench(backend: str, url: str, folder: Path, args: argparse.Namespace) -> None:
    # The archive is written by this script alone, when it times it: not by the turns.
    quiet = replace(
        Settings(),
        security=SecuritySettings(password_cost=4),
        web=WebSettings(enabled=False, folder=str(folder / "web"), secret_file=str(folder / "s")),
    )
    service = Service(make_engine(url), quiet)
    upgrade(service.db)
    started = time.perf_counter()
    now = _create_games(service, args)
    for _ in range(args.turns):
        now += HOUR
        resolved = resolve_due(service, now=now)
        assert len(resolved) == args.games, len(resolved)
    setup = time.perf_counter() - started
    print(f"{backend:<10} set-up: {args.games * args.turns} turns resolved in {setup:.0f} s")

    service = Service(service.db, replace(quiet, web=replace(quiet.web, enabled=True)))
    started = time.perf_counter()
    site = write_site(service)
    whole = time.perf_counter() - started
    files = [path for path in site.rglob("*") if path.is_file()]
    size = sum(path.stat().st_size for path in files)
    print(
        f"{backend:<10} write_site: {whole:.1f} s for {len(files)} files, {size / 1e6:.0f} MB "
        f"({1000 * whole / args.games:.1f} ms a game)"
    )

    game = "w0"
    timed = []
    profiler = cProfile.Profile()
    for _ in range(args.repeat):
        now += HOUR
        [summary] = resolve_some(service, [game], now=now, enough=lambda: False)[0]
        started = time.perf_counter()
        if args.profile:
            profiler.enable()
        write_game(service, game)
        profiler.disable()
        timed.append(time.perf_counter() - started)
    if args.profile:
        profiler.dump_stats(f"{args.profile}.{backend}")
    print(
        f"{backend:<10} write_game after a turn of {game} (turn {summary.turn}, "
        f"{args.games} games in the database): median {1000 * statistics.median(timed):.0f} ms, "
        f"max {1000 * max(timed):.0f} ms over {args.repeat} turns"
    )
    service.db.dispose()


def _create_games(service: Service, args: argparse.Namespace) -> datetime:
    """The games, each seat played by the bot once its hourly deadline passes; the time they
    were made. The first game is the one timed: a game with a map (Temples and Swords)."""
    names = SEATS[: args.seats]
    for number in range(args.games):
        ruleset = RULESETS[(number + 3) % len(RULESETS)]
        seats = [SeatSpec(s, f"{s}.{number}@bench.invalid", f"pw-{s}") for s in names]
        spec = GameSpec(
            id=f"w{number}",
            ruleset=ruleset,
            seats=seats,
            seed=number,
            deadline_policy="interval:1h",
            early_processing=False,
            clock=ClockOptions(nmr="bot"),
            options=dict(get_ruleset(ruleset).bench_options),  # no victory in reach
            reports=BARE,
        )
        with transaction(service.db) as session:
            create_game(session, service.settings, spec, now=NOW)
    return NOW


if __name__ == "__main__":
    sys.exit(main())
