"""The orders of Temples and Swords and the parser that reads them from a seat's order lines.

Every line is read on its own: one bad line never spoils the good ones. A line that cannot be
read is a syntax problem with an example; one that reads but breaks a rule is illegal and cites
the rule; one that reads more than one way lists the readings.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from engine.hexgrid import hex_name as format_hex
from engine.hexgrid import parse_hex_name
from engine.order_lines import OrderBase, OrderLine, read_orders
from engine.problems import ambiguous, illegal, syntax
from engine.records import ParsedOrders
from engine.rulesets.temples_and_swords.legality import (
    UNIT_WORK,
    Refusal,
    refuse_build,
    refuse_labor,
    refuse_migrate,
    refuse_move_kind,
    refuse_path,
)
from engine.rulesets.temples_and_swords.model import (
    ADVANCES,
    MILITARY,
    PROJECTS,
    UNIT_TYPES,
    GameState,
)
from engine.rulesets.temples_and_swords.rules import RULES
from engine.words import (
    article,
    match_seat,
    match_word,
    normal,
    parse_count,
    plural,
    shown,
    spellings_of,
)

Order = OrderBase  # every order of this game derives from it


@dataclass(frozen=True)
class Labor(Order):
    hex: str
    count: int

    def understood(self) -> str:
        return f"put {plural(self.count, 'laborer')} to work in {self.hex}"


@dataclass(frozen=True)
class Tech(Order):
    rolls: int

    def understood(self) -> str:
        return f"buy {plural(self.rolls, 'tech roll')}"


@dataclass(frozen=True)
class AdvancePreference(Order):
    advances: tuple[str, ...]
    only: bool = False  # take no advance but these; keep the tech points until one is on offer

    def understood(self) -> str:
        if self.only and not self.advances:
            return "standing order: take no advance; keep the tech points"
        only = ", and no other" if self.only else ""
        return f"standing order: prefer the advances {', '.join(self.advances)}{only}"


@dataclass(frozen=True)
class Move(Order):
    path: tuple[str, ...]
    kind: str  # '' for every kind that can make the move
    count: int  # 0 for all

    def understood(self) -> str:
        if self.count:
            what = (
                unit_words(self.count, self.kind, True) if self.kind else plural(self.count, "unit")
            )
        else:
            what = f"all {unit_words(2, self.kind)}" if self.kind else "every unit"
        by = f" by {', '.join(self.path[1:-1])}" if len(self.path) > 2 else ""
        return f"move {what} from {self.path[0]} to {self.path[-1]}{by}"


@dataclass(frozen=True)
class Attack(Order):
    hex: str
    target: str  # '' for the hex's owner or the enemy army there
    use: str  # 'best', 'none' or a unit type
    until: int  # stop after losing this many units; 0 for fight to the end
    slaves: int  # -1 for as many as allowed
    capture: bool = True  # take control of the hex when the victory allows it

    def understood(self) -> str:
        whom = f"seat {self.target}'s units" if self.target else "the enemy"
        parts = [f"attack {whom} in {self.hex}", USE_SAID[self.use]]
        parts.append(f"stop after {plural(self.until, 'loss', 'losses')}" if self.until else "")
        if not self.capture:
            parts.append("do not take the hex")
        elif self.slaves >= 0:
            parts.append(f"take at most {plural(self.slaves, 'slave')}")
        return ", ".join(p for p in parts if p)


@dataclass(frozen=True)
class Defend(Order):
    use: str

    def understood(self) -> str:
        return f"standing order: defend {USE_SAID[self.use]}"


@dataclass(frozen=True)
class Losses(Order):
    kinds: tuple[str, ...]

    def understood(self) -> str:
        return f"standing order: lose {', then '.join(unit_words(2, k) for k in self.kinds)}"


@dataclass(frozen=True)
class Build(Order):
    hex: str
    work: str
    count: int = 1  # units to build
    points: int = 0  # most build points to spend; 0 for as many as it needs

    def understood(self) -> str:
        if self.work in UNIT_WORK:
            return f"build {unit_words(self.count, self.work, True)} in {self.hex}"
        spend = f"spending at most {self.points}" if self.points else "spending what it needs"
        return f"build {article(self.work)} in {self.hex}, {spend}"


@dataclass(frozen=True)
class Migrate(Order):
    source: str  # '' for whichever hex migrates
    target: str

    def understood(self) -> str:
        source = f"from {self.source}" if self.source else "from any hex"
        return f"this turn, migrants {source} go to {self.target}"


STANDING = (AdvancePreference, Defend, Losses)

UNIT_PLURALS = {"swordsman": "swordsmen", "horseman": "horsemen"}
USE_SAID = {
    "best": "using your best advanced units",
    "none": "using no advanced units",
    "swordsman": "using swordsmen",
    "horseman": "using horsemen",
}


def unit_words(count: int, kind: str, with_count: bool = False) -> str:
    """'swordsmen', or with the count: '1 swordsman', '2 swordsmen'."""
    many = UNIT_PLURALS.get(kind, kind + "s")
    if with_count:
        return plural(count, kind, many)
    return kind if count == 1 else many


UNITS = spellings_of(
    {
        "soldier": ("soldiers",),
        "swordsman": ("swordsmen",),
        "horseman": ("horsemen",),
        "slave": ("slaves",),
    }
)
WORKS = spellings_of(
    {
        "city": ("cities",),
        "road": ("roads",),
        "temple": ("temples",),
        "walls": ("wall",),
        "marketplace": ("market", "marketplaces"),
        "library": ("libraries",),
        "soldier": ("soldiers",),
        "swordsman": ("swordsmen",),
        "horseman": ("horsemen",),
    }
)
ADVANCE_NAMES = spellings_of(
    {name: () for name in ADVANCES} | {"Metal Working": ("iron", "metalworking")}
)
# Only advanced units can be "used" in a roll (rule: advanced units); soldiers and slaves cannot.
YES_NO = spellings_of({"yes": ("y",), "no": ("n",)})
USE_WORDS = spellings_of(
    {"best": (), "none": (), "swordsman": ("swordsmen",), "horseman": ("horsemen",)}
)

EXAMPLES = {
    "LABOR": "LABOR C4 2",
    "TECH": "TECH 2",
    "ADVANCE": "ADVANCE Religion, Masonry, Writing",
    "MOVE": "MOVE C4 D4 2 SOLDIERS",
    "ATTACK": "ATTACK D4 USE SWORDSMAN UNTIL 3 SLAVES 1",
    "DEFEND": "DEFEND USE SWORDSMAN",
    "LOSSES": "LOSSES SOLDIER, HORSEMAN, SWORDSMAN",
    "BUILD": "BUILD C4 TEMPLE",
    "MIGRATE": "MIGRATE C4 D5",
}


@dataclass
class _Context:
    """What earlier lines of the same text said, for checks that span lines."""

    state: GameState
    seat: str
    labor_lines: dict[str, int] = field(default_factory=dict)
    city_ordered: set[str] = field(default_factory=set)
    move_ends: set[str] = field(default_factory=set)
    attack_lines: dict[str, int] = field(default_factory=dict)
    seen_tech: int = 0


def parse(state: GameState, seat: str, text: str) -> ParsedOrders:
    context = _Context(state, seat)
    return read_orders(text, KEYWORDS, EXAMPLES, partial(_read_line, context=context), TOPICS)


def _read_line(line: OrderLine, context: _Context) -> Order:
    return PARSERS[line.keyword](Order(line.line_no, line.text), line.words, context)


def _refused(refusal: Refusal | None) -> None:
    if refusal:
        raise illegal(refusal.message, RULES[refusal.rule])


def _hex(word: str, context: _Context, example: str) -> str:
    place = parse_hex_name(word)
    if place is None:
        raise syntax(f"'{shown(word)}' is not a hex (a column letter and a row number)", example)
    name = format_hex(*place)  # "d04" -> "D4"
    if not context.state.terrain.contains(name):
        terrain = context.state.terrain
        last = f"{chr(ord('A') + terrain.width - 1)}{terrain.height}"
        raise illegal(f"{name} is off the map (A1 to {last})", RULES["map"])
    return name


def _need(words: list[str], count: int, keyword: str, what: str) -> None:
    if len(words) < count:
        raise syntax(f"{keyword} needs {what}", EXAMPLES[keyword])


def _labor(base: Order, words: list[str], context: _Context) -> Labor:
    _need(words, 2, "LABOR", "a hex and a number of laborers")
    if len(words) > 2:
        raise syntax("LABOR takes a hex and one number", EXAMPLES["LABOR"])
    hex_name = _hex(words[0], context, EXAMPLES["LABOR"])
    count = parse_count(words[1], "laborers", EXAMPLES["LABOR"])
    if hex_name in context.labor_lines:
        raise illegal(
            f"{hex_name} already has a LABOR order on line {context.labor_lines[hex_name]}",
            RULES["distribution"],
        )
    _refused(refuse_labor(context.state, context.seat, hex_name, count))
    context.labor_lines[hex_name] = base.line_no
    return Labor(base.line_no, base.text, hex_name, count)


def _tech(base: Order, words: list[str], context: _Context) -> Tech:
    _need(words, 1, "TECH", "a number of tech rolls")
    if len(words) > 1:
        raise syntax("TECH takes one number", EXAMPLES["TECH"])
    rolls = parse_count(words[0], "tech rolls", EXAMPLES["TECH"])
    if context.seen_tech:
        raise illegal(f"TECH was already given on line {context.seen_tech}", RULES["tech_rolls"])
    cities = sum(1 for n in context.state.owned(context.seat) if context.state.hexes[n].has("city"))
    if rolls > 2 * cities:
        raise illegal(
            f"{rolls} tech rolls, but with {plural(cities, 'city', 'cities')} you may buy at "
            f"most {2 * cities}",
            RULES["tech_rolls"],
        )
    context.seen_tech = base.line_no
    return Tech(base.line_no, base.text, rolls)


def _advance(base: Order, words: list[str], context: _Context) -> AdvancePreference:
    _need(words, 1, "ADVANCE", "one or more advance names")
    if [w.upper() for w in words] == ["NONE"]:
        return AdvancePreference(base.line_no, base.text, (), only=True)
    only = words[-1].upper() == "ONLY"
    words = words[:-1] if only else words
    _need(words, 1, "ADVANCE", "one or more advance names before ONLY")
    names = [
        match_word(p, ADVANCE_NAMES, "advance", EXAMPLES["ADVANCE"]) for p in _split_names(words)
    ]
    return AdvancePreference(base.line_no, base.text, tuple(dict.fromkeys(names)), only)


def _split_names(words: list[str]) -> list[str]:
    """Advance names without commas: take the longest run of words that is a whole name,
    else a single word (which may be a prefix)."""
    parts, at = [], 0
    while at < len(words):
        for end in range(len(words), at, -1):
            if normal("".join(words[at:end])) in ADVANCE_NAMES:
                break
        else:
            end = at + 1
        parts.append(" ".join(words[at:end]))
        at = end
    return parts


def _move(base: Order, words: list[str], context: _Context) -> Move:
    _need(words, 2, "MOVE", "a hex to move from and at least one hex to move to")
    path: list[str] = []
    rest = list(words)
    while rest and parse_hex_name(rest[0]) is not None:
        path.append(_hex(rest.pop(0), context, EXAMPLES["MOVE"]))
    if len(path) < 2:
        raise syntax("MOVE needs the hex the army is in and the hex(es) it moves to", "MOVE C4 D4")
    count, kind = _count_and_kind(rest, EXAMPLES["MOVE"])
    state, seat = context.state, context.seat
    _refused(refuse_path(state, seat, path))
    present = state.units(path[0], seat)
    kinds = [kind] if kind else [k for k in UNIT_TYPES if present.get(k)]
    if not kinds or not any(present.get(k) for k in kinds):
        what = f"no {kind}" if kind else "no army"
        raise illegal(f"you have {what} in {path[0]}", RULES["move"])
    if count and not kind and len(kinds) > 1:
        readings = tuple(f"MOVE {' '.join(path)} {count} {k.upper()}" for k in kinds)
        raise ambiguous(f"{count} of which units in {path[0]}?", readings)
    if count and count > present.get(kinds[0]):
        raise illegal(
            f"you have {present.get(kinds[0])} {kinds[0]} in {path[0]}, not {count}", RULES["move"]
        )
    able = [k for k in kinds if present.get(k) and not refuse_move_kind(state, path, k)]
    if not able:
        _refused(refuse_move_kind(state, path, kinds[0]))
    context.move_ends.add(path[-1])
    return Move(base.line_no, base.text, tuple(path), kind, count)


def _count_and_kind(rest: list[str], example: str) -> tuple[int, str]:
    count, kind = 0, ""
    if rest and rest[0].upper() == "ALL":
        rest = rest[1:]
    elif rest and rest[0].isdigit():
        count = parse_count(rest.pop(0), "units", example)
        if count == 0:
            raise syntax("a count of units is 1 or more", example)
    if rest:
        kind = match_word(rest.pop(0), UNITS, "unit type", example)
    if rest:
        raise syntax(f"unexpected '{' '.join(rest)}'", example)
    return count, kind


def _attack(base: Order, words: list[str], context: _Context) -> Attack:
    _need(words, 1, "ATTACK", "the hex to attack")
    hex_name = _hex(words[0], context, EXAMPLES["ATTACK"])
    target, use, until, slaves, capture = "", "best", 0, -1, True
    rest = words[1:]
    while rest:
        word = rest.pop(0).upper()
        if not rest:
            raise syntax(f"{word} needs a value after it", EXAMPLES["ATTACK"])
        value = rest.pop(0)
        if word in ("SEAT", "ON"):
            target = _seat_name(value, context)
        elif word == "USE":
            use = match_word(value, USE_WORDS, "advanced unit type", EXAMPLES["ATTACK"])
        elif word == "UNTIL":
            until = parse_count(value, "losses", EXAMPLES["ATTACK"])
        elif word == "SLAVES":
            slaves = _slaves(value)
        elif word == "CAPTURE":
            capture = match_word(value, YES_NO, "yes or no", "ATTACK D4 CAPTURE NO") == "yes"
        else:
            raise syntax(
                f"ATTACK does not know '{word}' (SEAT, USE, UNTIL, SLAVES, CAPTURE)",
                EXAMPLES["ATTACK"],
            )
    state, seat = context.state, context.seat
    if hex_name in context.attack_lines:
        raise illegal(
            f"{hex_name} is already attacked on line {context.attack_lines[hex_name]}; "
            "an attack goes on for as many rounds as you wish (UNTIL)",
            RULES["repeat"],
        )
    if not (state.units(hex_name, seat).military() or hex_name in context.move_ends):
        raise illegal(
            f"you have no army in {hex_name} and no earlier MOVE ends there", RULES["attack"]
        )
    here = state.peek(hex_name)
    if not ((here.owner and here.owner != seat) or state.enemies_in(hex_name, seat)):
        raise illegal(f"{hex_name} holds no enemy city, population or army", RULES["attack"])
    context.attack_lines[hex_name] = base.line_no
    return Attack(base.line_no, base.text, hex_name, target, use, until, slaves, capture)


def _slaves(value: str) -> int:
    if value.upper() in ("ALL", "MAX"):
        return -1
    if value.upper() in ("NONE", "NO"):
        return 0
    return parse_count(value, "slaves", EXAMPLES["ATTACK"])


def _seat_name(value: str, context: _Context) -> str:
    others = [(s.name, s.letter) for s in context.state.seats if s.name != context.seat]
    return match_seat(value, others, EXAMPLES["ATTACK"])


def _defend(base: Order, words: list[str], context: _Context) -> Defend:
    if len(words) == 2 and words[0].upper() == "USE":
        words = words[1:]
    if len(words) != 1:
        raise syntax("DEFEND takes USE and a unit type, BEST or NONE", EXAMPLES["DEFEND"])
    use = match_word(words[0], USE_WORDS, "advanced unit type", EXAMPLES["DEFEND"])
    return Defend(base.line_no, base.text, use)


def _losses(base: Order, words: list[str], context: _Context) -> Losses:
    _need(words, 1, "LOSSES", "unit types in the order you lose them")
    parts = " ".join(words).replace(",", " ").split()
    kinds = [match_word(p, UNITS, "unit type", EXAMPLES["LOSSES"]) for p in parts]
    kinds = [k for k in dict.fromkeys(kinds) if k in MILITARY]
    kinds += [k for k in MILITARY if k not in kinds]
    return Losses(base.line_no, base.text, tuple(kinds))


def _build(base: Order, words: list[str], context: _Context) -> Build:
    _need(words, 2, "BUILD", "a hex and what to build")
    hex_name = _hex(words[0], context, EXAMPLES["BUILD"])
    rest = words[1:]
    count = 1
    if rest[0].isdigit():
        count = parse_count(rest.pop(0), "units", EXAMPLES["BUILD"])
        if not rest or count == 0:
            raise syntax("BUILD <hex> <number> <unit type>", "BUILD C4 2 SOLDIERS")
    work = match_word(rest.pop(0), WORKS, "project or unit", EXAMPLES["BUILD"])
    points = 0
    if rest and work not in UNIT_WORK:
        points = parse_count(rest.pop(0), "build points", "BUILD C4 TEMPLE 3")
        if points == 0:
            raise syntax("build points to spend are 1 or more", "BUILD C4 TEMPLE 3")
    if rest or (count > 1 and work not in UNIT_WORK):
        raise syntax(
            "BUILD <hex> <project> [points] or BUILD <hex> [number] <unit>", EXAMPLES["BUILD"]
        )
    city_coming = hex_name in context.city_ordered
    _refused(refuse_build(context.state, context.seat, hex_name, work, city_coming))
    if work == "city":
        context.city_ordered.add(hex_name)
    return Build(base.line_no, base.text, hex_name, work, count, points)


def _migrate(base: Order, words: list[str], context: _Context) -> Migrate:
    if len(words) not in (1, 2):
        raise syntax(
            "MIGRATE takes a hex to move to, or a hex to move from and one to", EXAMPLES["MIGRATE"]
        )
    hexes = [_hex(w, context, EXAMPLES["MIGRATE"]) for w in words]
    source, target = (hexes[0], hexes[1]) if len(hexes) == 2 else ("", hexes[0])
    if source:
        _refused(refuse_migrate(context.state, context.seat, source, target))
    return Migrate(base.line_no, base.text, source, target)


PARSERS: dict[str, Callable[[Order, list[str], _Context], Order]] = {
    "LABOR": _labor,
    "TECH": _tech,
    "ADVANCE": _advance,
    "MOVE": _move,
    "ATTACK": _attack,
    "DEFEND": _defend,
    "LOSSES": _losses,
    "BUILD": _build,
    "MIGRATE": _migrate,
}
KEYWORDS = spellings_of(
    {
        "LABOR": ("LABOUR", "LABORERS", "LABOURERS", "HIRE"),
        "TECH": ("TECHROLLS",),
        "ADVANCE": ("ADVANCES", "PREFER"),
        "MOVE": (),
        "ATTACK": (),
        "DEFEND": (),
        "LOSSES": ("CASUALTIES",),
        "BUILD": (),
        "MIGRATE": (),
    }
)
assert set(KEYWORDS.values()) == set(PARSERS)
assert all(p in WORKS.values() for p in PROJECTS)
# Words that belong to one order, for a line that starts with one of them ("TEMPLE C4").
TOPICS = dict.fromkeys(WORKS, "BUILD") | dict.fromkeys(ADVANCE_NAMES, "ADVANCE")
