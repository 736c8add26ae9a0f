"""Rule-by-rule tests: Population Change Phase (harvest, growth, migration)."""

from __future__ import annotations

import pytest

from engine.problems import ProblemKind
from engine.rulesets.temples_and_swords import nature
from engine.rulesets.temples_and_swords.model import GameState

from .support import codes, make_state, problems, results, scripted_turn

TERRAIN = ["ggggg", "ggggg", "ddddd", "ddddd"]
Held = dict[str, tuple[str, int, list[str]]]
MOVE = {"migration": "move"}  # most tests below read migration as "one population moves"
# A2's neighbours: B2 B1 A1 A3 B3 (A3 and B3 desert).


def grow(
    hexes: Held,
    laborers: dict[str, int] | None = None,
    migration: tuple[int, ...] = (1,),
    text: str = "",
    mode: str = "move",
) -> GameState:
    """Phase 8 for ann; `mode` is the migration option ('move' unless a test says 'growth')."""
    state = make_state(TERRAIN, hexes=hexes, options={"migration": mode})
    for name, count in (laborers or {}).items():
        if name in state.hexes:
            assert count <= state.hexes[name].pop, name
            state.hexes[name].laborers = count
    turn = scripted_turn(state, "ann", text, dice={"migration": list(migration)})
    nature.population_change(turn)
    assert turn.unused() == {}
    return state


def pop(state: GameState, name: str) -> int:
    return state.peek(name).pop


@pytest.mark.parametrize(
    ("hex_name", "people", "laborers", "after"),
    [
        ("A1", 4, 2, 5),  # grassland: 2 basic x 2 = 4 harvest points >= 4 population
        ("A1", 4, 3, 4),  # 1 basic x 2 = 2 < 4
        ("A3", 2, 0, 3),  # desert: 2 basic x 1 = 2 >= 2
        ("A3", 2, 1, 2),  # 1 basic x 1 = 1 < 2
        ("A1", 1, 0, 2),
        ("A1", 3, 3, 3),  # laborers harvest nothing
    ],
)
def test_harvest_and_growth(hex_name: str, people: int, laborers: int, after: int) -> None:
    """Harvest Phase: "For each basic population living in a grassland hex, gain two harvest
    points. For each basic population living in a desert hex, gain one harvest point." Growth
    Phase: "If any hex has at least as many harvest points than populations, that hex gains one
    population." """
    state = grow({hex_name: ("ann", people, [])}, {hex_name: laborers})
    assert pop(state, hex_name) == after


def test_growth_stops_at_six_on_grassland() -> None:
    """Growth Phase: "Maximum populations in a hex are six for grassland hexes" - a full hex
    does not grow (here its one migrant leaves it at five)."""
    state = grow({"A1": ("ann", 6, ["city"])})
    assert (pop(state, "A1"), pop(state, "B1")) == (5, 1)


def test_growth_stops_at_three_on_desert() -> None:
    """Growth Phase: "Maximum populations in a hex are ... three for desert hexes." """
    state = grow({"A3": ("ann", 3, []), "E1": ("ann", 4, [])}, {"E1": 4})
    assert pop(state, "A3") == 3


def test_every_hex_grows_on_its_own_harvest() -> None:
    """Growth Phase: "If any hex has at least as many harvest points than populations, that hex
    gains one population." - hex by hex."""
    state = grow({"A1": ("ann", 2, []), "C1": ("ann", 2, []), "E1": ("ann", 2, [])}, {"C1": 2})
    assert [pop(state, n) for n in ("A1", "C1", "E1")] == [3, 2, 3]


@pytest.mark.parametrize(("people", "needed"), [(1, 6), (2, 5), (3, 4), (4, 3), (5, 2), (6, 1)])
def test_migration_table(people: int, needed: int) -> None:
    """Migration Phase: "Population 1 Migrate if 6+; 2 5+; 3 4+; 4 3+; 5 2+; 6 1+" """
    state = grow({"A1": ("ann", people, [])}, {"A1": people}, migration=(needed,))
    assert (pop(state, "A1"), pop(state, "B1")) == (people - 1, 1)
    if needed > 1:
        state = grow({"A1": ("ann", people, [])}, {"A1": people}, migration=(needed - 1,))
        assert (pop(state, "A1"), pop(state, "B1")) == (people, 0)


def test_migration_starts_from_the_hex_with_the_most_populations() -> None:
    """Migration Phase: "Find the hex with the most populations (if there are several tied pick
    one), roll 1d6." """
    hexes: Held = {"A1": ("ann", 2, []), "E2": ("ann", 5, []), "C4": ("ann", 3, [])}
    state = grow(hexes, {n: h[1] for n, h in hexes.items()}, migration=(2,))
    assert [pop(state, n) for n in ("A1", "E2", "C4")] == [2, 4, 3]


def test_among_tied_hexes_a_migrate_order_picks_the_source() -> None:
    """Migration Phase: "(if there are several tied pick one)" - the hex a MIGRATE order names,
    else the first in reading order (Decision 58, docs/rules/temples-and-swords.md)."""
    hexes: Held = {"A1": ("ann", 6, []), "E1": ("ann", 6, [])}
    state = grow(hexes, {"A1": 6, "E1": 6}, text="MIGRATE E1 E2")
    assert [pop(state, n) for n in ("A1", "E1", "E2")] == [6, 5, 1]
    state = grow(hexes, {"A1": 6, "E1": 6})
    assert [pop(state, n) for n in ("A1", "E1", "B1")] == [5, 6, 1]


@pytest.mark.parametrize(("populated", "rolls"), [(3, 1), (4, 2), (6, 2), (7, 3), (9, 3), (10, 4)])
def test_more_populated_hexes_roll_more_often(populated: int, rolls: int) -> None:
    """Migration Phase: "If you have more than three populated hexes, roll twice / If you have
    more than six populated hexes, roll three times / If you have more than nine populated
    hexes, roll four times." """
    names = ["A1", "B1", "C1", "D1", "E1", "A2", "B2", "C2", "D2", "E2"][:populated]
    hexes: Held = {n: ("ann", 1, []) for n in names}
    state = make_state(TERRAIN, hexes=hexes, options=MOVE)
    for here in state.hexes.values():
        here.laborers = 1
    turn = scripted_turn(state, "ann", dice={"migration": [5] * rolls})
    nature.population_change(turn)
    assert turn.unused() == {}
    assert codes(turn).count("migration_none") == rolls


def test_a_migrant_goes_to_the_adjacent_hex_of_your_choosing() -> None:
    """Migration Phase: "If migration occurs, instead of adding a new population to the given
    hex, move one population to an adjacent hex of your choosing." - MIGRATE <from> <to>."""
    state = make_state(TERRAIN, hexes={"A2": ("ann", 6, ["city"])}, options=MOVE)
    turn = scripted_turn(state, "ann", "MIGRATE A2 A3", dice={"migration": [4]})
    nature.population_change(turn)
    assert (state.hexes["A2"].pop, state.hexes["A3"].pop, state.hexes["A3"].owner) == (5, 1, "ann")
    assert results(turn) == [("done", "one population moved from A2 to A3")]


def test_a_migrate_order_without_a_source_serves_whichever_hex_migrates() -> None:
    """Migration Phase: "move one population to an adjacent hex of your choosing" - MIGRATE
    <to> names only the target."""
    state = make_state(TERRAIN, hexes={"A2": ("ann", 6, ["city"])}, options=MOVE)
    nature.population_change(scripted_turn(state, "ann", "MIGRATE B3", dice={"migration": [1]}))
    assert pop(state, "B3") == 1


def test_the_default_migrant_target() -> None:
    """Migration Phase: "move one population to an adjacent hex of your choosing" - without a
    usable MIGRATE order, Decision 59 (docs/rules/temples-and-swords.md): "no one's grassland,
    own grassland, no one's desert, own desert, fewest population, reading order"."""
    own: Held = {"A2": ("ann", 6, ["city"]), "A1": ("ann", 2, []), "B1": ("ann", 1, [])}
    idle = {"A1": 2, "B1": 1}  # laborers: no growth to blur the count
    assert pop(grow(own, {"A1": 2, "B1": 1}), "B2") == 1
    state = grow(own | {"B2": ("bob", 1, [])}, idle | {"B2": 1})
    assert (pop(state, "B1"), pop(state, "A1")) == (2, 2)
    closed: Held = {"A1": ("bob", 1, []), "B1": ("bob", 1, []), "B2": ("bob", 1, [])}
    state = grow(own | closed | {"A3": ("ann", 1, [])}, {"A3": 1})
    assert (pop(state, "A3"), pop(state, "B3")) == (1, 1)
    state = grow(own | closed | {"A3": ("ann", 1, []), "B3": ("bob", 1, [])}, {"A3": 1})
    assert pop(state, "A3") == 2


def test_no_migrant_into_an_enemy_or_full_hex() -> None:
    """Migration Phase: "move one population to an adjacent hex" - not into another seat's
    hex, nor past the six (grassland) or three (desert) a hex can hold."""
    state = make_state(
        TERRAIN,
        hexes={"A2": ("ann", 6, ["city"]), "B2": ("bob", 1, []), "A3": ("ann", 3, [])},
    )
    [enemy, full, far] = problems(state, "ann", "MIGRATE A2 B2\nMIGRATE A2 A3\nMIGRATE A2 D2")
    assert (enemy.kind, enemy.message) == (ProblemKind.ILLEGAL, "B2 belongs to bob")
    assert full.message == "A3 is full (desert holds 3)"
    assert far.message == "D2 is not next to A2"


def test_no_migrant_when_every_neighbour_is_closed() -> None:
    """Migration Phase: "move one population to an adjacent hex" - with none open, nobody
    moves."""
    hexes = {"A1": ("ann", 6, ["city"]), "B1": ("bob", 1, []), "A2": ("bob", 1, [])}
    state = grow(hexes)
    assert pop(state, "A1") == 6


def test_an_unused_migrate_order_is_reported() -> None:
    """Migration Phase: "If migration occurs, ..." - when it does not, the MIGRATE order is
    not used and the report says so."""
    state = make_state(TERRAIN, hexes={"A2": ("ann", 2, ["city"])}, options=MOVE)
    state.hexes["A2"].laborers = 2
    turn = scripted_turn(state, "ann", "MIGRATE A2 B2", dice={"migration": [4]})
    nature.population_change(turn)
    assert results(turn) == [("skipped", "not used: no migration from that hex this turn")]


def test_by_default_no_migrant_into_an_own_hex_left_as_crowded() -> None:
    """Decision 59 (docs/rules/temples-and-swords.md): the default target leaves out "own hexes
    that would end up as crowded as the source (population at least the source's less one); a
    MIGRATE order may still name such a hex"."""
    closed: Held = {"B2": ("bob", 1, []), "A3": ("bob", 1, []), "B3": ("bob", 1, [])}
    crowded: Held = {"A2": ("ann", 6, ["city"]), "A1": ("ann", 5, []), "B1": ("ann", 5, [])}
    idle = {"A1": 5, "B1": 5}
    state = grow(crowded | closed, idle)
    assert [pop(state, n) for n in ("A2", "A1", "B1")] == [6, 5, 5]
    state = grow(crowded | closed | {"B1": ("ann", 4, [])}, {"A1": 5, "B1": 4})
    assert [pop(state, n) for n in ("A2", "A1", "B1")] == [5, 5, 5]
    state = grow(crowded | closed, idle, text="MIGRATE A2 A1")
    assert [pop(state, n) for n in ("A2", "A1", "B1")] == [5, 6, 5]


def test_growth_migration_sends_a_full_hexs_growth_next_door() -> None:
    """Migration Phase: "If migration occurs, instead of adding a new population to the given
    hex, move one population to an adjacent hex of your choosing." Decision (option migration,
    default 'growth'): a full hex that earned growth keeps its six and its growth settles next
    door."""
    state = grow({"A1": ("ann", 6, ["city"])}, mode="growth")
    assert (pop(state, "A1"), pop(state, "B1")) == (6, 1)
    assert state.peek("B1").owner == "ann"


def test_growth_migration_moves_the_new_population_of_a_hex_that_grew() -> None:
    """Migration Phase: "instead of adding a new population to the given hex" - the hex that grew
    from 4 to 5 ends at 4 and its new population lives next door."""
    state = grow({"A1": ("ann", 4, [])}, migration=(3,), mode="growth")
    assert (pop(state, "A1"), pop(state, "B1")) == (4, 1)


def test_growth_migration_needs_growth_to_move() -> None:
    """Migration Phase: "instead of adding a new population" - option 'growth': a hex whose
    laborers left it too few harvest points to grow sends no one, whatever the roll."""
    state = make_state(TERRAIN, hexes={"A1": ("ann", 6, ["city"])})
    state.hexes["A1"].laborers = 4
    turn = scripted_turn(state, "ann", dice={"migration": [6]})
    nature.population_change(turn)
    assert (pop(state, "A1"), pop(state, "B1")) == (6, 0)
    assert codes(turn)[-1] == "migration_none"
    assert "did not grow this turn" in turn.rec.events[-1].text


def test_growth_migration_moves_each_hexs_growth_once() -> None:
    """Migration Phase: "If you have more than three populated hexes, roll twice" - option
    'growth': the second roll finds the next most populous hex, as the first one's growth has
    already gone."""
    hexes: Held = {
        "A1": ("ann", 6, ["city"]),
        "C1": ("ann", 4, []),
        "E1": ("ann", 1, []),
        "E2": ("ann", 1, []),
    }
    state = grow(hexes, migration=(1, 3), mode="growth")
    assert pop(state, "A1") == 6  # full: its growth went to B1
    assert pop(state, "C1") == 4  # grew to 5, then its new population left
    assert (pop(state, "B1"), pop(state, "D1")) == (1, 1)  # the first unowned grassland
