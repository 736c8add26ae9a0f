"""The orders of Medieval Micromanager and the parser that reads them from a seat's lines.

Every line is read on its own (engine.order_lines): one bad line never spoils the good ones.
A line that cannot be read is a syntax problem with an example; one that reads but breaks a
rule is illegal and cites the rule; one that reads more than one way lists the readings.
The checks here are against the position before the turn and the earlier lines; what an
earlier seat's turn changes is checked again when the order's phase comes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from engine.order_lines import OrderBase, OrderLine, read_orders
from engine.problems import illegal, syntax
from engine.records import ParsedOrders
from engine.rulesets.medieval_micromanager.cards import CARDS, KINDS, TOKENS, Group
from engine.rulesets.medieval_micromanager.model import Building, GameState, Seat
from engine.rulesets.medieval_micromanager.rules import RULES
from engine.words import match_word, normal, parse_count, plural, spellings_of

NEW = "new"  # names the building broken ground on this turn


Order = OrderBase  # every order of this game derives from it


@dataclass(frozen=True)
class BreakGround(Order):
    kind: str
    label: str  # the new card's name

    def understood(self) -> str:
        return f"break ground on a new {self.kind}, to be called {self.label}"


ANY_TOOLS = -1  # a BUILD or WORK line without TOOLS: a tool for every unit that can use one


def _tools_text(tools: int) -> str:
    if tools == ANY_TOOLS:
        return ""
    return ", no tool" if tools == 0 else f", at most {plural(tools, 'tool')}"


@dataclass(frozen=True)
class Build(Order):
    count: int
    label: str
    tools: int = ANY_TOOLS  # at most this many of the units use a tool

    def understood(self) -> str:
        verb = "builds or repairs" if self.count == 1 else "build or repair"
        return f"{plural(self.count, 'unit')} {verb} {self.label}{_tools_text(self.tools)}"


@dataclass(frozen=True)
class Work(Order):
    count: int
    label: str
    tools: int = ANY_TOOLS  # at most this many of the units use a tool

    def understood(self) -> str:
        verb = "works" if self.count == 1 else "work"
        return f"{plural(self.count, 'unit')} {verb} at {self.label}{_tools_text(self.tools)}"


@dataclass(frozen=True)
class Buy(Order):
    count: int

    def understood(self) -> str:
        if self.count == 1:
            return "1 unit buys a new unit at a house"
        return f"{self.count} units buy {self.count} new units at a house"


@dataclass(frozen=True)
class Attack(Order):
    target: str
    count: int
    swords: int
    raze: bool  # after all defenders are eliminated: raze (True) or loot

    def understood(self) -> str:
        then = "raze" if self.raze else "loot"
        swords = f"{plural(self.swords, 'sword')}" if self.swords else "no sword"
        return (
            f"attack {self.target} with {plural(self.count, 'unit')} from the academy, "
            f"{swords}, then {then}"
        )


@dataclass(frozen=True)
class Defend(Order):
    units: int  # -1: all
    shields: int  # -1: one a defender

    def understood(self) -> str:
        units = "all units at home" if self.units < 0 else f"{plural(self.units, 'unit')} at home"
        shields = "a shield each" if self.shields < 0 else plural(self.shields, "shield")
        return f"from now on defend with {units} and {shields}"


@dataclass(frozen=True)
class Spare(Order):
    labels: tuple[str, ...]  # () for none

    def understood(self) -> str:
        if not self.labels:
            return "from now on spare no building in particular from razing"
        return f"from now on put razing damage on {', '.join(self.labels)} last"


EXAMPLES = {
    "BREAK": "BREAK GROUND HOUSE",
    "BUILD": "BUILD 2 house2",
    "WORK": "WORK 3 farm1",
    "BUY": "BUY 1",
    "ATTACK": "ATTACK bob WITH 3 SWORDS 2 RAZE",
    "DEFEND": "DEFEND ALL SHIELDS 2",
    "SPARE": "SPARE cathedral1 house1",
}
KIND_WORDS = spellings_of(
    {
        "farm": ("field", "fields"),
        "woodcutter": ("lumbercamp", "woodcutters", "sawmill"),
        "mine": ("oremine",),
        "quarry": ("stonequarry",),
        "smithy": ("toolmaker", "blacksmith"),
        "swordsmith": ("weaponsmith",),
        "armourer": ("armorer", "shieldmaker"),
        "granary": (),
        "warehouse": (),
        "school": (),
        "academy": (),
        "house": ("houses",),
        "cathedral": (),
    }
)
assert set(KIND_WORDS.values()) == set(KINDS)
FILLER = {"ON", "AT", "IN", "UNITS", "UNIT", "WORKERS", "WORKER"}
# A line starting with a kind of building ("HOUSE") is told to try BREAK GROUND.
TOPICS = {spelling: "BREAK" for spelling in KIND_WORDS}


@dataclass
class _Context:
    """What the earlier lines of the same text said, for checks that span lines."""

    state: GameState
    seat: Seat
    acting: int = 0  # units given an action so far
    placed: dict[str, int] = field(default_factory=dict)  # units a building, by label
    built: set[str] = field(default_factory=set)  # labels named by BUILD lines
    new: BreakGround | None = None
    attacked: set[str] = field(default_factory=set)
    at_academy: int = 0


def parse(state: GameState, seat: str, text: str) -> ParsedOrders:
    context = _Context(state, state.seat(seat))
    return read_orders(text, KEYWORDS, EXAMPLES, partial(_read_line, context=context), TOPICS)


def _read_line(line: OrderLine, context: _Context) -> Order:
    return PARSERS[line.keyword](Order(line.line_no, line.text), line.words, context)


def _count(words: list[str], keyword: str) -> tuple[int, list[str]]:
    if not words:
        raise syntax(f"{keyword} needs a number of units", EXAMPLES[keyword])
    count = parse_count(words[0], "units", EXAMPLES[keyword])
    if count < 1:
        raise syntax("the number of units is at least 1", EXAMPLES[keyword])
    return count, [w for w in words[1:] if w.upper() not in FILLER]


def _tools(rest: list[str], count: int, keyword: str) -> tuple[int, list[str]]:
    """A closing TOOLS <n> on a BUILD or WORK line: "(and optionally tools with a school
    built to double production)" - at most n of the line's units use a tool, TOOLS 0 none.
    Without it, every unit that can use a tool does. Returns the limit and the other words."""
    if len(rest) < 2 or rest[-2].upper() not in ("TOOLS", "TOOL"):
        return ANY_TOOLS, rest
    tools = parse_count(rest[-1], "tools", EXAMPLES[keyword] + " TOOLS 0")
    if tools > count:
        raise illegal(f"{plural(tools, 'tool')} for {plural(count, 'unit')}", RULES["tools"])
    return tools, rest[:-2]


def _act(context: _Context, count: int) -> None:
    """ "Each unit may perform one action": no more actions than units. Called after the
    line's other checks and before it changes anything else in the context, so that a refused
    line leaves the context as it was."""
    if context.acting + count > context.seat.units:
        raise illegal(
            f"{plural(context.acting + count, 'action')} ordered for "
            f"{plural(context.seat.units, 'unit')}",
            RULES["one_action"],
        )
    context.acting += count


def _building(words: list[str], context: _Context, keyword: str) -> Building:
    """The seat's building a line names ('new': the one broken ground on this turn)."""
    if not words:
        raise syntax(f"{keyword} needs a building's name", EXAMPLES[keyword])
    labels = {normal(b.label): b.label for b in context.seat.buildings}
    if context.new:
        labels[NEW] = labels[normal(context.new.label)] = context.new.label
    if not labels:
        raise illegal("you have no building", RULES["break_ground"])
    label = match_word(" ".join(words), labels, "building of yours", EXAMPLES[keyword])
    if context.new and label == context.new.label:
        return Building(label, context.new.kind, damage=TOKENS)
    found = context.seat.building(label)
    assert found is not None
    return found


def _place(context: _Context, building: Building, count: int) -> None:
    """ "An fully undepleted building allows for 5 units to work on it a turn." Checks the
    units' actions too, then counts them both."""
    placed = context.placed.get(building.label, 0) + count
    if placed > building.places:
        raise illegal(
            f"{building.label} takes {plural(building.places, 'unit')} a turn, {placed} ordered",
            RULES["places"],
        )
    _act(context, count)
    context.placed[building.label] = placed


def _break(base: Order, words: list[str], context: _Context) -> BreakGround:
    if words and words[0].upper() == "GROUND":
        words = words[1:]
    if not words:
        raise syntax("BREAK GROUND needs a kind of building", EXAMPLES["BREAK"])
    kind = match_word(" ".join(words), KIND_WORDS, "kind of building", EXAMPLES["BREAK"])
    if context.new:
        raise illegal(
            f"a new building is already broken ground on line {context.new.line_no}",
            RULES["break_ground"],
        )
    context.new = BreakGround(base.line_no, base.text, kind, context.seat.next_label(kind))
    return context.new


def _build(base: Order, words: list[str], context: _Context) -> Build:
    count, rest = _count(words, "BUILD")
    tools, rest = _tools(rest, count, "BUILD")
    building = _building(rest, context, "BUILD")
    if not building.damage:
        raise illegal(
            f"{building.label} has no damage token to remove"
            + (" (depletion tokens stay)" if building.depletion else ""),
            RULES["depletion_stays"] if building.depletion else RULES["repair"],
        )
    _place(context, building, count)
    context.built.add(building.label)
    return Build(base.line_no, base.text, count, building.label, tools)


def _work(base: Order, words: list[str], context: _Context) -> Work:
    count, rest = _count(words, "WORK")
    tools, rest = _tools(rest, count, "WORK")
    building = _building(rest, context, "WORK")
    card = CARDS[building.kind]
    if card.group not in (Group.RAW, Group.GOODS):
        hint = {"house": " (BUY units there)", "academy": " (ATTACK from it)"}
        raise illegal(
            f"a {building.kind} produces no commodity{hint.get(building.kind, '')}",
            RULES["raw"],
        )
    if building.damage and building.label not in context.built:
        raise illegal(
            f"{building.label} has {plural(building.damage, 'damage token')}: "
            "BUILD on an earlier line to repair it first",
            RULES["damaged"],
        )
    _place(context, building, count)
    return Work(base.line_no, base.text, count, building.label, tools)


def _buy(base: Order, words: list[str], context: _Context) -> Buy:
    count, _ = _count(words, "BUY")
    if not context.seat.of_kind("house"):
        raise illegal("you have no house to buy units at", RULES["buy"])
    _act(context, count)
    return Buy(base.line_no, base.text, count)


def _seat_name(word: str, context: _Context) -> str:
    names = {normal(s.name): s.name for s in context.state.seats if s.name != context.seat.name}
    name = match_word(word, names, "seat", EXAMPLES["ATTACK"])
    if not context.state.seat(name).alive:
        raise illegal(f"{name} is out of the game", RULES["out"])
    return name


def _attack(base: Order, words: list[str], context: _Context) -> Attack:
    example = EXAMPLES["ATTACK"]
    if not words:
        raise syntax("ATTACK needs a seat to attack", example)
    target = _seat_name(words[0], context)
    rest = [w.upper() for w in words[1:]]
    raze = True
    if rest and rest[-1] in ("LOOT", "RAZE"):
        raze = rest.pop() == "RAZE"
    swords = 0
    if len(rest) >= 2 and rest[-2] in ("SWORDS", "SWORD"):
        swords = parse_count(rest.pop(), "swords", example)
        rest.pop()
    if rest and rest[0] == "WITH":
        rest = rest[1:]
    if len(rest) != 1 and not (len(rest) == 2 and rest[1] in FILLER):
        raise syntax("ATTACK reads: ATTACK <seat> WITH <units> [SWORDS <n>] [RAZE|LOOT]", example)
    count = parse_count(rest[0], "units", example)
    if count < 1:
        raise syntax("the number of units is at least 1", example)
    if target in context.attacked:
        raise illegal(f"{target} is attacked on an earlier line", RULES["attack_twice"])
    if swords > count:
        raise illegal(f"{plural(swords, 'sword')} for {plural(count, 'unit')}", RULES["swords"])
    places = sum(b.places for b in _academies(context))
    if context.at_academy + count > places:
        raise illegal(
            f"your academies take {plural(places, 'unit')} a turn, "
            f"{context.at_academy + count} ordered",
            RULES["academy"],
        )
    _act(context, count)
    context.attacked.add(target)
    context.at_academy += count
    return Attack(base.line_no, base.text, target, count, swords, raze)


def _academies(context: _Context) -> list[Building]:
    """The academies units may be set at this turn: undamaged, or repaired on an earlier
    line ("which is done at an undamaged Academy"). Without one, the refusal says what is
    missing and what an academy costs."""
    academies = context.seat.of_kind("academy")
    if context.new and context.new.kind == "academy":
        academies.append(Building(context.new.label, "academy", damage=TOKENS))
    usable = [b for b in academies if not b.damage or b.label in context.built]
    if usable:
        return usable
    if academies:
        academy = academies[0]
        raise illegal(
            f"{academy.label} has {plural(academy.damage, 'damage token')}: "
            "BUILD on an earlier line to repair it first",
            RULES["academy"],
        )
    raise illegal(
        "you have no academy to attack from: BREAK GROUND ACADEMY, then BUILD it "
        f"({TOKENS} damage tokens, {CARDS['academy'].cost_text()} each)",
        RULES["academy"],
    )


def _all_or_count(word: str, what: str) -> int:
    if word.upper() == "ALL":
        return -1
    return parse_count(word, what, EXAMPLES["DEFEND"])


def _defend(base: Order, words: list[str], context: _Context) -> Defend:
    upper = [w.upper() for w in words if w.upper() not in FILLER and w.upper() != "WITH"]
    shields = -1
    if len(upper) >= 2 and upper[-2] in ("SHIELDS", "SHIELD"):
        shields = _all_or_count(upper[-1], "shields")
        upper = upper[:-2]
    if len(upper) != 1:
        raise syntax("DEFEND reads: DEFEND <units>|ALL [SHIELDS <n>|ALL]", EXAMPLES["DEFEND"])
    return Defend(base.line_no, base.text, _all_or_count(upper[0], "units"), shields)


def _spare(base: Order, words: list[str], context: _Context) -> Spare:
    """The defender's choice of where razing damage goes ("The defending player may apply it
    to any building he wishes"), made in advance: these buildings last, the first named last
    of all."""
    if [w.upper() for w in words] == ["NONE"]:
        return Spare(base.line_no, base.text, ())
    if not words:
        raise syntax("SPARE needs buildings of yours, or NONE", EXAMPLES["SPARE"])
    labels = {normal(b.label): b.label for b in context.seat.buildings}
    named: list[str] = []
    for word in words:
        label = match_word(word, labels, "building of yours", EXAMPLES["SPARE"])
        if label not in named:
            named.append(label)
    return Spare(base.line_no, base.text, tuple(named))


PARSERS: dict[str, Callable[[Order, list[str], _Context], Order]] = {
    "BREAK": _break,
    "BUILD": _build,
    "WORK": _work,
    "BUY": _buy,
    "ATTACK": _attack,
    "DEFEND": _defend,
    "SPARE": _spare,
}
KEYWORDS = spellings_of(
    {
        "BREAK": ("BREAKGROUND", "GROUND"),
        "BUILD": ("REPAIR",),
        "WORK": ("PRODUCE",),
        "BUY": ("HIRE",),
        "ATTACK": ("RAID",),
        "DEFEND": ("DEFENCE", "DEFENSE"),
        "SPARE": ("PROTECT",),
    }
)
assert set(KEYWORDS.values()) == set(PARSERS)
