"""Reading the value of a referee edit, the same way in every ruleset.

Each reader checks the value before anything changes and raises EditError with a reason the
referee can act on; the ruleset's edits module decides what the value is for.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

from engine.ruleset import EditError
from engine.words import normal


class NamedSeat(Protocol):
    """A seat as a referee names it: by its name or its letter."""

    @property
    def name(self) -> str: ...

    @property
    def letter(self) -> str: ...


SeatT = TypeVar("SeatT", bound=NamedSeat)


def whole_number(value: str, low: int = 0, high: int = 1_000_000) -> int:
    """The value as a whole number from `low` to `high`."""
    try:
        number = int(value)
    except ValueError:
        raise EditError(f"{value!r} is not a whole number") from None
    if not low <= number <= high:
        raise EditError(f"{number} is not between {low} and {high}")
    return number


def yes_or_no(value: str) -> bool:
    """The value as yes (yes/true/1/on) or no (no/false/0/off), in any case."""
    if value.lower() in ("yes", "true", "1", "on"):
        return True
    if value.lower() in ("no", "false", "0", "off"):
        return False
    raise EditError(f"{value!r}: say yes or no")


def named_seat(seats: Sequence[SeatT], name: str) -> SeatT:
    """The seat called `name` (spelling normalised) or with that letter."""
    for seat in seats:
        if normal(seat.name) == normal(name) or seat.letter == name.upper():
            return seat
    raise EditError(f"no seat {name!r}; seats: {', '.join(s.name for s in seats)}")
