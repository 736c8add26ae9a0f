"""Attack and defence: the fragment's modifier tables, its combined attack, and a battle.

The tables (rules "offence", "defence", "exclusive"), the 4+ kill (rule "attack_roll") and the
combined attack (rule "combine") are the fragment's words. How a battle runs round by round,
which unit stands in front and that defenders strike back are completions (rule "attack").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.dice import Dice
from engine.rulesets.tribes.model import GameState, Seat, Units

KILL = 4  # "an attack roll of a 4 or greater kills the target"
MAX_ROUNDS = 10  # completion: a battle that has not ended after ten rounds stops
# Who stands in front when the modifiers tie: the fighters before the people.
FRONT_ORDER = ("melee", "ranged", "magic", "population", "ship")


def offence(state: GameState, seat: Seat, kind: str, in_fortress: bool) -> int:
    """The attack modifier of one unit (OFFENSIVE MODIFIERS; magic: option mage_bonus)."""
    fortress = 1 if in_fortress else 0
    if kind == "population":
        return fortress
    if kind == "melee":
        return seat.melee + _beast_or_fortress(seat, fortress)
    if kind == "ranged":
        return seat.ranged + fortress
    if kind == "magic":
        return int(state.options["mage_bonus"])
    return 0  # "Ship none"


def defence(state: GameState, seat: Seat, kind: str, in_fortress: bool) -> int:
    """The defence modifier of one unit (DEFENSIVE MODIFIERS): negative helps it survive."""
    fortress = 1 if in_fortress else 0
    if kind == "population":
        return -fortress
    if kind == "melee":
        return -1 - seat.melee - _beast_or_fortress(seat, fortress)
    if kind == "ranged":
        sign = 1 if state.options["ranged_fortress"] == "plus" else -1
        return sign * fortress
    return 0  # magic and ships: no defensive modifier in the tables


def _beast_or_fortress(seat: Seat, fortress: int) -> int:
    """ "Beast upgrades and Fortress upgrades are mutually exclusive": a tribe with mounted
    beasts fights with the beast bonus, in a fortress or not; without, with the fortress's."""
    return seat.beasts if seat.beasts else fortress


def combined_strength(rolls: Sequence[int], modifiers: Sequence[int]) -> int:
    """ "the highest attack roll of the units attacking together, plus one for every unit that
    joined the attack": each unit's roll with its modifier, the best of them, +1 for each
    other unit of the group."""
    best = max(roll + modifier for roll, modifier in zip(rolls, modifiers, strict=True))
    return best + len(rolls) - 1


def kills(strength: int, target_defence: int) -> bool:
    """The target dies when the attack strength, after its defensive modifiers, is 4+."""
    return strength + target_defence >= KILL


@dataclass
class Fighter:
    kind: str
    attack: int
    guard: int  # defence modifier


@dataclass
class Side:
    seat: Seat
    fighters: list[Fighter]
    lost: int = 0

    def front(self) -> Fighter | None:
        return self.fighters[0] if self.fighters else None

    def fall(self) -> Fighter:
        self.lost += 1
        return self.fighters.pop(0)

    def left(self) -> Units:
        units = Units()
        for fighter in self.fighters:
            units.add(fighter.kind, 1)
        return units


def line_up(state: GameState, seat: Seat, units: Units, in_fortress: bool) -> Side:
    """The side's units, the hardest to kill in front (completion: a tribe shields its weak)."""
    fighters = [
        Fighter(
            kind, offence(state, seat, kind, in_fortress), defence(state, seat, kind, in_fortress)
        )
        for kind in FRONT_ORDER
        for _ in range(units.get(kind))
    ]
    fighters.sort(key=lambda f: (f.guard, FRONT_ORDER.index(f.kind)))
    return Side(seat, fighters)


@dataclass(frozen=True)
class Strike:
    """One side's strike in one round: who struck, its dice, how many it killed."""

    round: int
    seat: str
    groups: int
    dice: tuple[int, ...]
    killed: int


def fight(attacker: Side, defender: Side, group: int, until: int, dice: Dice) -> list[Strike]:
    """Rounds of battle. In each round both sides strike at once (completion): the attacker
    in groups of `group` (0: all together), the defenders in groups just large enough to
    reach the attacker's front unit; the dead of both fall at the end of the round. Until one
    side is gone, the attacker has lost `until` units (0: fight on), or MAX_ROUNDS."""
    strikes: list[Strike] = []
    for number in range(1, MAX_ROUNDS + 1):
        ours = _strike(number, attacker, defender, group, dice)
        theirs = _strike(number, defender, attacker, _needed(attacker), dice)
        for strike, target in ((ours, defender), (theirs, attacker)):
            strikes.append(strike)
            for _ in range(strike.killed):
                target.fall()
        if not attacker.fighters or not defender.fighters or (until and attacker.lost >= until):
            break
    return strikes


def _needed(target: Side) -> int:
    """Completion: the defenders strike back in groups one larger than the attacking front
    unit's negative defence, so that their best roll can reach it (a -2 front: groups of 3)."""
    front = target.front()
    return 1 - min(0, front.guard) if front else 1


def _strike(number: int, hitting: Side, target: Side, group: int, dice: Dice) -> Strike:
    """Every unit of `hitting` rolls at once ("roll dice simultaneously"); then each group of
    `group` units (0: all together) strikes the target's front unit, the next group the unit
    behind it once that one is dead, and so on. The dead fall after the round (`fight`)."""
    fighters = list(hitting.fighters)
    rolls = dice.roll(len(fighters))
    size = group or len(fighters)
    killed = 0
    for start in range(0, len(fighters), size):
        if killed >= len(target.fighters):
            break
        members = fighters[start : start + size]
        strength = combined_strength(rolls[start : start + size], [m.attack for m in members])
        if kills(strength, target.fighters[killed].guard):
            killed += 1
    groups = -(-len(fighters) // size)
    return Strike(number, hitting.seat.name, groups, tuple(rolls), killed)
