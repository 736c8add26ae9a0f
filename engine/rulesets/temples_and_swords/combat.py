"""Battles: rounds of damage rolls, each 1 destroying an enemy unit (the Culture and Conquest
way the text points to), with advanced units, walls and Military Doctrine adding dice."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.dice import Dice
from engine.rulesets.temples_and_swords.model import MILITARY, Units

BASE_DICE = 3
ADVANCED_DICE = {("swordsman", True): 4, ("swordsman", False): 4, ("horseman", True): 4}
MAX_ROUNDS = 500  # a safety stop; a round with six or more dice ends a battle long before


@dataclass
class Side:
    units: Units  # the side's units in the hex, changed in place as they die
    use: str  # 'best', 'none' or a unit type: which advanced units to use in each roll
    losses: list[str]  # the order in which other units are lost
    attacking: bool
    walls: bool = False  # defending a hex with walls
    doctrine: str = ""  # '' without Military Doctrine, else the option: 'always' or 'bonus'
    lost: int = 0
    lost_kinds: dict[str, int] = field(default_factory=dict)


@dataclass
class RoundRecord:
    attacker_dice: list[int]
    defender_dice: list[int]  # empty when the defender had nothing left to roll with


@dataclass
class Battle:
    rounds: list[RoundRecord]
    attacker_won: bool
    defender_won: bool  # neither: the attacker stopped (UNTIL) or the rounds ran out
    out_of_rounds: bool = False  # option battle_length d6: the rounds ran out

    def dice_text(self) -> str:
        parts = []
        for number, record in enumerate(self.rounds, 1):
            text = f"r{number} {_show(record.attacker_dice)}"
            if record.defender_dice:
                text += f"/{_show(record.defender_dice)}"
            parts.append(text)
        return " ".join(parts)

    def all_dice(self) -> tuple[int, ...]:
        return tuple(d for r in self.rounds for d in (*r.attacker_dice, *r.defender_dice))


def _show(dice: list[int]) -> str:
    return "[" + " ".join(map(str, dice)) + "]"


def chosen_kind(side: Side) -> str:
    """The advanced unit type the side declares for this roll, or ''."""
    if side.use == "none":
        return ""
    if side.use != "best":
        return side.use if side.units.get(side.use) else ""
    for kind in ("swordsman", "horseman"):
        if side.units.get(kind) and (kind, side.attacking) in ADVANCED_DICE:
            return kind
    return ""


def dice_count(side: Side, kind: str) -> int:
    count = ADVANCED_DICE.get((kind, side.attacking), BASE_DICE) if kind else BASE_DICE
    has_bonus = count > BASE_DICE or side.walls
    if side.walls:
        count += 1
    if side.doctrine == "always" or (side.doctrine == "bonus" and has_bonus):
        count += 1
    return count


def take_losses(side: Side, hits: int, used: str) -> None:
    """Destroy `hits` units: all of the type used in this roll first, then in the side's order."""
    order = ([used] if used else []) + [k for k in side.losses if k != used]
    order += [k for k in MILITARY if k not in order]
    for _ in range(hits):
        kind = next((k for k in order if side.units.get(k)), "")
        if not kind:
            return
        side.units.add(kind, -1)
        side.lost += 1
        side.lost_kinds[kind] = side.lost_kinds.get(kind, 0) + 1


def fight(
    attacker: Side, defender: Side, dice: Dice, until: int = 0, most_rounds: int = 0
) -> Battle:
    """Steps 2 to 4 of Combat: attacker rolls, defender rolls, repeat while both have units
    and the attacker wishes (until it has lost `until` units, if given), and for at most
    `most_rounds` rounds if given (option battle_length)."""
    rounds: list[RoundRecord] = []
    limit = min(most_rounds or MAX_ROUNDS, MAX_ROUNDS)
    out_of_rounds = False
    while attacker.units.military() and defender.units.military():
        if until and attacker.lost >= until:
            break
        if len(rounds) >= limit:
            out_of_rounds = True
            break
        used_a, used_d = chosen_kind(attacker), chosen_kind(defender)
        attack_roll = dice.roll(dice_count(attacker, used_a))
        take_losses(defender, attack_roll.count(1), used_d)
        defend_roll: list[int] = []
        if defender.units.military():
            defend_roll = dice.roll(dice_count(defender, used_d))
            take_losses(attacker, defend_roll.count(1), used_a)
        rounds.append(RoundRecord(attack_roll, defend_roll))
    return Battle(
        rounds,
        attacker_won=not defender.units.military() and attacker.units.military() > 0,
        defender_won=not attacker.units.military(),
        out_of_rounds=out_of_rounds,
    )
