"""`pbem balance`: many seeded bot games of one ruleset, and what they say about its design.

For N games of K seats it prints how many ended by the rules (and why, by the first words of
the reason), the median and spread of game length, the win share by position in the order of
play and by the ruleset's starting choice where it has one (a culture, a civilization:
`Ruleset.seat_profile`), how often each order keyword was written and how often each event
code happened. A rule nobody uses or a seat that always wins shows here; a referee compares
options with it (victory at 10 or 20 VP, say). The games run on every core; `--chart` draws
the figures (matplotlib: the `charts` extra).
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import get_ruleset
from engine.playthrough import sketch_bot_game
from pbem.errors import UsageError
from pbem.logs import Progress

SEAT_NAMES = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jon", "kim", "lou"]


@dataclass
class GameSummary:
    turns: int
    ended: bool
    reason: str
    winner_positions: list[int]
    orders: Counter[str] = field(default_factory=Counter)
    events: Counter[str] = field(default_factory=Counter)
    profiles: list[str] = field(default_factory=list)  # each seat's starting choice, if any
    winner_profiles: list[str] = field(default_factory=list)


@dataclass
class Balance:
    ruleset: str
    seats: int
    options: dict[str, Any]
    games: list[GameSummary]
    elapsed: float
    cores: int

    def ended(self) -> list[GameSummary]:
        return [g for g in self.games if g.ended]

    def position_shares(self) -> list[float]:
        """Each position's share of the wins, in the order of play."""
        wins = Counter(p for g in self.ended() for p in g.winner_positions)
        total = sum(wins.values()) or 1
        return [wins[p] / total for p in range(self.seats)]

    def profile_shares(self) -> dict[str, tuple[int, int]]:
        """Each starting choice's (wins, games played in), best share first."""
        played = Counter(p for g in self.games for p in g.profiles)
        won = Counter(p for g in self.games for p in g.winner_profiles)
        ranked = sorted(played, key=lambda p: (-won[p] / played[p], p))
        return {p: (won[p], played[p]) for p in ranked}


def play_one(job: tuple[str, int, int, dict[str, Any], int]) -> GameSummary:
    ruleset_id, seed, seats, options, max_turns = job
    ruleset = get_ruleset(ruleset_id)
    names = SEAT_NAMES[:seats]
    order = ruleset.seats_to_order(ruleset.new_game(names, options, seed))
    orders: Counter[str] = Counter()
    events: Counter[str] = Counter()
    turns, outcome, last = 0, None, None
    for played in sketch_bot_game(ruleset_id, names, seed, options, max_turns=max_turns):
        turns += 1
        for text in played.order_texts.values():
            orders.update(_keywords(text))
        events.update(event.code for event in played.events)
        outcome, last = played.outcome, played
    # Read at the end: a choice may be made in play (Classical's setup turn), and it stays.
    final = last.state() if last else ruleset.new_game(names, options, seed)
    profile = {name: ruleset.seat_profile(final, name) for name in names}
    profiles = [p for p in profile.values() if p]
    if outcome is None:
        return GameSummary(turns, False, "not ended", [], orders, events, profiles)
    positions = [order.index(w) for w in outcome.winners if w in order]
    won = [profile[w] for w in outcome.winners if profile.get(w)]
    reason = _reason_kind(outcome.reason)
    return GameSummary(turns, True, reason, positions, orders, events, profiles, won)


def _keywords(text: str) -> list[str]:
    words = [line.split("#", 1)[0].split() for line in text.splitlines()]
    return [w[0].upper() for w in words if w]


def _reason_kind(reason: str) -> str:
    """'turn limit 40 reached with ...' -> 'turn limit'; 'ann has 100 VP' -> 'has VP'."""
    if reason.startswith("turn limit"):
        return "turn limit"
    kept = [w for w in reason.split() if not w[0].isdigit()][1:5]  # drop the winner's name
    return " ".join(kept)


def run_balance(
    ruleset_id: str,
    games: int,
    seats: int,
    options: dict[str, Any],
    max_turns: int = 500,
    processes: int | None = None,
) -> Balance:
    """Play `games` bot games with seeds 0..games-1 on `processes` cores (default: all)."""
    ruleset = get_ruleset(ruleset_id)
    ruleset.new_game(SEAT_NAMES[:seats], options, 0)  # bad seats or options: said once, here
    jobs = [(ruleset.id, seed, seats, options, max_turns) for seed in range(games)]
    cores = processes or multiprocessing.cpu_count()
    start = time.perf_counter()
    progress = Progress(f"balance {ruleset.id}", games, "games")
    summaries = []
    with multiprocessing.Pool(cores) as pool:
        chunk = max(1, min(64, games // (4 * cores)))
        for summary in pool.imap(play_one, jobs, chunksize=chunk):  # in the order of the seeds
            summaries.append(summary)
            progress.step()
    return Balance(ruleset.id, seats, options, summaries, time.perf_counter() - start, cores)


def report(balance: Balance) -> str:
    n, games = len(balance.games), balance.games
    ended = balance.ended()
    lengths = sorted(g.turns for g in games)
    lines = [
        f"{balance.ruleset}, {n} games of {balance.seats} seats, "
        f"options {balance.options or 'default'}",
        f"  {balance.elapsed:.1f} s on {balance.cores} cores",
        f"  ended by the rules: {len(ended)} ({_share(len(ended), n)})",
    ]
    for reason, count in Counter(g.reason for g in games).most_common():
        lines.append(f"    {reason}: {count} ({_share(count, n)})")
    lines.append(
        f"  length in turns: median {statistics.median(lengths)}, "
        f"10% {lengths[n // 10]}, 90% {lengths[(9 * n) // 10]}, longest {lengths[-1]}"
    )
    shares = ", ".join(f"{p + 1}: {s:.1%}" for p, s in enumerate(balance.position_shares()))
    lines.append(f"  win share by position in the order of play: {shares}")
    profiles = balance.profile_shares()
    if profiles:
        lines.append("  wins by starting choice (wins / games played in):")
        for name, (won, played) in profiles.items():
            lines.append(f"    {name:<28} {_share(won, played):>6}  {won}/{played}")
    lines.append("  orders written (share of games using it, count):")
    lines += _usage(games, lambda g: g.orders)
    lines.append("  events (share of games with it, count):")
    lines += _usage(games, lambda g: g.events)
    return "\n".join(lines)


def _usage(games: list[GameSummary], counts: Callable[[GameSummary], Counter[str]]) -> list[str]:
    total: Counter[str] = Counter()
    used_in: Counter[str] = Counter()
    for game in games:
        total.update(counts(game))
        used_in.update(set(counts(game)))
    return [
        f"    {name:<28} {_share(used_in[name], len(games)):>6}  {count}"
        for name, count in sorted(total.items())
    ]


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def chart(balance: Balance, path: Path) -> None:
    """The length of the games and the win shares, as a picture (PNG, SVG, PDF by suffix)."""
    try:
        # Loaded only when a chart is drawn: matplotlib takes a second or more to import.
        import matplotlib  # noqa: PLC0415

        matplotlib.use("Agg")  # no display: a file only
        from matplotlib import pyplot  # noqa: PLC0415 - after use("Agg"), as above
    except ImportError:
        raise UsageError("--chart needs matplotlib: pip install 'pbem[charts]'") from None
    profiles = balance.profile_shares()
    panes = 3 if profiles else 2
    figure, axes = pyplot.subplots(1, panes, figsize=(5 * panes, 4), constrained_layout=True)
    figure.suptitle(f"{balance.ruleset}: {len(balance.games)} bot games of {balance.seats} seats")
    axes[0].hist([g.turns for g in balance.games], bins=30)
    axes[0].set(title="length", xlabel="turns", ylabel="games")
    positions = [str(p + 1) for p in range(balance.seats)]
    axes[1].bar(positions, [100 * s for s in balance.position_shares()])
    axes[1].axhline(100 / balance.seats, linestyle="--", color="grey")
    axes[1].set(title="wins by position", xlabel="position in the order of play", ylabel="%")
    if profiles:
        names = list(profiles)
        shares = [100 * won / played for won, played in profiles.values()]
        axes[2].barh(names, shares)
        axes[2].invert_yaxis()
        axes[2].set(title="wins by starting choice", xlabel="% of the games played in")
    figure.savefig(path)
    pyplot.close(figure)


def add_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    handler: Callable[[argparse.Namespace], int],
) -> None:
    text = "play seeded bot games on every core and print the balance figures"
    parser = sub.add_parser("balance", help=text, description=(__doc__ or "").split("\n\n")[1])
    parser.set_defaults(handler=handler)
    parser.add_argument("--ruleset", required=True)
    parser.add_argument("--games", type=_positive, default=1000)
    parser.add_argument("--seats", type=_positive, default=4)
    parser.add_argument("--max-turns", type=_positive, default=500)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--chart", type=Path, metavar="FILE.png", help="draw the figures too")
    parser.add_argument("--processes", type=_positive, help="cores to use (default: all)")


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"a whole number above 0, not {text!r}")
    return int(text)


def run(args: argparse.Namespace, options: dict[str, str]) -> int:
    balance = run_balance(
        args.ruleset, args.games, args.seats, options, args.max_turns, args.processes
    )
    print(report(balance))
    if args.chart:
        chart(balance, args.chart)
        print(f"  chart: {args.chart}")
    return 0
