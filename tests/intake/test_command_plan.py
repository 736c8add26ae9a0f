"""A mail of commands read into its plan (pbem.intake.command_plan): no database.
tests/pipeline (test_command_mail, test_command_limits) checks the answers run from it."""

from __future__ import annotations

from pbem.intake.command_plan import SIGN_OFF, Plan, plan, signed_off
from pbem.mail.envelope import Envelope, parse_envelope

ALICE = "GAME g1 SEAT alice PASSWORD pw\n"


def planned(text: str, most: int = 20) -> Plan:
    return plan(signed_off(parse_envelope(text)), most)


def words(read: Plan) -> list[tuple[str, tuple[str, ...]]]:
    return [(command.command, command.command_args) for command in read.commands]


def test_every_command_line_under_the_game_line_carries_its_seat_and_password() -> None:
    read = planned(ALICE + "STATUS g1\nORDERS\nSET ABSENCE none\n")
    assert words(read) == [("STATUS", ("g1",)), ("ORDERS", ()), ("SET", ("absence", "none"))]
    assert {(c.game, c.seat, c.password, c.lines) for c in read.commands} == {
        ("g1", "alice", "pw", ())
    }
    assert [c.command_line for c in read.commands] == [2, 3, 4]
    assert (read.not_commands, read.too_many, read.under_game, read.alone) == (
        (),
        None,
        True,
        False,
    )


def test_a_line_that_is_no_command_is_listed_and_the_rest_still_run() -> None:
    read = planned(ALICE + "STATUS g1\nwhat are the rules?\nORDERS\n")
    assert words(read) == [("STATUS", ("g1",)), ("ORDERS", ())]
    assert read.not_commands == ((3, "what are the rules?"),)


def test_the_lines_past_the_most_a_mail_runs_are_counted_from_the_first() -> None:
    read = planned(ALICE + "ORDERS\nORDERS\nORDERS\nORDERS\nORDERS\n", most=3)
    assert len(read.commands) == 3
    assert read.too_many == (5, 2)


def test_a_command_alone_under_its_game_line_is_alone() -> None:
    assert planned(ALICE + "RESIGN\n").alone
    assert not planned(ALICE + "RESIGN\nORDERS\n").alone


def test_without_a_game_line_each_command_stands_alone() -> None:
    read = planned("STATUS g1\nHELP orders\n")
    assert words(read) == [("STATUS", ("g1",)), ("HELP", ("orders",))]
    assert not read.under_game
    assert read.commands[1].password == ""


def test_the_closing_sign_off_is_passed_over_and_listed_as_ignored() -> None:
    envelope = signed_off(parse_envelope(ALICE + "ORDERS\nThanks, Eve\n"))
    assert envelope.lines == ()
    assert (3, SIGN_OFF) in envelope.ignored
    assert signed_off(Envelope()) == Envelope()
