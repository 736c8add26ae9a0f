"""Rule-by-rule tests: Combat (steps 1 to 4), as in Culture and Conquest."""

from __future__ import annotations

import pytest

from engine.problems import ProblemKind
from engine.rulesets.temples_and_swords import war
from engine.rulesets.temples_and_swords.combat import Battle, Side, fight
from engine.rulesets.temples_and_swords.model import GameState, Units
from engine.rulesets.temples_and_swords.rules import RULES

from .support import ScriptedDice, make_state, problems, results, scripted_turn

TERRAIN = ["ggggg", "ggggg", "ddddd", "ddddd"]
LOSSES = ["soldier", "horseman", "swordsman"]


def side(
    attacking: bool, use: str = "best", walls: bool = False, doctrine: str = "", **units: int
) -> Side:
    return Side(Units(**units), use, list(LOSSES), attacking, walls, doctrine)


def battle(attacker: Side, defender: Side, dice: list[int], until: int = 0) -> Battle:
    script = ScriptedDice(dice, "battle")
    result = fight(attacker, defender, script, until)  # type: ignore[arg-type]
    assert script.values == [], f"dice not rolled: {script.values}"
    return result


class FirstRoundDice(ScriptedDice):
    """Misses (6s) in the first round's two rolls, then hits (1s) until the battle ends."""

    def __init__(self) -> None:
        super().__init__([], "battle")
        self.calls = 0

    def roll(self, count: int, sides: int = 6) -> list[int]:
        self.calls += 1
        return [6 if self.calls <= 2 else 1] * count


def first_round(attacker: Side, defender: Side) -> tuple[int, int]:
    """How many dice each side rolled in the first round (where nobody is hit)."""
    result = fight(attacker, defender, FirstRoundDice())  # type: ignore[arg-type]
    record = result.rounds[0]
    return len(record.attacker_dice), len(record.defender_dice)


def test_each_side_rolls_three_dice_and_every_one_destroys_a_unit() -> None:
    """Combat step 2: "Roll three dice. Destroy one enemy unit for every result of a one on a
    die." Step 3: "Defender rolls for damage. Use same process as number 2." """
    attacker, defender = side(True, soldier=3), side(False, soldier=3)
    result = battle(attacker, defender, [1, 3, 5, 1, 2, 1, 1, 1, 6])
    assert [(r.attacker_dice, r.defender_dice) for r in result.rounds] == [
        ([1, 3, 5], [1, 2, 1]),
        ([1, 1, 6], []),
    ]
    assert (attacker.units.soldier, defender.units.soldier) == (1, 0)
    assert (attacker.lost, defender.lost) == (2, 3)
    assert (result.attacker_won, result.defender_won) == (True, False)


def test_the_attacker_rolls_first_and_a_destroyed_defender_does_not_roll() -> None:
    """Combat steps 2 and 3: "Attacker rolls for damage", then "Defender rolls for damage" -
    casualties of the attacker's roll are taken before the defender rolls."""
    attacker, defender = side(True, soldier=1), side(False, soldier=2)
    result = battle(attacker, defender, [1, 1, 4])
    assert [(r.attacker_dice, r.defender_dice) for r in result.rounds] == [([1, 1, 4], [])]
    assert attacker.units.soldier == 1


def test_rolls_repeat_until_one_side_is_destroyed() -> None:
    """Combat step 4: "If any side has remaining units and the attacker still wishes to fight,
    repeat steps 2 and 3." """
    attacker, defender = side(True, soldier=1), side(False, soldier=1)
    result = battle(attacker, defender, [2, 2, 2, 3, 3, 3, 4, 4, 4, 1, 5, 5])
    assert len(result.rounds) == 2
    assert (result.attacker_won, result.defender_won) == (False, True)
    assert result.dice_text() == "r1 [2 2 2]/[3 3 3] r2 [4 4 4]/[1 5 5]"


def test_until_stops_the_attack_after_that_many_losses() -> None:
    """Combat step 4: "If any side has remaining units and the attacker still wishes to fight,
    repeat steps 2 and 3." - ATTACK ... UNTIL n: the attacker stops once it has lost n units."""
    attacker, defender = side(True, soldier=4), side(False, soldier=4)
    result = battle(attacker, defender, [2, 2, 2, 1, 3, 3, 2, 2, 2, 1, 3, 3], until=2)
    assert len(result.rounds) == 2
    assert (attacker.units.soldier, defender.units.soldier) == (2, 4)
    assert (result.attacker_won, result.defender_won) == (False, False)


@pytest.mark.parametrize(
    ("units", "attacking", "use", "dice"),
    [
        ({"soldier": 2}, True, "best", 3),
        ({"soldier": 2}, False, "best", 3),
        ({"swordsman": 2}, True, "best", 4),
        ({"swordsman": 2}, False, "best", 4),
        ({"horseman": 2}, True, "best", 4),
        ({"horseman": 2}, False, "best", 3),
        ({"horseman": 2}, False, "horseman", 3),
        ({"swordsman": 2, "horseman": 2}, True, "horseman", 4),
        ({"swordsman": 2}, True, "none", 3),
        ({"swordsman": 1, "soldier": 5}, True, "best", 4),
    ],
)
def test_advanced_units_roll_more_dice(
    units: dict[str, int], attacking: bool, use: str, dice: int
) -> None:
    """Combat step 2: "Advanced units have the ability to attack with more than three dice ...
    you may choose to use these units." Units chart: "Soldier Roll 3; Swordsman Roll 4;
    Horseman Roll 4, 3 roll in defense"; Metal Working: "fights with an extra combat die in
    all situations"."""
    ours = Side(Units(**units), use, list(LOSSES), attacking)
    other = side(not attacking, soldier=9)
    attacker, defender = (ours, other) if attacking else (other, ours)
    counts = first_round(attacker, defender)
    assert counts[0 if attacking else 1] == dice


def test_casualties_come_from_the_advanced_type_used_first() -> None:
    """Combat step 2: "if you take any casualties this turn, you must destroy all units of that
    type before destroying any other type of unit." """
    attacker = side(True, soldier=2, swordsman=2)
    defender = side(False, soldier=5)
    battle(attacker, defender, [2, 2, 2, 2, 1, 1, 1], until=3)
    assert attacker.units.to_json() == {"soldier": 1}
    assert attacker.lost_kinds == {"swordsman": 2, "soldier": 1}


def test_without_an_advanced_type_in_use_losses_follow_the_losses_order() -> None:
    """Decision 35 (docs/rules/temples-and-swords.md): "Casualties after the used type follow
    the LOSSES order, default soldier, horseman, swordsman" - also when no advanced type was
    used in the roll."""
    attacker = side(True, use="none", soldier=1, swordsman=2)
    defender = side(False, soldier=5)
    battle(attacker, defender, [2, 2, 2, 1, 1, 3], until=2)
    assert attacker.lost_kinds == {"soldier": 1, "swordsman": 1}


def test_walls_give_the_defender_one_more_die() -> None:
    """Project chart: "Walls 3 +1 die while defending"; Masonry: "giving are city defenders
    one extra combat die"."""
    assert first_round(side(True, soldier=5), side(False, walls=True, soldier=5)) == (
        3,
        4,
    )
    walled_swords = side(False, walls=True, swordsman=5)
    assert first_round(side(True, soldier=5), walled_swords) == (3, 5)


@pytest.mark.parametrize(
    ("units", "walls", "always", "bonus"),
    [
        ({"soldier": 3}, False, 4, 3),
        ({"swordsman": 3}, False, 5, 5),
        ({"soldier": 3}, True, 5, 5),
    ],
)
def test_military_doctrine_adds_a_die(
    units: dict[str, int], walls: bool, always: int, bonus: int
) -> None:
    """Military Doctrine: "you gain one extra roll on all combat bonuses" - option
    military_doctrine 'always' (+1 die in every battle roll, the default) or 'bonus' (+1 only
    in rolls that already have a bonus: advanced units or walls)."""
    for doctrine, expected in (("always", always), ("bonus", bonus)):
        ours = Side(Units(**units), "best", list(LOSSES), False, walls, doctrine)
        counts = first_round(side(True, soldier=9), ours)
        assert counts[1] == expected, doctrine


def war_position(
    attacker: dict[str, int], defender: dict[str, int], **options: object
) -> GameState:
    return make_state(
        TERRAIN,
        hexes={"A1": ("ann", 3, ["city"]), "B1": ("bob", 3, ["city"])},
        armies={"A1": {"ann": attacker}, "B1": {"bob": defender}},
        options=dict(options),
    )


def test_attacker_declares_an_attack_and_the_battle_is_fought() -> None:
    """Combat step 1: "state which of his units that occupy hexes with enemy populations,
    units or cities will attack" - ATTACK after the MOVE into the hex."""
    state = war_position({"soldier": 3}, {"soldier": 1})
    turn = scripted_turn(
        state, "ann", "MOVE A1 B1\nATTACK B1 SLAVES 0", dice={"attack:0": [1, 4, 4]}
    )
    war.war(turn)
    event = next(e for e in turn.rec.events if e.code == "battle")
    assert event.dice == (1, 4, 4)
    assert (event.public, event.also) == (True, ("bob",))
    assert "Dice (attacker/defender): r1 [1 4 4]." in event.text
    assert state.units("B1", "bob").military() == 0
    assert state.hexes["B1"].owner == "ann"


def test_moving_into_an_enemy_hex_need_not_attack() -> None:
    """War Phase: "you may (but do not have to) attack those enemy holdings" """
    state = war_position({"soldier": 3}, {"soldier": 1})
    turn = scripted_turn(state, "ann", "MOVE A1 B1")
    war.war(turn)
    assert [e.code for e in turn.rec.events] == ["move"]
    assert (state.units("B1", "ann").soldier, state.units("B1", "bob").soldier) == (3, 1)
    assert state.hexes["B1"].owner == "bob"


def test_an_attack_needs_own_units_in_or_moving_into_the_hex() -> None:
    """Combat step 1: "state which of his units that occupy hexes with enemy populations,
    units or cities will attack"."""
    state = war_position({"soldier": 3}, {"soldier": 1})
    [problem] = problems(state, "ann", "ATTACK B1")
    assert problem.kind is ProblemKind.ILLEGAL
    assert problem.message == "you have no army in B1 and no earlier MOVE ends there"
    assert problem.rule == RULES["attack"]


def test_an_attack_needs_enemy_holdings_in_the_hex() -> None:
    """War Phase: "If you move any of your armies into a hex with any enemy cities,
    populations or armies, you may ... attack those enemy holdings" """
    state = war_position({"soldier": 3}, {"soldier": 1})
    [problem] = problems(state, "ann", "MOVE A1 A2\nATTACK A2")
    assert (problem.line_no, problem.kind) == (2, ProblemKind.ILLEGAL)
    assert problem.message == "A2 holds no enemy city, population or army"


def test_all_attacks_are_declared_before_the_rolls_and_each_has_its_own_dice() -> None:
    """Combat step 1: "the attacking player must declare all his attacks before moving to the
    next step." - the ATTACK orders are given with the turn's orders; each battle rolls its own
    dice stream (attack:0, attack:1, ...)."""
    state = war_position({"soldier": 3}, {"soldier": 1})
    state.hexes["A2"] = state.hexes["B1"].__class__(owner="bob", pop=1)
    state.units_for_change("A1", "ann").add("soldier", 3)
    turn = scripted_turn(
        state,
        "ann",
        "MOVE A1 B1 3 SOLDIERS\nMOVE A1 A2 3 SOLDIERS\nATTACK B1\nATTACK A2",
        dice={"attack:0": [1, 5, 5]},
    )
    war.war(turn)
    assert [(e.code, e.dice) for e in turn.rec.events if e.code == "battle"] == [
        ("battle", (1, 5, 5)),
        ("battle", ()),
    ]
    assert (state.hexes["B1"].owner, state.hexes["A2"].owner) == ("ann", "ann")
    assert turn.unused() == {}


def test_an_attack_on_a_hex_without_enemy_units_skips_to_step_5() -> None:
    """Combat step 5: "If a unit attacks an enemy hex that has no enemy units, skip to this
    hex [step]." - no dice are rolled."""
    state = war_position({"soldier": 2}, {})
    turn = scripted_turn(state, "ann", "MOVE A1 B1\nATTACK B1")
    war.war(turn)
    battle_event = next(e for e in turn.rec.events if e.code == "battle")
    assert battle_event.dice == ()
    assert "none: no defending army" in battle_event.text
    assert state.hexes["B1"].owner == "ann"


def test_the_attacker_may_declare_which_advanced_type_to_use() -> None:
    """Combat step 2: "you must declare before rolling that you want to use a specific type of
    special unit" - ATTACK ... USE <type>|NONE."""
    state = war_position({"swordsman": 2, "horseman": 2}, {"soldier": 9})
    turn = scripted_turn(state, "ann", "MOVE A1 B1 2 SWORDSMEN\nATTACK B1 USE NONE UNTIL 1")
    turn.scripted["attack:0"] = [5, 5, 5, 1, 5, 5]
    war.war(turn)
    assert state.units("B1", "ann").to_json() == {"swordsman": 1}
    assert "r1 [5 5 5]/[1 5 5]" in turn.rec.events[-1].text
    status, note = results(turn)[1]
    assert (status, note.startswith("you broke off after losing 1")) == ("partly done", True)


def test_the_defender_uses_its_defend_standing_order() -> None:
    """Combat step 3: "Defender rolls for damage. Use same process as number 2." - the
    defender's declaration is its standing DEFEND order (default BEST)."""
    state = war_position({"soldier": 9}, {"swordsman": 2})
    state.seat("bob").standing.defend_use = "none"
    turn = scripted_turn(state, "ann", "MOVE A1 B1\nATTACK B1 UNTIL 1")
    turn.scripted["attack:0"] = [5, 5, 5, 1, 5, 5]
    war.war(turn)
    battle_event = next(e for e in turn.rec.events if e.code == "battle")
    assert battle_event.dice == (5, 5, 5, 1, 5, 5)


def test_walls_count_for_the_hex_owner_only() -> None:
    """Project chart: "Walls ... +1 die while defending" - the walls' owner defending."""
    state = war_position({"soldier": 9}, {"soldier": 2})
    state.hexes["B1"].projects = ["city", "walls"]
    turn = scripted_turn(state, "ann", "MOVE A1 B1\nATTACK B1 UNTIL 1")
    turn.scripted["attack:0"] = [5, 5, 5, 1, 5, 5, 5]
    war.war(turn)
    battle_event = next(e for e in turn.rec.events if e.code == "battle")
    assert "r1 [5 5 5]/[1 5 5 5]" in battle_event.text


def test_military_doctrine_is_read_from_the_game_option_in_war() -> None:
    """Military Doctrine: "one extra roll on all combat bonuses" (option military_doctrine,
    here 'bonus': no extra die for plain soldiers)."""
    state = war_position({"soldier": 9}, {"soldier": 2}, military_doctrine="bonus")
    state.seat("ann").advances = ["Military Doctrine"]
    turn = scripted_turn(state, "ann", "MOVE A1 B1\nATTACK B1 UNTIL 1")
    turn.scripted["attack:0"] = [5, 5, 5, 1, 5, 5]
    war.war(turn)
    assert "r1 [5 5 5]/[1 5 5]" in turn.rec.events[-1].text
    state = war_position({"soldier": 9}, {"soldier": 2})
    state.seat("ann").advances = ["Military Doctrine"]
    turn = scripted_turn(state, "ann", "MOVE A1 B1\nATTACK B1 UNTIL 1")
    turn.scripted["attack:0"] = [5, 5, 5, 5, 1, 5, 5]
    war.war(turn)
    assert "r1 [5 5 5 5]/[1 5 5]" in turn.rec.events[-1].text


def test_a_failed_attack_loses_the_attacking_army() -> None:
    """Combat step 4: "If any side has remaining units ... repeat steps 2 and 3." - until the
    attacker is destroyed, when the defender keeps its hex."""
    state = war_position({"soldier": 1}, {"soldier": 1})
    turn = scripted_turn(state, "ann", "MOVE A1 B1\nATTACK B1")
    turn.scripted["attack:0"] = [5, 5, 5, 1, 5, 5]
    war.war(turn)
    assert state.units("B1", "ann").military() == 0
    assert state.hexes["B1"].owner == "bob"
    assert results(turn)[1] == ("done", "the attack failed: your army was destroyed")


def test_a_battle_runs_until_one_side_is_gone_by_default() -> None:
    """Combat step 4: "If any side has remaining units and the attacker still wishes to fight,
    repeat steps 2 and 3." Decision (docs/rules/temples-and-swords.md, "How long"): option
    battle_length, default 'attacker': no limit on rounds but the attacker's UNTIL."""
    state = war_position({"soldier": 2}, {"soldier": 2})
    assert state.options["battle_length"] == "attacker"
    turn = scripted_turn(state, "ann", "MOVE A1 B1\nATTACK B1")
    turn.scripted["attack:0"] = [5] * 6 * 7 + [1, 1, 5]
    war.war(turn)
    battle_event = next(e for e in turn.rec.events if e.code == "battle")
    assert battle_event.text.count(" r") == 8 and "at most" not in battle_event.text
    assert state.hexes["B1"].owner == "ann"


def test_option_battle_length_d6_ends_a_battle_after_1d6_rounds() -> None:
    """Combat step 2: "Handle combat in the same way as Culture and Conquest", whose wars last
    at most 1D6 segments (issue 13: T&S battles ran 18 rounds). Option battle_length = d6."""
    state = war_position({"soldier": 2}, {"soldier": 2})
    state.options["battle_length"] = "d6"
    turn = scripted_turn(state, "ann", "MOVE A1 B1\nATTACK B1")
    turn.scripted["attack length:0"] = [2]
    turn.scripted["attack:0"] = [5] * 12
    war.war(turn)
    battle_event = next(e for e in turn.rec.events if e.code == "battle")
    assert "attacks bob (at most 1D6 [2] = 2 rounds)." in battle_event.text
    assert battle_event.dice == (2, *[5] * 12)
    assert state.hexes["B1"].owner == "bob"
    assert results(turn)[1] == (
        "partly done",
        "the battle ended after 2 rounds with both armies in the hex",
    )
