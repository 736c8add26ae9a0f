"""The rule clauses that orders and events cite, quoted from the Warpspawn civilization game
(its page is named ClassicalC), and the game options.

Where the project decides what the text leaves open, the clause says so; docs/rules/classical.md
lists every decision.
"""

from __future__ import annotations

from engine.ruleset import OptionSpec, SeatEdge
from engine.turns import MODE_OPTION, ROTATE_FIRST_OPTION, turn_limit_option

RULES: dict[str, str] = {
    "victory": '"The first player to accumulate 100+ Victory Points is the winner."',
    "map": '"The map is composed of irregular shaped Territory spaces. Spaces can be either '
    'Land or Sea."',
    "civilization": '"Each player must pick one Civilization."',
    "placement": '"Each player starts with 1 City placed in one territory of their choice. '
    'Players may not place within 2 spaces of another City."',
    "produce": '"For a Territory to produce, it must have a Villages Token or City Token on it. '
    "Put 1 Resource token in each of your Territories (except for Salt) of the type it "
    'normally produces" and "Each City also produces 1 Gold."',
    "upkeep": '"Each Fleet and Army and City requires 1 Food. ... Unfed Units are discarded. A '
    'city will be reduced to a village by famine."',
    "monument": '"You may build a Monument in a City you control. To do this, you must use up 2 '
    'Food and 1 Stone plus any 1 resource for every other Monument already located in that city."',
    "religion": '"You cannot Build more total Monuments than 1 + your Level in Religion."',
    "upgrade": '"You may convert a Villages Token into a city token. To do this, you must use up '
    '2 Luxuries and 1 Stone. Max 1 city per space."',
    "settle": '"You may build 1 Villages Token for free each turn. Villages are placed in empty '
    'Land spaces next to spaces occupied by your cities, villages, or fleets."',
    "extra_village": '"You may place additional villages Tokens (1 max per space) but each extra '
    "village placed in a turn requires you to use up 1 Food or Luxury Resource and 1 Wood or "
    'Stone Resource."',
    "move": '"An Army may move 2 Spaces. A Fleet may move 4 Spaces. Units may stack. Armies may '
    'move through friendly Fleets at no movement cost. You cannot move though enemy held spaces."',
    "battle": '"Each side rolls 1D8 and adds their Military level (if on land) or Nautical level '
    '(if at sea). The lower roll discards 1 unit. Defender wins ties."',
    "capture": '"If the defender loses all his units, and then the settlement is also defeated, '
    'the settlement (village or city) is captured by the invader."',
    "recruit": '"Each Army requires you to use up 1 Iron. Each Fleet Requires you to use up 1 '
    'Wood."',
    "unit_limit": '"You cannot Build more Units than 1 + your Level in Government + the number '
    'of cities you control."',
    "unit_place": '"All Armies must start in cities. All Fleets must start in Sea spaces '
    'adjacent to cities."',
    "research": '"You get one free roll on the Research Table. Get 1 extra roll for every level '
    "in Science you have. You may pay 1 resource of any type to get an extra roll. You may pay 2 "
    'resources of any type to get a second extra roll." ...',
    "level": '"When the number of research points you have in a trait exceeds your level in '
    'that trait by one, you gain 1 level in that trait"',
    "score": '"Gain 1 Victory Point (VP) for every Monument you control. Gain 1 VP equal to your '
    'current level in the Arts."',
    "feed": "Upkeep (decision): what is fed first when food runs short, by the FEED standing "
    "order; cities, armies, fleets unless changed",
    "setup_turn": "Setup (decision): CIVILIZATION and CITY are the orders of the setup turn; "
    "the other orders wait for the first round",
}


OPTIONS: tuple[OptionSpec, ...] = (
    MODE_OPTION,
    OptionSpec(
        "map_size",
        "normal",
        "territories a seat: small 7, normal 9, large 12",
        choices=("small", "normal", "large"),
    ),
    OptionSpec(
        "land_share", 55, "percent of the territories that are land", minimum=30, maximum=80
    ),
    OptionSpec(
        "map_seed",
        0,
        "draw the map from this number instead of the game seed (a rematch on the same map; "
        "0: the game seed)",
        minimum=0,
        maximum=2**62,
    ),
    OptionSpec(
        "civilizations",
        "choice",
        "choice: each seat picks one by mail, in seat order when two want the same; random: "
        "dealt at setup",
        choices=("choice", "random"),
    ),
    OptionSpec(
        "first_player",
        "seats",
        "seats: play in the order the seats were listed (the text's 'oldest player goes "
        "first'); random: an order drawn at setup",
        choices=("seats", "random"),
    ),
    ROTATE_FIRST_OPTION,
    OptionSpec(
        "victory_points", 100, "VP that win the game (the text: 100)", minimum=1, maximum=10000
    ),
    OptionSpec(
        "same_round_win",
        "first",
        "first: the first seat in turn order to reach the VP wins at once; round: the round "
        "is finished and the most VP among those who reached it wins (ties share)",
        choices=("first", "round"),
    ),
    OptionSpec(
        "monument_limit",
        "per turn",
        "per turn: at most 1 + Religion monuments built each turn; in all: at most 1 + "
        "Religion monuments controlled at once",
        choices=("per turn", "in all"),
    ),
    OptionSpec(
        "unit_limit",
        "per turn",
        "per turn: at most 1 + Government + cities units recruited each turn; in all: at most "
        "that many units at once",
        choices=("per turn", "in all"),
    ),
    OptionSpec(
        "settlement_defence",
        "fight",
        "fight: a settlement left without units rolls 1D8 + its owner's Military against each "
        "of the invader's units until it falls or they are gone; none: it falls at once",
        choices=("fight", "none"),
    ),
    OptionSpec(
        "sea_production",
        "fleets",
        "fleets: a sea space produces for the seat whose fleet is alone in it; none: sea "
        "spaces never produce (no settlement can stand at sea)",
        choices=("fleets", "none"),
    ),
    OptionSpec(
        "homeless",
        "out",
        "out: a seat with no settlement and no unit is out of the game; refound: it places its "
        "free village anywhere on empty land at its next Settle phase",
        choices=("out", "refound"),
    ),
    OptionSpec(
        "tokens",
        "full",
        "full: the map shows villages, cities and monuments; reduced: the text's Token "
        "Reduction, settlement tokens counted (1 village, 2 city, +1 a monument)",
        choices=("full", "reduced"),
    ),
    turn_limit_option("the most VP"),
)

# `pbem balance --ruleset classical --games 1000 --seats 4`, without and with rotate_first = yes
# (docs/rules, Balance): the seat that plays first wins this share of the games.
FIRST_SEAT_EDGE = SeatEdge(0.402, 4, "rotate_first", "yes", evened=0.219)
