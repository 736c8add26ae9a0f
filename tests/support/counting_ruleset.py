"""A tiny, honest ruleset for testing the service layer: seats add points until one reaches the
target. It implements the whole engine.Ruleset interface, with syntax, illegal and ambiguous
problems, dice from engine.Dice, private and public events, and an outcome."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine import Dice, EditError, Event, OptionSpec, Outcome, ParsedOrders, Resolution, Ruleset
from engine.problems import OrderError, ambiguous, illegal, syntax
from engine.records import OrderResult, OrderStatus
from engine.ruleset import State

ONE_ADD = "Rule 3: a seat gives at most one ADD order a turn."
ADD_RANGE = "Rule 2: a seat adds 1, 2 or 3 points a turn."


@dataclass(frozen=True)
class CountOrder:
    keyword: str
    value: Any
    line_no: int
    text: str

    def understood(self) -> str:
        if self.keyword == "ADD":
            return f"add {self.value} point{'s' if self.value != 1 else ''}"
        return f"attack seat {self.value}" if self.keyword == "ATTACK" else "pass"


class Counting(Ruleset):
    id = "counting"
    aliases = ("cnt",)
    title = "Counting (a test ruleset)"
    min_seats = 2
    max_seats = 8
    options = (
        OptionSpec("target", 10, "points that win", minimum=3, maximum=100),
        OptionSpec("max_turns", 30, "turns before the game ends anyway", minimum=1),
    )

    def new_game(self, seats: Sequence[str], options: Mapping[str, Any], seed: int) -> State:
        return {
            "turn": 1,
            "seats": list(seats),
            "score": {seat: 0 for seat in seats},
            "options": dict(self.resolve_options(options)),
            "outcome": None,
        }

    def parse_orders(self, state: State, seat: str, text: str) -> ParsedOrders:
        parsed = ParsedOrders()
        for line_no, line in enumerate(text.splitlines(), start=1):
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            try:
                order = self._order(state, seat, words, parsed)
            except OrderError as error:
                parsed.problems.append(error.at(line_no, line))
                continue
            parsed.orders.append(CountOrder(*order, line_no, line.strip()))
        return parsed

    def _order(
        self, state: State, seat: str, words: list[str], parsed: ParsedOrders
    ) -> tuple[str, Any]:
        keyword = words[0].upper()
        if keyword == "A":
            raise ambiguous("A is short for more than one order", ("ADD", "ATTACK"))
        if keyword == "ADD":
            return "ADD", self._add(words, parsed)
        if keyword == "ATTACK":
            if len(words) != 2 or words[1] not in state["score"] or words[1] == seat:
                raise syntax("ATTACK takes the name of another seat", "ATTACK bob")
            return "ATTACK", words[1]
        if keyword == "PASS":
            return "PASS", None
        raise syntax(f"unknown order {words[0]}", "ADD 2")

    def _add(self, words: list[str], parsed: ParsedOrders) -> int:
        # At most six digits, as engine.words.parse_count: int() refuses over 4,300 of them.
        if len(words) != 2 or not words[1].isdigit() or len(words[1]) > 6:
            raise syntax("ADD takes a number of points", "ADD 2")
        points = int(words[1])
        if not 1 <= points <= 3:
            raise illegal(f"cannot add {points} points", ADD_RANGE)
        if any(order.keyword == "ADD" for order in parsed.orders):
            raise illegal("a second ADD this turn", ONE_ADD)
        return points

    def resolve(self, state: State, orders: Mapping[str, ParsedOrders], seed: int) -> Resolution:
        new = copy.deepcopy(state)
        turn = new["turn"]
        events: list[Event] = []
        results: dict[str, list[OrderResult]] = {}
        for seat in new["seats"]:
            given = orders.get(seat, ParsedOrders())
            results[seat] = [self._apply(new, seat, order, events) for order in given.orders]
            roll = Dice(seed, turn, seat, "bonus").d(6)
            if roll == 6:
                new["score"][seat] += 1
            events.append(
                Event("bonus", seat, f"{seat} rolls {roll} for a bonus", "bonus", (roll,))
            )
        new["turn"] = turn + 1
        outcome = self._decide(new)
        new["outcome"] = outcome.to_json() if outcome else None
        if outcome:
            events.append(Event("game-over", "", outcome.reason, "end", public=True))
        return Resolution(new, events, results, outcome)

    def _apply(self, state: State, seat: str, order: CountOrder, events: list[Event]) -> Any:
        keyword, value, line_no, text = order.keyword, order.value, order.line_no, order.text
        if keyword == "ADD":
            state["score"][seat] += value
            events.append(Event("add", seat, f"{seat} adds {value}", "add"))
        elif keyword == "ATTACK":
            if state["score"][value] == 0:
                return OrderResult(line_no, text, OrderStatus.SKIPPED, f"{value} has no points")
            state["score"][value] -= 1
            events.append(
                Event(
                    "attack",
                    seat,
                    f"{seat} takes a point from {value}",
                    "attack",
                    public=True,
                    also=(value,),
                )
            )
        return OrderResult(line_no, text, OrderStatus.DONE)

    def _decide(self, state: State) -> Outcome | None:
        scores = state["score"]
        best = max(scores.values())
        if best >= state["options"]["target"] or state["turn"] > state["options"]["max_turns"]:
            winners = tuple(seat for seat in state["seats"] if scores[seat] == best)
            return Outcome(winners, f"{' and '.join(winners)} reached {best} points")
        return None

    def seats_to_order(self, state: State) -> list[str]:
        return [] if state["outcome"] else list(state["seats"])

    def turn_number(self, state: State) -> int:
        return int(state["turn"])

    def outcome(self, state: State) -> Outcome | None:
        return Outcome.from_json(state["outcome"]) if state["outcome"] else None

    def render_map(self, state: State, seat: str) -> str:
        rows = []
        for name in state["seats"]:
            mark = "*" if name == seat else " "
            rows.append(f"{mark}{name:<10} {'#' * state['score'][name]:<30} {state['score'][name]}")
        return "\n".join(rows)

    def holdings(self, state: State, seat: str) -> str:
        return f"Points: {state['score'][seat]} of {state['options']['target']}"

    def public_summary(self, state: State) -> str:
        return ", ".join(f"{seat} {state['score'][seat]}" for seat in state["seats"])

    def order_template(self, state: State, seat: str) -> str:
        return "ADD 3\n# ATTACK <seat>"

    def order_help(self) -> str:
        return "ADD <1-3>      add points\nATTACK <seat>  take a point from a seat\nPASS"

    def bot_orders(self, state: State, seat: str, seed: int) -> str:
        points = Dice(seed, state["turn"], seat, "bot").d(3)
        return f"ADD {points}"

    def edit(self, state: State, path: str, value: str) -> State:
        section, _, seat = path.partition(".")
        if section != "score" or seat not in state["score"] or not value.isdigit():
            raise EditError(f"cannot set {path} to {value}")
        new = copy.deepcopy(state)
        new["score"][seat] = int(value)
        return new

    def edit_paths(self) -> str:
        return "score.<seat> <points>    e.g. score.alice 4"


COUNTING = Counting()
