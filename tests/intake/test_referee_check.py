"""A referee's mail decided from what was read (pbem.intake.referee_check): no database.
tests/referee checks the commands run and the replies written from it."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from pbem.intake.referee_check import Item, Refused, Seen, admit, plan, unreasoned


@dataclass(frozen=True)
class Command:
    name: str
    block: bool = False
    fixed: int = 0
    reads: bool = False


KNOWN = {
    "orders": Command("orders", block=True, fixed=1),
    "disorder": Command("disorder"),
    "audit": Command("audit", reads=True),
}
SEEN = Seen("g1", "", "ref@example.org")


def lines(text: str) -> list[tuple[int, str]]:
    return list(enumerate(text.splitlines(), 2))


@pytest.mark.parametrize(
    ("seen", "sender", "refused"),
    [
        (SEEN, "ref@example.org", None),
        (
            Seen("", "there is no game g9"),
            "x@y",
            Refused("unknown-game", "there is no game g9", "x@y"),
        ),
        (
            Seen("g1", ""),
            "x@y",
            Refused("referee-password", "wrong referee password for game g1", "x@y"),
        ),
        (
            Seen("g1", "", "ref@example.org", address_check=True),
            "other@example.org",
            Refused(
                "address",
                "referee commands for game g1 come only from the referee's address",
                "ref@example.org",
            ),
        ),
        (Seen("g1", "", "ref@example.org", address_check=True), "ref@example.org", None),
        (
            Seen("g1", "", "ref@example.org", stopped=True),
            "ref@example.org",
            Refused("stopped", "referee ref@example.org asked for no more mail (STOP)"),
        ),
    ],
)
def test_the_mail_is_admitted_or_refused_whole(
    seen: Seen, sender: str, refused: Refused | None
) -> None:
    assert admit(seen, sender) == refused


def test_each_command_takes_its_own_reason_or_the_reason_line_above() -> None:
    read = plan(lines("DISORDER bob BECAUSE gone\nREASON away\nDISORDER eve\nAUDIT 5"), KNOWN)
    assert read.items == (
        Item(2, "DISORDER bob BECAUSE gone", "disorder", ("bob",), "gone"),
        Item(4, "DISORDER eve", "disorder", ("eve",), "away"),
        Item(5, "AUDIT 5", "audit", ("5",), "away"),
    )
    assert (read.unprocessed, read.help) == ((), False)


def test_a_block_command_takes_the_lines_up_to_its_end() -> None:
    read = plan(lines("ORDERS alice BECAUSE mailed\nADD 2\nADD 3\nEND ORDERS\nHELP"), KNOWN)
    assert read.items == (
        Item(2, "ORDERS alice BECAUSE mailed", "orders", ("alice", "ADD 2\nADD 3"), "mailed"),
    )
    assert read.help


def test_a_block_without_its_end_is_unprocessed_and_its_lines_read_as_commands() -> None:
    read = plan(lines("ORDERS alice BECAUSE x\nDISORDER bob"), KNOWN)
    assert read.items == (Item(3, "DISORDER bob", "disorder", ("bob",), ""),)
    assert read.unprocessed == ((2, "ORDERS alice BECAUSE x", "no END ORDERS line after it"),)


def test_a_line_of_no_command_is_unprocessed() -> None:
    read = plan(lines("FLY away"), KNOWN)
    assert (read.items, read.unprocessed) == (
        (),
        ((2, "FLY away", "there is no referee command FLY"),),
    )


def test_a_command_that_changes_something_needs_a_reason() -> None:
    disorder, audit = plan(lines("DISORDER bob\nAUDIT"), KNOWN).items
    assert unreasoned(disorder, KNOWN["disorder"]) == (
        2,
        "DISORDER bob",
        "a reason is required: end the line with BECAUSE <reason>, or put a REASON line above",
    )
    assert unreasoned(audit, KNOWN["audit"]) is None
