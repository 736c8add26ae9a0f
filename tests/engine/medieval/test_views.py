"""The per-seat tableau that replaces a map, the holdings, the standings and the template."""

from __future__ import annotations

from engine.rulesets.medieval_micromanager import render
from engine.rulesets.medieval_micromanager.examples import position
from engine.rulesets.medieval_micromanager.model import Building

from .support import make_game


def test_the_tableau_shows_tokens_workers_stock_and_housing() -> None:
    game = make_game(("ann", "bob"), units={"ann": 5}, stock={"ann": {"grain": 7, "ore": 2}})
    game.seat("ann").buildings.append(Building("mine1", "mine", damage=2, depletion=1))
    game.seat("ann").building("farm1").workers = 3  # type: ignore[union-attr]
    text = render.render_map(game, "bob")
    lines = text.splitlines()
    assert lines[2].startswith("bob *")
    assert "units 5/5 housed, 2 home  Cathedrals 0" in text
    assert "  farm1         .....   3/5   2 grain; a token: nothing" in lines
    assert "  mine1         DDd..   0/4   1 ore; a token: 1 lumber" in lines
    assert "  grain 7/10 | lumber 5 ore 2 stone 0 tools 0 swords 0 shields 0 = 7/10" in lines
    assert all(len(line) <= 72 for line in lines)


def test_the_holdings_count_the_units_at_home_and_the_standing_defence() -> None:
    text = render.holdings(position(), "ann")
    assert text.splitlines()[0] == "ann: 7 units (7 at home), houses for 7; Cathedrals 0 of 2."
    assert "Standing: DEFEND with all units at home and a shield each." in text


def test_the_template_names_the_buildings_to_work_and_to_repair() -> None:
    text = render.order_template(position(), "ann")
    assert "#   damaged: house2 3" in text
    assert "#   farm1 5, woodcutter1 5, mine1 4, smithy1 5" in text
    assert "#   seats: bob cat" in text  # ann has an academy


def test_the_template_and_the_help_give_every_cards_cost() -> None:
    """ "Most buildings also require lumber in order to build/repair, 1 lumber for each damage
    token removed." - what each card's token costs, in the order template of every report and
    in the HELP reply, not "see costs" with nothing to see."""
    text = render.order_template(position(), "ann")
    assert "see costs" not in text
    assert "#   a damage token removed costs: nothing: farm woodcutter;" in text
    assert "2 stone: cathedral" in text
    assert all(len(line) <= 72 for line in text.splitlines())
    help_lines = render.ORDER_HELP.splitlines()
    assert "  farm         nothing     2 grain" in help_lines
    assert "  smithy       1 lumber    1 ore -> 1 tool" in help_lines
    assert "  cathedral    2 stone     the goal" in help_lines
    assert all(len(line) <= 72 for line in help_lines)


def test_a_goal_of_one_cathedral_is_written_in_the_singular() -> None:
    """Issue 43, point 14: the tableau's head said "goal: 1 Cathedrals"."""
    one = render.render_map(make_game(("ann", "bob"), options={"cathedrals": 1}), "ann")
    assert one.splitlines()[0].endswith("goal: 1 Cathedral")
    two = render.render_map(make_game(("ann", "bob"), options={"cathedrals": 2}), "ann")
    assert two.splitlines()[0].endswith("goal: 2 Cathedrals")
