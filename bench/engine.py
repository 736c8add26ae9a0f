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

Usage: python bench/engine.py [--games N] [--repeat N] [--ruleset ID ...]
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

from engine import all_rulesets, get_ruleset  # noqa: E402
from engine.kit import GameRuleset  # noqa: E402
from engine.playthrough import bot_game  # noqa: E402

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
        start = time.perf_counter()
        ruleset.resolve(state, parsed, 30)
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times)


def complete_games(ruleset_id: str, games: int) -> tuple[float, int, int]:
    start = time.perf_counter()
    turns = finished = 0
    for seed in range(games):
        played = list(bot_game(ruleset_id, FOUR, seed))
        turns += len(played)
        finished += played[-1].resolution.outcome is not None
    return time.perf_counter() - start, turns, finished


def order_check(ruleset_id: str, repeat: int) -> tuple[float, float, int]:
    """Mean ms a mail to judge orders where they take effect, and to read them alone."""
    ruleset = get_ruleset(ruleset_id)
    assert isinstance(ruleset, GameRuleset)
    mails = [
        (turn.state_before, seat, ruleset.bot_orders(turn.state_before, seat, number))
        for number, turn in enumerate(bot_game(ruleset.id, FOUR, 5, max_turns=12))
        for seat in ruleset.seats_to_order(turn.state_before)
    ]
    start = time.perf_counter()
    for _ in range(repeat):
        for state, seat, text in mails:
            ruleset.parse_orders(state, seat, text)
    judged = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(repeat):
        for state, seat, text in mails:
            ruleset.parts.parse(ruleset.load(state), seat, text)
    alone = time.perf_counter() - start
    count = repeat * len(mails)
    return judged / count * 1000, alone / count * 1000, len(mails)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--ruleset", action="append", default=[])
    args = parser.parse_args()
    for ruleset_id in args.ruleset or [ruleset.id for ruleset in all_rulesets()]:
        median, best = round_at_turn_30(ruleset_id, args.repeat)
        print(
            f"{ruleset_id}: resolve one round, 6 seats, turn 30: median {median * 1000:.2f} ms, "
            f"best {best * 1000:.2f} ms (target < 5 ms)"
        )
        elapsed, turns, finished = complete_games(ruleset_id, args.games)
        print(
            f"{ruleset_id}: {args.games} complete 4-seat bot games: {elapsed:.1f} s "
            f"({finished} ended by the rules, {turns} turns, "
            f"{elapsed / max(turns, 1) * 1000:.2f} ms a turn incl. bots and parsing)"
            " (target for 1,000 games < 120 s)"
        )
        judged, alone, mails = order_check(ruleset_id, max(1, args.repeat // 20))
        print(
            f"{ruleset_id}: check one order mail ({mails} bot mails, turns 1-12): "
            f"{judged:.2f} ms judged where each order takes effect, {alone:.2f} ms read on "
            f"the position before the turn ({judged / alone:.1f} times)"
        )


if __name__ == "__main__":
    main()
