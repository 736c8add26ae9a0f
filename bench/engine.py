"""Engine benchmark: prints its figures; not a test.

1. Median time to resolve one round of a 6-seat Temples and Swords game at turn 30 (the game
   is played by bots to turn 30 with victory out of reach, then that round is resolved again
   and again from the same state and orders). Target: under 5 ms.
2. Time to play 1,000 complete 4-seat bot games (bots writing orders, the parser reading them,
   turns resolved), on one core. Target: under 2 minutes.

Usage: python bench/engine.py [--games N] [--repeat N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

# This file is named like the package it measures; run as a script, its own folder comes first
# on sys.path and would shadow the real `engine`.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from engine import get_ruleset  # noqa: E402
from engine.playthrough import bot_game  # noqa: E402

SIX = ["ann", "bob", "cat", "dan", "eve", "fay"]
FOUR = SIX[:4]


def round_at_turn_30(repeat: int) -> tuple[float, float, int]:
    ruleset = get_ruleset("temples-and-swords")
    options = {"victory_points": 100}
    played = list(bot_game("temples-and-swords", SIX, 30, options, max_turns=29))
    state = played[-1].resolution.state
    assert ruleset.turn_number(state) == 30, ruleset.turn_number(state)
    texts = {seat: ruleset.bot_orders(state, seat, 30) for seat in ruleset.seats_to_order(state)}
    parsed = {seat: ruleset.parse_orders(state, seat, text) for seat, text in texts.items()}
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        ruleset.resolve(state, parsed, 30)
        times.append(time.perf_counter() - start)
    hexes = len(state["hexes"])
    return statistics.median(times), min(times), hexes


def thousand_games(games: int) -> tuple[float, int, int]:
    start = time.perf_counter()
    turns = 0
    finished = 0
    for seed in range(games):
        played = list(bot_game("temples-and-swords", FOUR, seed))
        turns += len(played)
        finished += played[-1].resolution.outcome is not None
    return time.perf_counter() - start, turns, finished


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()

    median, best, hexes = round_at_turn_30(args.repeat)
    print(
        f"resolve one round, 6 seats, turn 30 ({hexes} occupied hexes): "
        f"median {median * 1000:.2f} ms, best {best * 1000:.2f} ms (target < 5 ms)"
    )
    elapsed, turns, finished = thousand_games(args.games)
    print(
        f"{args.games} complete 4-seat bot games: {elapsed:.1f} s "
        f"({finished} ended by the rules, {turns} turns, {elapsed / max(turns, 1) * 1000:.2f} ms "
        f"a turn incl. bots and parsing) (target < 120 s)"
    )


if __name__ == "__main__":
    main()
