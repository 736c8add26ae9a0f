"""News of a seat's turn names the seat it is about (issue 13: Temples and Swords news said
"Famine!" alone), in every ruleset and the variants whose texts differ."""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine import Event, all_rulesets, get_ruleset
from engine.playthrough import bot_game

SEATS = ["ann", "bob", "cat", "dan"]
# the game rulesets (not the service tests' own)
GAMES = [r for r in all_rulesets() if type(r).__module__.startswith("engine.rulesets")]
CASES = [(ruleset.id, {}) for ruleset in GAMES] + [("culture-and-conquest", {"map": "generated"})]


def test_news_puts_the_seat_in_front_when_the_text_does_not_name_it() -> None:
    famine = Event("disaster", "bob", "Disaster check: rolled 1; chart roll 5: Famine!")
    assert famine.news() == "bob: Disaster check: rolled 1; chart roll 5: Famine!"
    war = Event("war", "bob", "War: bob 5 attacks ann 0.", "7 War")
    assert war.news() == war.text
    annals = Event("x", "ann", "Anarchy strikes Annapolis.")  # 'ann' inside a word is no name
    assert annals.news() == "ann: Anarchy strikes Annapolis."


@pytest.mark.parametrize(("ruleset_id", "options"), CASES, ids=lambda c: str(c) or "as-is")
def test_every_public_event_of_a_game_is_news_that_names_its_seat(
    ruleset_id: str, options: dict[str, Any]
) -> None:
    seats = SEATS if get_ruleset(ruleset_id).max_seats >= len(SEATS) else SEATS[:2]
    news = [
        (event.seat, event.news())
        for turn in bot_game(ruleset_id, seats, 5, options, max_turns=30)
        for event in turn.resolution.events
        if event.public and event.seat
    ]
    assert news
    assert [text for seat, text in news if not re.search(rf"\b{seat}\b", text)] == []
