"""Deterministic dice.

Every roll comes from a generator derived from (game seed, turn, seat, purpose). Correcting one
seat's orders and rerunning a turn therefore leaves every roll of every other stream as it was:
seat B's disaster roll does not move because seat A now buys one more tech roll.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


class Dice:
    """One named stream of dice. Create one per (seed, turn, seat, purpose)."""

    def __init__(
        self,
        seed: int,
        turn: int,
        seat: str,
        purpose: str,
        on_roll: Callable[[], None] | None = None,
    ) -> None:
        """`on_roll` is called before the stream's first roll (engine.rehearsal asks whether
        any die was rolled)."""
        self._key = f"{seed}\x1f{turn}\x1f{seat}\x1f{purpose}".encode()
        self._generator: random.Random | None = None
        self._on_roll = on_roll
        self.label = f"turn {turn} {seat or '-'} {purpose}"

    @property
    def _random(self) -> random.Random:
        # Made on the first roll: a turn asks for many streams it never rolls in.
        if self._generator is None:
            if self._on_roll is not None:
                self._on_roll()
            digest = hashlib.sha256(self._key).digest()
            self._generator = random.Random(int.from_bytes(digest[:16], "big"))
        return self._generator

    def d(self, sides: int) -> int:
        """One die with `sides` faces, 1..sides."""
        return self._random.randint(1, sides)

    def roll(self, count: int, sides: int = 6) -> list[int]:
        """`count` dice with `sides` faces each, in the order rolled."""
        return [self._random.randint(1, sides) for _ in range(count)]

    def choice(self, items: Sequence[T]) -> T:
        """One item, uniformly; for 'choose randomly' in the rules."""
        return items[self._random.randrange(len(items))]

    def shuffle(self, items: list[T]) -> None:
        self._random.shuffle(items)

    def randrange(self, stop: int) -> int:
        return self._random.randrange(stop)
