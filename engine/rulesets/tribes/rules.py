"""The rule clauses that orders and events cite: the Tribes fragment's own words, and the
project's completions, each marked "(completion)" so a player can tell them apart.

docs/rules/tribes.md gives every completion with its reason.
"""

from __future__ import annotations

from dataclasses import replace

from engine.ruleset import OptionSpec
from engine.turns import MODE_OPTION, turn_limit_option

RULES: dict[str, str] = {
    "attack_roll": 'Attack Modifiers: "During battle resolution, an attack roll of a 4 or '
    'greater kills the target."',
    "offence": 'OFFENSIVE MODIFIERS: "Population Fortress (+1); Melee Black Smith (+1 / +2), '
    "Fortress (+1), Stables: Mounted Beast (+1 / +2); Ranged Refinery (+1 / +2), Fortress "
    '(+1); Ship none"',
    "defence": 'DEFENSIVE MODIFIERS: "Population Fortress (-1); Melee (starts with a -1 '
    "modifier) Black Smith (-1 / -2) Fortress (-1) Stables: Mounted Beast (-1 / -2); Ranged "
    'Fortress (+1); Ship" (the ranged entry is read as -1; option ranged_fortress)',
    "exclusive": '"Beast upgrades and Fortress upgrades are mutually exclusive"; "the fortress '
    'bonus does NOT stack with the beast bonus."',
    "combine": '"the attacker may combine any of these attack rolls ... The final attack '
    "strength ... will be the highest attack roll of the units attacking together, plus one "
    'for every unit that joined the attack."',
    "mage": 'The example: "The attack roll is then 4 + 3 (for the mage bonus)" (option mage_bonus)',
    "bribe_phase": 'Bribing: "Bribing is done in phase three. A player must have a unit '
    'adjacent to the hex that will be bribed."',
    "bribe_all": 'Bribing: "Each unit (military and population) must be bribed ... (The '
    "building doesn't count).\"",
    "bribe_cost": 'Bribing: "(You cannot bribe someone with more fame points). If the player '
    "is tied with you in fame, the cost is 5 money per unit. For every fame point above the "
    'opponent ... the cost per unit is one less money." (0 at the least: completion; option '
    "bribe_floor)",
    "bribe_hunger": 'Bribing: "If the player you wish to bribe has a hunger chip on their tribe '
    'card, then the cost to bribe per unit is one less money."',
    "bribe_ships": 'Bribing: "Only a ship adjeacent to another ship may bribe a ship. Ships '
    "can't bribe land, and land can't bribe ships.\"",
    "bribed_pop": 'Bribing: "Bribed population units may not do work that turn ... However, '
    'bribed population units also do not need to be fed on the turn they were bribed."',
    "barracks": 'Barracks: "Barracks cost one stone or wood plus one work to build. For each '
    "barracks a player owns, he may support 6 military units. Specifically up to six melees, "
    'ranged, or magic units. The building is built in phase 3."',
    "support": 'Barracks: "In phase 4, a player is required to remove military units until he '
    'has not exceeded his maximum allowed by his barracks."',
    "owned": 'Barracks: "A building is only legally owned by a player if the player has either '
    'a military or population unit in the hex with the barracks."',
    "convert": 'Barracks: "one population unit that has not spent his work for that turn must '
    "be taken from the board off of a hex with a barracks, as well as 3 money ... Then any "
    "combination of 3 military units (melee, ranged or magic) may be placed in that same "
    'hex."',
    "sacrifice": 'Barracks: "If a player has less than 3 money ... he may sacrifice a '
    "population unit for all of his money, getting a return of one or two military units ... "
    'If a player has 3 money, then the player must use all three money for military units."',
    "roads_same_turn": 'Barracks: "Military units may then use roads on that very turn."',
    "blacksmith": 'Blacksmith: "A blacksmith costs either one wood or stone and one work in the '
    'hex the player wants to build. A blacksmith is required for two upgrades."',
    "buildings": "Buildings (completion): each of the 10 buildings costs its materials and the "
    "work of one population unit in its hex, in phase 3; one of each kind a hex",
    "upgrades": "Upgrades (completion): Melee I/II at a Blacksmith (ore), Beasts I/II at "
    "Stables (food), Ranged I/II at a Refinery (ore); level II after level I",
    "move": "Movement (completion): phase 1; a land unit moves one hex, or up to three along "
    "road hexes; a ship moves up to two sea hexes; no unit enters another tribe's hex",
    "attack": "Battle (completion): phase 2; your military in a hex attack an adjacent hex "
    "held by another tribe, land against land and ships against ships",
    "work": "Work (completion): phase 4; every population unit that has not spent its work "
    "works its hex",
    "food": "Food (completion): phase 4; every population unit eats one food; a tribe that "
    "cannot feed them all takes a hunger chip and loses 1 fame",
    "grow": "Growth (completion): phase 4; a tribe with no hunger chip turns each 3 food left "
    "over into a population unit, at most 2 a turn, in a hex it holds",
    "fame": "Fame (completion): +1 for the first building of each kind, +1 for each battle "
    "won, +1 a turn for each worked Shrine; -1 for a hunger chip, -1 for a hex lost",
    "victory": "Victory (completion): at the end of a round the tribe with the most fame wins "
    "if it has the fame of option fame_to_win (ties share); so does the last tribe left",
    "rotation": "Order of play (completion): the tribe that played first plays last the next round",
    "map": "Map (completion): hexes named by column letter and row number; land (with wood, "
    "stone, ore or game sites) and sea",
}


OPTIONS: tuple[OptionSpec, ...] = (
    MODE_OPTION,
    OptionSpec(
        "mage_bonus",
        3,
        "attack bonus of a magic unit: the text's example adds '+3 (for the mage bonus)', "
        "the tables give magic no modifier at all (0)",
        minimum=0,
        maximum=3,
    ),
    OptionSpec(
        "ranged_fortress",
        "minus",
        "defence of ranged units in a Fortress: 'minus' reads the text's 'Ranged Fortress "
        "(+1)' as -1 like every other defensive entry; 'plus' takes +1 as printed",
        choices=("minus", "plus"),
    ),
    OptionSpec(
        "bribe_floor",
        0,
        "least bribe price a unit: 0 follows the text ('For every fame point above the "
        "opponent ... the cost per unit is one less money': five points above, 5 minus 5, "
        "a unit is free); 1 or more keeps a bribe from ever being free",
        minimum=0,
        maximum=5,
    ),
    OptionSpec(
        "fame_to_win",
        15,
        "fame points that win at the end of a tribe's turn (completion)",
        minimum=1,
        maximum=100,
    ),
    replace(turn_limit_option("the most fame"), default=60),
    OptionSpec(
        "starting_money",
        5,
        "money on each tribe card at the start (completion)",
        minimum=0,
        maximum=1000,
    ),
)
