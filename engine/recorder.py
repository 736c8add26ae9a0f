"""Collects what a turn produces: events in rule order and one result for every order.

Shared by every ruleset; it needs no more of an order than where it stood in the
seat's text and what it said, so it is typed against `RecordedOrder`, not any
ruleset's own order types."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from engine.records import Event, OrderResult, OrderStatus


class RecordedOrder(Protocol):
    """What the engine and the service need of any ruleset's order: its line in the seat's
    text, that text as written, and what it was understood as."""

    @property
    def line_no(self) -> int: ...

    @property
    def text(self) -> str: ...

    def understood(self) -> str:
        """The order as it was read, in full words: seat names, unit names, hex labels
        ("attack cat's army in D4 with the best advanced unit"). The check reply shows it
        beside the line as written, so a player sees which seat 'c' was taken for."""
        ...


@dataclass
class Recorder:
    events: list[Event] = field(default_factory=list)
    results: dict[str, list[OrderResult]] = field(default_factory=dict)
    # How many results each seat had when the turn's first die was rolled; None while no die
    # was. What came before it would come the same with any other dice (engine.rehearsal).
    before_dice: dict[str, int] | None = None

    def dice_rolled(self) -> None:
        """A die is about to be rolled (Dice's `on_roll`, from SeatTurnBase.dice)."""
        if self.before_dice is None:
            self.before_dice = {seat: len(results) for seat, results in self.results.items()}

    def event(
        self,
        code: str,
        seat: str,
        phase: str,
        text: str,
        dice: tuple[int, ...] | list[int] = (),
        public: bool = False,
        also: tuple[str, ...] = (),
    ) -> None:
        self.events.append(Event(code, seat, text, phase, tuple(dice), public, also))

    def result(self, seat: str, order: RecordedOrder, status: OrderStatus, note: str = "") -> None:
        self.results.setdefault(seat, []).append(
            OrderResult(order.line_no, order.text, status, note)
        )

    def done(self, seat: str, order: RecordedOrder, note: str = "") -> None:
        self.result(seat, order, OrderStatus.DONE, note)

    def partly(self, seat: str, order: RecordedOrder, note: str) -> None:
        self.result(seat, order, OrderStatus.PARTLY, note)

    def skipped(self, seat: str, order: RecordedOrder, note: str) -> None:
        self.result(seat, order, OrderStatus.SKIPPED, note)

    def sort_results(self) -> None:
        for results in self.results.values():
            results.sort(key=lambda r: r.line_no)
