"""Orders judged against the position their phase will meet, the seat's own earlier orders
of the turn applied (engine.rehearsal), not against the position before the turn."""

from __future__ import annotations

from tests.engine.classical.support import RULESET, city, make_state, play, village


def judged(state_json: dict[str, object], text: str) -> tuple[list[int], dict[int, str], list[str]]:
    parsed = RULESET.parse_orders(state_json, "ann", text)
    accepted = [line for line, _ in parsed.understood()]
    return accepted, dict(parsed.notes), [p.message for p in parsed.problems]


def test_a_village_upgraded_in_phase_4_is_a_city_when_recruit_comes() -> None:
    """Turn sequence "4. Upgrade" before "8. Recruit"; Recruit: "All Armies must start in
    cities." A village made a city by this turn's UPGRADE takes this turn's RECRUIT, whichever
    line comes first in the mail."""
    state = make_state()
    city(state, "A3", "ann")
    village(state, "E1", "ann")  # wine
    village(state, "C1", "ann")  # stone
    village(state, "A1", "ann")  # grain, for the city's upkeep
    for text in ("UPGRADE E1\nRECRUIT E1 1", "RECRUIT E1 1\nUPGRADE E1"):
        accepted, notes, refused = judged(state.to_json(), text)
        assert accepted == [1, 2] and refused == []
        recruit = text.splitlines().index("RECRUIT E1 1") + 1
        assert "8 Recruit" in notes[recruit]
        after, resolution = play(state, {"ann": text})
        assert after.space("E1").units_of("ann") == 1
        assert [r.status for r in resolution.results["ann"]] == ["done", "done"]


def test_the_unit_allowance_counts_the_cities_held_at_recruit() -> None:
    """Recruit: "You cannot Build more Units than 1 + your Level in Government + the number
    of cities you control." Counted at phase 8, so a city upgraded at phase 4 counts."""
    state = make_state()  # ann: Romans, Government 1
    city(state, "A3", "ann")
    village(state, "E1", "ann")  # wine
    village(state, "C1", "ann")  # stone
    village(state, "A1", "ann")  # grain, for the city's upkeep
    accepted, _, refused = judged(state.to_json(), "RECRUIT A3 4")
    assert accepted == [] and "you may recruit 3" in refused[0]
    accepted, notes, refused = judged(state.to_json(), "UPGRADE E1\nRECRUIT A3 4")
    assert accepted == [1, 2] and refused == []
    assert "does it in part" in notes[2]  # 4 allowed, but iron for one army only


def test_armies_that_starve_at_upkeep_leave_room_under_the_limit_in_all() -> None:
    """Upkeep: "Unfed Units are discarded." With option unit_limit 'in all' the limit counts
    the units held; the armies discarded at phase 2 no longer count at phase 8 Recruit."""
    state = make_state(options={"unit_limit": "in all"})
    city(state, "A3", "ann", units=3)  # iron, no food: the armies go hungry
    accepted, notes, refused = judged(state.to_json(), "RECRUIT A3 1")
    assert accepted == [1] and refused == []
    assert notes[1].startswith("possible in the position phase 8 Recruit will meet")
    after, _ = play(state, {"ann": "RECRUIT A3 1"})
    assert after.space("A3").units_of("ann") == 1


def test_an_order_that_is_still_impossible_at_its_phase_is_refused() -> None:
    """Recruit: "All Armies must start in cities." An UPGRADE that cannot be paid for leaves
    the village a village, so the RECRUIT that needed the city is refused at once."""
    state = make_state()
    city(state, "A3", "ann")
    village(state, "E3", "ann")  # wood: no luxuries, no stone to pay an upgrade with
    accepted, notes, refused = judged(state.to_json(), "UPGRADE E3\nRECRUIT E3 1")
    assert accepted == [1] and refused == ["E3 is not a city of yours; armies start in cities"]
    assert notes[1].startswith("as things stand it fails at phase 4 Upgrade: not enough")
