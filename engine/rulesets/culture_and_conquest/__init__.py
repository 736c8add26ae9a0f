"""Culture & Conquest (Lloyd Krassner, 1999-2000): the ruleset behind the engine interface."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.dice import Dice
from engine.records import ParsedOrders, Resolution
from engine.ruleset import EditError, OptionError, Ruleset, State
from engine.rulesets.culture_and_conquest import bot, edits, examples, geography, orders, render
from engine.rulesets.culture_and_conquest.model import (
    CAPITALS,
    CITY_NAMES,
    CULTURES,
    SEAT_LETTERS,
    City,
    GameState,
    Seat,
)
from engine.rulesets.culture_and_conquest.rules import OPTIONS
from engine.rulesets.culture_and_conquest.turn import resolve_turn
from engine.state_clock import StateClockAnswers
from engine.turns import seats_playing

START_POPULATION = 10


class CultureAndConquest(StateClockAnswers, Ruleset):
    id = "culture-and-conquest"
    aliases = ("cnc", "culture")
    title = "Culture & Conquest"
    min_seats = 2
    max_seats = 12  # one culture each from the twelve of the Culture Table
    options = OPTIONS

    def new_game(self, seats: Sequence[str], options: Mapping[str, Any], seed: int) -> State:
        """Set Up: 10 populations (as Agriculture, like every new population) and 1 city each;
        a culture by d12 (rerolled when another seat has it) with its starting advance; turn
        order by a d6 each, high first (ties in the order the seats were given). In the map
        version the populations and the city are put into one starting territory, the seats'
        starts in turn order."""
        names = list(seats)
        if not self.min_seats <= len(names) <= self.max_seats:
            raise OptionError(f"{self.title} takes {self.min_seats} to {self.max_seats} seats")
        if len({n.lower() for n in names}) != len(names):
            raise OptionError("seat names must differ")
        chosen = self.resolve_options(options)
        cultures = roll_cultures(names, seed)
        rolls = {n: Dice(seed, 0, n, "order of play").d(6) for n in names}
        order = sorted(names, key=lambda n: (-rolls[n], names.index(n)))
        seats_made: list[Seat] = []
        for index, name in enumerate(order):
            culture, advance = cultures[name]
            seat = Seat(name, SEAT_LETTERS[index], culture, gold=chosen["starting_gold"])
            seat.pops["agriculture"] = START_POPULATION
            seat.advances = [advance]
            taken = {c.name for s in seats_made for c in s.cities}
            seat.cities = [City(_first_city(culture, taken))]
            seats_made.append(seat)
        game = GameState(seats=seats_made, options=chosen)
        if chosen["map"] == "generated":
            land, starts = geography.generate(len(names), Dice(seed, 0, "", "map"))
            for seat, start in zip(seats_made, starts, strict=True):
                land.territories[start].owner = seat.name
            game.land = land
            geography.settle(game)
        return game.to_json()

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
        geography.settle(game)
        return game.to_json()

    def edit_paths(self) -> str:
        return edits.EDIT_PATHS

    def normalise(self, state: State) -> State:
        return GameState.from_json(state).to_json()

    def example_position(self, variant: str = "") -> State:
        return examples.example_game(variant).to_json()


def roll_cultures(names: list[str], seed: int) -> dict[str, tuple[str, str]]:
    """A d12 on the Culture Table for each seat in the order given, rerolled while another
    seat has that culture."""
    chosen: dict[str, tuple[str, str]] = {}
    for name in names:
        dice = Dice(seed, 0, name, "culture")
        pick = CULTURES[dice.d(12) - 1]
        while pick in chosen.values():
            pick = CULTURES[dice.d(12) - 1]
        chosen[name] = pick
    return chosen


def _first_city(culture: str, taken: set[str]) -> str:
    """The culture's own city on the City Names list if it has one, else the first name that
    is neither taken nor another culture's own."""
    capital = CAPITALS.get(culture, "")
    if capital:
        return capital
    return next(n for n in CITY_NAMES if n not in taken and n not in CAPITALS.values())
