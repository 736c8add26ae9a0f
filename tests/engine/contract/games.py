"""What the contract suite plays: every registered ruleset (not the test doubles of
tests/support), in the configurations its golden transcripts name, with seeded bot games."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from engine import Ruleset, all_rulesets
from engine.playthrough import TurnPlayed, bot_game
from tests.support.ruleset_registration import TEST_RULESETS

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
NAMES = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ida", "jon", "kim", "lee"]
NAMES += [f"s{n}" for n in range(13, 41)]  # for rulesets of many seats


def contract_rulesets() -> list[Ruleset]:
    """The rulesets a player can choose: built in or installed as a plugin."""
    doubles = {ruleset.id for ruleset in TEST_RULESETS}
    return [ruleset for ruleset in all_rulesets() if ruleset.id not in doubles]


RULESETS = contract_rulesets()


def dump(data: object) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class Golden:
    """A golden transcript: <id>-<n>-seats-seed-<seed>[-<option>-<value>...].txt"""

    ruleset: Ruleset
    seats: int
    seed: int
    options: tuple[tuple[str, str], ...]

    @property
    def path(self) -> Path:
        return GOLDEN / golden_name(self.ruleset.id, self.seats, self.seed, dict(self.options))

    @property
    def names(self) -> list[str]:
        return NAMES[: self.seats]


def golden_name(ruleset_id: str, seats: int, seed: int, options: dict[str, Any]) -> str:
    named = "".join(f"-{name}-{value}" for name, value in sorted(options.items()))
    return f"{ruleset_id}-{seats}-seats-seed-{seed}{named}.txt"


def goldens(ruleset: Ruleset) -> list[Golden]:
    """The ruleset's committed golden transcripts, read from their file names."""
    pattern = re.compile(
        re.escape(ruleset.id) + r"-(\d+)-seats-seed-(\d+)((?:-[^-.]+-[^-]+?)*)\.txt"
    )
    found = []
    for path in sorted(GOLDEN.glob(f"{ruleset.id}-*.txt")):
        match = pattern.fullmatch(path.name)
        if match:
            words = match[3].split("-")[1:]
            options = tuple(zip(words[::2], words[1::2], strict=True))
            found.append(Golden(ruleset, int(match[1]), int(match[2]), options))
    return found


def configurations(ruleset: Ruleset) -> list[dict[str, Any]]:
    """The options to play each ruleset with: as it comes, and each variant a golden
    transcript names (Culture & Conquest's map version, say)."""
    variants = [dict(golden.options) for golden in goldens(ruleset)]
    unique = {dump(options): options for options in [{}, *variants]}
    return list(unique.values())


CASES = [(ruleset, options) for ruleset in RULESETS for options in configurations(ruleset)]


def case_id(case: object) -> str:
    if isinstance(case, Ruleset):
        return case.id
    if isinstance(case, dict):
        return "-".join(f"{k}-{v}" for k, v in sorted(case.items())) or "as-is"
    return str(case)


def seat_counts(ruleset: Ruleset) -> list[int]:
    """2, 4 and the most seats (at least 8), each kept within the ruleset's seat range."""
    wanted = (2, 4, max(8, ruleset.max_seats))
    return sorted({min(max(n, ruleset.min_seats), ruleset.max_seats) for n in wanted})


@cache
def _played(
    ruleset_id: str, seats: int, seed: int, options: str, max_turns: int
) -> tuple[TurnPlayed, ...]:
    return tuple(bot_game(ruleset_id, NAMES[:seats], seed, json.loads(options), max_turns))


def played(
    ruleset: Ruleset, options: dict[str, Any], seed: int, seats: int = 4, max_turns: int = 1000
) -> tuple[TurnPlayed, ...]:
    """The turns of a seeded bot game, played once per test run (read, never change them)."""
    return _played(ruleset.id, seats, seed, dump(options), max_turns)
