"""Orders judged against the position their phase will meet: a phase-1 MOVE puts a unit where
a phase-3 BRIBE or CONVERT needs one, whichever line comes first (engine.rehearsal)."""

from __future__ import annotations

from engine import get_ruleset
from engine.records import ParsedOrders
from engine.rulesets.tribes.model import GameState
from tests.engine.tribes.support import game, put

RULESET = get_ruleset("tribes")


def judged(state: GameState, text: str) -> ParsedOrders:
    return RULESET.parse_orders(state.to_json(), "ann", text)


def bob_in_c5() -> GameState:
    """ann in C3, D3, E2 (the reference position); bob's 2 units in C5, two hexes from C3,
    his fame below ann's."""
    state = game()
    del state.places["C4"]
    put(state, "C5", "bob", population=1, melee=1)
    state.seat("bob").fame = 0
    return state


def test_a_bribe_next_to_the_hex_a_move_reaches_is_accepted() -> None:
    """ "Bribing is done in phase three. A player must have a unit adjacent to the hex that will
    be bribed." A unit that moves next to the hex in phase 1 is there in phase 3."""
    state = bob_in_c5()
    assert [p.message for p in judged(state, "BRIBE C5").problems] == [
        "you have no land unit next to C5"
    ]
    for text in ("MOVE C3 B4 1 MELEE\nBRIBE C5", "BRIBE C5\nMOVE C3 B4 1 MELEE"):
        parsed = judged(state, text)
        assert parsed.problems == [] and len(parsed.orders) == 2
        bribe = text.splitlines().index("BRIBE C5") + 1
        assert dict(parsed.notes)[bribe].startswith("possible in the position phase 3")
        resolution = RULESET.resolve(state.to_json(), {"ann": parsed}, 1)
        assert [r.status.value for r in resolution.results["ann"]] == ["done", "done"]


def test_a_conversion_in_a_barracks_hex_a_move_brings_population_to_is_accepted() -> None:
    """ "To convert population to military, one population unit that has not spent his work
    for that turn must be taken from the board off of a hex with a barracks". Population that
    moves into the barracks hex in phase 1 is there to be converted in phase 3."""
    state = game()
    put(state, "B3", "ann", ("barracks",), melee=1)  # ann's barracks, no population in it
    [refused] = judged(state, "CONVERT B3 3 MELEE").problems
    assert refused.message == "no population in B3 has work left"
    parsed = judged(state, "MOVE C3 B3 1 POPULATION\nCONVERT B3 3 MELEE")
    assert parsed.problems == [] and [o.line_no for o in parsed.orders] == [1, 2]
    resolution = RULESET.resolve(state.to_json(), {"ann": parsed}, 1)
    assert [r.status.value for r in resolution.results["ann"]] == ["done", "done"]


def test_a_move_away_leaves_a_later_bribe_with_a_note_that_it_fails() -> None:
    """ "A player must have a unit adjacent to the hex that will be bribed": the seat's own
    MOVE that takes every unit away from beside the hex leaves the BRIBE failing in phase 3,
    and the check reply says so at once."""
    state = game()  # bob's 2 units in C4, next to ann's C3 and D3 only
    state.seat("bob").fame = 0
    del state.places["D3"]
    parsed = judged(state, "MOVE C3 B2 ALL\nBRIBE C4")
    notes = dict(parsed.notes)
    assert 2 in notes and notes[2].startswith("as things stand it fails at phase 3")
