"""Reading a seat's order text line by line, the same way in every ruleset.

Every line is read on its own, so one bad line never spoils the good ones: text after '#' is
a comment, blank lines are passed over, and a line whose reading raises OrderError becomes a
problem of that line while the others are still read.

`read_orders` also decides which order a line is, so that every ruleset answers the same way:

- a line whose first word is a keyword (in any accepted spelling, punctuation aside: "LABOR:")
  is that order, and the order's own parser answers for the rest of it;
- a first word that is the unique start of one keyword ("ATT") is that order only if the rest
  of the line fits it; prose ("Hi, here are my orders") never becomes a half-understood HIRE;
- an obvious greeting or sign-off ("Hello", "Thanks", "Cheers") is ignored with a note, which
  calls it a sign-off when it closes the text and a greeting elsewhere;
- a short block after a sign-off at the end of the text (the name under "Cheers,") is ignored
  with a note, as long as none of its lines looks like an order;
- anything else is "not an order", with "did you mean" and that order's example when a keyword
  is near the word ("ATACK" -> ATTACK), else with the list of keywords.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.problems import OrderError, ProblemKind, ambiguous, syntax
from engine.records import ParsedOrders
from engine.words import nearest, normal, prefixed, shown, words_of

# First words of the lines people write around their orders; such a line is passed over with a
# note rather than refused. A ruleset keyword spelled the same still wins: keywords come first.
PLEASANTRIES = frozenset(
    {"hi", "hello", "hey", "hiya", "dear", "greetings", "howdy", "here", "thanks", "thank"}
    | {"thx", "cheers", "regards", "best", "kind", "yours", "sincerely", "bye", "goodbye"}
    | {"good", "hope", "sorry", "please", "ok", "okay"}
)
# A first word this short is too little to guess an order from when the line does not fit it.
GUESS_FROM = 3
# The words that close a mail ("Cheers,", "Best regards"): what follows one at the very end is
# the writer's name, passed over if it is short and looks like no order. Bounded so that a
# paragraph after "Thanks" is still answered line by line.
SIGN_OFFS = frozenset(
    {"thanks", "thank", "thx", "cheers", "regards", "best", "kind", "yours", "sincerely"}
    | {"bye", "goodbye"}
)
SIGN_OFF = "a sign-off, not an order"
SIGN_OFF_LINES = 2  # a name, and perhaps a second line ("Bob" / "The Red Empire")
SIGN_OFF_WORDS = 4  # words in each of those lines


@dataclass(frozen=True)
class OrderBase:
    """What every ruleset's order is: the line it stood on in the seat's text, and that text.
    Each ruleset's order classes derive from it and say in `understood` what they were read as
    (engine.recorder.RecordedOrder)."""

    line_no: int
    text: str

    def understood(self) -> str:
        return self.text


@dataclass(frozen=True)
class OrderLine:
    """One line, known to be an order of `keyword`."""

    line_no: int
    text: str  # the line as written, comment and outer blanks stripped
    keyword: str  # the canonical keyword
    args: str  # what follows the first word, as written (for lists with commas)

    @property
    def words(self) -> list[str]:
        """The arguments, with commas, colons, semicolons and a final full stop taken off."""
        return words_of(self.args)


def read_order_lines(text: str, read_line: Callable[[int, str], Any]) -> ParsedOrders:
    """The orders `read_line(line_no, line)` makes of each line (1-based, comment stripped),
    and the problems of the lines it refused. `read_line` may return None for a line that is
    no order, having said why in the result's `ignored`."""
    result = ParsedOrders()
    for line_no, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            order = read_line(line_no, line)
        except OrderError as error:
            result.problems.append(error.at(line_no, raw.strip()))
            continue
        if order is not None:
            result.orders.append(order)
    return result


def read_orders(
    text: str,
    keywords: Mapping[str, str],
    examples: Mapping[str, str],
    read: Callable[[OrderLine], Any],
    topics: Mapping[str, str] | None = None,
) -> ParsedOrders:
    """Every line of `text` read as the order its first word names. `keywords` maps each
    accepted spelling (normalised, as `spellings_of` makes it) to its keyword, `examples` a
    keyword to an example line of it, and `read` makes the order of a line. `topics` maps
    the spellings of words that belong to one order (unit, building, advance names) to that
    order's keyword, so that a line starting 'TEMPEL' is told to try BUILD."""
    guide = _Guide(keywords, examples, topics or {})
    ignored: list[tuple[int, str]] = []
    closing, *named = sign_off(
        _said(text), keywords, lambda line: _looks_like_order(line, guide)
    ) or (0,)
    signature = set(named)  # the name under "Cheers,"

    def read_line(line_no: int, line: str) -> Any:
        if line_no in signature:
            ignored.append((line_no, SIGN_OFF))
            return None
        first, *rest = line.split(None, 1)
        order, why = _read_keyword(
            OrderLine(line_no, line, "", rest[0] if rest else ""), first, guide, read
        )
        if why:
            ignored.append((line_no, SIGN_OFF if line_no == closing else why))
        return order

    result = read_order_lines(text, read_line)
    result.ignored.extend(ignored)
    return result


@dataclass(frozen=True)
class _Guide:
    """What a ruleset tells `read_orders` about its orders."""

    keywords: Mapping[str, str]
    examples: Mapping[str, str]
    topics: Mapping[str, str]


def sign_off(
    said: Sequence[tuple[int, str]],
    keywords: Container[str],
    taken: Callable[[str], bool],
    *,
    longest: int = 0,
) -> tuple[int, ...]:
    """The line numbers of the sign-off that closes a text, given as its lines said (line
    number, text; blank ones left out): its last line that begins with a closing word
    ("Cheers,", "Thanks, Eve") and not with one of `keywords` (of at most `longest` words,
    when given), then the short block after it (the name under "Cheers,"): at most
    SIGN_OFF_LINES lines of at most SIGN_OFF_WORDS words, none that `taken` would read (an
    order, a command). Empty when the text does not end so. Order mails and command mails
    pass over the same closings."""
    # A sign-off further up leaves more than SIGN_OFF_LINES after it: only the end is read.
    tail = said[-(SIGN_OFF_LINES + 1) :]
    firsts = [normal(line.split(None, 1)[0]) for _, line in tail]
    closing = [i for i, first in enumerate(firsts) if first in SIGN_OFFS]
    if not closing or firsts[closing[-1]] in keywords:
        return ()
    if longest and len(tail[closing[-1]][1].split()) > longest:
        return ()
    block = tail[closing[-1] + 1 :]
    if any(len(line.split()) > SIGN_OFF_WORDS or taken(line) for _, line in block):
        return ()
    return tuple(line_no for line_no, _ in tail[closing[-1] :])


def _said(text: str) -> list[tuple[int, str]]:
    """(line number, text without its comment) of each line of `text` that says something."""
    return [
        (line_no, line)
        for line_no, raw in enumerate(text.splitlines(), 1)
        if (line := raw.split("#", 1)[0].strip())
    ]


def _looks_like_order(line: str, guide: _Guide) -> bool:
    """Whether the line's first word is an order's keyword, the start of one, near one, or
    near a word of one (a unit, a building): such a line is answered, never passed over."""
    key = normal(line.split(None, 1)[0])
    return bool(
        key in guide.keywords
        or prefixed(key, guide.keywords)
        or nearest(key, guide.keywords)
        or nearest(key, guide.topics)
        or any(ch.isdigit() for ch in line)
    )


def _read_keyword(
    line: OrderLine, first: str, guide: _Guide, read: Callable[[OrderLine], Any]
) -> tuple[Any, str]:
    """(the order, '') or (None, why the line is passed over); raises OrderError."""
    keywords, examples = guide.keywords, guide.examples
    key = normal(first)
    if key in keywords:
        return read(replace(line, keyword=keywords[key])), ""
    starts = prefixed(key, keywords)
    misfit: OrderError | None = None
    if len(starts) == 1:
        try:
            return read(replace(line, keyword=starts[0])), ""
        except OrderError as error:
            if error.kind is not ProblemKind.SYNTAX:
                raise
            misfit = error
    if key in PLEASANTRIES:
        return None, "a greeting, not an order"
    if len(starts) > 1:
        raise ambiguous(f"'{shown(first)}' could be more than one order", tuple(starts))
    if misfit and len(key) >= GUESS_FROM:
        raise syntax(
            f"{_not_order(first)}; did you mean {starts[0]}? ({misfit.message})", misfit.example
        )
    guess = nearest(key, keywords)
    if guess:
        raise syntax(f"{_not_order(first)}; did you mean {guess}?", examples.get(guess, ""))
    topic = nearest(key, guide.topics)
    if topic:
        raise syntax(
            f"{_not_order(first)}; did you mean a {topic} order?",
            examples.get(topic, ""),
        )
    known = ", ".join(sorted(set(keywords.values())))
    first_example = next(iter(examples.values()), "")
    raise syntax(f"{_not_order(first)}; an order starts with one of: {known}", first_example)


def _not_order(first: str) -> str:
    return f"'{shown(first.strip(',;:.'))}' is not an order"
