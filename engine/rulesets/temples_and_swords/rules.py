"""The rule clauses that orders and events cite, quoted from "Temples and Swords v1.1".

Where the project completes or decides something the text leaves open, the clause says so
(docs/rules/temples-and-swords.md lists every decision).
"""

from __future__ import annotations

from engine.ruleset import OptionSpec, SeatEdge
from engine.turns import MODE_OPTION, ROTATE_FIRST_OPTION, turn_limit_option

RULES: dict[str, str] = {
    "victory": 'Victory: "a player has 20 victory points (VP) or has destroyed or captured all '
    'enemy cities, armies and populations" (the text later says ten; option victory_points)',
    "setup": 'Setup: "Each player chooses a starting grassland hex and puts a city and 3 '
    'population points on that hex. No two starting hexes may be closer than three hexes"',
    "map": 'Setup: "Use a piece of hex paper and color equal numbers of squares green for '
    'grassland and yellow for desert." (the map of this game is generated; its hexes are named '
    "by column letter and row number)",
    "distribution": 'Population Distribution Phase: "Decide how many of your populations you '
    'wish to hire as laborers. All other populations are in basic form."',
    "upkeep": 'Upkeep Phase: "Expend one GP for each army and laborer population under your '
    'control."',
    "tech_rolls": 'Tech Phase: "Expend one GP per city to gain one tech roll each. Additionally, '
    "you can spend two GP per city to gain an additional tech roll ... you cannot gain more "
    'than two tech rolls per city."',
    "tech_points": 'Tech Phase: "1-3: 1 tech point, 4-5: 2, 6: 3"',
    "advance": 'Tech Phase: "If a player gains ten tech points, he may gain one random advance. '
    "Roll three times on the tech chart and choose one of the three. Alternatively, a player "
    'may gain an advance already gained by another player."',
    "move": 'War Phase: "You may move each of your armies one hex. If an army is located in a '
    "hex with a road [and] can move across two adjacent hexes with roads, you may move that "
    'army across those two hexes. Any horseman unit may move twice."',
    "attack": 'War Phase: "If you move any of your armies into a hex with any enemy cities, '
    'populations or armies, you may (but do not have to) attack those enemy holdings"',
    "combat": 'Combat: "Roll three dice. Destroy one enemy unit for every result of a one on a '
    'die."',
    "advanced_units": 'Combat: "Before each roll, if you still have advanced units in your '
    "force, you must declare ... that you want to use a specific type of special unit ... if "
    "you take any casualties this turn, you must destroy all units of that type before "
    'destroying any other type of unit."',
    "repeat": 'Combat step 4: "If any side has remaining units and the attacker still wishes to '
    'fight, repeat steps 2 and 3."',
    "capture": 'Combat step 5: "the victorious army may recieve control of the hex and all '
    "populations and cities in the hex if he has at least half as many units as the enemy "
    'populations."',
    "slaves": 'Combat step 5: "A victorious army may enslave populations equal to half the '
    "populations in the hex, rounded up. A victorious army may also not take more slaves than "
    'it has surviving units ... slaves must be taken as soon as the hex is captured."',
    "build": 'Build Phase: "All laborers produce one build point. These build points are used on '
    'projects in the hexes they occupy ... build points expended on projects are cumulative"',
    "slave_labor": 'Combat step 5: "A slave can create one labor point a turn in any hex it is '
    'located in."',
    "projects": 'Build Phase chart: "City 10 None; Road 3 None; Temple 5 Religion, City; Walls 3 '
    'Masonry, City; Marketplace 5 Coinage, City; Library 5 Literature, City" (Literature is '
    "read as Writing; option library_requires)",
    "units": 'Build Phase chart: "Soldier 2 City; Swordsman 2 City, Iron; Horseman 2 City, '
    'Equestrian" (Iron is read as Metal Working)',
    "masonry": 'Masonry: "Build points for Temples and Cities are reduced 20%"',
    "tax": 'Tax Phase: "Gain gold points equal to half the sum of all your basic populations. '
    'Also gain gold from all projects"',
    "disaster": 'Disaster Phase: "Roll 1d6. If 1 roll once on the Disaster chart and apply '
    'results"',
    "harvest": 'Harvest Phase: "For each basic population living in a grassland hex, gain two '
    'harvest points. For each basic population living in a desert hex, gain one"',
    "growth": 'Growth Phase: "If any hex has at least as many harvest points than populations, '
    "that hex gains one population. Maximum populations in a hex are six for grassland hexes "
    'and three for desert hexes."',
    "migration": 'Migration Phase: "If migration occurs, instead of adding a new population to '
    'the given hex, move one population to an adjacent hex of your choosing."',
    "own_hex": "Build Phase: laborers work in the hexes they occupy, which are your own hexes",
}


OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "victory_points",
        10,
        "VP that win at the end of a seat's turn: the text says 20 in its introduction and ten in "
        "its Victory section; the detailed section is the default",
        minimum=1,
        maximum=100,
    ),
    MODE_OPTION,
    ROTATE_FIRST_OPTION,
    OptionSpec(
        "library_effect",
        "roll",
        "what a Library gives: 'roll' (one extra tech roll a turn, the Writing note) or "
        "'point' (one free tech point a turn, the project chart)",
        choices=("roll", "point"),
    ),
    OptionSpec(
        "library_requires",
        "writing",
        "the advance a Library needs: the chart says Literature, which is not on the advance "
        "chart; 'writing' reads it as Writing, 'none' needs only a city",
        choices=("writing", "none"),
    ),
    OptionSpec(
        "military_doctrine",
        "always",
        "Military Doctrine's 'one extra roll on all combat bonuses': 'always' +1 die in every "
        "battle roll, 'bonus' +1 die only in rolls that already have a bonus (advanced units "
        "or walls)",
        choices=("always", "bonus"),
    ),
    OptionSpec(
        "marketplace",
        "hex",
        "what a Marketplace doubles: 'hex' all the gold of its hex (population tax and projects) "
        "or 'projects' only the city and road gold",
        choices=("hex", "projects"),
    ),
    OptionSpec(
        "migration",
        "growth",
        "who migrates: 'growth' (the hex's new population of this turn settles next door "
        "instead, so only a hex that earned growth migrates) or 'move' (one of its people "
        "moves, grown or not)",
        choices=("growth", "move"),
    ),
    OptionSpec(
        "starting_gold",
        5,
        "gold each seat starts with (the text is silent)",
        minimum=0,
        maximum=1000,
    ),
    OptionSpec(
        "battle_length",
        "attacker",
        "how long a battle lasts: 'attacker' as the text's combat step 4 (until one side is "
        "gone or the attacker stops, ATTACK ... UNTIL) or 'd6' also at most 1D6 rounds, as a "
        "Culture and Conquest war lasts at most 1D6 segments (the text's step 2 borrows its "
        "combat)",
        choices=("attacker", "d6"),
    ),
    turn_limit_option("the most VP"),
)

# `pbem balance --ruleset tns --games 1000 --seats 4`, without and with rotate_first = yes
# (docs/rules, Balance): the seat that plays first wins this share of the games.
FIRST_SEAT_EDGE = SeatEdge(0.395, 4, "rotate_first", "yes", evened=0.234)
