"""The rule clauses that orders and events cite, quoted from the text of Medieval
Micromanager (Ernest Pazera, version 2, 2010), and the game options.

The text is a turn sequence only. Where the project completes it (cards, setup, goal, the
decisions a table makes on the spot), the clause says "Completion:";
docs/rules/medieval-micromanager.md gives every completion with its reason.
"""

from __future__ import annotations

from engine.ruleset import OptionSpec
from engine.turns import MODE_OPTION, turn_limit_option

RULES: dict[str, str] = {
    "remove_units": 'Remove Units From Buildings: "On the first turn, no units will have been '
    "placed on buildings, and so this phase can be skipped. On all subsequent turns, units will "
    "be on the building in which they worked last turn, and at the start of the turn must be "
    'removed in order to begin your turn."',
    "destroyed": 'Remove Destroyed Buildings: "A player must remove all buildings with five '
    'damage or depletion tokens on them."',
    "break_ground": 'Break Ground on New Building: "Each turn, the player may break ground on a '
    'new building. ... placing five damage tokens on the card."',
    "one_action": 'Perform Activities: "Each unit may perform one action in a building."',
    "tools": 'Perform Activities: "After a school has been built, a tool may be used to double '
    'the productivity of the unit."',
    "repair": 'Building/Repairing: "a worker spends his action building/repairing the '
    "structure, and removed one damage token (two if using a tool). Most buildings also "
    'require lumber in order to build/repair, 1 lumber for each damage token removed."',
    "depletion_stays": 'Building/Repairing: "Depletion tokens cannot be removed."',
    "raw": "Producing Commodities: \"Raw materials don't cost any other type of commodity, just "
    'actions"',
    "places": 'Perform Activities: "An fully undepleted building allows for 5 units to work on '
    'it a turn. Each point of depletion reduces this by one."',
    "damaged": 'Perform Activities: "A damaged building cannot produce commodities, and must be '
    'fully repaired first."',
    "academy": 'Perform Activities: "setting a unit to attack an enemy, which is done at an '
    'undamaged Academy"',
    "buy": 'Perform Activities: "buying a new unit, which costs 5 Grain." Completion: the '
    "buying unit spends its action at a House with no damage token; the new unit acts from "
    "the next turn",
    "storage": 'Eliminate Surplus Commodities: "He can store 10 Grain per Granary, and 10 other '
    "commodities per Warehouse. For each damage token in the storage structure, the number of "
    'commodities stored is reduced by 2."',
    "depletion": 'Check for Depletion: "For each raw material building that produced '
    "commodities this turn, roll one six sided die. If a 1 shows up, that building gets a "
    'depletion token."',
    "attack_split": 'Resolve Attack(s): "Each unit may only attack a single player, and the '
    "division of how many units will attack which player must be made prior to resolving any "
    'attack."',
    "attack_twice": 'Resolve Attack(s): "A player cannot attack another player twice in a '
    'single turn."',
    "swords": 'Resolve Attack(s): "The attacking player may only allocate one sword per '
    'attacking unit. Swords are eliminated from play once used."',
    "shields": 'Resolve Attack(s): "he decides how many shields to shields to use in defense. '
    '... Shields are eliminated from play once used."',
    "loot_raze": 'Resolve Attack(s): "If all defenders are eliminated, and there is still an '
    'excess, then the attacker decides whether to loot or raze."',
    "housing": 'Eliminate Surplus Units: "A House must exists for every 5 units. ... Units in '
    'excess of the housing capacity are eliminated."',
    "goal": "Completion (the text has no goal): the first seat with as many Cathedrals "
    "standing undamaged as the game's option `cathedrals` at the end of a round wins",
    "out": "Completion: a seat with no unit left can never act again and is out of the game",
}


LOOT_OPTION = OptionSpec(
    "loot",
    "kind",
    'what loot takes ("one commodity at random"): kind, all the defender has of one kind '
    "drawn at random; piece, one piece drawn at random",
    choices=("kind", "piece"),
)

OPTIONS: tuple[OptionSpec, ...] = (
    MODE_OPTION,
    OptionSpec(
        "cathedrals",
        2,
        "Cathedrals standing undamaged at the end of a round that win the game",
        minimum=1,
        maximum=10,
    ),
    LOOT_OPTION,
    turn_limit_option("the most Cathedrals, then the most units"),
)
