"""Rule-by-rule tests: step 7, Resolve Attack(s), each quoting its clause. The attacker is ann
with 5 units and an academy; bob defends with his 4 units unless a test says otherwise."""

from __future__ import annotations

from typing import Any

from engine import get_ruleset
from engine.problems import ProblemKind
from engine.rulesets.medieval_micromanager.model import Building, GameState
from engine.rulesets.medieval_micromanager.rules import RULES

from .support import card, make_game, play_seat, problems, results, scripted_turn

SEATS = ("ann", "bob", "cat")
RULESET = get_ruleset("mm")


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


def _armed() -> list[Building]:
    return [Building("academy1", "academy"), Building("house2", "house")]


def test_the_attackers_eliminated_are_the_units_that_attacked() -> None:
    """ "If the defend total is higher, then the attack was routed, and the difference between
    the attack and defense totals is calculated. For each point of excess, one attacker is
    eliminated." - the dead come off the academy, not from the units at home, so a later
    attack in the round meets every unit still at home."""
    game = make_game(SEATS, units={"ann": 8, "cat": 8}, cards={s: _armed() for s in ("ann", "cat")})
    _attack(game, "ATTACK bob WITH 3", {"attack bob": [1, 1, 1], "defence bob": [6, 6, 1, 1]})
    ann = game.seat("ann")
    assert (ann.units, card(game, "ann", "academy1").workers) == (6, 1)
    assert ann.units - ann.working() == 5
    later = scripted_turn(
        game, "cat", "ATTACK ann WITH 1", {"attack ann": [1], "defence ann": [1] * 5}
    )
    play_seat(later)
    [fight] = [e for e in later.rec.events if e.code.startswith("attack:")]
    assert "5 defenders (0 shields) score 0" in fight.text


def test_the_defenders_eliminated_are_units_that_defended() -> None:
    """ "If the attack total is higher, then the attack is successful, and the difference
    between the attack and defense totals is calculated. For each point of excess, one
    defender is eliminated." - from the units at home that defended (new units bought this
    turn among them); the units at work stay on their buildings, and a later attack in the
    round meets no defender that fell."""
    cards = {"ann": _armed(), "bob": [Building("house2", "house")], "cat": _armed()}
    game = make_game(SEATS, units={"ann": 8, "cat": 8}, stock={"bob": {"grain": 10}}, cards=cards)
    play_seat(scripted_turn(game, "bob", "WORK 2 farm1\nBUY 2"))
    bob = game.seat("bob")
    assert (bob.units, bob.units - bob.working()) == (6, 2)  # 2 new units at home
    _attack(game, "ATTACK bob WITH 2 LOOT", {"attack bob": [6, 6], "defence bob": [1, 1]})
    assert bob.units == 4
    assert (card(game, "bob", "farm1").workers, card(game, "bob", "house1").workers) == (2, 2)
    assert bob.units - bob.working() == 0
    later = scripted_turn(game, "cat", "ATTACK bob WITH 1 LOOT", {"attack bob": [1]})
    play_seat(later)
    [fight] = [e for e in later.rec.events if e.code.startswith("attack:")]
    assert "0 defenders (0 shields) score 0" in fight.text


def test_loot_of_one_piece_is_the_option_loot_piece() -> None:
    """ "If he chooses loot, then he gets to choose one commodity at random from the defending
    player's commodities." The option `loot`: `kind` (the default) takes all of one kind,
    `piece` one piece, each piece the defender holds as likely."""
    assert RULESET.resolve_options({})["loot"] == "kind"
    assert RULESET.resolve_options({"loot": "PIECE"})["loot"] == "piece"
    game = _game(stock={"bob": {"grain": 2, "lumber": 3, "ore": 1}}, options={"loot": "piece"})
    game.seat("bob").defend = 0
    # The fourth of bob's six pieces: grain, grain, lumber, lumber, lumber, ore.
    turn = _attack(game, "ATTACK bob WITH 2 LOOT", {"attack bob": [6, 6], "loot bob": [4]})
    bob = game.seat("bob")
    assert (bob.stock["grain"], bob.stock["lumber"], bob.stock["ore"]) == (2, 2, 1)
    assert game.seat("ann").stock["lumber"] == 5 + 1
    assert results(turn)[0][1].endswith("looted 1 lumber")
