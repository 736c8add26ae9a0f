"""Medieval Micromanager (Ernest Pazera, 2010): the turn sequence as written, completed with
building cards, a starting position and a goal (docs/rules/medieval-micromanager.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from engine.kit import GameRuleset, Parts
from engine.rulesets.medieval_micromanager import (
    bot,
    edits,
    examples,
    orders,
    pictures,
    render,
    turn,
)
from engine.rulesets.medieval_micromanager.model import GameState
from engine.rulesets.medieval_micromanager.rules import OPTIONS
from engine.rulesets.medieval_micromanager.setup import setup


class MedievalMicromanager(GameRuleset[GameState]):
    id = "medieval-micromanager"
    aliases = ("mm", "medieval")
    title = "Medieval Micromanager"
    min_seats = 2
    max_seats = 8
    options = OPTIONS
    bench_options: ClassVar[Mapping[str, Any]] = {"cathedrals": 10}
    model = GameState
    parts = Parts(
        parse=orders.parse,
        play=turn.play,
        views=render,
        bot=bot.bot_orders,
        edits=edits,
        examples=examples.position,
        pictures=pictures,
        phases=turn.PHASES_OF_ORDERS,
    )

    def setup(self, names: list[str], options: dict[str, Any], seed: int) -> GameState:
        return setup(names, options, seed)
