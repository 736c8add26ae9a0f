"""Temples and Swords v1.1: the ruleset behind the engine interface."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.dice import Dice
from engine.records import ParsedOrders, Resolution
from engine.ruleset import EditError, OptionError, Ruleset, State
from engine.rulesets.temples_and_swords import bot, edits, examples, orders, render
from engine.rulesets.temples_and_swords.hexmap import generate_map
from engine.rulesets.temples_and_swords.model import SEAT_LETTERS, GameState, Hex, Seat
from engine.rulesets.temples_and_swords.rules import OPTIONS
from engine.rulesets.temples_and_swords.turn import resolve_turn
from engine.state_clock import StateClockAnswers
from engine.turns import seats_playing


class TemplesAndSwords(StateClockAnswers, Ruleset):
    id = "temples-and-swords"
    aliases = ("tns", "temples")
    title = "Temples and Swords v1.1"
    min_seats = 2
    max_seats = 8
    options = OPTIONS
    bench_options: ClassVar[Mapping[str, Any]] = {"victory_points": 100}

    def new_game(self, seats: Sequence[str], options: Mapping[str, Any], seed: int) -> State:
        """Rule Setup: a city and 3 population on a grassland hex each, starts three or more
        hexes apart. Order of play: "High roll starts, then play goes clockwise", clockwise
        being the order in which the seats were listed when the game was made."""
        names = list(seats)
        if not self.min_seats <= len(names) <= self.max_seats:
            raise OptionError(f"{self.title} takes {self.min_seats} to {self.max_seats} seats")
        if len({n.lower() for n in names}) != len(names):
            raise OptionError("seat names must differ")
        chosen = self.resolve_options(options)
        terrain, starts = generate_map(len(names), Dice(seed, 0, "", "map"))
        first = _high_roller(names, seed)
        order = names[names.index(first) :] + names[: names.index(first)]
        state = GameState(
            terrain=terrain,
            seats=[
                Seat(n, SEAT_LETTERS[i], gold=chosen["starting_gold"]) for i, n in enumerate(order)
            ],
            hexes={
                start: Hex(owner=n, pop=3, projects=["city"])
                for n, start in zip(order, starts, strict=True)
            },
            armies={},
            options=chosen,
        )
        return state.to_json()

    def parse_orders(self, state: State, seat: str, text: str) -> ParsedOrders:
        game = GameState.from_json(state)
        if seat not in {s.name for s in game.seats}:
            raise KeyError(f"no seat {seat!r} in this game")
        return orders.parse(game, seat, text)

    def resolve(self, state: State, orders: Mapping[str, ParsedOrders], seed: int) -> Resolution:
        game = GameState.from_json(state)
        return resolve_turn(game, {s: p.orders for s, p in orders.items()}, seed)

    def seats_to_order(self, state: State) -> list[str]:
        game = GameState.from_json(state)
        return [] if game.winners else [s.name for s in seats_playing(game)]

    def render_map(self, state: State, seat: str) -> str:
        return render.render_map(GameState.from_json(state), seat)

    def holdings(self, state: State, seat: str) -> str:
        return render.holdings(GameState.from_json(state), seat)

    def public_summary(self, state: State) -> str:
        return render.public_summary(GameState.from_json(state))

    def order_template(self, state: State, seat: str) -> str:
        return render.order_template(GameState.from_json(state), seat)

    def order_help(self) -> str:
        return render.ORDER_HELP

    def bot_orders(self, state: State, seat: str, seed: int) -> str:
        return bot.bot_orders(GameState.from_json(state), seat, seed)

    def edit(self, state: State, path: str, value: str) -> State:
        game = GameState.from_json(state)
        try:
            edits.edit(game, path, value)
        except KeyError as missing:
            raise EditError(f"nothing at {path!r}: {missing}") from None
        return game.to_json()

    def edit_paths(self) -> str:
        return edits.EDIT_PATHS

    def normalise(self, state: State) -> State:
        return GameState.from_json(state).to_json()

    def example_position(self, variant: str = "") -> State:
        return examples.example_game(variant).to_json()


def _high_roller(names: list[str], seed: int) -> str:
    """Everyone rolls a die; those tied for the highest roll again."""
    rolling, attempt = list(names), 0
    while len(rolling) > 1:
        rolls = {n: Dice(seed, 0, n, f"order of play:{attempt}").d(6) for n in rolling}
        rolling = [n for n in rolling if rolls[n] == max(rolls.values())]
        attempt += 1
    return rolling[0]
