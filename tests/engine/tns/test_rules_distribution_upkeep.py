"""Rule-by-rule tests: Population Distribution Phase and Upkeep Phase."""

from __future__ import annotations

from engine.rulesets.temples_and_swords import economy, render

from .support import make_state, results, scripted_turn, texts

TERRAIN = ["ggggg", "ggggg", "ddddd", "ddddd"]


def test_laborers_are_hired_and_the_rest_are_basic() -> None:
    """Population Distribution Phase: "Decide how many of your populations you wish to hire as
    laborers. All other populations are in basic form." """
    state = make_state(TERRAIN, hexes={"A1": ("ann", 5, ["city"]), "B1": ("ann", 2, [])})
    turn = scripted_turn(state, "ann", "LABOR A1 3\nLABOR B1 0")
    economy.distribution(turn)
    a1, b1 = state.hexes["A1"], state.hexes["B1"]
    assert (a1.laborers, a1.basic, b1.laborers, b1.basic) == (3, 2, 0, 2)
    assert texts(turn) == ["Laborers: A1 3 (3 in all)."]
    assert results(turn) == [("done", ""), ("done", "")]


def test_without_a_labor_order_a_hex_keeps_last_turns_laborers() -> None:
    """Decision 11 (docs/rules/temples-and-swords.md): "a hex without a LABOR order keeps last
    turn's laborers"."""
    state = make_state(TERRAIN, hexes={"A1": ("ann", 5, ["city"]), "B1": ("ann", 2, [])})
    state.hexes["A1"].laborers = 2
    turn = scripted_turn(state, "ann", "LABOR B1 1")
    economy.distribution(turn)
    assert (state.hexes["A1"].laborers, state.hexes["B1"].laborers) == (2, 1)
    assert texts(turn) == ["Laborers: A1 2, B1 1 (3 in all)."]


def test_no_laborers_means_all_basic() -> None:
    """Population Distribution Phase: "All other populations are in basic form." """
    state = make_state(TERRAIN, hexes={"A1": ("ann", 3, ["city"])})
    turn = scripted_turn(state, "ann", "")
    economy.distribution(turn)
    assert state.hexes["A1"].basic == 3
    assert texts(turn) == ["No laborers hired: all population is basic."]


def test_more_laborers_than_population_left_hires_them_all() -> None:
    """Population Distribution Phase: "Decide how many of your populations you wish to hire as
    laborers" - no more than there are: an order that outgrew a hex that shrank (after it was
    checked) hires all there are and says so."""
    state = make_state(TERRAIN, hexes={"A1": ("ann", 5, ["city"])})
    turn = scripted_turn(state, "ann", "LABOR A1 4")
    state.hexes["A1"].pop = 2
    economy.distribution(turn)
    assert state.hexes["A1"].laborers == 2
    assert results(turn) == [("partly done", "A1 has only 2 population, not 4; hired all 2")]


def test_labor_in_a_hex_no_longer_yours_is_skipped() -> None:
    """Population Distribution Phase: "Decide how many of your populations you wish to hire" -
    only your own populations."""
    state = make_state(TERRAIN, hexes={"A1": ("ann", 5, ["city"])})
    turn = scripted_turn(state, "ann", "LABOR A1 1")
    state.hexes["A1"].owner = "bob"
    economy.distribution(turn)
    assert state.hexes["A1"].laborers == 0
    assert results(turn) == [("skipped", "A1 is not your hex")]


def test_upkeep_one_gp_for_each_army_unit_and_laborer() -> None:
    """Upkeep Phase: "Expend one GP for each army and laborer population under your control."
    Each military unit costs one GP, whatever its type."""
    state = make_state(
        TERRAIN,
        hexes={"A1": ("ann", 5, ["city"]), "B1": ("ann", 2, [])},
        armies={"A1": {"ann": {"soldier": 1, "swordsman": 1}}, "C1": {"ann": {"horseman": 1}}},
        gold=10,
    )
    state.hexes["A1"].laborers, state.hexes["B1"].laborers = 2, 1
    turn = scripted_turn(state, "ann")
    economy.upkeep(turn)
    assert state.seat("ann").gold == 4
    assert "cost 6 GP; paid 6" in texts(turn)[0]


def test_slaves_pay_no_upkeep() -> None:
    """Combat step 5: "A slave becomes a unit like a military unit, but you do not have to pay
    upkeep on it." """
    state = make_state(
        TERRAIN,
        hexes={"A1": ("ann", 3, ["city"])},
        armies={"A1": {"ann": {"soldier": 1, "slave": 4}}},
        gold=3,
    )
    economy.upkeep(scripted_turn(state, "ann"))
    assert state.seat("ann").gold == 2


def test_unpaid_upkeep_sends_laborers_back_to_basic_first() -> None:
    """Decision 14 (docs/rules/temples-and-swords.md): "Unpaid upkeep: laborers are released
    first (hex with most laborers first), then military units disbanded in the LOSSES order." """
    state = make_state(
        TERRAIN,
        hexes={"A1": ("ann", 5, ["city"]), "B1": ("ann", 2, [])},
        armies={"A1": {"ann": {"soldier": 2}}},
        gold=3,
    )
    state.hexes["A1"].laborers, state.hexes["B1"].laborers = 3, 1
    turn = scripted_turn(state, "ann")
    economy.upkeep(turn)
    assert state.seat("ann").gold == 0
    assert state.units("A1", "ann").soldier == 2
    assert (state.hexes["A1"].laborers, state.hexes["B1"].laborers) == (0, 1)
    assert "cost 6 GP; paid 3; 3 laborers went unpaid" in texts(turn)[0]


def test_unpaid_upkeep_then_disbands_units_in_losses_order() -> None:
    """Decision 14 (docs/rules/temples-and-swords.md): after the laborers, "military units
    disbanded in the LOSSES order" (default soldier, horseman, swordsman)."""
    state = make_state(
        TERRAIN,
        hexes={"A1": ("ann", 5, ["city"])},
        armies={"A1": {"ann": {"soldier": 1, "swordsman": 2, "horseman": 2}}},
        gold=2,
    )
    state.hexes["A1"].laborers = 1
    turn = scripted_turn(state, "ann")
    economy.upkeep(turn)
    units = state.units("A1", "ann")
    assert (units.soldier, units.horseman, units.swordsman) == (0, 0, 2)
    assert state.hexes["A1"].laborers == 0
    assert state.seat("ann").gold == 0
    assert "cost 6 GP; paid 2" in texts(turn)[0]
    assert "3 army units went unpaid and disbanded" in texts(turn)[0]


def test_unpaid_upkeep_follows_a_losses_standing_order() -> None:
    """Decision 14 (docs/rules/temples-and-swords.md): unpaid units are "disbanded in the
    LOSSES order" - a LOSSES standing order changes it."""
    state = make_state(
        TERRAIN,
        hexes={"A1": ("ann", 5, ["city"])},
        armies={"A1": {"ann": {"soldier": 2, "swordsman": 2}}},
        gold=3,
    )
    state.seat("ann").standing.losses = ["swordsman", "soldier", "horseman"]
    economy.upkeep(scripted_turn(state, "ann"))
    assert (state.units("A1", "ann").soldier, state.units("A1", "ann").swordsman) == (2, 1)


def test_holdings_speak_of_one_laborer_and_one_unit_in_the_singular() -> None:
    """issue 13: reports said "1 laborers" and "lost 1 units" (engine.words.plural)."""
    state = make_state(
        TERRAIN,
        hexes={"A1": ("ann", 3, ["city"]), "B1": ("ann", 2, [])},
        armies={"A1": {"ann": {"soldier": 1, "swordsman": 2}}},
    )
    state.hexes["A1"].laborers, state.hexes["B1"].laborers = 1, 2
    state.hexes["B1"].disease = 1
    text = render.holdings(state, "ann")
    assert "population 3 (1 laborer)" in text and "population 2 (2 laborers)" in text
    assert "A1: 1 soldier, 2 swordsmen" in text
    assert "disease for 1 more turn" in text
