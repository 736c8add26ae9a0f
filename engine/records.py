"""What a turn produces: events with named codes and dice, and a result for every order."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engine.problems import Problem
from engine.serial import Serialisable


class OrderStatus(StrEnum):
    DONE = "done"
    PARTLY = "partly done"
    SKIPPED = "skipped"


@dataclass(frozen=True)
class Event(Serialisable):
    """Something that happened. `seat` is whose turn it happened in ('' for none);
    `public` events are news for every seat, the rest only for `seat` and `also`."""

    code: str
    seat: str
    text: str
    phase: str = ""
    dice: tuple[int, ...] = ()
    public: bool = False
    also: tuple[str, ...] = ()  # other seats that see it (the defender of an attack, say)

    def visible_to(self, seat: str) -> bool:
        return self.public or seat == self.seat or seat in self.also

    def news(self) -> str:
        """The text as news for the other seats: it names the seat it is about, put in front
        when the ruleset's text does not ("bob: Famine: D4 loses 2 population")."""
        if not self.seat or re.search(rf"\b{re.escape(self.seat)}\b", self.text):
            return self.text
        return f"{self.seat}: {self.text}"


@dataclass(frozen=True)
class OrderResult(Serialisable):
    line_no: int
    order: str
    status: OrderStatus
    note: str = ""


@dataclass
class ParsedOrders:
    """The orders read from one seat's text, and the problems of the lines that failed.
    `orders` are the ruleset's own order objects; pbem/ never looks inside them."""

    orders: list[Any] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    ignored: list[tuple[int, str]] = field(default_factory=list)  # (line_no, why)
    # (line_no, note) for accepted lines judged where they take effect (engine.rehearsal):
    # possible only after the seat's earlier orders, or decided by the dice
    notes: list[tuple[int, str]] = field(default_factory=list)

    def understood(self) -> list[tuple[int, str]]:
        """(line_no, what the order was understood as) for every order read, in line order.
        Every ruleset's orders have `understood()` (engine.recorder.RecordedOrder)."""
        return sorted((order.line_no, order.understood()) for order in self.orders)


@dataclass(frozen=True)
class Outcome(Serialisable):
    winners: tuple[str, ...]
    reason: str


@dataclass
class Resolution:
    """The record of one resolved turn: the state after it, what happened, how each order went."""

    state: dict[str, Any]
    events: list[Event]
    results: dict[str, list[OrderResult]]
    outcome: Outcome | None = None

    def events_for(self, seat: str) -> list[Event]:
        return [e for e in self.events if e.visible_to(seat)]

    def record_json(self) -> dict[str, Any]:
        """Events, results and outcome as plain JSON (the state is stored on its own)."""
        return {
            "events": [e.to_json() for e in self.events],
            "results": {s: [r.to_json() for r in rs] for s, rs in self.results.items()},
            "outcome": self.outcome.to_json() if self.outcome else None,
        }

    @classmethod
    def from_record(cls, state: dict[str, Any], record: dict[str, Any]) -> Resolution:
        outcome = record.get("outcome")
        return cls(
            state=state,
            events=[Event.from_json(e) for e in record["events"]],
            results={
                s: [OrderResult.from_json(r) for r in rs] for s, rs in record["results"].items()
            },
            outcome=Outcome.from_json(outcome) if outcome else None,
        )
