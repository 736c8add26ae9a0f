"""Reading a referee command's arguments: the same words from the command line and from mail."""

from __future__ import annotations

import re
from collections.abc import Sequence

from pbem.referee.command import RefereeError

_ORDER_BREAK = re.compile(r"\s*[;\n]\s*")


def need(args: Sequence[str], count: int, usage: str) -> None:
    if len(args) < count:
        raise RefereeError(f"not enough arguments; write: {usage}")


def exactly(args: Sequence[str], count: int, usage: str) -> None:
    if len(args) != count:
        raise RefereeError(f"expected {count} argument{'s' if count != 1 else ''}: {usage}")


def number(word: str, what: str = "a turn number") -> int:
    if not word.isdigit():
        raise RefereeError(f"{what} is a whole number, not {word!r}")
    return int(word)


def split_turn(args: Sequence[str]) -> tuple[int | None, list[str]]:
    """An optional leading `TURN <n>`, and the words after it."""
    if len(args) >= 2 and args[0].upper() == "TURN":
        return number(args[1]), list(args[2:])
    return None, list(args)


def order_lines(words: Sequence[str]) -> list[str]:
    """Order text from the words after the seat: lines split at ';' or line breaks (the mail
    block form gives line breaks; a shell one-liner uses ';')."""
    return [line for line in _ORDER_BREAK.split(" ".join(words).strip()) if line]
