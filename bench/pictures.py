"""Picture benchmark: prints its figures; not a test.

For every ruleset and 2, 4 and 8 seats (within its range), a bot game is played 12 turns and
its map drawn: the time to draw a turn's map once (pbem.pictures.MapPicture), the time for
each further seat's copy (a palette swap), the PNG's size, and the campaign chart's time and
size. With --write DIR it also writes the pictures there (docs/images holds one of each
ruleset: `--write docs/images --examples`).

Usage: python bench/pictures.py [--repeat N] [--write DIR] [--examples]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from engine import Ruleset, all_rulesets  # noqa: E402
from engine.playthrough import bot_game  # noqa: E402
from pbem.pictures import MapPicture, campaign_chart  # noqa: E402
from pbem.pictures.chart import History  # noqa: E402

NAMES = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal"]
# The options each ruleset's example is drawn with: C&C's map version has the map.
EXAMPLE_OPTIONS = {"culture-and-conquest": {"map": "generated"}}
README_CHART = "temples-and-swords"  # the chart the README shows, besides the maps


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--write", type=Path, help="write the pictures to this folder")
    parser.add_argument("--examples", action="store_true", help="only docs/images' examples")
    args = parser.parse_args()
    if args.write:
        args.write.mkdir(parents=True, exist_ok=True)
    print(f"{'ruleset':<24} seats  map once  a seat more  map bytes  chart  chart bytes")
    for ruleset in all_rulesets():
        counts = [4] if args.examples else sorted({min(n, ruleset.max_seats) for n in (2, 4, 8)})
        for seats in counts:
            _measure(ruleset, seats, args)
    return 0


def _measure(ruleset: Ruleset, seats: int, args: argparse.Namespace) -> None:
    options = EXAMPLE_OPTIONS.get(ruleset.id, {})
    game = list(bot_game(ruleset.id, NAMES[:seats], 7, options, max_turns=12))
    state = game[-1].resolution.state
    view = ruleset.map_view(state, "")
    once = more = "-"
    size = 0
    if view is not None:
        times = []
        for _ in range(args.repeat):
            started = time.perf_counter()
            drawn = MapPicture(view)
            times.append(time.perf_counter() - started)
        started = time.perf_counter()
        copies = [drawn.png(seat) for seat in NAMES[:seats]]
        per_seat = (time.perf_counter() - started) / seats
        once, more, size = (
            f"{statistics.median(times) * 1000:.1f} ms",
            f"{per_seat * 1e6:.0f} us",
            len(copies[1]),
        )
        _write(args, f"{ruleset.id}-map-{seats}-seats.png", copies[1])
    history = History(
        title=f"{ruleset.title}: a {seats}-seat bot game",
        seats=tuple(ruleset.standings(state)),
        turns=tuple(turn.number for turn in game),
        standings=tuple(ruleset.standings(turn.resolution.state) for turn in game),
    )
    started = time.perf_counter()
    chart = campaign_chart(history)
    charted = time.perf_counter() - started
    if view is None or not args.examples or ruleset.id == README_CHART:
        _write(args, f"{ruleset.id}-chart-{seats}-seats.png", chart)
    print(
        f"{ruleset.id:<24} {seats:>5}  {once:>8}  {more:>10}  {size:>9}  "
        f"{charted * 1000:.0f} ms  {len(chart):>11}"
    )


def _write(args: argparse.Namespace, name: str, data: bytes) -> None:
    if args.write:
        (args.write / name).write_bytes(data)


if __name__ == "__main__":
    sys.exit(main())
