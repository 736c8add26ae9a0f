"""Balance run: many seeded bot games of one ruleset, and what they say about its design.

Prints, for N games of K seats: how many ended by the rules (and why, by the first words of
the reason), the median and spread of game length, the win share by position in the order of
play and, where the seats have one (a civilization, a culture), by faction, how often each
order keyword was written, and how often each event code happened. A rule nobody uses or a
seat that always wins shows here. Not a test; the games run on every core.

Usage: python bench/balance.py --ruleset ID [--games 1000] [--seats 4] [--option NAME=VALUE ...]
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# This folder is named like nothing it imports, but keep it off sys.path all the same, as
# bench/engine.py must (a script's own folder comes first).
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from engine import get_ruleset  # noqa: E402
from engine.playthrough import bot_game  # noqa: E402

SEAT_NAMES = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jon", "kim", "lou"]


@dataclass
class GameSummary:
    turns: int
    ended: bool
    reason: str
    winner_positions: list[int]
    orders: Counter[str] = field(default_factory=Counter)
    events: Counter[str] = field(default_factory=Counter)
    winner_factions: list[str] = field(default_factory=list)
    factions: list[str] = field(default_factory=list)


def play_one(job: tuple[str, int, int, dict[str, Any], int]) -> GameSummary:
    ruleset_id, seed, seats, options, max_turns = job
    ruleset = get_ruleset(ruleset_id)
    names = SEAT_NAMES[:seats]
    order = ruleset.seats_to_order(ruleset.new_game(names, options, seed))
    orders: Counter[str] = Counter()
    events: Counter[str] = Counter()
    turns, outcome, state = 0, None, {}
    for played in bot_game(ruleset_id, names, seed, options, max_turns=max_turns):
        turns += 1
        for text in played.order_texts.values():
            orders.update(_keywords(text))
        events.update(event.code for event in played.resolution.events)
        outcome, state = played.resolution.outcome, played.resolution.state
    faction = _factions(state)
    if outcome is None:
        factions = list(faction.values())
        return GameSummary(turns, False, "not ended", [], orders, events, [], factions)
    positions = [order.index(w) for w in outcome.winners if w in order]
    return GameSummary(
        turns,
        True,
        _reason_kind(outcome.reason),
        positions,
        orders,
        events,
        [faction[w] for w in outcome.winners if w in faction],
        list(faction.values()),
    )


def _factions(state: dict[str, Any]) -> dict[str, str]:
    """Each seat's faction where the state names one: its civilization or culture."""
    found = {}
    for seat in state.get("seats", []):
        kind = seat.get("civilization") or seat.get("culture") if isinstance(seat, dict) else ""
        if kind:
            found[seat["name"]] = str(kind)
    return found


def _keywords(text: str) -> list[str]:
    words = [line.split("#", 1)[0].split() for line in text.splitlines()]
    return [w[0].upper() for w in words if w]


def _reason_kind(reason: str) -> str:
    """'turn limit 40 reached with ...' -> 'turn limit'; 'ann has 100 VP' -> 'has VP'."""
    if reason.startswith("turn limit"):
        return "turn limit"
    kept = [w for w in reason.split() if not w[0].isdigit()][1:5]  # drop the winner's name
    return " ".join(kept)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--ruleset", required=True)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--max-turns", type=int, default=500)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args()
    ruleset = get_ruleset(args.ruleset)
    options = dict(item.split("=", 1) for item in args.option)
    jobs = [(ruleset.id, seed, args.seats, options, args.max_turns) for seed in range(args.games)]
    start = time.perf_counter()
    with multiprocessing.Pool() as pool:
        games = pool.map(play_one, jobs, chunksize=8)
    elapsed = time.perf_counter() - start
    report(ruleset.id, args.seats, options, games, elapsed)


def report(
    ruleset_id: str, seats: int, options: dict[str, Any], games: list[GameSummary], elapsed: float
) -> None:
    n = len(games)
    ended = [g for g in games if g.ended]
    lengths = sorted(g.turns for g in games)
    print(f"{ruleset_id}, {n} games of {seats} seats, options {options or 'default'}")
    print(f"  {elapsed:.1f} s on {multiprocessing.cpu_count()} cores")
    print(f"  ended by the rules: {len(ended)} ({_share(len(ended), n)})")
    for reason, count in Counter(g.reason for g in games).most_common():
        print(f"    {reason}: {count} ({_share(count, n)})")
    print(
        f"  length in turns: median {statistics.median(lengths)}, "
        f"10% {lengths[n // 10]}, 90% {lengths[(9 * n) // 10]}, longest {lengths[-1]}"
    )
    wins = Counter(p for g in ended for p in g.winner_positions)
    total = sum(wins.values()) or 1
    shares = ", ".join(f"{p + 1}: {_share(wins[p], total)}" for p in range(seats))
    print(f"  win share by position in the order of play: {shares}")
    _faction_shares(games)
    print("  orders written (share of games using it, count):")
    _usage(games, lambda g: g.orders)
    print("  events (share of games with it, count):")
    _usage(games, lambda g: g.events)


def _faction_shares(games: list[GameSummary]) -> None:
    """Wins of each faction (civilization, culture) against the games it played in."""
    played = Counter(f for g in games for f in g.factions)
    if not played:
        return
    won = Counter(f for g in games for f in g.winner_factions)
    print("  wins by faction, civilization or culture (wins / games played in):")
    for name, count in sorted(played.items(), key=lambda kv: -won[kv[0]] / kv[1]):
        print(f"    {name:<28} {_share(won[name], count):>6}  {won[name]}/{count}")


def _usage(games: list[GameSummary], counts: Any) -> None:
    total: Counter[str] = Counter()
    used_in: Counter[str] = Counter()
    for game in games:
        total.update(counts(game))
        used_in.update(set(counts(game)))
    for name, count in sorted(total.items()):
        print(f"    {name:<28} {_share(used_in[name], len(games)):>6}  {count}")


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


if __name__ == "__main__":
    main()
