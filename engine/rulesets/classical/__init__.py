"""Classical: the Warpspawn civilization game on a generated map of land and sea."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from engine.kit import GameRuleset, Parts
from engine.ruleset import State
from engine.rulesets.classical import bot, edits, examples, orders, pictures, render, setup, turn
from engine.rulesets.classical.model import GameState
from engine.rulesets.classical.rules import FIRST_SEAT_EDGE, OPTIONS


class Classical(GameRuleset[GameState]):
    id = "classical"
    aliases = ("cls", "warpspawn", "classicalc")
    title = "Classical (Warpspawn)"
    min_seats = 2
    max_seats = 12  # one civilization each from the twelve of the text
    options = OPTIONS
    first_seat_edge = FIRST_SEAT_EDGE
    bench_options: ClassVar[dict[str, Any]] = {"victory_points": 10000}  # past turn 30
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

    def order_drawn(self, options: Mapping[str, Any]) -> bool:
        return bool(options["first_player"] == "random")

    def seat_profile(self, state: State, seat: str) -> str:
        """The civilization the seat chose in the setup turn ('' before it)."""
        return next(s.civilization for s in self.load(state).seats if s.name == seat)

    def seats_to_order(self, state: State) -> list[str]:
        """The setup turn asks every seat, in sequential mode too. (Read off the stored keys
        of GameState.setup and .seats: no need to load the whole game for it.)"""
        if state["setup"] and not state["winners"]:
            return [seat["name"] for seat in state["seats"]]
        return super().seats_to_order(state)

    def setup(self, names: list[str], options: dict[str, Any], seed: int) -> GameState:
        """The map and the seats; civilizations and first cities come in the setup turn."""
        return setup.new_game(names, options, seed)
