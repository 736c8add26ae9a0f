"""Golden playthroughs: for every golden file tests/engine/golden/
<id>-<n>-seats-seed-<seed>[-<option>-<value>...].txt, the seeded bot game it names, played to its
end, is compared with it line for line; every registered ruleset needs at least one. After a
deliberate rules change, regenerate with
PBEM_UPDATE_GOLDEN=1 .venv/bin/pytest tests/engine/test_golden.py and review the diff before
committing (a ruleset without a golden file then gets <id>-4-seats-seed-1.txt)."""

from __future__ import annotations

import os

import pytest

from engine import Ruleset
from engine.playthrough import bot_game
from engine.transcript import transcript
from tests.engine.contract.games import GOLDEN, NAMES, RULESETS, Golden, golden_name, goldens

UPDATE = os.environ.get("PBEM_UPDATE_GOLDEN") == "1"
GOLDENS = [golden for ruleset in RULESETS for golden in goldens(ruleset)]


def _play(ruleset: Ruleset, names: list[str], seed: int, options: dict[str, str]) -> str:
    return transcript(ruleset, bot_game(ruleset.id, names, seed, options))


@pytest.mark.parametrize("golden", GOLDENS, ids=lambda golden: golden.path.stem)
def test_bot_game_matches_its_golden_transcript(golden: Golden) -> None:
    text = _play(golden.ruleset, golden.names, golden.seed, dict(golden.options))
    if UPDATE:
        golden.path.write_text(text, encoding="utf-8")
    expected = golden.path.read_text(encoding="utf-8")
    assert text.splitlines() == expected.splitlines()
    assert "Outcome: ('" in expected  # the game was played to its end


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda ruleset: ruleset.id)
def test_every_ruleset_has_a_golden_transcript(ruleset: Ruleset) -> None:
    default = GOLDEN / golden_name(ruleset.id, 4, 1, {})
    if UPDATE and not goldens(ruleset):
        default.write_text(_play(ruleset, NAMES[:4], 1, {}), encoding="utf-8")
    assert goldens(ruleset), (
        f"{ruleset.id} has no golden transcript in tests/engine/golden/. Create "
        f"{default.name} with: PBEM_UPDATE_GOLDEN=1 .venv/bin/pytest tests/engine/test_golden.py "
        "then read it through and commit it. (For another game, first create an empty file "
        "named <id>-<n>-seats-seed-<seed>[-<option>-<value>...].txt; the update fills it.)"
    )
