"""Tests of what the project completes: the start, the cards, the goal and the end, and the
table's decisions made by email (docs/rules/medieval-micromanager.md, each marked
Completion)."""

from __future__ import annotations

from engine import get_ruleset
from engine.rulesets.medieval_micromanager.cards import CARDS, Group
from engine.rulesets.medieval_micromanager.model import Building, GameState, Seat
from engine.rulesets.medieval_micromanager.orders import parse
from engine.rulesets.medieval_micromanager.turn import play
from engine.serial import from_json

from .support import card, make_game, play_seat, scripted_turn

RULESET = get_ruleset("mm")


def _new(names: list[str], **options: object) -> GameState:
    return from_json(GameState, RULESET.new_game(names, options, 1))


def test_each_seat_starts_with_four_units_five_cards_and_a_little_stock() -> None:
    """Completion: 4 units; a built farm, woodcutter, house, granary and warehouse; 5 grain
    and 5 lumber."""
    game = _new(["ann", "bob", "cat"])
    for seat in game.seats:
        assert seat.units == 4
        assert [b.label for b in seat.buildings] == [
            "farm1",
            "woodcutter1",
            "house1",
            "granary1",
            "warehouse1",
        ]
        assert all(b.tokens == 0 for b in seat.buildings)
        assert {k: v for k, v in seat.stock.items() if v} == {"grain": 5, "lumber": 5}


def test_seat_order_is_rolled_at_setup() -> None:
    """Completion: seat order is rolled (a shuffle), like the other games' turn order."""
    names = ["ann", "bob", "cat", "dan"]
    orders = {tuple(s.name for s in _seat_order(names, seed)) for seed in range(12)}
    assert len(orders) > 1
    assert all(sorted(order) == sorted(names) for order in orders)


def _seat_order(names: list[str], seed: int) -> list[Seat]:
    return from_json(GameState, RULESET.new_game(names, {}, seed)).seats


def test_the_cards_cover_what_the_text_names() -> None:
    """Completion: raw-material cards for grain, lumber, ore and stone; finished goods making
    tools, swords and shields; granary, warehouse, school, academy, house; the Cathedral."""
    made = {card.makes for card in CARDS.values() if card.group is Group.RAW}
    goods = {card.makes for card in CARDS.values() if card.group is Group.GOODS}
    assert made == {"grain", "lumber", "ore", "stone"}
    assert goods == {"tools", "swords", "shields"}
    assert {"granary", "warehouse", "school", "academy", "house", "cathedral"} <= set(CARDS)


def test_a_cathedral_is_built_with_stone() -> None:
    """Completion: a Cathedral token costs 2 stone, no lumber."""
    game = make_game(
        stock={"ann": {"stone": 5}}, cards={"ann": [Building("cathedral1", "cathedral", damage=4)]}
    )
    play_seat(scripted_turn(game, "ann", "BUILD 3 cathedral1"))
    assert card(game, "ann", "cathedral1").damage == 2
    assert (game.seat("ann").stock["stone"], game.seat("ann").stock["lumber"]) == (1, 5)


def test_tools_are_not_used_up() -> None:
    """Completion: the text uses up swords and shields, not tools; a tool serves one unit an
    action a turn."""
    game = make_game(
        stock={"ann": {"tools": 1, "lumber": 0}}, cards={"ann": [Building("school1", "school")]}
    )
    play_seat(scripted_turn(game, "ann", "WORK 3 woodcutter1"))
    assert game.seat("ann").stock["tools"] == 1
    assert game.seat("ann").stock["lumber"] == 2 + 1 + 1


def test_new_names_the_card_broken_ground_on_this_turn() -> None:
    """Completion: a new card is named by kind and the next number, NEW on later lines."""
    game = make_game()
    parsed = parse(game, "ann", "BREAK GROUND FARM\nBUILD 2 NEW")
    assert [o.understood() for o in parsed.orders] == [
        "break ground on a new farm, to be called farm2",
        "2 units build or repair farm2",
    ]


def test_surplus_other_commodities_go_from_the_largest_stock() -> None:
    """Completion: surplus other commodities go one at a time from the one held most."""
    game = make_game(stock={"ann": {"lumber": 6, "ore": 6, "stone": 2}})
    play_seat(scripted_turn(game, "ann"))
    stock = game.seat("ann").stock
    assert (stock["lumber"], stock["ore"], stock["stone"]) == (4, 4, 2)


def _cathedrals(game: GameState, seat: str, count: int, damaged: int = 0) -> None:
    for n in range(count):
        game.seat(seat).buildings.append(
            Building(f"cathedral{n + 1}", "cathedral", damage=int(n < damaged))
        )


def test_the_goal_is_checked_at_the_end_of_the_round() -> None:
    """Completion: the seats with `cathedrals` Cathedrals standing undamaged at the end of a
    round win; the most Cathedrals then the most units among them."""
    game = make_game(("ann", "bob", "cat"))
    _cathedrals(game, "ann", 2)
    _cathedrals(game, "bob", 3)
    _cathedrals(game, "cat", 2)
    game.seat("cat").units = 2
    rec = play(game, {}, 0)
    assert (game.winners, game.end_reason) == (["bob"], "the goal: 2 Cathedrals standing")
    assert rec.events[-1].code == "game_over"


def test_level_seats_share_the_win() -> None:
    """Completion: seats still level share the win."""
    game = make_game(("ann", "bob"))
    _cathedrals(game, "ann", 2)
    _cathedrals(game, "bob", 2)
    play(game, {}, 0)
    assert game.winners == ["ann", "bob"]


def test_a_damaged_cathedral_does_not_count() -> None:
    """Completion: only a Cathedral standing with no damage token counts."""
    game = make_game(("ann", "bob"))
    _cathedrals(game, "ann", 2, damaged=1)
    play(game, {}, 0)
    assert game.winners == []
    assert game.round == 3


def test_the_target_is_an_option() -> None:
    """Completion: the number of Cathedrals is the option `cathedrals`."""
    game = make_game(("ann", "bob"), options={"cathedrals": 1})
    _cathedrals(game, "bob", 1)
    play(game, {}, 0)
    assert game.winners == ["bob"]


def test_a_seat_without_units_is_out_and_the_last_seat_wins() -> None:
    """Completion: a seat with no unit left is out; the last seat in the game wins."""
    game = make_game(("ann", "bob", "cat"), units={"cat": 0})
    rec = play(game, {}, 0)
    assert not game.seat("cat").alive
    assert "cat has no unit left and is out." in [e.text for e in rec.events]
    game.seat("bob").units = 0
    play(game, {}, 0)
    assert game.winners == ["ann"]


def test_the_turn_limit_ends_the_game_on_cathedrals_then_units() -> None:
    """Option turn_limit: the most Cathedrals, then the most units, win."""
    game = make_game(("ann", "bob"), options={"turn_limit": 2}, units={"bob": 5})
    play(game, {}, 0)
    assert game.winners == ["bob"]
    assert game.end_reason == "turn limit 2 reached with 0 Cathedrals and 5 units"


def test_defend_holds_from_the_start_of_the_turn_it_is_sent() -> None:
    """Completion: DEFEND is a standing order, in force before any seat plays, so against an
    attack by a seat earlier in the round."""
    game = make_game(("ann", "bob"))
    parsed = parse(game, "bob", "DEFEND 2 SHIELDS 1")
    rec = play(game, {"bob": parsed.orders}, 0)
    assert (game.seat("bob").defend, game.seat("bob").shields) == (2, 1)
    assert rec.results["bob"][0].note == "standing order recorded"


def test_sequential_mode_plays_one_seat_a_turn_and_checks_the_goal_after_the_last() -> None:
    """Option mode = sequential: one seat's turn at a time; the round ends with the last."""
    game = make_game(("ann", "bob"), options={"mode": "sequential"})
    _cathedrals(game, "ann", 2)
    play(game, {}, 0)
    assert (game.winners, game.active) == ([], 1)
    play(game, {}, 0)
    assert game.winners == ["ann"]


def test_spare_is_a_standing_order_and_none_clears_it() -> None:
    """Completion: SPARE, the defender's choice of where razing damage goes, made in advance."""
    game = make_game(("ann", "bob"))
    play(game, {"bob": parse(game, "bob", "SPARE house1 farm1").orders}, 0)
    assert game.seat("bob").spare == ["house1", "farm1"]
    play(game, {"bob": parse(game, "bob", "SPARE NONE").orders}, 0)
    assert game.seat("bob").spare == []
