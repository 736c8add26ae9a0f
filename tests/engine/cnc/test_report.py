"""The report texts: the tableau that stands in for a map, holdings, standings, the order
template (which must parse), help, and referee edits."""

from __future__ import annotations

import pytest

from engine.playthrough import bot_game
from engine.ruleset import EditError
from engine.rulesets.culture_and_conquest.model import GameState, Leader

from .support import RULESET

SEATS = ["ann", "bob", "cat", "dan"]
GAME = list(bot_game("culture-and-conquest", SEATS, 4, max_turns=30))
MAP_GAME = list(bot_game("culture-and-conquest", SEATS, 4, {"map": "generated"}, max_turns=30))
STATES = [played.resolution.state for played in GAME[::5] + MAP_GAME[::6]]


@pytest.mark.parametrize("index", range(len(STATES)))
def test_every_text_fits_in_72_columns(index: int) -> None:
    state = STATES[index]
    texts = [RULESET.render_map(state, ""), RULESET.public_summary(state), RULESET.order_help()]
    for seat in SEATS:
        texts += [
            RULESET.render_map(state, seat),
            RULESET.holdings(state, seat),
            RULESET.order_template(state, seat),
        ]
    for text in texts:
        for line in text.splitlines():
            assert len(line) <= 72, line


def test_the_tableau_shows_every_cultures_public_holdings() -> None:
    """No map: "This game does not require a map or counters." The report's map is a tableau
    of every culture's public holdings; gold and food stay private."""
    state = GameState.from_json(STATES[-1])
    text = RULESET.render_map(STATES[-1], "ann")
    for seat in state.seats:
        assert f"{seat.letter} {seat.name}" in text
        assert seat.culture in text
        for city in seat.cities:
            assert city.name in text
    assert "A ann *" in text or "ann * -" in text or " ann * " in text
    assert "Gold" not in text


def test_holdings_show_the_private_stocks_and_standing_orders() -> None:
    state = GameState.from_json(STATES[-1])
    text = RULESET.holdings(STATES[-1], "bob")
    bob = state.seat("bob")
    assert f"{bob.gold} gold, {bob.food} food" in text
    assert "Standing:" in text


@pytest.mark.parametrize("index", range(len(STATES)))
def test_the_order_template_parses_cleanly(index: int) -> None:
    """design: "the turn report ends with an order template for the next turn" - mailed back
    as it is, it is a valid order text."""
    state = STATES[index]
    for seat in RULESET.seats_to_order(state):
        template = RULESET.order_template(state, seat)
        assert RULESET.parse_orders(state, seat, template).problems == []


def test_referee_edits() -> None:
    state = RULESET.new_game(["ann", "bob"], {}, 1)
    state = RULESET.edit(state, "seat.ann.gold", "12")
    state = RULESET.edit(state, "seat.ann.army", "3")
    state = RULESET.edit(state, "seat.ann.advances", "+Medicine")
    state = RULESET.edit(state, "seat.ann.leaders", "+Caesar")
    state = RULESET.edit(state, "seat.ann.cities", "+Thebes")
    state = RULESET.edit(state, "city.Thebes.wonder", "Oracle")
    state = RULESET.edit(state, "city.Thebes.owner", "bob")
    game = GameState.from_json(state)
    ann, bob = game.seat("ann"), game.seat("bob")
    assert (ann.gold, ann.army) == (12, 3)
    assert "Medicine" in ann.advances
    assert ann.leaders == [Leader("Caesar", "General")]
    assert bob.city("Thebes") is not None and bob.wonders() == ["Oracle"]


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("seat.zed.gold", "1", "no seat 'zed'"),
        ("seat.ann.gold", "-1", "not between"),
        ("seat.ann.advances", "+Alchemy", "no advance 'Alchemy'"),
        ("seat.ann.colour", "red", "a seat has no 'colour'"),
        ("city.Atlantis.owner", "ann", "no city 'Atlantis'"),
        ("hex.A1.pop", "3", "an edit path starts with seat., city. or territory."),
    ],
)
def test_refused_edits_say_why(path: str, value: str, message: str) -> None:
    state = RULESET.new_game(["ann", "bob"], {}, 1)
    with pytest.raises(EditError, match=message):
        RULESET.edit(state, path, value)
    assert RULESET.edit_paths()


def test_the_tableau_heading_names_the_position_it_shows() -> None:
    """Issue 35: the report of turn 1 headed its tableau "round 2, turn 2" (the state after
    the turn is played names the next turn). The heading says it is the position for the next
    turn, and once the game is over the final position after the last turn played."""
    start = RULESET.new_game(SEATS, {}, 4)
    assert RULESET.render_map(start, "ann").startswith(
        "Culture & Conquest - the position for turn 1 (round 1)\n"
    )
    after_one = GAME[0].resolution.state
    assert (after_one["step"], after_one["round"]) == (2, 2)
    assert RULESET.render_map(after_one, "ann").startswith(
        "Culture & Conquest - the position for turn 2 (round 2)\n"
    )
    over = after_one | {"winners": ["ann"], "end_reason": "a test"}
    assert RULESET.render_map(over, "ann").startswith(
        "Culture & Conquest - the final position, after turn 1\n"
    )
