"""Culture & Conquest (Lloyd Krassner, 1999-2000): the ruleset behind the engine interface."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.dice import Dice
from engine.kit import GameRuleset, Parts
from engine.ruleset import State
from engine.rulesets.culture_and_conquest import (
    bot,
    edits,
    examples,
    geography,
    orders,
    pictures,
    render,
)
from engine.rulesets.culture_and_conquest.model import (
    CAPITALS,
    CITY_NAMES,
    CULTURES,
    SEAT_LETTERS,
    City,
    GameState,
    Seat,
)
from engine.rulesets.culture_and_conquest.rules import FIRST_SEAT_EDGE, OPTIONS
from engine.rulesets.culture_and_conquest.turn import PHASES_OF_ORDERS, play_turn

START_POPULATION = 10


class CultureAndConquest(GameRuleset[GameState]):
    id = "culture-and-conquest"
    aliases = ("cnc", "culture")
    title = "Culture & Conquest"
    min_seats = 2
    max_seats = 12  # one culture each from the twelve of the Culture Table
    options = OPTIONS
    first_seat_edge = FIRST_SEAT_EDGE
    model = GameState
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
        """Set Up: 10 populations (as Agriculture, like every new population) and 1 city each;
        a culture by d12 (rerolled when another seat has it) with its starting advance; turn
        order by a d6 each, high first (ties in the order the seats were given). In the map
        version the populations and the city are put into one starting territory, the seats'
        starts in turn order."""
        cultures = roll_cultures(names, seed)
        rolls = {n: Dice(seed, 0, n, "order of play").d(6) for n in names}
        order = sorted(names, key=lambda n: (-rolls[n], names.index(n)))
        seats_made: list[Seat] = []
        for index, name in enumerate(order):
            culture, advance = cultures[name]
            seat = Seat(name, SEAT_LETTERS[index], culture, gold=options["starting_gold"])
            seat.pops["agriculture"] = START_POPULATION
            seat.advances = [advance]
            taken = {c.name for s in seats_made for c in s.cities}
            seat.cities = [City(_first_city(culture, taken))]
            seats_made.append(seat)
        game = GameState(seats=seats_made, options=options)
        if options["map"] == "generated":
            land, starts = geography.generate(len(names), Dice(seed, 0, "", "map"))
            for seat, start in zip(seats_made, starts, strict=True):
                land.territories[start].owner = seat.name
            game.land = land
            geography.settle(game)
        return game

    def seat_profile(self, state: State, seat: str) -> str:
        """The culture the seat rolled at the start."""
        return next(s.culture for s in self.load(state).seats if s.name == seat)

    def after_edit(self, game: GameState) -> None:
        """The map is brought in step with the cultures after a correction."""
        geography.settle(game)


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
