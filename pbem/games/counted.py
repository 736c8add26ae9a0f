"""When a mail counts as a seat's orders for a turn. A seat is "in" (the turn need not wait
for it, and it has missed nothing) only with at least one accepted order, or with an
explicit NO ORDERS line: a mail whose every line was refused (an order template of forms to
fill in, sent back unchanged, among them) is answered but not counted, so that its sender may
still correct it before the turn is resolved. A template whose lines are orders as they
stand counts; the check reply says it was the template unchanged. No ruleset's order begins
with NO ORDERS; the line is pbem's, read here for every game, and never reaches the ruleset
(it would be "not an order" there).

Nor does a mail one of whose choice lines was refused (Classical's CIVILIZATION of the setup
turn, misspelt: engine Problem.choice), whatever else in it was accepted: counted, it would let
the turn be resolved at once and choose for the seat; the check reply says that the turn waits
for the corrected choice.

A mail that is not counted stores nothing: the seat's earlier orders for the turn, if any,
stand. A NO ORDERS mail stores an empty order text, which the turn plays as no orders."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine import ParsedOrders, Ruleset
from engine.ruleset import State
from pbem.mail.commands import PLAYER_WORDS
from pbem.store import Game, GameStatus

PASS_LINE = "NO ORDERS"
# Why a NO ORDERS line in a mail that also has accepted orders is passed over.
PASS_WITH_ORDERS = "NO ORDERS passed over: the accepted orders count"


@dataclass(frozen=True)
class Judged:
    """One mail's order lines as the turn will count them."""

    # (mail line, text) read as orders: every line but NO ORDERS and mail commands
    lines: list[tuple[int, str]]
    parsed: ParsedOrders  # those lines, as the ruleset read them
    pass_line: int | None  # the mail line of NO ORDERS, if the mail has one
    # (mail line, command word) of each line that is a mail command (RESIGN, SET...), which
    # an order mail does not carry out: refused with where to send it, never stored
    commands: tuple[tuple[int, str], ...] = ()

    @property
    def passes(self) -> bool:
        """The seat sends no orders this turn, and says so."""
        return self.pass_line is not None and not self.parsed.orders

    @property
    def counted(self) -> bool:
        if self.choice_refused:
            return False
        return bool(self.parsed.orders) or self.passes

    @property
    def choice_refused(self) -> int:
        """The mail line of the first refused choice line (engine Problem.choice); 0 if none.
        Such a mail does not count, whatever else it holds: the turn waits for the choice."""
        lines = [self.lines[p.line_no - 1][0] for p in self.parsed.problems if p.choice]
        return min(lines, default=0)

    def stored_lines(self) -> list[tuple[int, str]]:
        """What is stored as the seat's orders: nothing for a pass (its other lines were all
        refused), else every line read as orders."""
        return [] if self.passes else self.lines

    def ignored(self) -> list[tuple[int, str]]:
        """The NO ORDERS line, when accepted orders beside it count instead."""
        if self.pass_line is None or self.passes:
            return []
        return [(self.pass_line, PASS_WITH_ORDERS)]

    def refused(self) -> list[tuple[int, str]]:
        """(mail line, what the check reply says) of each mail command among the orders."""
        return [(number, f"line {number}: {misplaced(word)}") for number, word in self.commands]


def misplaced(word: str) -> str:
    """Why a mail command among orders was not carried out, and where it goes instead."""
    done = f"{word} is a mail command, not an order, and was not carried out."
    if word == "RESIGN":
        return f"{done} RESIGN must be sent in a mail of its own: your GAME line, then RESIGN."
    if word == "FORECAST":
        return f"{done} Put FORECAST on the line after your GAME line, your orders under it."
    return (
        f"{done} Send {word} in a separate mail (your GAME line, then {word}): a mail that "
        "starts with a command is read for commands only."
    )


def command_word(text: str) -> str:
    """The mail command a line starts with (RESIGN, SET...); '' for any other line. The words
    are reserved: no ruleset's order starts with one (pbem.mail.envelope). Only a command
    written as one, in capitals or alone on its line: "Stop attacking me" or "Orders for this
    turn:" is prose, answered as "not an order", never sent to find the STOP command."""
    words = text.split()
    if not words or not (words[0].isupper() or len(words) == 1):
        return ""
    return PLAYER_WORDS.get(words[0].upper().rstrip(":"), "")


def is_pass(text: str) -> bool:
    """A line that says the seat sends no orders: NO ORDERS in any case, a full stop allowed."""
    return " ".join(text.rstrip(".!").split()).upper() == PASS_LINE


def judge(ruleset: Ruleset, state: State, seat: str, lines: Sequence[tuple[int, str]]) -> Judged:
    """Read a mail's order lines ((mail line, text) each) for `seat` against `state`."""
    passes = [number for number, text in lines if is_pass(text)]
    commands = tuple((number, word) for number, text in lines if (word := command_word(text)))
    taken = {number for number, _ in commands} | set(passes)
    kept = [(number, text) for number, text in lines if number not in taken]
    parsed = ruleset.parse_orders(state, seat, "\n".join(text for _, text in kept))
    return Judged(kept, parsed, passes[0] if passes else None, commands)


def _order_lines(text: str) -> list[str]:
    """The lines of an order text that say something: comments and blanks left out, spaces
    and case as they do not matter to any ruleset."""
    kept = (" ".join(line.split("#", 1)[0].split()).upper() for line in text.splitlines())
    return [line for line in kept if line]


def unchanged_template(
    ruleset: Ruleset, state: State, seat: str, lines: Sequence[tuple[int, str]]
) -> bool:
    """Whether the mail's order lines are the seat's order template of the turn, as the
    report gave it. Where its lines are orders as they stand (Temples and Swords' LABOR and
    TECH 0), it counts like any accepted order; the check reply says so, so that a template
    sent back by mistake is noticed (docs/players.md, "Order mail")."""
    sent = _order_lines("\n".join(text for _, text in lines))
    return bool(sent) and sent == _order_lines(ruleset.order_template(state, seat))


def counting(judged: Judged, version: int, earlier: int) -> dict[str, Any]:
    """What the check reply says of how the mail counts: stored (replacing earlier orders or
    not), a pass, or not counted, with the earlier orders that then stand. `version`: the
    stored orders' mail's number this turn (OrderSet.version), 0 when nothing is stored;
    `earlier`: the number of the orders in before it, 0 for none."""
    return {
        "counted": judged.counted,
        "choice_refused": judged.choice_refused,
        "passes": judged.passes,
        "replaced": version > 1,
        "version": version,
        "earlier": earlier if not version else 0,
    }


def until_when(game: Game) -> str:
    """Until when new orders may be sent: what the check reply promises must be what the
    clock does (pbem.clock.due). With early processing the turn may be resolved before its
    deadline, as soon as every seat it waits for is in; a seat away (unless the game waits
    for absent seats) or without a player is not waited for. A paused game resolves nothing
    (pbem.clock.due): neither the deadline nor every seat's orders end the turn then."""
    if game.status == GameStatus.PAUSED:
        return (
            "No turn is resolved while the game is paused: you may send new orders until the "
            "turn is resolved, after the referee resumes the game. The last mail counts, whole."
        )
    if not game.early_processing:
        return "You may send new orders until the deadline; the last mail counts, whole."
    skipped = "without a player" if game.wait_for_absent else "away or without a player"
    return (
        "You may send new orders until the turn is resolved: at the deadline, or sooner, as "
        f"soon as every seat's orders are in (a seat {skipped} is not waited for). The last "
        "mail counts, whole."
    )
