"""Tribes: the fragment of a tribal war-and-building game, completed (docs/rules/tribes.md)."""

from __future__ import annotations

from typing import Any, ClassVar

from engine.kit import GameRuleset, Parts
from engine.rulesets.tribes import bot, edits, examples, orders, pictures, render
from engine.rulesets.tribes.model import GameState
from engine.rulesets.tribes.rules import OPTIONS
from engine.rulesets.tribes.setup import setup
from engine.rulesets.tribes.turn import PHASES_OF_ORDERS, play


class Tribes(GameRuleset[GameState]):
    id = "tribes"
    aliases = ("tribe",)
    title = "Tribes: a fragment completed"
    min_seats = 2
    max_seats = 8
    options = OPTIONS
    model = GameState
    bench_options: ClassVar[dict[str, Any]] = {"fame_to_win": 100}  # past turn 30
    parts = Parts(
        parse=orders.parse,
        play=play,
        views=render,
        bot=bot.bot_orders,
        edits=edits,
        examples=examples.position,
        pictures=pictures,
        phases=PHASES_OF_ORDERS,
    )

    def setup(self, names: list[str], options: dict[str, Any], seed: int) -> GameState:
        """Completion: each tribe starts in its home hex (see setup.py)."""
        return setup(names, options, seed)
