"""The rule clauses that orders and events cite, quoted from "Culture & Conquest" (Lloyd
Krassner, 1999-2000).

Where the project completes or decides something the text leaves open, the clause says so
(docs/rules/culture-and-conquest.md lists every decision).
"""

from __future__ import annotations

from engine.ruleset import OptionSpec, SeatEdge
from engine.turns import MODE_OPTION, ROTATE_FIRST_OPTION, turn_limit_option

RULES: dict[str, str] = {
    "victory": 'Victory Conditions: "Be the first to build 3+ Wonders and learn 15+ Advances. '
    'You do not have to be in control of the Wonders at the end of the game."',
    "setup": 'Set Up: "Each Player starts with 10 Populations and 1 City. Randomly determine '
    'your Culture by rolling on the Culture Table. Determine Turn Order by rolling high."',
    "increase": 'Population Increase Phase: "Gain 1D6-2 Population. Minimum = 0. These '
    'Populations start as Agriculture specialists." Religion: "Population Phase: add 1 to roll"',
    "distribution": 'Population Distribution Phase: "Assign Populations to one of the five '
    "specialty categories: Army, Agriculture, Trade, Labor, and Scholars. A single category "
    'cannot be increased or decreased by more than 6 Populations."',
    "army_cost": 'Population Distribution Phase: "It costs 1 Gold to raise an Army."',
    "scholar_limit": 'Population Distribution table: "Scholars 1 Food 1 Research Roll 1 per City"',
    "leader": 'Gain Leader Phase: "On a roll of 1-2 on D6 gain 1 Leader. Choose randomly." '
    'Leaders: "5-6 Reroll"',
    "harvest": 'Harvest Phase: "Produce 3 Food per Agriculture Population. Food is not stored '
    'unless you have the Pottery Advance." Irrigation: "Food +1 per Agricultural Population"',
    "disaster": 'Disaster Check Phase: "On a roll of 1 on D6 suffer from one random Disaster." '
    'Disasters: "If a Culture experiences a Disaster it skips its build phase and War phase."',
    "upkeep": 'Upkeep Phase: "Each Population consumes 1 Food. Armies are paid 1 Gold each. If '
    'upkeep is not met, those Populations are lost."',
    "old_age": 'Upkeep Phase: "Roll 1D6 for each Leader, on a roll of 1, the Leader dies of old '
    'age."',
    "attack": 'War Phase: "A Player may attack one opponent."',
    "allies": 'War Phase: "Other Players may send Army and Generals to serve on either side."',
    "segments": 'War Phase: "The War may last a maximum of 1D6 segments. In each segment each '
    'Player rolls 3 dice. ... Each roll of 1 causes your opponent to lose 1 Army."',
    "stop": 'War Phase: "The War may stop if the defender surrenders or the attacker gives up."',
    "tribute": 'War Phase: "If the defender loses all of his Army, the winner gets to take one '
    "form of tribute: All of the loser's Gold, or 1 City (which may contain a Wonder), or 2D6 "
    'Population."',
    "trade": 'Trade Phase: "The active Player may trade Gold, Food, Labor, Populations, Cities, '
    'Advances, Leaders, and promises with other Players."',
    "build": 'Build Phase: "Each Labor specialist produces 1 Labor point per turn. Assign Labor '
    'points to a City or Wonder under construction. Labor points not assigned are lost."',
    "city": 'Build Phase: "Build 1 City for 50 Labor and 25 Gold. Name the City."',
    "wonder": 'Build Phase: "Build 1 Wonder for 100 Labor and 50 Gold. Only 1 Wonder per City." '
    "Wonder Table: each Wonder requires its Advance (Sculpture read as Art and Sculpture, "
    "Currency as Coinage); Sphinx and Stonehenge cost the same as a City",
    "research": 'Research Phase: "Roll 2D6 per scholar, thinker, or research generator you have. '
    'On a roll of 11 or 12 gain one random Advance."',
    "income": 'Income Phase: "Collect Gold: 1 per Trade Population and 1 per City." Coinage and '
    'Navigation: "Gold +1 per City per turn"',
    # The map version (option map)
    "map_setup": 'Map Version: "Put initial Populations and City into one territory."',
    "placing": 'Map Version: "Place new Populations into any territory you control. Spread new '
    'Populations out as much as possible."',
    "map_losses": 'Map Version: "Populations destroyed by Disaster are removed from as few spaces '
    'as possible."',
    "border": 'Map Version: "Barbarians and Civil War rebels will attack a border territory."',
    "one_city": 'Map Version: "One City per territory. One Wonder per City."',
    "move": 'Map Version: "Add a Move Phase after War Phase. Populations can move one space per '
    'turn."',
    "navigation": 'Map Version: "Players with Navigation can move Populations 4 territories by '
    'sea per turn. They must end the turn in a coastal space."',
    "map_attack": 'Map Version: "Armies can attack Army in adjacent spaces."',
    "capture": 'Map Version: "An Army can move into an opponents territory that does not contain '
    'an Army. Take control of all tokens in that territory. Captured Leaders are destroyed."',
}


OPTIONS: tuple[OptionSpec, ...] = (
    MODE_OPTION,
    ROTATE_FIRST_OPTION,
    OptionSpec(
        "starting_gold",
        0,
        "gold each culture starts with (the text is silent)",
        minimum=0,
        maximum=1000,
    ),
    OptionSpec(
        "unique_wonders",
        True,
        "each Wonder can be built once in the game, by one culture (no: every culture may "
        "build each Wonder once)",
    ),
    OptionSpec(
        "surrender_pays_tribute",
        True,
        "a defender who surrenders pays the winner's tribute as if he had lost all his Army "
        "(no: surrender only stops the war)",
    ),
    OptionSpec(
        "map",
        "none",
        "none: the game as written, without a map; generated: the map version on a generated "
        "map of land territories and sea",
        choices=("none", "generated"),
    ),
    turn_limit_option("the most Wonders built then the most Advances"),
)

# `pbem balance --ruleset cnc --games 1000 --seats 4`, without and with rotate_first = yes
# (docs/rules, Balance): the seat that plays first wins this share of the games.
FIRST_SEAT_EDGE = SeatEdge(0.338, 4, "rotate_first", "yes", evened=0.240)
