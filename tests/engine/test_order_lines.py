"""The shared order reading (engine/order_lines.py, engine/words.py), as every ruleset gets it:
prose is never half-read as an order, a typo is answered with "did you mean", punctuation
between arguments is tolerated, and seat names come before seat letters (issue 13)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from engine.order_lines import OrderLine, read_orders
from engine.problems import OrderError, ProblemKind, syntax
from engine.records import ParsedOrders
from engine.words import match_seat, match_word, parse_count, spellings_of, words_of

KEYWORDS = spellings_of({"LABOR": ("HIRE",), "ATTACK": (), "TECH": (), "BUILD": ()})
EXAMPLES = {
    "LABOR": "LABOR C4 2",
    "ATTACK": "ATTACK D4",
    "TECH": "TECH 2",
    "BUILD": "BUILD C4 CITY",
}
TOPICS = dict.fromkeys(spellings_of({"temple": ("temples",), "city": ()}), "BUILD")


@dataclass(frozen=True)
class Said:
    line_no: int
    text: str
    keyword: str
    words: tuple[str, ...]

    def understood(self) -> str:
        return f"{self.keyword.lower()} {' '.join(self.words)}"


def _read(line: OrderLine) -> Said:
    """A toy parser: LABOR takes exactly a hex and a number, the others anything."""
    if line.keyword == "LABOR" and len(line.words) != 2:
        raise syntax("LABOR takes a hex and a number", EXAMPLES["LABOR"])
    if line.keyword == "LABOR":
        parse_count(line.words[1], "laborers", EXAMPLES["LABOR"])
    return Said(line.line_no, line.text, line.keyword, tuple(line.words))


def read(text: str) -> ParsedOrders:
    return read_orders(text, KEYWORDS, EXAMPLES, _read, TOPICS)


def test_prose_after_the_game_line_is_not_read_as_an_order() -> None:
    """issue 13: "Hi, here are my orders" after the GAME line became HIRE (LABOR) with a
    baffling complaint. A greeting is passed over with a note; other prose is "not an order"."""
    parsed = read("Hi, here are my orders\nI attack bob this turn\nThanks, ann")
    assert parsed.orders == []
    assert parsed.ignored == [(1, "a greeting, not an order"), (3, "a sign-off, not an order")]
    [prose] = parsed.problems
    assert prose.line_no == 2 and prose.kind is ProblemKind.SYNTAX
    assert prose.message.startswith("'I' is not an order; an order starts with one of:")
    assert "HIRE" not in prose.describe() and "LABOR takes" not in prose.describe()


def test_a_short_name_under_a_sign_off_is_passed_over() -> None:
    """Issue 43, point 12: "Cheers," / "Bob" after the orders gave "Rejected (1): 'Bob' is not
    an order". The short block after a closing sign-off is passed over with a note; the
    sign-off itself is called one, not a greeting (a fresh-eyes tester's find)."""
    parsed = read("Hi all,\natt D4\nCheers,\nBob\n")
    assert [o.keyword for o in parsed.orders] == ["ATTACK"]
    assert parsed.problems == []
    assert parsed.ignored == [
        (1, "a greeting, not an order"),
        (3, "a sign-off, not an order"),
        (4, "a sign-off, not an order"),
    ]
    two = read("TECH 2\nBest regards,\nBob Smith\nThe Red Empire")
    assert two.problems == [] and [n for n, _ in two.ignored] == [2, 3, 4]


def test_a_thanks_before_more_orders_is_a_greeting_and_one_that_closes_a_sign_off() -> None:
    parsed = read("Thanks for the game\natt D4\nThanks!\n")
    assert parsed.ignored == [(1, "a greeting, not an order"), (3, "a sign-off, not an order")]


@pytest.mark.parametrize(
    "tail",
    [
        "Cheers,\nBob\nand another thing\nthe end",  # longer than a name: answered
        "Thanks,\nattack D4 please",  # an order after a sign-off is still an order
        "Thanks,\natak D4",  # as is a near miss of one ("did you mean")
        "Thanks,\nBob 2",  # a count is never a name
        "Thanks,\nI will be away next week, so expect nothing",  # too long for a name
    ],
)
def test_only_a_short_block_that_looks_like_no_order_is_passed_over(tail: str) -> None:
    parsed = read("TECH 2\n" + tail)
    assert "a sign-off, not an order" not in [why for _, why in parsed.ignored]
    assert parsed.problems or len(parsed.orders) == 2


def test_an_abbreviated_keyword_reads_when_the_rest_of_the_line_fits() -> None:
    parsed = read("att D4\nlab C4 2\nHI C4 2")
    assert [(o.keyword, o.words) for o in parsed.orders] == [
        ("ATTACK", ("D4",)),
        ("LABOR", ("C4", "2")),
        ("LABOR", ("C4", "2")),
    ]


def test_an_abbreviation_the_line_does_not_fit_is_not_an_order() -> None:
    """A long enough start is named with what did not fit; a short one is no guess at all."""
    [long_one, short_one] = read("lab in the fields\nla la la").problems
    assert long_one.message == (
        "'lab' is not an order; did you mean LABOR? (LABOR takes a hex and a number)"
    )
    assert long_one.example == "LABOR C4 2"
    assert short_one.message.startswith("'la' is not an order; an order starts with one of")


@pytest.mark.parametrize(
    ("line", "meant", "example"),
    [("ATACK D4", "ATTACK", "ATTACK D4"), ("LABR C4 2", "LABOR", "LABOR C4 2")],
)
def test_a_mistyped_keyword_gets_did_you_mean_and_that_orders_example(
    line: str, meant: str, example: str
) -> None:
    """issue 13: typos listed every keyword and gave an unrelated example."""
    [problem] = read(line).problems
    assert problem.message.endswith(f"did you mean {meant}?")
    assert problem.example == example
    assert "one of" not in problem.message


def test_a_line_starting_with_a_word_of_one_order_is_pointed_to_it() -> None:
    [problem] = read("TEMPEL C4").problems
    assert problem.message == "'TEMPEL' is not an order; did you mean a BUILD order?"
    assert problem.example == "BUILD C4 CITY"


def test_a_mistyped_name_gets_did_you_mean() -> None:
    units = spellings_of({"soldier": ("soldiers",), "swordsman": ("swordsmen",)})
    with pytest.raises(OrderError) as error:
        match_word("sowrdsman", units, "unit type", "MOVE C4 D4")
    assert error.value.message == "'sowrdsman' is not a unit type; did you mean swordsman?"
    with pytest.raises(OrderError) as error:
        match_word("tank", units, "unit type", "MOVE C4 D4")
    assert error.value.message == "'tank' is not a unit type (one of: soldier, swordsman)"


@pytest.mark.parametrize(
    "line", ["LABOR C4, 2", "LABOR: C4 2.", "labor C4; 2", "LABOR C4 , 2", "LABOR C4: 2."]
)
def test_punctuation_between_arguments_is_tolerated(line: str) -> None:
    """issue 13: `LABOR D4, 1` failed on the comma."""
    [order] = read(line).orders
    assert order.words == ("C4", "2")


def test_words_of_keeps_what_is_inside_a_word() -> None:
    assert words_of("St. Mary's, 3.") == ["St.", "Mary's", "3"]
    assert words_of(" , ") == []


def test_every_order_read_is_understood_in_line_order() -> None:
    assert read("TECH 2\n\nATTACK D4").understood() == [(1, "tech 2"), (3, "attack D4")]


SEATS = [("bob", "B"), ("cat", "C"), ("dan", "D")]


@pytest.mark.parametrize(
    ("word", "seat"),
    [("c", "cat"), ("C", "cat"), ("cat", "cat"), ("bo", "bob"), ("d", "dan"), ("Dan", "dan")],
)
def test_seat_names_come_before_seat_letters(word: str, seat: str) -> None:
    """issue 13: `OFFER c ...` went to seat C (bob), not to cat."""
    assert match_seat(word, [("bob", "C"), ("cat", "A"), ("dan", "D")], "X") == seat


def test_a_seat_letter_is_read_only_when_no_name_starts_with_it() -> None:
    assert match_seat("b", SEATS, "X") == "bob"
    assert match_seat("x", [("ann", "X"), ("bob", "B")], "X") == "ann"
    with pytest.raises(OrderError, match="'q' is not a seat"):
        match_seat("q", SEATS, "X")
