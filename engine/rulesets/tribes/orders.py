"""The orders of Tribes and the parser that reads them from a seat's order lines.

Every line is read on its own (engine.order_lines.read_orders, as in every ruleset): a line
that cannot be read is a syntax problem with an example, one that reads but breaks a rule is
illegal and cites the rule.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from engine.hexgrid import hex_name as format_hex
from engine.hexgrid import parse_hex_name
from engine.order_lines import OrderBase, OrderLine, read_orders
from engine.problems import illegal, syntax
from engine.records import ParsedOrders
from engine.rulesets.tribes.legality import (
    Refusal,
    bribe_price,
    refuse_attack,
    refuse_bribe,
    refuse_build,
    refuse_convert,
    refuse_path,
    refuse_upgrade,
)
from engine.rulesets.tribes.model import BUILDINGS, MILITARY, UNIT_KINDS, GameState, a_building
from engine.rulesets.tribes.rules import RULES
from engine.words import match_word, parse_count, plural, shown, spellings_of

Order = OrderBase  # every order of this game derives from it


@dataclass(frozen=True)
class Move(Order):
    path: tuple[str, ...]
    count: int  # 0: all
    kind: str  # '': every kind that can make the move

    def understood(self) -> str:
        what = f"{self.count} {self.kind}" if self.count else f"all {self.kind or 'units'}"
        if self.count and not self.kind:
            what = f"{plural(self.count, 'unit')} (fighters first)"
        return f"move {what} from {self.path[0]} to {' then '.join(self.path[1:])}"


@dataclass(frozen=True)
class Attack(Order):
    target: str
    source: str
    group: int  # units that combine their rolls; 0: all together
    until: int  # stop after losing this many; 0: fight on

    def understood(self) -> str:
        groups = "all together" if self.group == 0 else f"in groups of {self.group}"
        stop = f", stopping after {self.until} lost" if self.until else ""
        return f"attack {self.target} from {self.source}, rolling {groups}{stop}"


@dataclass(frozen=True)
class Bribe(Order):
    target: str

    def understood(self) -> str:
        return f"bribe every unit in {self.target}"


@dataclass(frozen=True)
class Build(Order):
    hex: str
    work: str  # a building, or 'ship'
    material: str  # 'wood' or 'stone' for barracks and blacksmith; '' to let the engine choose

    def understood(self) -> str:
        paid = f" paying {self.material}" if self.material else ""
        return f"build {a_building(self.work)} in {self.hex}{paid}"


@dataclass(frozen=True)
class Convert(Order):
    hex: str
    melee: int
    ranged: int
    magic: int
    to: tuple[str, ...]  # the road path the new units march along; () to stay

    def count(self) -> int:
        return self.melee + self.ranged + self.magic

    def understood(self) -> str:
        parts = [plural(getattr(self, k), k, k) for k in MILITARY if getattr(self, k)]
        march = f", marching by road to {self.to[-1]}" if self.to else ""
        return f"convert a population unit in {self.hex} into {', '.join(parts)}{march}"


@dataclass(frozen=True)
class Upgrade(Order):
    track: str

    def understood(self) -> str:
        return f"buy the next {self.track} upgrade"


@dataclass(frozen=True)
class Grow(Order):
    hex: str

    def understood(self) -> str:
        return f"new population goes to {self.hex}"


UNITS = spellings_of(
    {
        "population": ("pop", "people"),
        "melee": ("melees",),
        "ranged": ("archer", "archers"),
        "magic": ("mage", "mages", "magics"),
        "ship": ("ships", "boat", "boats"),
    }
)
WORKS = spellings_of(
    {name: (name + "s",) for name in BUILDINGS if name != "blacksmith"}
    | {"blacksmith": ("smith", "blacksmiths"), "ship": ("ships", "boat")}
)
TRACKS = spellings_of(
    {"melee": ("blacksmith", "smith"), "beasts": ("beast", "stables"), "ranged": ("refinery",)}
)
MATERIAL_WORDS = spellings_of({"wood": (), "stone": ()})

EXAMPLES = {
    "MOVE": "MOVE C4 D4 2 MELEE",
    "ATTACK": "ATTACK D5 FROM D4 COMBINE 3 UNTIL 2",
    "BRIBE": "BRIBE E5",
    "BUILD": "BUILD C4 BLACKSMITH WOOD",
    "CONVERT": "CONVERT C4 2 MELEE 1 RANGED",
    "UPGRADE": "UPGRADE MELEE",
    "GROW": "GROW C4",
}


@dataclass
class _Context:
    """What earlier lines of the same text said, for checks that span lines."""

    state: GameState
    seat: str
    spent: dict[str, int] = field(default_factory=dict)  # population work given per hex
    money: int = 0
    attacked: dict[str, int] = field(default_factory=dict)
    move_ends: set[str] = field(default_factory=set)


def parse(state: GameState, seat: str, text: str) -> ParsedOrders:
    """The shared reader names each line's order (a typo is answered with the example of the
    order it guesses) and `_read_line` reads the rest."""
    context = _Context(state, seat, money=state.seat(seat).money)
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
    if not context.state.contains(name):
        state = context.state
        last = format_hex(state.width - 1, state.height - 1)
        raise illegal(f"{name} is off the map (A1 to {last})", RULES["map"])
    return name


def _hexes(words: list[str], context: _Context, example: str) -> list[str]:
    """The hex names at the front of `words`, taken off it."""
    found = []
    while words and parse_hex_name(words[0]) is not None:
        found.append(_hex(words.pop(0), context, example))
    return found


def _move(base: Order, words: list[str], context: _Context) -> Move:
    rest = list(words)
    path = _hexes(rest, context, EXAMPLES["MOVE"])
    if len(path) < 2:
        raise syntax("MOVE needs the hex to move from and the hex(es) to move to", EXAMPLES["MOVE"])
    count, kind = 0, ""
    if rest and rest[0].upper() == "ALL":
        rest.pop(0)
    elif rest and rest[0].isdigit():
        count = parse_count(rest.pop(0), "units", EXAMPLES["MOVE"])
        if count == 0:
            raise syntax("a count of units is 1 or more", EXAMPLES["MOVE"])
    if rest:
        kind = match_word(rest.pop(0), UNITS, "unit type", EXAMPLES["MOVE"])
    if rest:
        raise syntax(f"unexpected '{shown(' '.join(rest))}'", EXAMPLES["MOVE"])
    state, seat = context.state, context.seat
    present = state.units(path[0], seat)
    if not present.total():
        raise illegal(f"you have no units in {path[0]}", RULES["move"])
    if kind and count > present.get(kind):
        raise illegal(
            f"you have {present.get(kind)} {kind} in {path[0]}, not {count}", RULES["move"]
        )
    if count and not kind and count > present.total():
        raise illegal(
            f"you have {plural(present.total(), 'unit')} in {path[0]}, not {count}", RULES["move"]
        )
    _refused(refuse_path(state, seat, path, kind or ("ship" if state.is_sea(path[0]) else "melee")))
    context.move_ends.add(path[-1])
    return Move(base.line_no, base.text, tuple(path), count, kind)


def _attack(base: Order, words: list[str], context: _Context) -> Attack:
    example = EXAMPLES["ATTACK"]
    if len(words) < 3 or words[1].upper() != "FROM":
        raise syntax("ATTACK <hex> FROM <hex> [COMBINE n|ALL] [UNTIL n]", example)
    target = _hex(words[0], context, example)
    source = _hex(words[2], context, example)
    group, until = 1, 0
    rest = words[3:]
    while rest:
        word = rest.pop(0).upper()
        if not rest:
            raise syntax(f"{shown(word)} needs a value after it", example)
        value = rest.pop(0)
        if word == "COMBINE":
            group = 0 if value.upper() == "ALL" else parse_count(value, "units", example)
        elif word == "UNTIL":
            until = parse_count(value, "losses", example)
        else:
            raise syntax(f"ATTACK does not know '{shown(word)}' (COMBINE, UNTIL)", example)
    if target in context.attacked:
        raise illegal(
            f"{target} is already attacked on line {context.attacked[target]}", RULES["attack"]
        )
    arriving = source in context.move_ends
    _refused(refuse_attack(context.state, context.seat, target, source, arriving))
    context.attacked[target] = base.line_no
    return Attack(base.line_no, base.text, target, source, group, until)


def _bribe(base: Order, words: list[str], context: _Context) -> Bribe:
    if len(words) != 1:
        raise syntax("BRIBE takes the hex whose units you bribe", EXAMPLES["BRIBE"])
    target = _hex(words[0], context, EXAMPLES["BRIBE"])
    state = context.state
    _refused(refuse_bribe(state, context.seat, target, context.money))
    owner = state.seat(state.peek(target).owner)
    price = bribe_price(state, state.seat(context.seat), owner)
    context.money -= price * state.peek(target).units.total()
    return Bribe(base.line_no, base.text, target)


def _build(base: Order, words: list[str], context: _Context) -> Build:
    if len(words) not in (2, 3):
        raise syntax("BUILD <hex> <building> [WOOD|STONE]", EXAMPLES["BUILD"])
    name = _hex(words[0], context, EXAMPLES["BUILD"])
    work = match_word(words[1], WORKS, "building", EXAMPLES["BUILD"])
    material = ""
    if len(words) == 3:
        if work not in ("barracks", "blacksmith"):
            raise syntax(
                f"{a_building(work)} has a fixed cost; WOOD or STONE is for barracks "
                "and blacksmiths",
                "BUILD C4 FARM",
            )
        material = match_word(words[2], MATERIAL_WORDS, "material", EXAMPLES["BUILD"])
    state = context.state
    _refused(refuse_build(state, context.seat, name, work, context.spent, state.seat(context.seat)))
    context.spent[name] = context.spent.get(name, 0) + 1
    return Build(base.line_no, base.text, name, work, material)


def _convert(base: Order, words: list[str], context: _Context) -> Convert:
    example = EXAMPLES["CONVERT"]
    if not words:
        raise syntax("CONVERT <hex> <n> <type> [<n> <type>] [TO <hex>...]", example)
    name = _hex(words[0], context, example)
    rest = list(words[1:])
    counts = dict.fromkeys(MILITARY, 0)
    while rest and rest[0].upper() != "TO":
        number = parse_count(rest.pop(0), "military units", example)
        if not rest:
            raise syntax("a number of units is followed by their type", example)
        kind = match_word(rest.pop(0), UNITS, "military unit type", example)
        if kind not in MILITARY:
            raise syntax(f"a population unit becomes melee, ranged or magic, not {kind}", example)
        counts[kind] += number
    path: list[str] = []
    if rest:
        rest.pop(0)
        path = [name, *_hexes(rest, context, example)]
        if len(path) < 2 or rest:
            raise syntax(
                "TO is followed by the road hexes the new units march to",
                "CONVERT C4 3 MELEE TO D4 E4",
            )
    state = context.state
    _refused(
        refuse_convert(
            state, context.seat, name, sum(counts.values()), context.spent, context.money
        )
    )
    if path:
        _refused(refuse_road_march(state, context.seat, path))
    context.spent[name] = context.spent.get(name, 0) + 1
    context.money -= min(3, context.money)
    return Convert(
        base.line_no,
        base.text,
        name,
        counts["melee"],
        counts["ranged"],
        counts["magic"],
        tuple(path[1:]),
    )


def refuse_road_march(state: GameState, seat: str, path: list[str]) -> Refusal | None:
    """New military "may then use roads on that very turn": every hex of the march has a road."""
    if not all(state.peek(n).has("road") for n in path):
        return Refusal(
            "the new units march only along roads, from a barracks with a road", "roads_same_turn"
        )
    return refuse_path(state, seat, path, "melee")


def _upgrade(base: Order, words: list[str], context: _Context) -> Upgrade:
    if len(words) != 1:
        raise syntax("UPGRADE takes MELEE, BEASTS or RANGED", EXAMPLES["UPGRADE"])
    track = match_word(words[0], TRACKS, "upgrade", EXAMPLES["UPGRADE"])
    state = context.state
    _refused(refuse_upgrade(state, context.seat, track, state.seat(context.seat)))
    return Upgrade(base.line_no, base.text, track)


def _grow(base: Order, words: list[str], context: _Context) -> Grow:
    if len(words) != 1:
        raise syntax("GROW takes the hex where new population goes", EXAMPLES["GROW"])
    name = _hex(words[0], context, EXAMPLES["GROW"])
    if name not in context.state.held(context.seat) or context.state.is_sea(name):
        raise illegal(f"{name} is not a land hex of yours", RULES["grow"])
    return Grow(base.line_no, base.text, name)


PARSERS: dict[str, Callable[[Order, list[str], _Context], Order]] = {
    "MOVE": _move,
    "ATTACK": _attack,
    "BRIBE": _bribe,
    "BUILD": _build,
    "CONVERT": _convert,
    "UPGRADE": _upgrade,
    "GROW": _grow,
}
KEYWORDS = spellings_of(
    {
        "MOVE": ("MARCH", "SAIL"),
        "ATTACK": (),
        "BRIBE": (),
        "BUILD": (),
        "CONVERT": ("RECRUIT",),
        "UPGRADE": (),
        "GROW": (),
    }
)
# A line starting with a building's name ("FARM D3") is told to try BUILD.
TOPICS = dict.fromkeys(WORKS, "BUILD")
assert set(KEYWORDS.values()) == set(PARSERS)
assert set(UNITS.values()) == set(UNIT_KINDS)
