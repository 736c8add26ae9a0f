"""The orders of Culture & Conquest and the parser that reads them from a seat's order lines.

Every line is read on its own: one bad line never spoils the good ones. A line that cannot be
read is a syntax problem with an example; one that reads but breaks a rule is illegal and cites
the rule; one that reads more than one way lists the readings.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from engine.hexgrid import hex_name, looks_like_hex, parse_hex_name
from engine.order_lines import OrderBase, OrderLine, read_orders
from engine.problems import ambiguous, illegal, syntax
from engine.records import ParsedOrders
from engine.rulesets.culture_and_conquest.geography import SEA_REACH, adjacent_own, city_site, way
from engine.rulesets.culture_and_conquest.legality import (
    NAME_LENGTH,
    Refusal,
    refuse_city,
    refuse_move,
    refuse_wonder,
)
from engine.rulesets.culture_and_conquest.model import (
    ADVANCES,
    CATEGORIES,
    CATEGORY_TITLES,
    LEADER_NAMES,
    TRIBUTES,
    WONDERS,
    GameState,
    Item,
    describe_items,
)
from engine.rulesets.culture_and_conquest.rules import RULES
from engine.words import match_seat, match_word, normal, parse_count, plural, shown, spellings_of

Order = OrderBase  # every order of this game derives from it


@dataclass(frozen=True)
class Move(Order):
    count: int
    source: str
    target: str
    at: str = ""  # map version: the territory where they change category ('' for the default)

    def understood(self) -> str:
        where = f" in {self.at}" if self.at else ""
        return (
            f"move {plural(self.count, 'population')} from {CATEGORY_TITLES[self.source]} "
            f"to {CATEGORY_TITLES[self.target]}{where}"
        )


@dataclass(frozen=True)
class March(Order):
    """Map version, Move Phase: populations of a category (or a leader) from one territory to
    another."""

    count: int
    category: str  # '' for a leader
    origin: str
    dest: str
    leader: str = ""

    def understood(self) -> str:
        if self.leader:
            return f"move the leader {self.leader} from {self.origin} to {self.dest}"
        what = f"{CATEGORY_TITLES[self.category]} {plural(self.count, 'population')}"
        return f"move {what} from {self.origin} to {self.dest}"


@dataclass(frozen=True)
class Attack(Order):
    target: str
    give_up: int  # give up after losing this many armies; 0 for never
    at: str = ""  # map version: the territory attacked

    def understood(self) -> str:
        whom = f"seat {self.target}'s territory {self.at}" if self.at else f"seat {self.target}"
        stop = f"give up after losing {plural(self.give_up, 'army', 'armies')}"
        return f"attack {whom}, {stop if self.give_up else 'never giving up'}"


@dataclass(frozen=True)
class SupportOrder(Order):
    seat: str
    armies: int  # 0 cancels
    general: bool

    def understood(self) -> str:
        sent = [plural(self.armies, "army", "armies")] if self.armies else []
        sent += ["a General"] if self.general else []
        if not sent:
            return f"standing order: stop supporting seat {self.seat}"
        return f"standing order: send {' and '.join(sent)} to seat {self.seat}'s wars"


@dataclass(frozen=True)
class Surrender(Order):
    below: int  # 0 for never

    def understood(self) -> str:
        if not self.below:
            return "standing order: never surrender"
        return f"standing order: surrender if your Army falls below {self.below}"


@dataclass(frozen=True)
class Tribute(Order):
    kinds: tuple[str, ...]

    def understood(self) -> str:
        return f"standing order: pay tribute in {', then '.join(self.kinds)}"


@dataclass(frozen=True)
class OfferOrder(Order):
    to: str
    give: tuple[Item, ...]
    get: tuple[Item, ...]

    def understood(self) -> str:
        return f"offer seat {self.to} {describe_items(self.give)} for {describe_items(self.get)}"


@dataclass(frozen=True)
class Accept(Order):
    seat: str
    offer_id: str  # '' when accepted by its terms
    give: tuple[Item, ...]  # the terms as the offer reads: what `seat` gives
    get: tuple[Item, ...]

    def understood(self) -> str:
        if self.offer_id:
            return f"accept seat {self.seat}'s offer {self.offer_id}"
        terms = f"{describe_items(self.give)} for {describe_items(self.get)}"
        return f"accept seat {self.seat}'s offer of {terms}"


@dataclass(frozen=True)
class Withdraw(Order):
    offer_id: str

    def understood(self) -> str:
        return f"withdraw your offer {self.offer_id}"


@dataclass(frozen=True)
class Build(Order):
    kind: str  # 'city' or 'wonder'
    name: str  # the city's name ('' for the next on the list), or the wonder's
    city: str  # a wonder's city ('' for the first free one); map version: a city's territory
    points: int  # most labor points to spend; 0 for as many as it needs

    def understood(self) -> str:
        spend = f"spending at most {self.points}" if self.points else "spending what it needs"
        if self.kind == "city":
            name = self.name or "(the next name on the list)"
            where = f" in {self.city}" if self.city else ""
            return f"build the city {name}{where}, {spend}"
        where = f" in {self.city}" if self.city else " in your first city without one"
        return f"build the Wonder {self.name}{where}, {spend}"


STANDING = (SupportOrder, Surrender, Tribute)

CATEGORY_WORDS = spellings_of(
    {
        "army": ("armies", "military"),
        "agriculture": ("agricultural", "farmers", "farming"),
        "trade": ("traders", "merchants"),
        "labor": ("labour", "laborers", "labourers"),
        "scholars": ("scholar",),
    }
)
ADVANCE_WORDS = spellings_of(
    {name: () for name in ADVANCES}
    | {"Metal Working": ("metalworking",), "Art and Sculpture": ("sculpture",)}
)
WONDER_WORDS = spellings_of({name: () for name in WONDERS})
TRIBUTE_WORDS = spellings_of(
    {"gold": (), "city": ("cities",), "population": ("populations", "pop", "pops")}
)
AMOUNT_WORDS = spellings_of(
    {"gold": (), "food": (), "labor": ("labour",), "population": ("populations", "pop", "pops")}
)
ITEM_WORDS = spellings_of(
    {"city": (), "advance": (), "leader": (), "promise": (), "nothing": ("none",)}
)

EXAMPLES = {
    "MOVE": "MOVE 3 AGRICULTURE TO LABOR",
    "ATTACK": "ATTACK bob GIVE UP IF LOSSES 3",
    "SUPPORT": "SUPPORT bob 2 ARMIES GENERAL",
    "SURRENDER": "SURRENDER IF ARMY BELOW 2",
    "TRIBUTE": "TRIBUTE CITY, GOLD, POPULATION",
    "OFFER": "OFFER bob 10 GOLD, ADVANCE Pottery FOR CITY Troy",
    "ACCEPT": "ACCEPT ann 4A1",
    "WITHDRAW": "WITHDRAW 4A1",
    "BUILD": "BUILD WONDER Pyramids IN Giza",
    "MARCH": "MOVE 2 ARMY C4 TO D4",
    "LEADER": "MOVE LEADER Caesar TO D4",
    "MAP ATTACK": "ATTACK D4 GIVE UP IF LOSSES 3",
    "MAP BUILD": "BUILD CITY Memphis IN D4",
}


@dataclass
class _Context:
    """What earlier lines of the same text said, for checks that span lines."""

    state: GameState
    seat: str
    moved_in: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CATEGORIES, 0))
    moved_out: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CATEGORIES, 0))
    raised: int = 0
    attack_line: int = 0
    cities_named: set[str] = field(default_factory=set)
    wonder_cities: set[str] = field(default_factory=set)
    city_sites: set[str] = field(default_factory=set)  # map version: territories of BUILD CITY
    local: dict[tuple[str, str], int] = field(default_factory=dict)  # MOVE ... IN changes

    def count(self, category: str) -> int:
        """The category's populations after the earlier MOVE lines."""
        base = self.state.seat(self.seat).pops[category]
        return base + self.moved_in[category] - self.moved_out[category]


def parse(state: GameState, seat: str, text: str) -> ParsedOrders:
    context = _Context(state, seat)
    return read_orders(text, KEYWORDS, EXAMPLES, partial(_read_line, context=context), TOPICS)


def _read_line(line: OrderLine, context: _Context) -> Order:
    return PARSERS[line.keyword](Order(line.line_no, line.text), line.words, context)


def _refused(refusal: Refusal | None) -> None:
    if refusal:
        raise illegal(refusal.message, RULES[refusal.rule])


def _number(word: str, what: str, keyword: str) -> int:
    return parse_count(word, what, EXAMPLES[keyword])


def _seat_name(word: str, context: _Context, keyword: str, out_too: bool = False) -> str:
    others = [(s.name, s.letter) for s in context.state.seats if s.name != context.seat]
    name = match_seat(word, others, EXAMPLES[keyword])
    if not out_too and not context.state.seat(name).alive:
        raise illegal(f"{name} is out of the game", RULES["setup"])
    return name


def _move(base: Order, words: list[str], context: _Context) -> Move | March:
    land = context.state.land
    if land is not None and words and normal(words[0]) == "leader":
        return _march_leader(base, words[1:], context)
    at = ""
    upper = [w.upper() for w in words]
    if land is not None and "IN" in upper:
        if upper.index("IN") != len(words) - 2:
            raise syntax("IN takes one territory, at the end", "MOVE 3 AGRICULTURE TO LABOR IN C4")
        at = _own_territory(words[-1], context, "MOVE", "distribution")
        words = words[:-2]
    rest = [w for w in words if w.upper() not in ("TO", "FROM")]
    if land is not None and len(rest) == 4 and all(looks_like_hex(w) for w in rest[2:]):
        if at:
            raise syntax("IN is for a change of category, not a move", EXAMPLES["MARCH"])
        return _march(base, rest, context)
    if len(rest) != 3:
        raise syntax(
            "MOVE takes a number, the category to take from and the one to", EXAMPLES["MOVE"]
        )
    count = _number(rest[0], "populations", "MOVE")
    if count == 0:
        raise syntax("move 1 or more populations", EXAMPLES["MOVE"])
    source = match_word(rest[1], CATEGORY_WORDS, "category", EXAMPLES["MOVE"])
    target = match_word(rest[2], CATEGORY_WORDS, "category", EXAMPLES["MOVE"])
    seat = context.state.seat(context.seat)
    _refused(
        refuse_move(
            context.count(source),
            count,
            source,
            target,
            context.moved_in[target],
            context.moved_out[source],
        )
    )
    if target == "army" and context.raised + count > seat.gold:
        raise illegal(
            f"raising {plural(context.raised + count, 'army', 'armies')} costs "
            f"{context.raised + count} gold and you have {seat.gold}",
            RULES["army_cost"],
        )
    if target == "scholars" and context.count("scholars") + count > len(seat.cities):
        raise illegal(
            f"{context.count('scholars') + count} scholars, but with "
            f"{plural(len(seat.cities), 'city', 'cities')} you may have {len(seat.cities)}",
            RULES["scholar_limit"],
        )
    if at:
        _check_local(context, at, source, count)
    context.moved_out[source] += count
    context.moved_in[target] += count
    context.raised += count if target == "army" else 0
    return Move(base.line_no, base.text, count, source, target, at)


def _check_local(context: _Context, at: str, source: str, count: int) -> None:
    """A change of category IN a territory takes populations that are there."""
    land = context.state.land
    assert land is not None
    have = land.territories[at].pops[source] + context.local.get((at, source), 0)
    if count > have:
        raise illegal(
            f"{at} has {have} {CATEGORY_TITLES[source]} populations, not {count}",
            RULES["distribution"],
        )
    context.local[(at, source)] = context.local.get((at, source), 0) - count


def _territory(word: str, context: _Context, keyword: str) -> str:
    """A land territory of the map, by its name ("C4")."""
    land = context.state.land
    assert land is not None
    place = parse_hex_name(word)
    if place is None:
        raise syntax(
            f"'{shown(word)}' is not a territory (a letter and a number)", EXAMPLES[keyword]
        )
    name = hex_name(*place)
    if name not in land.spaces():
        raise syntax(f"there is no space {name} on the map", EXAMPLES[keyword])
    if not land.is_land(name):
        raise illegal(f"{name} is sea", RULES["navigation"])
    return name


def _own_territory(word: str, context: _Context, keyword: str, rule: str) -> str:
    name = _territory(word, context, keyword)
    owner = context.state.land.territories[name].owner if context.state.land else ""
    if owner != context.seat:
        raise illegal(f"{name} is not yours", RULES[rule])
    return name


def _check_way(context: _Context, origin: str, dest: str) -> None:
    land = context.state.land
    assert land is not None
    navigation = context.state.seat(context.seat).has("Navigation")
    if origin == dest:
        raise syntax(f"{origin} to itself is no move", EXAMPLES["MARCH"])
    if way(land, origin, dest, navigation):
        return
    if not navigation:
        raise illegal(
            f"{dest} is not next to {origin} (moving by sea needs Navigation)", RULES["move"]
        )
    raise illegal(
        f"{dest} is neither next to {origin} nor within {SEA_REACH} sea spaces of it, coast to "
        "coast",
        RULES["navigation"],
    )


def _march(base: Order, rest: list[str], context: _Context) -> March:
    """MOVE <n> <category> [FROM] <territory> [TO] <territory>."""
    land = context.state.land
    assert land is not None
    count = _number(rest[0], "populations", "MARCH")
    if count == 0:
        raise syntax("move 1 or more populations", EXAMPLES["MARCH"])
    category = match_word(rest[1], CATEGORY_WORDS, "category", EXAMPLES["MARCH"])
    origin = _own_territory(rest[2], context, "MARCH", "move")
    dest = _territory(rest[3], context, "MARCH")
    _check_way(context, origin, dest)
    owner = land.territories[dest].owner
    if owner and owner != context.seat and category != "army":
        raise illegal(f"only an Army can move into {owner}'s territory {dest}", RULES["capture"])
    return March(base.line_no, base.text, count, category, origin, dest)


def _march_leader(base: Order, words: list[str], context: _Context) -> March:
    """MOVE LEADER <name> TO <territory>."""
    land = context.state.land
    assert land is not None
    upper = [w.upper() for w in words]
    if "TO" not in upper or upper.index("TO") != len(words) - 2 or len(words) < 3:
        raise syntax("MOVE LEADER <name> TO <territory>", EXAMPLES["LEADER"])
    name = _leader_name(" ".join(words[:-2]), EXAMPLES["LEADER"])
    if not any(x.name == name for x in context.state.seat(context.seat).leaders):
        raise illegal(f"you have no leader called {name}", RULES["move"])
    origin = land.where_leader(name)
    if not origin:
        raise illegal(f"{name} stands in no territory of yours", RULES["move"])
    dest = _territory(words[-1], context, "LEADER")
    _check_way(context, origin, dest)
    owner = land.territories[dest].owner
    if owner and owner != context.seat:
        raise illegal(f"a leader cannot take {owner}'s territory {dest}", RULES["capture"])
    return March(base.line_no, base.text, 1, "", origin, dest, name)


def _attack(base: Order, words: list[str], context: _Context) -> Attack:
    if not words:
        raise syntax("ATTACK needs the seat to attack", EXAMPLES["ATTACK"])
    at = ""
    if context.state.land is not None:
        at, target = _attacked_territory(words[0], context)
    else:
        target = _seat_name(words[0], context, "ATTACK")
    rest = [w.upper() for w in words[1:]]
    give_up = 0
    if rest:
        if rest[:-1] not in (["GIVE", "UP", "IF", "LOSSES"], ["UNTIL"]) or len(rest) < 2:
            raise syntax("ATTACK <seat> [GIVE UP IF LOSSES <n>]", EXAMPLES["ATTACK"])
        give_up = _number(rest[-1], "losses", "ATTACK")
    if context.attack_line:
        raise illegal(f"you already attack on line {context.attack_line}", RULES["attack"])
    if context.count("army") == 0:
        raise illegal("you have no Army to attack with", RULES["attack"])
    context.attack_line = base.line_no
    return Attack(base.line_no, base.text, target, give_up, at)


def _attacked_territory(word: str, context: _Context) -> tuple[str, str]:
    """Map version: the territory attacked and its owner."""
    land = context.state.land
    assert land is not None
    if not looks_like_hex(word):
        raise syntax("on the map, ATTACK names the territory to attack", EXAMPLES["MAP ATTACK"])
    at = _territory(word, context, "MAP ATTACK")
    owner = land.territories[at].owner
    if not owner or owner == context.seat:
        raise illegal(f"{at} is not an opponent's territory", RULES["map_attack"])
    if not adjacent_own(land, context.seat, at):
        raise illegal(f"none of your territories is next to {at}", RULES["map_attack"])
    return at, owner


def _support(base: Order, words: list[str], context: _Context) -> SupportOrder:
    if len(words) < 2:
        raise syntax("SUPPORT takes a seat and a number of armies", EXAMPLES["SUPPORT"])
    rest = [w.upper() for w in words[1:]]
    stop = rest[0] in ("NONE", "NO", "STOP")
    seat = _seat_name(words[0], context, "SUPPORT", out_too=stop)
    alone = rest[0] == "GENERAL"  # SUPPORT <seat> GENERAL: a General with no Armies
    armies = 0 if stop or alone else _number(rest[0], "armies", "SUPPORT")
    rest = rest if alone else rest[1:]
    if rest and normal(rest[0]) in ("army", "armies"):
        rest = rest[1:]
    general = rest == ["GENERAL"]
    if rest and not general:
        raise syntax("SUPPORT <seat> <n> [ARMIES] [GENERAL]", EXAMPLES["SUPPORT"])
    if general and not context.state.seat(context.seat).leaders_of("General"):
        raise illegal("you have no General to send", RULES["allies"])
    return SupportOrder(base.line_no, base.text, seat, armies, general)


def _surrender(base: Order, words: list[str], context: _Context) -> Surrender:
    upper = [w.upper() for w in words]
    if upper in (["NEVER"], ["NO"]):
        return Surrender(base.line_no, base.text, 0)
    if len(upper) != 4 or upper[:3] != ["IF", "ARMY", "BELOW"]:
        raise syntax("SURRENDER IF ARMY BELOW <n>, or SURRENDER NEVER", EXAMPLES["SURRENDER"])
    return Surrender(base.line_no, base.text, _number(upper[3], "armies", "SURRENDER"))


def _tribute(base: Order, words: list[str], context: _Context) -> Tribute:
    parts = " ".join(words).replace(",", " ").split()
    if not parts:
        raise syntax("TRIBUTE takes GOLD, CITY or POPULATION, in your order", EXAMPLES["TRIBUTE"])
    kinds = [match_word(p, TRIBUTE_WORDS, "tribute", EXAMPLES["TRIBUTE"]) for p in parts]
    kinds = list(dict.fromkeys(kinds))
    kinds += [k for k in TRIBUTES if k not in kinds]
    return Tribute(base.line_no, base.text, tuple(kinds))


def split_terms(text: str, example: str) -> tuple[str, str]:
    """'<what> FOR <what>' split at the one FOR outside quotes."""
    words, quoted, at = text.split(" "), False, []
    for index, word in enumerate(words):
        if word.count('"') % 2:
            quoted = not quoted
        if not quoted and word.upper() == "FOR":
            at.append(index)
    if len(at) != 1:
        raise syntax("an offer is <what you give> FOR <what you get>", example)
    return " ".join(words[: at[0]]), " ".join(words[at[0] + 1 :])


def parse_items(text: str, example: str) -> list[Item]:
    """Items separated by commas (outside quotes): '10 GOLD', '2 LABOR POINTS',
    '3 POPULATION LABOR', '2 ARMY',
    'CITY Troy', 'ADVANCE Pottery', 'LEADER Sun Tzu', 'PROMISE "..."', 'NOTHING'."""
    parts, current, quoted = [], "", False
    for char in text:
        if char == '"':
            quoted = not quoted
        if char == "," and not quoted:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    items = [_item(part.split(), example) for part in parts if part.strip()]
    if not items:
        raise syntax("say what is traded, or NOTHING", example)
    return [item for item in items if item.kind != "nothing"]


def _item(words: list[str], example: str) -> Item:  # noqa: C901 - one case per way to write it
    if words[0].isdigit():
        count = int(words[0])
        if count == 0 or len(words) not in (2, 3):
            raise syntax(f"'{' '.join(words)}' is not a number and a thing to trade", example)
        if normal(words[1]) == "labor" and len(words) == 2:
            raise ambiguous(
                f"'{' '.join(words)}' could be labor points or Labor populations",
                (f"{count} LABOR POINTS", f"{count} POPULATION LABOR"),
            )
        if normal(words[1]) == "labor" and normal(words[2]) in ("point", "points"):
            return Item("labor", count)
        if normal(words[1]) in CATEGORY_WORDS and len(words) == 2:
            return Item("population", count, CATEGORY_WORDS[normal(words[1])])
        kind = match_word(words[1], AMOUNT_WORDS, "thing to count", example)
        if kind != "population":
            if len(words) == 3:
                raise syntax(f"unexpected '{words[2]}'", example)
            return Item(kind, count)
        category = "agriculture"
        if len(words) == 3:
            category = match_word(words[2], CATEGORY_WORDS, "category", example)
        return Item("population", count, category)
    kind = match_word(words[0], ITEM_WORDS, "thing to trade", example)
    name = " ".join(words[1:]).strip()
    if kind == "nothing":
        if name:
            raise syntax("NOTHING takes nothing after it", example)
        return Item("nothing")
    if not name:
        raise syntax(f"{kind.upper()} needs a name after it", example)
    if kind == "advance":
        return Item(kind, 0, match_word(name, ADVANCE_WORDS, "advance", example))
    if kind == "leader":
        return Item(kind, 0, _leader_name(name, example))
    if kind == "promise":
        return Item(kind, 0, name.strip('"').strip())
    return Item(kind, 0, name)


def _leader_name(name: str, example: str) -> str:
    """A leader's name as written in the Leaders table (a numeral after a reused name)."""
    known = {normal(n): n for names in LEADER_NAMES.values() for n in names}
    base, _, numeral = name.rpartition(" ")
    if base and numeral.isdigit() and normal(base) in known:
        return f"{known[normal(base)]} {numeral}"
    return match_word(name, known, "leader", example)


def _check_offer(context: _Context, to: str, give: list[Item], get: list[Item]) -> None:
    """The offering seat must hold what it gives; the other seat what it is asked for."""
    state = context.state
    mine, theirs = state.seat(context.seat), state.seat(to)
    for item, holder in [(i, mine) for i in give] + [(i, theirs) for i in get]:
        if item.kind == "city" and holder.city(item.name) is None:
            raise illegal(f"{holder.name} has no city called {item.name}", RULES["trade"])
        if item.kind == "advance" and not holder.has(item.name):
            raise illegal(f"{holder.name} does not know {item.name}", RULES["trade"])
        if item.kind == "leader" and not any(x.name == item.name for x in holder.leaders):
            raise illegal(f"{holder.name} has no leader called {item.name}", RULES["trade"])
    if not give and not get:
        raise syntax("an offer of nothing for nothing trades nothing", EXAMPLES["OFFER"])


def _terms(base: Order) -> str:
    """A trade's terms as written, commas and all: the line after its keyword and seat."""
    parts = base.text.split(None, 2)
    return " ".join(parts[2].rstrip(".").split()) if len(parts) == 3 else ""


def _offer(base: Order, words: list[str], context: _Context) -> OfferOrder:
    if len(words) < 3:
        raise syntax("OFFER <seat> <what you give> FOR <what you get>", EXAMPLES["OFFER"])
    to = _seat_name(words[0], context, "OFFER")
    give_text, get_text = split_terms(_terms(base), EXAMPLES["OFFER"])
    give = parse_items(give_text, EXAMPLES["OFFER"])
    get = parse_items(get_text, EXAMPLES["OFFER"])
    _check_offer(context, to, give, get)
    return OfferOrder(base.line_no, base.text, to, tuple(give), tuple(get))


def _accept(base: Order, words: list[str], context: _Context) -> Accept:
    if len(words) < 2:
        raise syntax("ACCEPT <seat> <offer id>, or the offer's terms", EXAMPLES["ACCEPT"])
    seat = _seat_name(words[0], context, "ACCEPT")
    if len(words) == 2 and any(ch.isdigit() for ch in words[1]):
        offer_id = words[1].upper()
        offers = [o for o in context.state.offers if o.id.upper() == offer_id]
        if not offers or offers[0].seat != seat or offers[0].to != context.seat:
            raise illegal(
                f"{seat} has no open offer {offer_id} to you (an offer made this turn is "
                "accepted by its terms)",
                RULES["trade"],
            )
        return Accept(base.line_no, base.text, seat, offers[0].id, (), ())
    example = "ACCEPT ann 10 GOLD FOR ADVANCE Pottery"
    give_text, get_text = split_terms(_terms(base), example)
    give, get = parse_items(give_text, example), parse_items(get_text, example)
    return Accept(base.line_no, base.text, seat, "", tuple(give), tuple(get))


def _withdraw(base: Order, words: list[str], context: _Context) -> Withdraw:
    if len(words) != 1:
        raise syntax("WITHDRAW takes the id of your offer", EXAMPLES["WITHDRAW"])
    offer_id = words[0].upper()
    offer = next((o for o in context.state.offers if o.id.upper() == offer_id), None)
    if offer is None or offer.seat != context.seat:
        raise illegal(f"you have no open offer {offer_id}", RULES["trade"])
    return Withdraw(base.line_no, base.text, offer.id)


def _build(base: Order, words: list[str], context: _Context) -> Build:
    if not words:
        raise syntax("BUILD CITY [name] or BUILD WONDER <wonder> [IN <city>]", EXAMPLES["BUILD"])
    kind = match_word(
        words[0], spellings_of({"city": (), "wonder": ()}), "thing to build", EXAMPLES["BUILD"]
    )
    rest = list(words[1:])
    points = 0
    if rest and rest[-1].isdigit():
        points = int(rest.pop())
        if points == 0:
            raise syntax("spend 1 or more labor points, or leave the number out", "BUILD CITY 20")
        if rest and rest[-1].upper() == "POINTS":
            rest.pop()
    if kind == "city":
        at = ""
        upper = [w.upper() for w in rest]
        if context.state.land is not None and "IN" in upper:
            if upper.index("IN") != len(rest) - 2:
                raise syntax("IN takes one territory, at the end", EXAMPLES["MAP BUILD"])
            at = _own_territory(rest[-1], context, "MAP BUILD", "one_city")
            rest = rest[:-2]
        return _build_city(base, " ".join(rest), points, context, at)
    return _build_wonder(base, rest, points, context)


def _city_site(context: _Context, at: str) -> None:
    """Map version: "One City per territory." """
    land = context.state.land
    if land is None:
        return
    if at:
        if land.territories[at].city or at in context.city_sites:
            raise illegal(f"{at} already has a city", RULES["one_city"])
        context.city_sites.add(at)
    elif not city_site(context.state, context.seat):
        raise illegal("every territory of yours already has a city", RULES["one_city"])


def _build_city(base: Order, name: str, points: int, context: _Context, at: str = "") -> Build:
    if name:
        if len(name) > NAME_LENGTH or not all(ch.isalnum() or ch in " '-." for ch in name):
            raise syntax(
                f"a city name is letters, spaces, ' and - (at most {NAME_LENGTH})",
                "BUILD CITY Thebes",
            )
        if name.lower() in context.cities_named:
            raise illegal(f"{name} is already named on an earlier line", RULES["city"])
        _refused(refuse_city(context.state, context.seat, name))
        context.cities_named.add(name.lower())
    _city_site(context, at)
    return Build(base.line_no, base.text, "city", name, at, points)


def _build_wonder(base: Order, rest: list[str], points: int, context: _Context) -> Build:
    upper = [w.upper() for w in rest]
    city = ""
    if "IN" in upper:
        at = upper.index("IN")
        city, rest = " ".join(rest[at + 1 :]), rest[:at]
        if not city:
            raise syntax("IN needs a city's name", EXAMPLES["BUILD"])
    if not rest:
        raise syntax("BUILD WONDER needs the Wonder's name", EXAMPLES["BUILD"])
    wonder = match_word(" ".join(rest), WONDER_WORDS, "Wonder", EXAMPLES["BUILD"])
    _refused(refuse_wonder(context.state, context.seat, wonder, city))
    key = city.lower() or wonder
    if key in context.wonder_cities:
        raise illegal(
            "only 1 Wonder per City: that one is named on an earlier line", RULES["wonder"]
        )
    context.wonder_cities.add(key)
    holder = context.state.seat(context.seat)
    named = holder.city(city) if city else None
    return Build(base.line_no, base.text, "wonder", wonder, named.name if named else "", points)


PARSERS: dict[str, Callable[[Order, list[str], _Context], Order]] = {
    "MOVE": _move,
    "ATTACK": _attack,
    "SUPPORT": _support,
    "SURRENDER": _surrender,
    "TRIBUTE": _tribute,
    "OFFER": _offer,
    "ACCEPT": _accept,
    "WITHDRAW": _withdraw,
    "BUILD": _build,
}
KEYWORDS = spellings_of(
    {
        "MOVE": ("ASSIGN", "SHIFT"),
        "ATTACK": ("WAR",),
        "SUPPORT": ("SEND", "ALLY"),
        "SURRENDER": (),
        "TRIBUTE": (),
        "OFFER": (),
        "ACCEPT": (),
        "WITHDRAW": (),
        "BUILD": (),
    }
)
assert set(KEYWORDS.values()) == set(PARSERS)
assert set(CATEGORY_WORDS.values()) == set(CATEGORY_TITLES)
# Words that belong to one order, for a line that starts with one of them ("WONDER Pyramids").
TOPICS = (
    dict.fromkeys(WONDER_WORDS, "BUILD")
    | dict.fromkeys(CATEGORY_WORDS, "MOVE")
    | dict.fromkeys(TRIBUTE_WORDS, "TRIBUTE")
    | {"city": "BUILD", "wonder": "BUILD"}
)
