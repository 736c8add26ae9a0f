"""What can be wrong with one line of orders, in three kinds a player can act on."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class ProblemKind(StrEnum):
    SYNTAX = "syntax"  # the line cannot be read: says what was expected, with an example
    ILLEGAL = "illegal"  # the line reads, but a rule forbids it: cites the rule
    AMBIGUOUS = "ambiguous"  # the line reads more than one way: lists the readings


@dataclass(frozen=True)
class Problem:
    kind: ProblemKind
    line_no: int
    line: str
    message: str
    example: str = ""  # SYNTAX: a correct line of the same order
    rule: str = ""  # ILLEGAL: the rule that forbids it, quoted or cited
    readings: tuple[str, ...] = field(default_factory=tuple)  # AMBIGUOUS
    # The line states a choice the turn is played with (Classical's CIVILIZATION and CITY
    # of the setup turn): while it is refused, the seat's mail is not its orders for the
    # turn, so that the turn waits for the corrected choice instead of choosing for it.
    choice: bool = False

    def describe(self) -> str:
        """One or more lines a player reads in the check reply."""
        text = f"line {self.line_no}: {self.message}"
        if self.example:
            text += f"\n  for example: {self.example}"
        if self.rule:
            text += f"\n  rule: {self.rule}"
        if self.readings:
            text += "\n  it could mean: " + " | ".join(self.readings)
        return text


class OrderError(Exception):
    """Raised inside a ruleset's parser for one line; turned into a Problem by the caller."""

    def __init__(
        self,
        kind: ProblemKind,
        message: str,
        *,
        example: str = "",
        rule: str = "",
        readings: tuple[str, ...] = (),
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.example = example
        self.rule = rule
        self.readings = readings
        self.choice = False  # see Problem.choice; set by the ruleset that reads a choice

    def at(self, line_no: int, line: str) -> Problem:
        return Problem(
            self.kind,
            line_no,
            line,
            self.message,
            self.example,
            self.rule,
            self.readings,
            self.choice,
        )


def syntax(message: str, example: str) -> OrderError:
    return OrderError(ProblemKind.SYNTAX, message, example=example)


def illegal(message: str, rule: str) -> OrderError:
    return OrderError(ProblemKind.ILLEGAL, message, rule=rule)


def ambiguous(message: str, readings: tuple[str, ...]) -> OrderError:
    return OrderError(ProblemKind.AMBIGUOUS, message, readings=readings)
