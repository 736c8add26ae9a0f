"""Golden playthroughs: a seeded bot game of every ruleset, played to its end, compared with
the committed transcript line for line. After a deliberate rules change, regenerate with
PBEM_UPDATE_GOLDEN=1 pytest tests/engine/test_golden.py and review the diff before committing."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from engine import get_ruleset
from engine.playthrough import bot_game
from engine.transcript import transcript

GOLDEN = Path(__file__).parent / "golden"
GAMES: list[tuple[str, list[str], int, dict[str, Any]]] = [
    ("temples-and-swords", ["ann", "bob", "cat", "dan"], 7, {}),
    ("culture-and-conquest", ["ann", "bob", "cat", "dan"], 4, {}),
    ("culture-and-conquest", ["ann", "bob", "cat", "dan"], 4, {"map": "generated"}),
    ("classical", ["ann", "bob", "cat", "dan"], 3, {}),
]


def golden_path(ruleset_id: str, seats: list[str], seed: int, options: dict[str, Any]) -> Path:
    """<ruleset>-<n>-seats-seed-<seed>[-<option>-<value>...].txt"""
    named = "".join(f"-{name}-{value}" for name, value in sorted(options.items()))
    return GOLDEN / f"{ruleset_id}-{len(seats)}-seats-seed-{seed}{named}.txt"


@pytest.mark.parametrize(
    ("ruleset_id", "seats", "seed", "options"), GAMES, ids=[golden_path(*g).stem for g in GAMES]
)
def test_bot_game_matches_its_golden_transcript(
    ruleset_id: str, seats: list[str], seed: int, options: dict[str, Any]
) -> None:
    text = transcript(get_ruleset(ruleset_id), bot_game(ruleset_id, seats, seed, options))
    path = golden_path(ruleset_id, seats, seed, options)
    if os.environ.get("PBEM_UPDATE_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8")
    expected = path.read_text(encoding="utf-8")
    assert text.splitlines() == expected.splitlines()
    assert "Outcome: ('" in expected  # the game was played to its end
