"""The orders of Classical and the parser that reads them from a seat's order lines.

Every line is read on its own. A line that cannot be read is a syntax problem with an example;
one that reads but breaks a rule is illegal and cites the rule. What the state before the turn
can decide is checked here; what depends on the turns played before (another seat's moves, the
resources produced) is checked again when its phase comes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from engine.order_lines import OrderBase, OrderLine, read_orders
from engine.problems import OrderError, illegal, syntax
from engine.records import ParsedOrders
from engine.rulesets.classical import legality
from engine.rulesets.classical.model import CITY, CIVILIZATIONS, VILLAGE, GameState
from engine.rulesets.classical.rules import RULES
from engine.words import match_word, normal, parse_count, plural, shown, spellings_of

Order = OrderBase  # every order of this game derives from it


@dataclass(frozen=True)
class Civilization(Order):
    names: tuple[str, ...]

    def understood(self) -> str:
        return "play the " + ", else the ".join(self.names)


@dataclass(frozen=True)
class FirstCity(Order):
    space: str

    def understood(self) -> str:
        return f"place your first city in {self.space}"


@dataclass(frozen=True)
class Feed(Order):
    classes: tuple[str, ...]

    def understood(self) -> str:
        return "when food runs short, feed " + ", then ".join(self.classes)


@dataclass(frozen=True)
class Monument(Order):
    space: str
    count: int

    def understood(self) -> str:
        return f"build {plural(self.count, 'monument')} in your city in {self.space}"


@dataclass(frozen=True)
class Upgrade(Order):
    space: str

    def understood(self) -> str:
        return f"make your village in {self.space} a city"


@dataclass(frozen=True)
class Settle(Order):
    space: str

    def understood(self) -> str:
        return f"place a village in {self.space}"


@dataclass(frozen=True)
class Move(Order):
    origin: str
    dest: str
    count: int  # 0: all
    fleets: bool

    def understood(self) -> str:
        what = "fleet" if self.fleets else "army"
        many = "fleets" if self.fleets else "armies"
        units = f"all your {many}" if not self.count else plural(self.count, what, many)
        return f"move {units} from {self.origin} to {self.dest}"


@dataclass(frozen=True)
class Recruit(Order):
    space: str
    count: int
    fleets: bool

    def understood(self) -> str:
        units = plural(self.count, "fleet") if self.fleets else plural(self.count, "army", "armies")
        return f"recruit {units} in {self.space}"


@dataclass(frozen=True)
class Research(Order):
    rolls: int  # paid extra rolls; -1: as many as what is left pays for
    pay: tuple[str, ...] = field(default=())

    def understood(self) -> str:
        rolls = (
            "as many paid research rolls as you can"
            if self.rolls < 0
            else plural(self.rolls, "paid research roll")
        )
        pay = f", paying with {', '.join(self.pay)} first" if self.pay else ""
        return f"buy {rolls}{pay}"


SETUP_ORDERS = (Civilization, FirstCity)
STANDING = (Feed,)

EXAMPLES = {
    "CIVILIZATION": "CIVILIZATION Romans, Egyptians",
    "CITY": "CITY F7",
    "FEED": "FEED CITIES ARMIES FLEETS",
    "MONUMENT": "MONUMENT F7",
    "UPGRADE": "UPGRADE G9",
    "SETTLE": "SETTLE H5",
    "MOVE": "MOVE F7 H5 2",
    "RECRUIT": "RECRUIT F7 2",
    "RESEARCH": "RESEARCH 2 PAY LUXURY STONE",
}
CIVILIZATION_NAMES = spellings_of(
    {name: (name.rstrip("s"),) for name in CIVILIZATIONS} | {"Celts": ("Celtic",)}
)
FEED_CLASSES = spellings_of({"cities": ("city",), "armies": ("army",), "fleets": ("fleet",)})
CATEGORY_NAMES = spellings_of(
    {
        "food": ("grain", "herds", "fish"),
        "luxury": ("luxuries", "wine", "olives"),
        "wood": (),
        "iron": (),
        "stone": (),
        "gold": ("trade",),
    }
)


@dataclass
class _Context:
    """What earlier lines of the same text said, for checks that span lines."""

    state: GameState
    seat: str
    seen: dict[str, int] = field(default_factory=dict)  # keyword -> line, for one-only orders
    settled: list[str] = field(default_factory=list)
    recruits: int = 0
    fleet_moves: bool = False


def parse(state: GameState, seat: str, text: str) -> ParsedOrders:
    context = _Context(state, seat)
    return read_orders(text, KEYWORDS, EXAMPLES, partial(_read_line, context=context), TOPICS)


def _read_line(line: OrderLine, context: _Context) -> Order:
    keyword, base = line.keyword, Order(line.line_no, line.text)
    setup_order = keyword in ("CIVILIZATION", "CITY")
    if setup_order != context.state.setup and keyword != "FEED":
        when = "only in the setup turn" if setup_order else "from the first round on"
        raise illegal(f"{keyword} is an order {when}", RULES["setup_turn"])
    try:
        return PARSERS[keyword](base, line.words, context)
    except OrderError as error:
        # A refused choice of the setup turn: the turn must wait for it, not choose for
        # the seat (a civilization drawn, a city placed) because one name was misspelt.
        error.choice = setup_order and _chosen(keyword, context.state)
        raise


def _chosen(keyword: str, state: GameState) -> bool:
    """Whether the setup turn plays the seat's own choice of `keyword` (CIVILIZATION is none
    when civilizations are dealt at random)."""
    return keyword == "CITY" or state.options["civilizations"] != "random"


def _space(word: str, context: _Context, example: str) -> str:
    label = word.upper()
    board = context.state.board
    if label in board.territories:
        return label
    col, digits = ord(label[:1] or "?") - ord("A"), label[1:]
    if digits.isascii() and digits.isdigit() and 0 <= col < board.width:
        row = int(digits) - 1
        if 0 <= row < board.height:
            owner = board.grid[row][col]
            raise illegal(
                f"{label} is a cell of territory {owner}; a territory is named by the label "
                f"written in it ({owner})",
                RULES["map"],
            )
    raise syntax(f"'{shown(word)}' is not a territory of this map", example)


def _one_only(keyword: str, base: Order, context: _Context, rule: str) -> None:
    if keyword in context.seen:
        raise illegal(f"{keyword} was already given on line {context.seen[keyword]}", RULES[rule])
    context.seen[keyword] = base.line_no


def _civilization(base: Order, words: list[str], context: _Context) -> Civilization:
    if not words:
        raise syntax("CIVILIZATION needs one or more names", EXAMPLES["CIVILIZATION"])
    names = [
        match_word(w, CIVILIZATION_NAMES, "civilization", EXAMPLES["CIVILIZATION"]) for w in words
    ]
    _one_only("CIVILIZATION", base, context, "civilization")
    return Civilization(base.line_no, base.text, tuple(dict.fromkeys(names)))


def _first_city(base: Order, words: list[str], context: _Context) -> FirstCity:
    if len(words) != 1:
        raise syntax("CITY takes one territory", EXAMPLES["CITY"])
    space = _space(words[0], context, EXAMPLES["CITY"])
    _refused(legality.refuse_first_city(context.state, space))
    _one_only("CITY", base, context, "placement")
    return FirstCity(base.line_no, base.text, space)


def _feed(base: Order, words: list[str], context: _Context) -> Feed:
    if not words:
        raise syntax("FEED lists cities, armies and fleets in the order fed", EXAMPLES["FEED"])
    named = [match_word(w, FEED_CLASSES, "thing to feed", EXAMPLES["FEED"]) for w in words]
    classes = list(dict.fromkeys(named))
    classes += [c for c in ("cities", "armies", "fleets") if c not in classes]
    return Feed(base.line_no, base.text, tuple(classes))


def _monument(base: Order, words: list[str], context: _Context) -> Monument:
    if len(words) not in (1, 2):
        raise syntax("MONUMENT takes a city and, if more than one, a count", EXAMPLES["MONUMENT"])
    space = _space(words[0], context, EXAMPLES["MONUMENT"])
    count = parse_count(words[1], "monuments", EXAMPLES["MONUMENT"]) if len(words) == 2 else 1
    if count < 1:
        raise syntax("build 1 or more monuments", EXAMPLES["MONUMENT"])
    spot = context.state.space(space)
    if spot.owner != context.seat or spot.settlement != CITY:
        raise illegal(f"{space} is not a city of yours", RULES["monument"])
    return Monument(base.line_no, base.text, space, count)


def _upgrade(base: Order, words: list[str], context: _Context) -> Upgrade:
    if len(words) != 1:
        raise syntax("UPGRADE takes one village", EXAMPLES["UPGRADE"])
    space = _space(words[0], context, EXAMPLES["UPGRADE"])
    spot = context.state.space(space)
    if spot.owner != context.seat or spot.settlement != VILLAGE:
        raise illegal(f"{space} is not a village of yours", RULES["upgrade"])
    return Upgrade(base.line_no, base.text, space)


def _settle(base: Order, words: list[str], context: _Context) -> Settle:
    if len(words) != 1:
        raise syntax("SETTLE takes one territory", EXAMPLES["SETTLE"])
    space = _space(words[0], context, EXAMPLES["SETTLE"])
    if space in context.settled:
        raise illegal(f"{space} is already settled on an earlier line", RULES["extra_village"])
    _refused(legality.refuse_settle(context.state, context.seat, space, context.settled))
    context.settled.append(space)
    return Settle(base.line_no, base.text, space)


def _move(base: Order, words: list[str], context: _Context) -> Move:
    if len(words) not in (2, 3):
        raise syntax("MOVE takes where from, where to and a count if not all", EXAMPLES["MOVE"])
    origin = _space(words[0], context, EXAMPLES["MOVE"])
    dest = _space(words[1], context, EXAMPLES["MOVE"])
    count = parse_count(words[2], "units", EXAMPLES["MOVE"]) if len(words) == 3 else 0
    state, seat = context.state, context.seat
    fleets = state.space(origin).sea
    have = state.space(origin).units_of(seat)
    if not have:
        raise illegal(f"you have no units in {origin}", RULES["move"])
    if count > have:
        raise illegal(f"you have {plural(have, 'unit')} in {origin}, not {count}", RULES["move"])
    refusal = legality.refuse_path(state, seat, origin, dest)
    if refusal and not (context.fleet_moves and not fleets):
        _refused(refusal)
    context.fleet_moves |= fleets
    return Move(base.line_no, base.text, origin, dest, count, fleets)


def _recruit(base: Order, words: list[str], context: _Context) -> Recruit:
    if len(words) not in (1, 2):
        raise syntax("RECRUIT takes a territory and a count", EXAMPLES["RECRUIT"])
    space = _space(words[0], context, EXAMPLES["RECRUIT"])
    count = parse_count(words[1], "units", EXAMPLES["RECRUIT"]) if len(words) == 2 else 1
    if count < 1:
        raise syntax("recruit 1 or more units", EXAMPLES["RECRUIT"])
    state, seat = context.state, context.seat
    _refused(legality.refuse_recruit_place(state, seat, space))
    limit = legality.unit_allowance(state, seat)
    context.recruits += count
    if context.recruits > limit:
        raise illegal(
            f"{plural(context.recruits, 'unit')} in all, but you may recruit {limit}",
            RULES["unit_limit"],
        )
    return Recruit(base.line_no, base.text, space, count, state.space(space).sea)


def _research(base: Order, words: list[str], context: _Context) -> Research:
    if not words:
        raise syntax("RESEARCH takes the number of paid rolls, or MAX", EXAMPLES["RESEARCH"])
    if words[0].upper() in ("MAX", "ALL"):
        rolls = -1
    else:
        rolls = parse_count(words[0], "paid research rolls", EXAMPLES["RESEARCH"])
    pay: list[str] = []
    rest = words[1:]
    if rest and normal(rest[0]) == "pay":
        rest = rest[1:]
        if not rest:
            raise syntax("PAY names kinds of resources", EXAMPLES["RESEARCH"])
        pay = [match_word(w, CATEGORY_NAMES, "resource", EXAMPLES["RESEARCH"]) for w in rest]
    elif rest:
        raise syntax(f"unexpected '{shown(' '.join(rest))}'", EXAMPLES["RESEARCH"])
    _one_only("RESEARCH", base, context, "research")
    return Research(base.line_no, base.text, rolls, tuple(dict.fromkeys(pay)))


def _refused(refusal: legality.Refusal | None) -> None:
    if refusal:
        raise illegal(refusal.message, RULES[refusal.rule])


PARSERS: dict[str, Callable[[Order, list[str], _Context], Order]] = {
    "CIVILIZATION": _civilization,
    "CITY": _first_city,
    "FEED": _feed,
    "MONUMENT": _monument,
    "UPGRADE": _upgrade,
    "SETTLE": _settle,
    "MOVE": _move,
    "RECRUIT": _recruit,
    "RESEARCH": _research,
}
KEYWORDS = spellings_of(
    {
        "CIVILIZATION": ("CIVILISATION", "CIV"),
        "CITY": ("START", "PLACE"),
        "FEED": ("UPKEEP",),
        "MONUMENT": ("MONUMENTS", "BUILD"),
        "UPGRADE": ("CONVERT",),
        "SETTLE": ("VILLAGE",),
        "MOVE": (),
        "RECRUIT": ("RAISE",),
        "RESEARCH": ("ROLLS",),
    }
)
# Words that belong to one order, so that a line starting with one is told which order to try.
TOPICS = {name: "CIVILIZATION" for name in CIVILIZATION_NAMES} | {
    "army": "RECRUIT",
    "armies": "RECRUIT",
    "fleet": "RECRUIT",
    "fleets": "RECRUIT",
    "village": "SETTLE",
    "city": "UPGRADE",
}
assert set(KEYWORDS.values()) == set(PARSERS)
