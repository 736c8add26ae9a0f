"""Engine benchmark: prints its figures; not a test.

For each ruleset:
1. Median time to resolve one round of a 6-seat game at turn 30 (the game is played by bots to
   turn 30 with victory out of reach by the ruleset's `bench_options`, then that round is
   resolved again and again from the same state and orders). Target: under 5 ms.
2. Time to play N complete 4-seat bot games (bots writing orders, the parser reading them, turns
   resolved), on one core. Target for 1,000 games of any ruleset: under 2 minutes.
3. The time to check one seat's order mail (`parse_orders`, every line judged against the
   position its phase will meet, engine.rehearsal) over the bot orders of the first 12 turns of
   a 4-seat game, beside the parser alone on the position before the turn, and their ratio.

Absolute times differ between machines and hours (single runs on a shared machine vary by
half again). With `--reference COMMIT` the same measures run on that commit's engine/ too (the
engine is pure, so its tree runs in this environment): each ruleset's measures are taken in a
process of their own, the reference's and this tree's one after the other (which goes first
alternating), `--repeat` times; printed is each figure beside the reference's (medians over
the rounds) and the ratio now / reference, median and min-max over the rounds. Above 1 is
slower, whatever the machine. Times are the process's CPU time (time.process_time), so that
a busy machine's waits for a core count less.

Usage: python bench/engine.py [--games N] [--resolves N] [--ruleset ID ...]
                              [--measure round|games|check ...] [--reference COMMIT] [--repeat N]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

# This file is named like the package it measures; run as a script, its own folder comes first
# on sys.path and would shadow the real `engine`.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
# A process measuring another tree's engine (--reference) has that tree first on sys.path: the
# installed package's finder comes after sys.path, so the tree's `engine` is the one imported.
_TREE = os.environ.get("PBEM_BENCH_ENGINE_TREE", "")
if _TREE:
    sys.path.insert(0, _TREE)

import engine  # noqa: E402
from engine import all_rulesets, get_ruleset  # noqa: E402
from engine.kit import GameRuleset  # noqa: E402
from engine.playthrough import bot_game  # noqa: E402

if _TREE and not Path(engine.__file__).resolve().is_relative_to(Path(_TREE).resolve()):
    raise SystemExit(f"measured {engine.__file__}, not the engine of {_TREE}")

SIX = ["ann", "bob", "cat", "dan", "eve", "fay"]
FOUR = SIX[:4]


def round_at_turn_30(ruleset_id: str, repeat: int) -> tuple[float, float]:
    ruleset = get_ruleset(ruleset_id)
    played = list(bot_game(ruleset.id, SIX, 30, dict(ruleset.bench_options), max_turns=29))
    state = played[-1].resolution.state
    if ruleset.outcome(state) is not None or ruleset.turn_number(state) != 30:
        raise SystemExit(
            f"{ruleset_id}: the bot game ended before turn 30; set the ruleset's bench_options "
            "to options that keep victory out of reach"
        )
    texts = {seat: ruleset.bot_orders(state, seat, 30) for seat in ruleset.seats_to_order(state)}
    parsed = {seat: ruleset.parse_orders(state, seat, text) for seat, text in texts.items()}
    times = []
    for _ in range(repeat):
        start = time.process_time()
        ruleset.resolve(state, parsed, 30)
        times.append(time.process_time() - start)
    return statistics.median(times), min(times)


def complete_games(ruleset_id: str, games: int) -> tuple[float, int, int]:
    start = time.process_time()
    turns = finished = 0
    for seed in range(games):
        played = list(bot_game(ruleset_id, FOUR, seed))
        turns += len(played)
        finished += played[-1].resolution.outcome is not None
    return time.process_time() - start, turns, finished


def order_check(ruleset_id: str, repeat: int) -> tuple[float, float, int]:
    """Mean ms a mail to judge orders where they take effect, and to read them alone."""
    ruleset = get_ruleset(ruleset_id)
    assert isinstance(ruleset, GameRuleset)
    mails = [
        (turn.state_before, seat, ruleset.bot_orders(turn.state_before, seat, number))
        for number, turn in enumerate(bot_game(ruleset.id, FOUR, 5, max_turns=12))
        for seat in ruleset.seats_to_order(turn.state_before)
    ]
    start = time.process_time()
    for _ in range(repeat):
        for state, seat, text in mails:
            ruleset.parse_orders(state, seat, text)
    judged = time.process_time() - start
    start = time.process_time()
    for _ in range(repeat):
        for state, seat, text in mails:
            ruleset.parts.parse(ruleset.load(state), seat, text)
    alone = time.process_time() - start
    count = repeat * len(mails)
    return judged / count * 1000, alone / count * 1000, len(mails)


MEASURES = ("round", "games", "check")
Figures = dict[str, float]


def measure(ruleset_id: str, what: str, args: argparse.Namespace) -> Figures:
    """One measure of one ruleset, as named figures (times in ms, the games' in s)."""
    if what == "round":
        median, best = round_at_turn_30(ruleset_id, args.resolves)
        return {"median": median * 1000, "best": best * 1000}
    if what == "games":
        elapsed, turns, finished = complete_games(ruleset_id, args.games)
        return {"seconds": elapsed, "turns": turns, "finished": finished}
    judged, alone, mails = order_check(ruleset_id, max(1, args.resolves // 20))
    return {"judged": judged, "alone": alone, "mails": mails}


def describe(ruleset_id: str, what: str, figures: Figures, args: argparse.Namespace) -> str:
    if what == "round":
        return (
            f"{ruleset_id}: resolve one round, 6 seats, turn 30: median {figures['median']:.2f} "
            f"ms, best {figures['best']:.2f} ms (target < 5 ms)"
        )
    if what == "games":
        elapsed, turns = figures["seconds"], figures["turns"]
        return (
            f"{ruleset_id}: {args.games} complete 4-seat bot games: {elapsed:.1f} s "
            f"({figures['finished']:.0f} ended by the rules, {turns:.0f} turns, "
            f"{elapsed / max(turns, 1) * 1000:.2f} ms a turn incl. bots and parsing)"
            " (target for 1,000 games < 120 s)"
        )
    judged, alone = figures["judged"], figures["alone"]
    return (
        f"{ruleset_id}: check one order mail ({figures['mails']:.0f} bot mails, turns 1-12): "
        f"{judged:.2f} ms judged where each order takes effect, {alone:.2f} ms read on "
        f"the position before the turn ({judged / alone:.1f} times)"
    )


# -- a reference commit in the same run ------------------------------------------------------

REPO = _HERE.parent
# The figure of each measure that is compared, and how it is told.
COMPARED = {
    "round": ("median", "resolve one round, 6 seats, turn 30 (median)", "ms"),
    "games": ("seconds", "{games} complete 4-seat bot games", "s"),
    "check": ("judged", "check one order mail (bot mails of turns 1-12)", "ms"),
}


def compare(reference: str, rulesets: list[str], args: argparse.Namespace) -> None:
    """Every measure on the reference's engine and on this tree's, interleaved, `--repeat`
    rounds; then each figure's medians and the ratio now / reference."""
    commit = _git("rev-parse", "--short", reference)
    runs: dict[tuple[str, str], list[dict[str, Figures]]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-engine-") as folder:
        with tarfile.open(fileobj=_archive(commit)) as tar:
            tar.extractall(folder, filter="data")
        sides = [(commit, folder), ("now", str(REPO))]
        for number in range(args.repeat):
            for ruleset_id in rulesets:
                # Which side goes first alternates, so that neither always meets the warmer
                # (or the busier) moment.
                for side, tree in sides if number % 2 == 0 else sides[::-1]:
                    figures = _worker(tree, ruleset_id, args)
                    runs.setdefault((ruleset_id, side), []).append(figures)
                # As it goes, so that a run stopped early still told something.
                ratios = ", ".join(
                    f"{what} {runs[ruleset_id, 'now'][-1][what][COMPARED[what][0]] / base:.2f}x"
                    for what in args.measure
                    if (base := runs[ruleset_id, commit][-1][what][COMPARED[what][0]])
                )
                print(f"round {number + 1}: {ruleset_id}: {ratios}", file=sys.stderr, flush=True)
    print(f"now ({_git('rev-parse', '--short', 'HEAD')} and its work tree) against {commit}, "
          f"{args.repeat} rounds interleaved; ratio now / {commit}, median (min-max):")  # fmt: skip
    for ruleset_id in rulesets:
        for what in args.measure:
            then = [r[what] for r in runs[ruleset_id, commit]]
            now = [r[what] for r in runs[ruleset_id, "now"]]
            print(_compared(ruleset_id, what, then, now, args))


def _compared(
    ruleset_id: str, what: str, then: list[Figures], now: list[Figures], args: argparse.Namespace
) -> str:
    key, label, unit = COMPARED[what]
    ratios = [n[key] / t[key] for t, n in zip(then, now, strict=True)]
    before, after = (statistics.median(f[key] for f in side) for side in (then, now))
    extra = ""
    if what == "games":  # the games need not be the same games if the rules changed
        turns = [statistics.median(f["turns"] for f in side) for side in (then, now)]
        extra = f" ({turns[0]:.0f} -> {turns[1]:.0f} turns)"
    return (
        f"{ruleset_id}: {label.format(games=args.games)}: {before:.2f} -> {after:.2f} {unit}: "
        f"{statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f}){extra}"
    )


def _worker(tree: str, ruleset_id: str, args: argparse.Namespace) -> dict[str, Figures]:
    """The measures of one ruleset in a process of its own on the engine in `tree`."""
    command = [
        sys.executable, __file__, "--worker", "--ruleset", ruleset_id,
        "--games", str(args.games), "--resolves", str(args.resolves),
        *(f"--measure={what}" for what in args.measure),
    ]  # fmt: skip
    env = dict(os.environ, PBEM_BENCH_ENGINE_TREE=tree)
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"the measures on {tree} failed:\n{done.stderr}")
    figures: dict[str, Figures] = json.loads(done.stdout)
    return figures


def _archive(commit: str) -> io.BytesIO:
    """The commit's engine/ as a tar file."""
    command = ["git", "-C", str(REPO), "archive", "--format=tar", commit, "engine"]
    return io.BytesIO(subprocess.run(command, capture_output=True, check=True).stdout)


def _git(*command: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(REPO), *command], capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--resolves", type=int, default=200, help="of the round at turn 30")
    parser.add_argument("--ruleset", action="append", default=[])
    parser.add_argument("--measure", action="append", choices=MEASURES, default=[])
    parser.add_argument("--reference", default="", help="a commit to measure beside this tree")
    parser.add_argument("--repeat", type=int, default=3, help="rounds, with --reference")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.measure = args.measure or list(MEASURES)
    rulesets = args.ruleset or [ruleset.id for ruleset in all_rulesets()]
    if args.worker:  # one process's measures for compare(): JSON on stdout
        print(json.dumps({what: measure(rulesets[0], what, args) for what in args.measure}))
    elif args.reference:
        compare(args.reference, rulesets, args)
    else:
        for ruleset_id in rulesets:
            for what in args.measure:
                print(describe(ruleset_id, what, measure(ruleset_id, what, args), args))


if __name__ == "__main__":
    main()
