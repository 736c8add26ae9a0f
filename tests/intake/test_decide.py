"""What a recorded mail is, decided from the mail alone (pbem.intake.decide): plain unit
tests, no database. The pipeline tests (tests/pipeline) check what each kind is answered."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pbem.intake.decide import HELP_HINT, Decision, Kind, Rules, look, read
from pbem.intake.dispatch import _DO
from pbem.mail.reading import read_mail
from tests.support.mails import mail, order_mail

RULES = Rules(("moderator@pbem.localhost",), "pbem.localhost", max_lines=50)


def decided(raw: bytes, rules: Rules = RULES) -> Decision:
    """Both looks, as the dispatch takes them for a mail that is no reply to press."""
    first = look(read_mail(raw), rules)
    return read(first.mail, rules) if first.kind == Kind.READ else first


def test_an_order_mail_is_orders_with_its_envelope() -> None:
    found = decided(order_mail("g1", "alice", "pw-alice", "ADD 2\nATTACK bob\n"))
    assert found.kind == Kind.ORDERS
    assert (found.envelope.game, found.envelope.seat) == ("g1", "alice")
    assert [text for _, text in found.envelope.lines] == ["ADD 2", "ATTACK bob"]
    assert (found.reason, found.error, found.reply_to) == ("", "", "")


@pytest.mark.parametrize(
    ("headers", "why"),
    [
        ({"Auto-Submitted": "auto-replied"}, "auto-submitted"),
        ({"Precedence": "bulk"}, "precedence"),
        ({"X-Loop": "pbem.localhost"}, "loop"),
        ({"List-Id": "<games.example.org>"}, "list"),
    ],
)
def test_mail_that_could_start_a_loop_is_ignored(headers: dict[str, str], why: str) -> None:
    found = decided(order_mail("g1", "alice", "pw", "ADD 2\n", headers=headers))
    assert found.kind == Kind.IGNORED
    assert why in found.reason.lower()
    assert found.reply_to == ""


@pytest.mark.parametrize(
    "sender", ["moderator@pbem.localhost", "MAILER-DAEMON@example.org", "postmaster@example.org"]
)
def test_our_own_mail_and_bounces_are_ignored(sender: str) -> None:
    assert decided(mail("GAME g1", sender=sender)).kind == Kind.IGNORED


def test_a_mail_without_a_from_is_set_aside_unanswered() -> None:
    raw = b"To: moderator@pbem.localhost\r\nSubject: x\r\nMessage-ID: <a@b>\r\n\r\nGAME g1\r\n"
    found = decided(raw)
    assert found.kind == Kind.NO_SENDER
    assert (found.reason, found.reply_to) == ("no-sender", "")
    assert found.error == "the mail has no From header, so there is no sender to answer"


def test_two_senders_are_answered_to_none() -> None:
    raw = mail("GAME g1").replace(b"From: alice@example.org", b"From: a@x.org, b@y.org")
    found = decided(raw)
    assert found.kind == Kind.NO_SENDER
    assert found.error.startswith("the From header names 2 addresses")


def test_not_a_mail_at_all_has_no_sender() -> None:
    found = decided(b"\x00\x01 not a mail")
    assert found.kind == Kind.NO_SENDER


def test_a_mail_too_big_is_refused_unread_to_its_sender() -> None:
    big = read_mail(order_mail("g1", "alice", "pw", "ADD 2\n" * 100), max_bytes=200)
    found = look(big, RULES)
    assert (found.kind, found.reason, found.reply_to) == (
        Kind.TOO_BIG,
        "too-big",
        "alice@example.org",
    )
    assert found.error == (big.notes[0] if big.notes else "the mail is too big")


def test_a_mail_too_long_is_refused_unread_with_a_hint() -> None:
    found = decided(order_mail("g1", "alice", "pw", "ADD 2\n" * 60))
    assert (found.kind, found.reason, found.reply_to) == (
        Kind.TOO_LONG,
        "too-long",
        "alice@example.org",
    )
    assert found.error == (
        "the mail has 61 lines; the moderator reads mail of at most 50 lines, quoted lines "
        "not counted. Nothing in it was read or stored."
    )
    assert found.hint == (
        "Delete the text your mail program quoted or pasted below your own, and send your "
        "orders alone, one a line, under your GAME line."
    )
    assert decided(order_mail("g1", "alice", "pw", "ADD 2\n" * 60), RULES).envelope.game == ""


def test_a_long_quoted_thread_is_left_out_and_the_mail_read() -> None:
    """Fresh-eyes test: two lines of orders over a quoted thread of 6,000 lines were refused
    unread. The quoted lines are left out (one pass), and the reply says so."""
    quoted = "".join(f"> line {n} of an old report\n" for n in range(6_000))
    found = decided(order_mail("g1", "alice", "pw", "ADD 2\n\n" + quoted))
    assert (found.kind, found.envelope.game) == (Kind.ORDERS, "g1")
    assert ">" not in found.mail.text
    assert found.mail.notes[-1] == (
        "the quoted text (the 6,000 lines that begin with '>') was not read: with it the mail "
        "is over 50 lines; line numbers count the other lines"
    )


def test_a_mail_long_without_its_quote_says_how_many_lines_are_quoted() -> None:
    found = decided(order_mail("g1", "alice", "pw", "ADD 2\n" * 60 + "> old\n" * 7))
    assert found.kind == Kind.TOO_LONG
    assert found.error.startswith(
        "the mail has 68 lines (7 of them quoted, beginning with '>'); the moderator reads"
    )


@pytest.mark.parametrize(
    ("subject", "token"),
    [("STOP", ""), ("stop abc123", "abc123"), (" Stop ", "")],
)
def test_a_stop_subject_over_a_body_without_game_line_is_a_stop(subject: str, token: str) -> None:
    found = decided(mail("", subject=subject))
    assert (found.kind, found.token) == (Kind.STOP, token)


@pytest.mark.parametrize("subject", ["Re: STOP abc123", "AW: Stop", "Re: Re: STOP abc123"])
def test_a_reply_is_no_stop_by_its_subject_alone(subject: str) -> None:
    """A reply to the answer of an UNSTOP, "thanks", kept its subject: no STOP."""
    assert decided(mail("thanks", subject=subject)).kind == Kind.NO_GAME


def test_a_stop_subject_over_orders_is_an_order_mail() -> None:
    raw = order_mail("g1", "alice", "pw", "ADD 2\n", subject="STOP")
    assert decided(raw).kind == Kind.ORDERS


def test_a_subject_that_only_starts_with_stop_is_no_stop() -> None:
    assert decided(mail("HELP", subject="stopping by, two words")).kind == Kind.COMMAND


def test_a_mail_that_is_read_on_is_looked_at_for_a_reply_to_press_first() -> None:
    """look() leaves the relayed-press test to the database: READ, the mail as it came."""
    raw = order_mail("g1", "alice", "pw", "ADD 2\n", headers={"In-Reply-To": "<p1@x>"})
    first = look(read_mail(raw), RULES)
    assert first.kind == Kind.READ and first.mail == read_mail(raw)


def test_a_command_mail() -> None:
    found = decided(mail("HELP"))
    assert (found.kind, found.envelope.command) == (Kind.COMMAND, "HELP")


def test_a_command_under_a_game_line() -> None:
    found = decided(mail("GAME g1 SEAT alice PASSWORD pw\nSTATUS g1\n"))
    assert (found.kind, found.envelope.command) == (Kind.COMMAND, "STATUS")


def test_an_envelope_that_cannot_be_read_is_refused_with_help() -> None:
    found = decided(mail("GAME g1 SEAT alice\nADD 2\n"))
    assert (found.kind, found.reason, found.hint) == (Kind.ENVELOPE, "envelope", HELP_HINT)
    assert found.error and found.reply_to == "alice@example.org"


def test_referee_mail() -> None:
    found = decided(mail("GAME g1 REFEREE pw\nPAUSE BECAUSE holiday\n"))
    assert (found.kind, found.envelope.game) == (Kind.REFEREE, "g1")


def test_press_alone_with_orders_and_with_commands() -> None:
    press = "PRESS TO bob\nhello bob\nEND PRESS\n"
    alone = decided(order_mail("g1", "alice", "pw", press))
    assert alone.kind == Kind.PRESS
    assert [(b.to, b.text) for b in alone.blocks] == [(("bob",), "hello bob")]
    assert "hello bob" not in alone.mail.text  # cut out: never read as orders
    assert decided(order_mail("g1", "alice", "pw", "ADD 2\n" + press)).kind == Kind.PRESS_ORDERS
    commands = decided(mail("GAME g1 SEAT alice PASSWORD pw\nSTATUS g1\n" + press))
    assert commands.kind == Kind.PRESS_COMMANDS
    forecast = decided(mail("GAME g1 SEAT alice PASSWORD pw\nFORECAST\n" + press))
    assert forecast.kind == Kind.PRESS_ORDERS  # FORECAST's lines are orders


def test_press_without_a_game_line_is_refused() -> None:
    found = decided(mail("PRESS TO bob\nhi\nEND PRESS\n"))
    assert (found.kind, found.reason) == (Kind.ENVELOPE, "envelope")
    assert found.error == "PRESS goes under your GAME line, with your password"


def test_no_game_line_names_a_mistyped_command() -> None:
    found = decided(mail("HLEP\n"))
    assert (found.kind, found.reason) == (Kind.NO_GAME, "envelope")
    assert found.error == "no GAME line and no command (HLEP)"
    assert found.help is not None
    assert (found.help.unknown, found.help.looked) == ("HLEP", ("the text of the mail",))
    assert found.reply_to == ""  # set aside; the short help is the answer


def test_no_game_line_names_the_line_after_a_greeting_and_a_late_command() -> None:
    found = decided(mail("Hello\nwhat is this\nmore prose here\nSTATUS g1\n"))
    assert found.kind == Kind.NO_GAME and found.help is not None
    assert found.help.stray == 'line 2, "what is this"'
    assert found.help.late == "line 4 (STATUS g1)"
    assert found.error == 'no GAME line and no command (line 2, "what is this")'


def test_an_empty_mail_has_no_game_line() -> None:
    found = decided(mail(""))
    assert (found.kind, found.error) == (Kind.NO_GAME, "no GAME line and no command (empty)")


def test_orders_in_the_quoted_text_are_read_with_a_note() -> None:
    found = decided(mail("My orders below.\n\n> GAME g1 SEAT alice PASSWORD pw\n> ADD 2\n"))
    assert (found.kind, found.envelope.game) == (Kind.ORDERS, "g1")
    assert found.mail.notes[-1] == "orders read from the quoted text"


def test_html_cut_short_before_a_game_line_is_refused_as_too_big() -> None:
    cut = replace(read_mail(mail("hello there")), cut_short="the mail has too many HTML tags")
    found = read(cut, RULES)
    assert (found.kind, found.reason, found.reply_to) == (
        Kind.CUT_SHORT,
        "too-big",
        "alice@example.org",
    )
    assert found.error.startswith(
        "The HTML of your mail could not be read whole: the mail has too many HTML tags."
    )


def test_every_kind_but_read_on_is_done_by_the_dispatch() -> None:
    assert set(_DO) == set(Kind) - {Kind.READ}
