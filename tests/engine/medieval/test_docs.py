"""The rules page (docs/rules/medieval-micromanager.md) quotes the text and nothing else, and
gives every completion its reason (issue 35: it quoted words the text does not contain and
left two completions without a reason)."""

from __future__ import annotations

import re
from pathlib import Path

from engine.rulesets.medieval_micromanager.rules import RULES

REPO = Path(__file__).resolve().parents[3]
PAGE = REPO / "docs" / "rules" / "medieval-micromanager.md"
ABSOLUTE = re.compile(r"(?<![\w.:/])/[\w.-]+/[\w./-]+")  # a file by its absolute path
LINK = re.compile(r"\]\(([^)\s]+)\)")
QUOTED = re.compile(r'"([^"]+)"')
ELLIPSIS = re.compile(r"\s*\.\.\.\s*")


def _flat(text: str) -> str:
    return " ".join(text.split())


def _text_as_quoted(page: str) -> str:
    """The page's block quotes: the text of the rules, quoted whole, step by step."""
    return _flat(" ".join(line[1:] for line in page.splitlines() if line.startswith(">")))


def _prose(page: str) -> str:
    return _flat(" ".join(line for line in page.splitlines() if not line.startswith(">")))


def _not_in(text: str, quotations: list[str]) -> list[str]:
    """The quotations some piece of which (between ellipses) is not in `text`."""
    return [
        quotation
        for quotation in quotations
        if not all(piece in text for piece in ELLIPSIS.split(_flat(quotation)) if piece)
    ]


def test_every_quotation_is_of_the_text() -> None:
    """ "Version 2, last updated by Ernest Pazera at November 20, 2010 04:27 UTC" - the page
    quotes that text whole in its block quotes, from this heading and "1. Remove all units from
    buildings" to "Units in excess of the housing capacity are eliminated."; every phrase it
    quotes in its prose, and every clause the code cites, is a passage of them. An idea from
    elsewhere is said in words, never quoted as the text, and the page names no file outside
    the repository."""
    page = PAGE.read_text(encoding="utf-8")
    text = _text_as_quoted(page)
    assert text.startswith(
        "Version 2, last updated by Ernest Pazera at November 20, 2010 04:27 UTC "
        "1. Remove all units from buildings 2. Remove destroyed buildings"
    )
    assert text.endswith("Units in excess of the housing capacity are eliminated.")
    assert _not_in(text, QUOTED.findall(_prose(page))) == []
    assert _not_in(text, [q for clause in RULES.values() for q in QUOTED.findall(clause)]) == []
    assert _outside_the_repository(page) == []


def _outside_the_repository(page: str) -> list[str]:
    """Absolute paths, and link targets that resolve outside the repository."""
    found = ABSOLUTE.findall(page)
    for target in LINK.findall(page):
        if "://" in target or target.startswith("#"):
            continue
        where = (PAGE.parent / target.split("#")[0]).resolve()
        if not where.is_relative_to(REPO):
            found.append(target)
    return found


def test_every_completion_gives_its_reason() -> None:
    """Where the text leaves the table to decide - "After a school has been built, a tool may
    be used to double the productivity of the unit" (double what?), "then the attacker decides
    whether to loot or raze" (when, by email?) - the page marks the project's decision
    **Completion** and says why: every paragraph or table row with the mark has a "Why:"."""
    page = PAGE.read_text(encoding="utf-8")
    paragraphs = re.split(r"\n\s*\n", page)
    blocks = [row for paragraph in paragraphs for row in paragraph.split("\n|")]  # table rows
    marked = [_flat(block) for block in blocks if "**Completion" in block]
    assert len(marked) >= 10
    assert [block[:60] for block in marked if "Why:" not in block] == []
