"""Rule-by-rule tests: step 7, Resolve Attack(s), each quoting its clause. The attacker is ann
with 5 units and an academy; bob defends with his 4 units unless a test says otherwise."""

from __future__ import annotations

from typing import Any

from engine.problems import ProblemKind
from engine.rulesets.medieval_micromanager.model import Building, GameState
from engine.rulesets.medieval_micromanager.rules import RULES

from .support import card, make_game, play_seat, problems, results, scripted_turn

SEATS = ("ann", "bob", "cat")


def _game(**kwargs: Any) -> GameState:
    cards = {"ann": [Building("academy1", "academy"), Building("house2", "house")]}
    return make_game(SEATS, units={"ann": 8}, cards=cards, **kwargs)


def _attack(game: GameState, text: str, dice: dict[str, list[int]]) -> Any:
    turn = scripted_turn(game, "ann", text, dice)
    play_seat(turn)
    return turn


def test_units_set_at_the_academy_attack() -> None:
    """ "Any units set onto Academies this turn attack another player or players." """
    game = _game()
    turn = _attack(
        game, "ATTACK bob WITH 3", {"attack bob": [4, 4, 4], "defence bob": [1, 1, 1, 1]}
    )
    assert game.seat("bob").units == 1
    assert results(turn) == [("done", "scored 3 against 0: 3 defenders eliminated")]


def test_the_division_of_units_is_made_before_any_attack() -> None:
    """ "Each unit may only attack a single player, and the division of how many units will
    attack which player must be made prior to resolving any attack." """
    game = _game()
    [problem] = problems(game, "ann", "ATTACK bob WITH 3\nATTACK cat WITH 3")
    assert (problem.kind, problem.rule) == (ProblemKind.ILLEGAL, RULES["academy"])
    turn = _attack(
        game,
        "ATTACK bob WITH 3\nATTACK cat WITH 2",
        {"attack bob": [1, 1, 1], "defence bob": [1] * 4, "attack cat": [1, 1]},
    )
    assert [e.text.split(":")[0] for e in turn.rec.events if e.code.startswith("attack:")] == [
        "ann attacks bob",
        "ann attacks cat",
    ]


def test_a_player_cannot_be_attacked_twice_in_a_turn() -> None:
    """ "A player cannot attack another player twice in a single turn." """
    [problem] = problems(_game(), "ann", "ATTACK bob WITH 2\nATTACK bob WITH 1")
    assert (problem.kind, problem.line_no, problem.rule) == (
        ProblemKind.ILLEGAL,
        2,
        RULES["attack_twice"],
    )


def test_the_attacks_are_fought_in_the_order_written() -> None:
    """ "However, the attacks may occur in whatever order the attacking player wishes." """
    game = _game()
    turn = _attack(
        game,
        "ATTACK cat WITH 1\nATTACK bob WITH 1",
        {"attack bob": [1], "attack cat": [1], "defence cat": [1] * 4, "defence bob": [1] * 4},
    )
    assert [e.also for e in turn.rec.events if e.code.startswith("attack:")] == [("cat",), ("bob",)]


def test_a_sword_hits_on_three_and_more() -> None:
    """ "Normally, an attacking unit will score a successful hit on a roll of 4,5, or 6 on a six
    sided die. A sword improves his chances such that he only misses on a 1 or a 2." """
    game = _game(stock={"ann": {"swords": 1}})
    game.seat("bob").defend = 0
    turn = _attack(game, "ATTACK bob WITH 2 SWORDS 1 LOOT", {"attack bob": [3, 3], "loot bob": [1]})
    assert results(turn)[0][1].startswith("scored 1 against 0")


def test_one_sword_an_attacking_unit() -> None:
    """ "The attacking player may only allocate one sword per attacking unit." """
    game = _game(stock={"ann": {"swords": 3}})
    [problem] = problems(game, "ann", "ATTACK bob WITH 2 SWORDS 3")
    assert (problem.kind, problem.rule) == (ProblemKind.ILLEGAL, RULES["swords"])


def test_swords_are_used_up() -> None:
    """ "Swords are eliminated from play once used." """
    game = _game(stock={"ann": {"swords": 3}})
    _attack(game, "ATTACK bob WITH 2 SWORDS 2", {"attack bob": [1, 1], "defence bob": [1] * 4})
    assert game.seat("ann").stock["swords"] == 1


def test_the_defender_decides_how_many_units_defend() -> None:
    """ "Prior to rolling the attack, the defended decides how many of his units will defend,
    if any." - by the standing order DEFEND."""
    game = _game()
    game.seat("bob").defend = 1
    turn = _attack(game, "ATTACK bob WITH 1", {"attack bob": [1], "defence bob": [5]})
    assert "1 defenders (0 shields) score 1" in turn.rec.events[-1].text


def test_a_shield_saves_on_four_and_more() -> None:
    """ "Normally, a defending unit successfully defends on a roll of 5 or 6. A shield improves
    this to also include 4s." """
    game = _game(stock={"bob": {"shields": 1}})
    turn = _attack(game, "ATTACK bob WITH 1", {"attack bob": [1], "defence bob": [4, 4, 4, 5]})
    assert results(turn) == [("done", "scored 0 against 2: routed: 1 attacker eliminated")]


def test_shields_are_used_up() -> None:
    """ "Shields are eliminated from play once used." """
    game = _game(stock={"bob": {"shields": 3}})
    game.seat("bob").shields = 2
    _attack(game, "ATTACK bob WITH 1", {"attack bob": [1], "defence bob": [1] * 4})
    assert game.seat("bob").stock["shields"] == 1


def test_sword_and_shield_bearers_roll_first() -> None:
    """ "the attack is rolled, first for sword bearing attacking units, then for non-sword
    bearing attacking units. ... the defense is rolled, first for shield bearing defending
    units, then for non-shield bearing defending units." """
    game = _game(stock={"ann": {"swords": 1}, "bob": {"shields": 1}})
    game.seat("bob").defend = 2
    turn = _attack(
        game, "ATTACK bob WITH 2 SWORDS 1", {"attack bob": [3, 3], "defence bob": [4, 4]}
    )
    assert turn.rec.events[-1].dice == (3, 3, 4, 4)
    assert results(turn) == [("done", "scored 1 against 1: a tie: no damage to either side")]


def test_a_tie_does_no_damage() -> None:
    """ "If the attack and defend totals are equal, then the fight is a tie, and no damage is
    done to either side." """
    game = _game()
    _attack(game, "ATTACK bob WITH 2", {"attack bob": [6, 1], "defence bob": [6, 1, 1, 1]})
    assert (game.seat("ann").units, game.seat("bob").units) == (8, 4)


def test_each_point_of_excess_eliminates_a_defender() -> None:
    """ "If the attack total is higher ... For each point of excess, one defender is
    eliminated." """
    game = _game()
    _attack(game, "ATTACK bob WITH 4", {"attack bob": [6, 6, 6, 1], "defence bob": [6, 1, 1, 1]})
    assert game.seat("bob").units == 2


def test_raze_puts_a_damage_token_for_each_further_point() -> None:
    """ "If all defenders are eliminated, and there is still an excess, then the attacker
    decides whether to loot or raze. ... If he chooses raze, then the defending player must
    apply a damage token for each additional point of excess." """
    game = _game()
    game.seat("bob").defend = 1
    turn = _attack(game, "ATTACK bob WITH 4 RAZE", {"attack bob": [6] * 4, "defence bob": [1]})
    damage = sum(b.damage for b in game.seat("bob").buildings)
    assert (game.seat("bob").units, damage) == (3, 3)
    assert "razed: 3 damage tokens on warehouse1" in results(turn)[0][1]


def test_loot_takes_one_commodity_at_random() -> None:
    """ "If he chooses loot, then he gets to choose one commodity at random from the defending
    player's commodities." Reading: one kind of commodity, each kind held as likely; all of
    it."""
    game = _game(stock={"bob": {"grain": 2, "lumber": 3, "ore": 1}})
    game.seat("bob").defend = 0
    turn = _attack(game, "ATTACK bob WITH 2 LOOT", {"attack bob": [6, 6], "loot bob": [2]})
    assert game.seat("bob").stock["lumber"] == 0
    assert (game.seat("bob").stock["grain"], game.seat("bob").stock["ore"]) == (2, 1)
    assert game.seat("ann").stock["lumber"] == 5 + 3
    assert results(turn)[0][1].endswith("looted 3 lumber")


def test_units_at_work_on_a_building_do_not_defend() -> None:
    """Completion of "the defended decides how many of his units will defend": units stay on
    the building they worked on until their seat's next turn; only those at home defend."""
    game = _game()
    card(game, "bob", "farm1").workers = 3
    turn = _attack(game, "ATTACK bob WITH 2 LOOT", {"attack bob": [1, 1], "defence bob": [6]})
    assert "1 defenders (0 shields) score 1" in turn.rec.events[-1].text


def test_a_routed_attack_loses_attackers_and_nothing_more() -> None:
    """ "If the defend total is higher, then the attack was routed ... For each point of
    excess, one attacker is eliminated. If all attackers are eliminated and there is
    additional excess, nothing else happens. Defenders cannot loot or raze." """
    game = _game(stock={"ann": {"grain": 3}})
    _attack(game, "ATTACK bob WITH 2", {"attack bob": [1, 1], "defence bob": [6, 6, 6, 6]})
    assert game.seat("ann").units == 8 - 2
    assert game.seat("ann").stock["grain"] == 3
    assert sum(b.damage for b in game.seat("ann").buildings) == 0


def test_razing_damage_goes_where_it_hurts_least() -> None:
    """Completion of "The defending player may apply it to any building he wishes": a damaged
    building first, unless it would reach five tokens; then academy ... farm, house,
    cathedral."""
    cards = [Building("school1", "school"), Building("house2", "house", damage=3)]
    game = make_game(
        SEATS,
        units={"ann": 8},
        cards={"ann": [Building("academy1", "academy"), Building("house2", "house")], "bob": cards},
    )
    game.seat("bob").defend = 0
    turn = _attack(game, "ATTACK bob WITH 3", {"attack bob": [6, 6, 6]})
    assert (card(game, "bob", "house2").damage, card(game, "bob", "school1").damage) == (4, 2)
    assert results(turn)[0][1].endswith("1 damage token on house2, 2 damage tokens on school1")


def test_the_defender_spares_the_buildings_he_names() -> None:
    """ "The defending player may apply it to any building he wishes." - by the standing order
    SPARE: the buildings named take razing damage last, the first named last of all."""
    cards = [Building("school1", "school"), Building("cathedral1", "cathedral")]
    game = make_game(
        SEATS,
        units={"ann": 8},
        cards={"ann": [Building("academy1", "academy"), Building("house2", "house")], "bob": cards},
    )
    bob = game.seat("bob")
    bob.defend, bob.spare = 0, ["school1", "cathedral1"]
    others = [b.label for b in bob.buildings if b.label not in bob.spare]
    turn = _attack(game, "ATTACK bob WITH 5", {"attack bob": [6] * 5})
    assert (card(game, "bob", "school1").damage, card(game, "bob", "cathedral1").damage) == (0, 0)
    assert sum(card(game, "bob", label).damage for label in others) == 5
    assert "razed" in results(turn)[0][1]
