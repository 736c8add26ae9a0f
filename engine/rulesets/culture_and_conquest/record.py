"""Collects what a turn produces: events in rule order and one result for every order."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.records import Event, OrderResult, OrderStatus
from engine.rulesets.culture_and_conquest.orders import Order


@dataclass
class Recorder:
    events: list[Event] = field(default_factory=list)
    results: dict[str, list[OrderResult]] = field(default_factory=dict)

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

    def result(self, seat: str, order: Order, status: OrderStatus, note: str = "") -> None:
        self.results.setdefault(seat, []).append(
            OrderResult(order.line_no, order.text, status, note)
        )

    def done(self, seat: str, order: Order, note: str = "") -> None:
        self.result(seat, order, OrderStatus.DONE, note)

    def partly(self, seat: str, order: Order, note: str) -> None:
        self.result(seat, order, OrderStatus.PARTLY, note)

    def skipped(self, seat: str, order: Order, note: str) -> None:
        self.result(seat, order, OrderStatus.SKIPPED, note)

    def sort_results(self) -> None:
        for results in self.results.values():
            results.sort(key=lambda r: r.line_no)
