"""The web archive at scale: prints its figures; not a test.

N games (default 1,000) of 6 seats across the five rulesets, each played T turns by the bots
(every game's seats played by the bot when their deadline passes: no mail), on SQLite and
PostgreSQL. Then the whole site is written once (pbem.web.archive.write_site), for reference,
and --repeat times one more turn of one game is resolved and that game's archive written again
(write_game), as the daemon does after a turn. Prints the times and the site's size.

With `--reference COMMIT` the write after a turn is measured on that commit's pbem beside this
tree's, on SQLite (the site not written whole): each tree makes its own database of the games
once, in a process of its own, then `--rounds` times a process of each tree (which goes first
alternating) takes a copy of its database, writes the game once untimed (the templates
compiled, the game's earlier turns drawn, as in a daemon that has written before) and then
times `--repeat` writes after a turn. Printed are each side's wall-clock and CPU time a write
(medians over the rounds of each round's median) and the ratio now / reference, median and
min-max over the rounds: on a shared machine the CPU time is the firmer figure.

    .venv/bin/python bench/web_archive.py [--games 1000] [--turns 2] [--repeat 5]
                                          [--backend sqlite postgresql]
    .venv/bin/python bench/web_archive.py --reference COMMIT [--rounds 5] [--games 1000] ...
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.append(str(_HERE.parent))  # for bench/pipeline.py's databases
# A process measuring another tree (--reference) has that tree first on sys.path: the
# installed package's finder comes after sys.path, so the tree's pbem is the one imported.
_TREE = os.environ.get("PBEM_BENCH_TREE", "")
if _TREE:
    sys.path.insert(0, _TREE)

from bench.pipeline import BARE, NOW, SEATS, database  # noqa: E402
from engine import get_ruleset  # noqa: E402
from pbem.clock.turns import resolve_due, resolve_some  # noqa: E402
from pbem.config import SecuritySettings, Settings, WebSettings  # noqa: E402
from pbem.deadlines.options import ClockOptions  # noqa: E402
from pbem.games.lifecycle import GameSpec, SeatSpec, create_game  # noqa: E402
from pbem.games.service import Service  # noqa: E402
from pbem.store import make_engine, upgrade  # noqa: E402
from pbem.web.archive import write_game, write_site  # noqa: E402

if _TREE and not Path(write_game.__code__.co_filename).resolve().is_relative_to(Path(_TREE)):
    raise SystemExit(f"measured {write_game.__code__.co_filename}, not the pbem of {_TREE}")

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
    parser.add_argument("--reference", default="", help="a commit to measure beside this tree")
    parser.add_argument("--rounds", type=int, default=5, help="with --reference")
    parser.add_argument("--make", default="", help=argparse.SUPPRESS)  # a worker's database
    parser.add_argument("--time", default="", help=argparse.SUPPRESS)  # a worker's writes
    args = parser.parse_args()
    if args.make:
        return _make(Path(args.make), args)
    if args.time:
        return _time(Path(args.time), args)
    if args.reference:
        return compare(args.reference, args)
    print(
        f"{args.games} games x {args.seats} seats across the five rulesets, "
        f"{args.turns} turns played each; {os.cpu_count()} cores"
    )
    for backend in args.backend:
        with tempfile.TemporaryDirectory() as folder, database(backend, Path(folder)) as url:
            _bench(backend, url, Path(folder), args)
    return 0


def _settings(folder: Path, *, web: bool) -> Settings:
    """The bench's settings; the archive written only when `web` (the turns of the set-up do
    not write it: this script writes it when it times it)."""
    return replace(
        Settings(),
        security=SecuritySettings(password_cost=4),
        web=WebSettings(enabled=web, folder=str(folder / "web"), secret_file=str(folder / "s")),
    )


def _set_up(url: str, folder: Path, args: argparse.Namespace) -> tuple[Service, datetime]:
    """The games made and their turns played: the service, and the time of the last turn."""
    service = Service(make_engine(url), _settings(folder, web=False))
    upgrade(service.db)
    now = _create_games(service, args)
    for _ in range(args.turns):
        now += HOUR
        resolved = resolve_due(service, now=now)
        assert len(resolved) == args.games, len(resolved)
    return service, now


def _bench(backend: str, url: str, folder: Path, args: argparse.Namespace) -> None:
    started = time.perf_counter()
    service, now = _set_up(url, folder, args)
    setup = time.perf_counter() - started
    print(f"{backend:<10} set-up: {args.games * args.turns} turns resolved in {setup:.0f} s")

    service = Service(service.db, _settings(folder, web=True))
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
        with service.store.transaction() as work:
            create_game(work, service.settings, spec, now=NOW)
    return NOW


# -- a reference commit in the same run ------------------------------------------------------

REPO = _HERE.parent
TIMED = "w0"


def compare(reference: str, args: argparse.Namespace) -> int:
    """The write after a turn on the reference's pbem and on this tree's, `--rounds` rounds
    interleaved; then each side's medians and the ratio now / reference."""
    commit = _git("rev-parse", "--short", reference)
    print(f"{args.games} games x {args.seats} seats, {args.turns} turns each, SQLite; "
          f"{args.rounds} rounds of {args.repeat} writes; {os.cpu_count()} cores")  # fmt: skip
    runs: dict[str, list[dict[str, float]]] = {commit: [], "now": []}
    with tempfile.TemporaryDirectory(prefix="bench-web-") as folder:
        with tarfile.open(fileobj=_archive(commit)) as tar:
            tar.extractall(Path(folder, "tree"), filter="data")
        sides = [(commit, str(Path(folder, "tree"))), ("now", str(REPO))]
        for side, tree in sides:
            started = time.perf_counter()
            _worker(tree, ["--make", str(Path(folder, f"{side}.sqlite"))], args)
            print(f"{side}: set-up {time.perf_counter() - started:.0f} s", flush=True)
        for number in range(args.rounds):
            # Which side goes first alternates, so that neither always meets the warmer (or
            # the busier) moment.
            for side, tree in sides if number % 2 == 0 else sides[::-1]:
                with tempfile.TemporaryDirectory(prefix="bench-web-round-") as scratch:
                    copy = Path(scratch, "copy.sqlite")
                    shutil.copyfile(Path(folder, f"{side}.sqlite"), copy)
                    runs[side].append(_worker(tree, ["--time", str(copy)], args))
            then, now = runs[commit][-1], runs["now"][-1]
            print(f"round {number + 1}: wall {then['wall']:.0f} -> {now['wall']:.0f} ms, "
                  f"CPU {then['cpu']:.0f} -> {now['cpu']:.0f} ms", flush=True)  # fmt: skip
    print(f"write_game after a turn, now ({_git('rev-parse', '--short', 'HEAD')} and its work "
          f"tree) against {commit}; medians over the rounds of each round's median:")  # fmt: skip
    for what in ("wall", "cpu"):
        print(_compared(what, runs[commit], runs["now"], commit))
    return 0


def _compared(
    what: str, then: list[dict[str, float]], now: list[dict[str, float]], commit: str
) -> str:
    ratios = [n[what] / t[what] for t, n in zip(then, now, strict=True)]
    sides = [[r[what] for r in side] for side in (then, now)]
    told = [f"{statistics.median(s):.0f} ms ({min(s):.0f}-{max(s):.0f})" for s in sides]
    return (
        f"  {what:<4} a write: {commit} {told[0]}, now {told[1]}: now / {commit} "
        f"{statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f})"
    )


def _worker(tree: str, task: list[str], args: argparse.Namespace) -> dict[str, float]:
    """One step in a process of its own on the pbem in `tree`: its JSON on stdout."""
    command = [
        sys.executable, __file__, *task, "--games", str(args.games), "--seats", str(args.seats),
        "--turns", str(args.turns), "--repeat", str(args.repeat),
    ]  # fmt: skip
    env = dict(os.environ, PBEM_BENCH_TREE=tree)
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"{task[0]} on {tree} failed:\n{done.stderr}")
    figures: dict[str, float] = json.loads(done.stdout or "{}")
    return figures


def _make(path: Path, args: argparse.Namespace) -> int:
    """A worker: the games made and played into the SQLite file `path`."""
    service, _ = _set_up(f"sqlite:///{path}", path.parent, args)
    service.db.dispose()
    return 0


def _time(path: Path, args: argparse.Namespace) -> int:
    """A worker: on the database `path` (a copy), one write untimed, then `--repeat` writes
    after a turn timed; the medians of their wall-clock and CPU times on stdout, in ms."""
    service = Service(make_engine(f"sqlite:///{path}"), _settings(path.parent, web=True))
    now = NOW + args.turns * HOUR
    write_game(service, TIMED)
    walls, cpus = [], []
    for _ in range(args.repeat):
        now += HOUR
        resolve_some(service, [TIMED], now=now, enough=lambda: False)
        wall, cpu = time.perf_counter(), time.process_time()
        write_game(service, TIMED)
        walls.append(1000 * (time.perf_counter() - wall))
        cpus.append(1000 * (time.process_time() - cpu))
    service.db.dispose()
    print(json.dumps({"wall": statistics.median(walls), "cpu": statistics.median(cpus)}))
    return 0


def _archive(commit: str) -> io.BytesIO:
    """The commit's tree as a tar file."""
    command = ["git", "-C", str(REPO), "archive", "--format=tar", commit]
    return io.BytesIO(subprocess.run(command, capture_output=True, check=True).stdout)


def _git(*command: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(REPO), *command], capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


if __name__ == "__main__":
    sys.exit(main())
