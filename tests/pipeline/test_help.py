"""HELP by mail is drawn from the players' handbook and the game's order reference: the mail
says what docs/players.md and docs/orders/<id>.md say, at most 72 columns wide."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from itertools import count
from pathlib import Path

import pytest

from engine import all_rulesets, get_ruleset
from pbem.config import Settings
from pbem.games.lifecycle import SeatSpec
from pbem.games.service import Service
from pbem.handbook import (
    HANDBOOK,
    document,
    find,
    find_title,
    mail_text,
    rules_text,
    sections,
    topics,
)
from pbem.intake.intake import receive
from pbem.mail.envelope import _COMMANDS
from tests.support.databases import migrated_engine
from tests.support.games import body, new_game
from tests.support.mails import mail

_IDS = count(1)
GAME_LINE = "GAME g1 SEAT alice PASSWORD pw-alice\n"


@pytest.fixture
def service(tmp_path: Path, settings: Settings) -> Iterator[Service]:
    """On SQLite only: what these tests check is the text of the answer, drawn from the
    handbook and the order references, never from the database. A HELP mail's way through
    intake on PostgreSQL, its row and its reply, is tested with the other commands in
    tests/pipeline (test_intake, test_commands, test_command_mail), on both databases."""
    engine = migrated_engine(f"sqlite:///{tmp_path / 'pbem.db'}")
    yield Service(engine, settings)
    engine.dispose()


def _tns_help(service: Service, now: datetime, command: str) -> str:
    """`command` on the line after alice's GAME line in a Temples and Swords game."""
    new_game(service, now, ruleset="tns")
    return _help(service, now, GAME_LINE + command + "\n")


def _help(service: Service, now: datetime, text: str) -> str:
    raw = mail(text, sender="x@example.org", message_id=f"help{next(_IDS)}@x")
    receipt = receive(service, raw, now=now)
    [reply] = receipt.replies
    assert reply.recipient == "x@example.org"
    answer = body(reply)
    assert max(len(line) for line in answer.splitlines()) <= 72, answer
    return answer


def test_help_is_the_handbooks_text(service: Service, now: datetime) -> None:
    answer = _help(service, now, "HELP")
    for title in ("An order mail", "Mail commands"):
        section = find_title(document(HANDBOOK), title)
        assert section is not None
        assert mail_text(section.markdown) in answer
    assert "SET ABSENCE <YYYY-MM-DD>      you are away from now through that day\n" in answer
    assert "SET ABSENCE NONE              you are back\n" in answer


def test_help_orders_mails_the_whole_reference(service: Service, now: datetime) -> None:
    answer = _tns_help(service, now, "HELP ORDERS")
    assert answer.startswith("The order reference of Temples and Swords v1.1.\n")
    assert "== MIGRATE: where a migrating population goes (phase 8, population\n" in answer
    assert "docs/orders/" not in answer
    # Without a game, the ruleset may be named; the same text comes back.
    assert _help(service, now, "HELP ORDERS tns") == answer


def test_help_orders_without_a_game_says_how_to_ask(service: Service, now: datetime) -> None:
    answer = " ".join(_help(service, now, "HELP ORDERS").split())
    assert "HELP ORDERS needs to know the game" in answer
    assert "temples-and-swords" in answer


def test_help_on_one_order_of_the_game(service: Service, now: datetime) -> None:
    answer = _tns_help(service, now, "HELP MOVE")
    section = find([document("orders/temples-and-swords.md")], "move")
    assert section is not None
    assert answer.startswith(mail_text(section.markdown))


@pytest.mark.parametrize(
    ("topic", "heading"),
    [("ABSENCE", "== Away: SET ABSENCE =="), ("deadlines", "== Deadlines and reminders ==")],
)
def test_help_on_a_handbook_topic(
    service: Service, now: datetime, topic: str, heading: str
) -> None:
    assert _help(service, now, f"HELP {topic}").startswith(heading + "\n")


def test_help_on_an_unknown_topic_lists_the_topics(service: Service, now: datetime) -> None:
    answer = " ".join(_help(service, now, "HELP WIZARDRY").split())
    assert answer.startswith("There is no help on WIZARDRY. The topics are: JOIN, MAIL,")
    # Issue 43, point 13: the list left out RULES, which HELP RULES sends.
    assert "also ORDERS (the order reference), RULES (the rules) and the name of any" in answer
    full = " ".join(_help(service, now, "HELP").split())
    assert "HELP ORDERS (the order reference), HELP RULES (the rules) or HELP <order>." in full


def test_the_game_summary_points_at_help_orders(service: Service, now: datetime) -> None:
    answer = _tns_help(service, now, "HELP")
    assert "== Orders of Temples and Swords v1.1 ==" in answer
    assert "The whole reference: send HELP ORDERS" in answer


def test_help_rules_mails_the_rules(service: Service, now: datetime) -> None:
    answer = _tns_help(service, now, "HELP RULES")
    assert answer.startswith(
        "The rules of Temples and Swords v1.1, as this moderator plays them. Your\norders: "
    )
    rules = document("rules/temples-and-swords.md")
    plain = [
        x
        for x in sections(rules)
        if x.level == 2 and "orders/" not in x.markdown and "<!-- mail: skip -->" not in x.markdown
    ]
    assert len(plain) > 5
    for section in plain:
        assert rules_text(section.markdown) in answer


def test_the_handbook_shows_every_mail_command() -> None:
    """A command added to the envelope without a line in the handbook fails here."""
    section = find_title(document(HANDBOOK), "Mail commands")
    assert section is not None
    shown = {line.split()[0] for line in section.markdown.splitlines() if line[:1].isupper()}
    assert set(_COMMANDS.values()) <= shown


def test_help_orders_of_a_ruleset_without_a_reference(service: Service, now: datetime) -> None:
    new_game(service, now)  # the counting test ruleset has no docs/orders page
    answer = _help(service, now, GAME_LINE + "HELP ORDERS\n")
    assert answer.startswith(
        "This moderator has no copy of the order reference of Counting (a test\nruleset)"
    )


@pytest.mark.parametrize("ruleset", [r.id for r in all_rulesets()])
def test_help_of_every_ruleset_fits_a_mail_and_names_no_file(
    service: Service, now: datetime, ruleset: str
) -> None:
    new_game(service, now, ruleset=ruleset, seats=_seats(get_ruleset(ruleset).min_seats))
    for command in ("HELP", "HELP ORDERS", "HELP RULES"):
        answer = _help(service, now, GAME_LINE + command + "\n")
        assert "docs/orders/" not in answer and "docs/rules/" not in answer, (ruleset, command)
    # A fresh-eyes tester's find: HELP RULES mailed the developers' text too ("rules.py",
    # "engine/rulesets/...", the balance runs). A player gets the rules, not the code.
    rules = _help(service, now, GAME_LINE + "HELP RULES\n")
    for developers in ("engine/", ".py", "tests/", "bench/", "pbem ", "pbem/", "repository", ".md"):
        assert developers not in rules, (ruleset, developers)
    assert "== Balance" not in rules and "== Contents" not in rules


def _seats(count: int) -> list[SeatSpec]:
    names = ["alice", "bob", "cat", "dan", "eve", "fay", "gus", "hal"][:count]
    return [SeatSpec(name, f"{name}@example.org", f"pw-{name}") for name in names]


def test_every_help_topic_is_one_part_of_the_handbook(service: Service, now: datetime) -> None:
    """The topic list a HELP mail offers: one word a part of the handbook, none twice, every
    part there; HELP <topic> mails that part; the handbook's opening names them all."""
    parts = [s for s in sections(document(HANDBOOK)) if s.level == 2]
    listed = topics()
    assert len(listed) == len(set(listed)) == len(parts)
    assert {"JOIN", "ABSENCE"} <= set(listed)
    for topic, part in zip(listed, parts, strict=True):
        assert _help(service, now, f"HELP {topic}").startswith(f"== {part.title} ==\n"), topic
    opening = document(HANDBOOK).split("\n## ", 1)[0]
    assert all(f"`HELP {topic}`" in opening for topic in listed), opening
    # HELP <order> must still reach every game's orders: no order is called like a topic.
    for ruleset in all_rulesets():
        headings = [s.title.split()[0] for s in sections(document(f"orders/{ruleset.id}.md"))]
        orders = {word.rstrip(":") for word in headings if word.isupper()}  # "MOVE: ..."
        assert not orders & set(listed), ruleset.id


_MARKUP = re.compile(r"\*\*|`|\]\(|(?<![\w*])\*[^\s*][^*\n]*\*(?![\w*])|^\s*\|")


@pytest.mark.parametrize("ruleset", [r.id for r in all_rulesets()])
def test_help_mails_no_markdown_markup(service: Service, now: datetime, ruleset: str) -> None:
    """Fresh-eyes test (issue 43): HELP RULES mailed "**When the order's phase comes it is
    checked again**" with its asterisks: emphasis, code and links that run over a line's end
    were left as Markdown. No answer of HELP has any markup left."""
    new_game(service, now, ruleset=ruleset, seats=_seats(get_ruleset(ruleset).min_seats))
    for command in ("HELP", "HELP ORDERS", "HELP RULES"):
        answer = _help(service, now, GAME_LINE + command + "\n")
        assert [line for line in answer.splitlines() if _MARKUP.search(line)] == [], command


def test_markdown_becomes_plain_text_across_lines_and_in_tables() -> None:
    markdown = (
        "## The `SET` *command*\n\n"
        "A **bold phrase that runs\nover a line** and a [link that\nruns over](../x.md) and "
        "`code that\nruns over`, *stressed\nwords* and `2 * 3 * 4`.\n\n"
        "| Order | Form |\n|---|---|\n| **ATTACK** | `ATTACK <hex> [COMBINE n\\|ALL]` |\n"
    )
    assert mail_text(markdown) == (
        "== The SET command ==\n\n"
        "A bold phrase that runs over a line and a link that runs over and code\n"
        "that runs over, stressed words and 2 * 3 * 4.\n\n"
        "  Order - Form\n"
        "  ATTACK - ATTACK <hex> [COMBINE n|ALL]\n"
    )
