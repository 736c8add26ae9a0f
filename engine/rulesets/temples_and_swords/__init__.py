"""Temples and Swords v1.1: the ruleset behind the engine interface."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from engine.dice import Dice
from engine.kit import GameRuleset, Parts
from engine.rulesets.temples_and_swords import bot, edits, examples, orders, pictures, render
from engine.rulesets.temples_and_swords.hexmap import generate_map
from engine.rulesets.temples_and_swords.model import SEAT_LETTERS, GameState, Hex, Seat
from engine.rulesets.temples_and_swords.rules import FIRST_SEAT_EDGE, OPTIONS
from engine.rulesets.temples_and_swords.turn import PHASES_OF_ORDERS, play_turn


class TemplesAndSwords(GameRuleset[GameState]):
    id = "temples-and-swords"
    aliases = ("tns", "temples")
    title = "Temples and Swords v1.1"
    min_seats = 2
    max_seats = 8
    options = OPTIONS
    first_seat_edge = FIRST_SEAT_EDGE
    model = GameState
    bench_options: ClassVar[dict[str, Any]] = {"victory_points": 100}  # past turn 30
    parts = Parts(
        parse=orders.parse,
        play=play_turn,
        views=render,
        bot=bot.bot_orders,
        edits=edits,
        examples=examples.example_game,
        pictures=pictures,
        phases=PHASES_OF_ORDERS,
    )

    def order_drawn(self, options: Mapping[str, Any]) -> bool:
        """Who plays first is rolled at setup ("High roll starts"), whatever the listing."""
        return True

    def setup(self, names: list[str], options: dict[str, Any], seed: int) -> GameState:
        """Rule Setup: a city and 3 population on a grassland hex each, starts three or more
        hexes apart. Order of play: "High roll starts, then play goes clockwise", clockwise
        being the order in which the seats were listed when the game was made."""
        terrain, starts = generate_map(len(names), Dice(seed, 0, "", "map"))
        first = _high_roller(names, seed)
        order = names[names.index(first) :] + names[: names.index(first)]
        return GameState(
            terrain=terrain,
            seats=[
                Seat(n, SEAT_LETTERS[i], gold=options["starting_gold"]) for i, n in enumerate(order)
            ],
            hexes={
                start: Hex(owner=n, pop=3, projects=["city"])
                for n, start in zip(order, starts, strict=True)
            },
            armies={},
            options=options,
        )


def _high_roller(names: list[str], seed: int) -> str:
    """Everyone rolls a die; those tied for the highest roll again."""
    rolling, attempt = list(names), 0
    while len(rolling) > 1:
        rolls = {n: Dice(seed, 0, n, f"order of play:{attempt}").d(6) for n in rolling}
        rolling = [n for n in rolling if rolls[n] == max(rolls.values())]
        attempt += 1
    return rolling[0]
