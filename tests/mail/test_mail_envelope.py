"""parse_envelope: GAME line, TURN, order lines and mail commands, from real mails and inline."""

from __future__ import annotations

from pathlib import Path

from pbem.mail.envelope import GAME_FORM, Envelope, parse_envelope
from pbem.mail.reading import read_mail

EML = Path(__file__).parent / "eml"


def envelope_of(name: str) -> Envelope:
    return parse_envelope(read_mail((EML / name).read_bytes()).text)


def test_plain_order_mail() -> None:
    assert envelope_of("plain_orders.eml") == Envelope(
        game="temple1",
        seat="red",
        password="s3cret",
        turn=3,
        lines=((4, "build temple at Ur"), (5, "move 3 warriors Ur -> Kish")),
        ignored=((7, "after END (1 line)"),),
    )


def test_html_only_mail() -> None:
    assert envelope_of("html_only.eml") == Envelope(
        game="temple1",
        seat="blue",
        password="hunter2",
        lines=(
            (2, "move 2 warriors Kish -> Ur"),
            (4, "trade grain&wine with red"),
            (5, "Grüße,"),
            (6, "Bob"),
        ),
    )


def test_multipart_alternative() -> None:
    assert envelope_of("alternative.eml") == Envelope(
        game="temple1", seat="green", password="pw-green", lines=((2, "build farm at Lagash"),)
    )


def test_top_posted_reply_ignores_attribution_and_quote() -> None:
    assert envelope_of("reply_top_posted.eml") == Envelope(
        game="temple1",
        seat="red",
        password="s3cret",
        turn=4,
        lines=((3, "move 3 warriors Kish -> Lagash"),),
        ignored=((5, "quoted text (9 lines)"),),
    )


def test_bottom_posted_reply_with_quote_between_orders_and_signature() -> None:
    assert envelope_of("reply_bottom_posted.eml") == Envelope(
        game="temple1",
        seat="red",
        password="s3cret",
        turn=4,
        lines=((12, "move 3 warriors Kish -> Lagash"), (14, "build temple at Kish")),
        ignored=(
            (1, "text before the GAME line (8 lines)"),
            (13, "quoted text (1 line)"),
            (17, "signature (1 line)"),
        ),
    )


def test_orders_after_pasted_report_with_colons_tabs_nbsp_and_quoted_password() -> None:
    assert envelope_of("pasted_report.eml") == Envelope(
        game="temple1",
        seat="yellow",
        password="open sesame",
        lines=((6, "train 2 warriors at Nippur"),),
        ignored=((1, "text before the GAME line (3 lines)"),),
    )


def test_outlook_original_message_ends_the_orders() -> None:
    assert envelope_of("outlook_reply.eml") == Envelope(
        game="temple1",
        seat="purple",
        password="pw-purple",
        lines=((2, "build farm at Eridu"),),
        ignored=((5, "original message below the reply (3 lines)"),),
    )


def test_charsets_reach_the_order_lines() -> None:
    assert envelope_of("latin1.eml").password == "grün"
    assert envelope_of("latin1.eml").lines == ((2, "move 1 warrior Ur -> Königsberg"),)
    assert envelope_of("windows1252.eml").lines == ((2, "say “hello” to red – costs 5 €"),)
    assert envelope_of("unknown_charset.eml").lines == ((2, "move 1 warrior Ur -> Niné"),)


def test_signature_separator_ends_orders() -> None:
    text = "GAME g1 SEAT s PASSWORD p\nmove a\n-- \nCarol\nGAME g2 SEAT t PASSWORD q\n"
    assert parse_envelope(text) == Envelope(
        game="g1",
        seat="s",
        password="p",
        lines=((2, "move a"),),
        ignored=((4, "signature (2 lines)"),),
    )


def test_keywords_case_insensitive_ids_lowered_password_kept() -> None:
    env = parse_envelope("game G1 seat RED password PaSs\nturn: 12\n\tMove  A B\n")
    assert (env.game, env.seat, env.password, env.turn) == ("g1", "red", "PaSs", 12)
    assert env.lines == ((3, "Move  A B"),)


def test_turn_on_the_game_line() -> None:
    assert parse_envelope("GAME g1 SEAT s PASSWORD p TURN 5\nx").turn == 5


def test_turn_after_orders_is_an_order_line() -> None:
    env = parse_envelope("GAME g1 SEAT s PASSWORD p\nmove\nTURN 5\n")
    assert env.turn is None
    assert env.lines == ((2, "move"), (3, "TURN 5"))


def test_malformed_turn_line_is_a_problem() -> None:
    env = parse_envelope("GAME g1 SEAT s PASSWORD p\nTURN five\nmove\n")
    assert env.problem == "line 2: the TURN line needs a number: TURN <n>"
    assert env.password == ""


def test_comment_only_and_blank_lines_are_dropped() -> None:
    env = parse_envelope("GAME g1 SEAT s PASSWORD p # turn 3\n\n# nothing\n  \nmove # now\n")
    assert env.lines == ((5, "move"),)
    assert env.password == "p"


def test_crlf_and_zero_width_and_nbsp() -> None:
    env = parse_envelope("\ufeffGAME\u00a0g1 SEAT\u202fs PASSWORD p\r\n\u200bmove a\r\n")
    assert (env.game, env.seat, env.password) == ("g1", "s", "p")
    assert env.lines == ((2, "move a"),)


def test_referee_line() -> None:
    env = parse_envelope("GAME g1 REFEREE PASSWORD pw\nTURN 7\nrollback 6\n")
    assert env == Envelope(
        game="g1", referee=True, password="pw", turn=7, lines=((3, "rollback 6"),)
    )
    assert parse_envelope("GAME g1 REFEREE pw").password == "pw"


def test_missing_password_names_the_line_and_the_form() -> None:
    env = parse_envelope("hello\nGAME g1 SEAT red\nmove\n")
    assert env.problem == (
        f"line 2: PASSWORD <password> is missing. The GAME line needs: {GAME_FORM}"
        " (a referee writes: GAME <game-id> REFEREE <password>)"
    )
    assert (env.game, env.seat, env.password, env.lines) == ("g1", "red", "", ())


def test_problem_explains_the_attempted_line_not_a_report_heading() -> None:
    env = parse_envelope("Game: g1, turn 3\nGAME g1 SEAT red PASS x\n")
    assert env.problem.startswith("line 2: 'PASS' is not expected there.")


def test_a_template_sent_back_unfilled_is_told_to_replace_the_placeholder() -> None:
    for line, placeholder in (
        ("GAME g1 SEAT red PASSWORD <your password>", "<your password>"),
        ("GAME g1 REFEREE <your password>", "<your password>"),
        ("GAME <game-id> SEAT <seat> PASSWORD <password>", "<game-id>"),
    ):
        env = parse_envelope(f"{line}\nTURN 2\nADD 3\n")
        assert env.problem.startswith(f"line 1: replace {placeholder} with "), env.problem
        assert "is not expected there" not in env.problem
    assert parse_envelope("GAME g1 SEAT red PASSWORD <your password>").problem.startswith(
        "line 1: replace <your password> with your password, as you chose it or the referee"
    )
    # A password may still be written in angle brackets, if it has no space.
    assert parse_envelope("GAME g1 SEAT red PASSWORD <p4ss>").password == "<p4ss>"


def test_game_line_errors() -> None:
    def problem(text: str) -> str:
        return parse_envelope(text).problem.split(". The GAME line")[0]

    assert problem("GAME") == "line 1: the game id is missing"
    assert problem("GAME SEAT s PASSWORD p") == "line 1: the game id is missing"
    assert problem("GAME g1 PASSWORD p") == "line 1: SEAT <seat> is missing"
    assert problem("GAME g1 SEAT s SEAT t PASSWORD p") == "line 1: SEAT is given twice"
    assert problem("GAME g1 SEAT s PASSWORD") == "line 1: PASSWORD needs a value after it"
    assert problem("GAME g1 SEAT s REFEREE p") == "line 1: a referee mail has no SEAT"
    assert problem("GAME g1 SEAT s PASSWORD p TURN x") == "line 1: TURN needs a number, not 'x'"


def test_quoted_game_line_is_not_a_game_line() -> None:
    env = parse_envelope("> GAME g1 SEAT s PASSWORD p\n> move\n")
    assert env == Envelope(ignored=((1, "text without a GAME line (2 lines)"),))


def test_second_game_line_stops_the_orders() -> None:
    env = parse_envelope("GAME g1 SEAT r PASSWORD p\nmove\nGAME g1 SEAT b PASSWORD q\nmove b\n")
    assert env.lines == ((2, "move"),)
    assert env.ignored == (
        (3, "a second GAME line and what follows: send one mail per seat (2 lines)"),
    )


def test_line_ending_with_colon_before_orders_is_kept() -> None:
    env = parse_envelope("GAME g1 SEAT r PASSWORD p\nnote:\nmove\n")
    assert env.lines == ((2, "note:"), (3, "move"))


def test_commands_after_the_game_line() -> None:
    env = parse_envelope("GAME g1 SEAT r PASSWORD p\nTURN 4\nREPORT 3\nmove a\n")
    assert env == Envelope(
        game="g1",
        seat="r",
        password="p",
        turn=4,
        command="REPORT",
        command_args=("3",),
        lines=((4, "move a"),),
    )
    assert parse_envelope("GAME g1 SEAT r PASSWORD p\norders").command == "ORDERS"
    assert parse_envelope("GAME g1 SEAT r PASSWORD p\nStatus").command == "STATUS"


def test_commands_without_game_line() -> None:
    assert parse_envelope("HELP") == Envelope(command="HELP")
    assert parse_envelope("\n> quoted\nhelp Orders\n") == Envelope(
        command="HELP", command_args=("orders",), ignored=((2, "quoted text (1 line)"),)
    )
    assert parse_envelope("STATUS Temple1") == Envelope(
        game="temple1", command="STATUS", command_args=("temple1",)
    )
    assert parse_envelope("REPORT") == Envelope(command="REPORT")


def test_command_must_be_the_first_line_without_game_line() -> None:
    """After a greeting at most (issue 43, point 13: "Hi! JOIN tri1 ..." was read as nothing):
    a greeting line or two before the command, or a greeting's few words on its line."""
    env = parse_envelope("Hi there,\nHELP\n")
    assert (env.command, env.ignored) == ("HELP", ((1, "a greeting (1 line)"),))
    assert parse_envelope("Hi! HELP RULES").command_args == ("rules",)
    prose = parse_envelope("I would like some\nHELP\n")
    assert prose == Envelope(ignored=((1, "text without a GAME line (2 lines)"),))
    far = parse_envelope("Hi,\nhello,\ngreetings,\nHELP\n")  # more greeting than a greeting
    assert far.command == ""


def test_report_argument_must_be_a_turn_or_start() -> None:
    env = parse_envelope("REPORT last")
    assert env.problem == (
        "line 1: REPORT takes at most a turn number or START: REPORT <turn>, REPORT START"
    )
    start = parse_envelope("GAME g1 SEAT ann PASSWORD pw\nReport Start\n")
    assert (start.command, start.command_args, start.problem) == ("REPORT", ("start",), "")


def test_join() -> None:
    assert parse_envelope("JOIN Temple1 Dave PASSWORD hunter2\n-- \nDave") == Envelope(
        game="temple1",
        seat="dave",
        password="hunter2",
        command="JOIN",
        command_args=("temple1", "dave"),
        ignored=((3, "signature (1 line)"),),
    )
    assert parse_envelope('signup: g1 dave "two words"').password == "two words"
    assert parse_envelope("join g1 dave pw").password == "pw"


def test_malformed_join() -> None:
    env = parse_envelope("JOIN g1 PASSWORD x")
    assert env == Envelope(
        command="JOIN",
        problem="line 1: the JOIN line needs: JOIN <game-id> <seat-name> PASSWORD <password>",
    )


def test_empty_text() -> None:
    assert parse_envelope("") == Envelope()


def test_names_longer_than_the_store_keeps_are_a_problem() -> None:
    long_name = "g" * 65
    env = parse_envelope(f"GAME {long_name} SEAT s PASSWORD p")
    assert env.problem.startswith("line 1: the game id is longer than 64 characters.")
    assert env.game == ""
    env = parse_envelope(f"GAME g1 SEAT {long_name} PASSWORD p")
    assert env.problem.startswith("line 1: the seat name is longer than 64 characters.")
    assert parse_envelope(f"JOIN g1 {long_name} PASSWORD p").problem == (
        "line 1: the JOIN line needs: JOIN <game-id> <seat-name> PASSWORD <password>"
    )
    assert parse_envelope(f"STATUS {long_name}").game == ""
    assert parse_envelope(f"GAME {'g' * 64} SEAT s PASSWORD p").game == "g" * 64


def test_phone_signature_ends_orders() -> None:
    env = parse_envelope("GAME g1 SEAT s PASSWORD p\nmove a\n\nSent from my iPhone\n")
    assert env.lines == ((2, "move a"),)
    assert env.ignored == ((4, "signature (1 line)"),)


def test_outlook_header_block_ends_orders() -> None:
    text = (
        "GAME g1 SEAT s PASSWORD p\nmove a\n\nFrom: pbem <pbem@moderator.example>\n"
        "Sent: Saturday, 21 November 2026 10:00\nTo: Alice\n\nGAME g1 SEAT s PASSWORD <...>\n"
    )
    env = parse_envelope(text)
    assert env.lines == ((2, "move a"),)
    assert env.ignored == ((4, "original message below the reply (4 lines)"),)


def test_a_game_line_goes_on_over_lines_that_start_with_its_keywords() -> None:
    """The form a mail writes when one GAME line would pass 72 columns (a long game id):
    read back as the one line; a line that is not SEAT, PASSWORD or REFEREE does not join."""
    split = parse_envelope("GAME g1\nSEAT alice PASSWORD pw\nTURN 2\nADD 1\n")
    assert (split.game, split.seat, split.password, split.turn) == ("g1", "alice", "pw", 2)
    assert split.lines == ((4, "ADD 1"),) and split.game_line == 1
    three = parse_envelope("GAME g1\nREFEREE\nsecret\nPAUSE BECAUSE x\n")
    assert (three.referee, three.password) == (False, "")  # "secret" is no keyword: no join
    referee = parse_envelope("GAME g1\nREFEREE secret\nPAUSE BECAUSE x\n")
    assert (referee.referee, referee.password) == (True, "secret")
    assert parse_envelope("GAME g1\nADD 1\n").problem
