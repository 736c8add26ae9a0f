"""The counting ruleset with a bug: an EXPLODE order raises, as a ruleset bug would."""

from __future__ import annotations

from engine import ParsedOrders
from engine.ruleset import State
from tests.support.counting_ruleset import Counting


class BrokenCounting(Counting):
    id = "counting-broken"
    aliases = ()
    title = "Counting with a bug (a test ruleset)"

    def parse_orders(self, state: State, seat: str, text: str) -> ParsedOrders:
        if "EXPLODE" in text:
            raise RuntimeError("the test ruleset exploded")
        return super().parse_orders(state, seat, text)


BROKEN = BrokenCounting()
