"""The game state of Culture & Conquest, and its tables (written to plain JSON
and read back by engine.serial).

Without a map (the game as written) a culture is its populations in five specialist categories,
its cities (each with at most one Wonder), its leaders, advances, gold and food. In the map
version (option `map`) the same totals stand, and the map says in which territory each
population, city and leader is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.hexgrid import hex_name, neighbours, reading_key
from engine.serial import Serialisable, sparse
from engine.turns import seat_named

CATEGORIES = ("army", "agriculture", "trade", "labor", "scholars")
CATEGORY_TITLES = {
    "army": "Army",
    "agriculture": "Agriculture",
    "trade": "Trade",
    "labor": "Labor",
    "scholars": "Scholars",
}
# Population lost to disasters, starvation and tribute comes from the largest category first;
# among equal categories in this order (a project decision: the text is silent).
LOSS_TIES = ("trade", "labor", "scholars", "agriculture", "army")

ADVANCES = (
    "Pottery",
    "Religion",
    "Astronomy",
    "Literacy",
    "Medicine",
    "Coinage",
    "Engineering",
    "Mathematics",
    "Architecture",
    "Law",
    "Music",
    "Democracy",
    "Philosophy",
    "Metal Working",
    "Drama and Poetry",
    "Art and Sculpture",
    "Military Doctrine",
    "Irrigation",
    "Navigation",
    "Equestrian",
)  # in table order: a d20 roll of n gives ADVANCES[n - 1]

CULTURES = (
    ("Egyptian", "Engineering"),
    ("Mesopotamian", "Mathematics"),
    ("Athenian", "Philosophy"),
    ("Roman", "Law"),
    ("Minoan", "Music"),
    ("Persian", "Coinage"),
    ("Assyrian", "Metal Working"),
    ("Babylonian", "Astronomy"),
    ("Mycenaean", "Pottery"),
    ("Phoenician", "Navigation"),
    ("Spartan", "Military Doctrine"),
    ("Mongolian", "Equestrian"),
)  # a d12 roll of n gives CULTURES[n - 1]

DISASTERS = (
    "Flood",
    "Earthquake",
    "Volcano",
    "Pirates",
    "Barbarians",
    "Civil War",
    "Heresy",
    "Anarchy",
    "Epidemic",
    "Famine",
    "Uprising",
    "Corruption",
    "Drought",
    "Hurricane",
    "Sands of Time",
    "Mad King",
    "Pestilence",
    "Unrest",
    "Unrest",
    "Unrest",
)  # a d20 roll of n gives DISASTERS[n - 1]

# Wonder: (advance required, note). "Sculpture" is read as Art and Sculpture and "Currency"
# (not an advance) as Coinage.
WONDERS = {
    "Sphinx": "Art and Sculpture",
    "Colossus": "Metal Working",
    "Oracle": "Religion",
    "Hanging Gardens": "Irrigation",
    "Parthenon": "Architecture",
    "Stonehenge": "Astronomy",
    "Lighthouse": "Navigation",
    "Pyramids": "Engineering",
    "Great Wall": "Coinage",
    "Great Library": "Literacy",
}
CHEAP_WONDERS = ("Sphinx", "Stonehenge")  # "Costs same as City"

LEADER_TYPES = ("Ruler", "General", "Thinker", "Builder")  # a d6 of n (1-4) gives the n-th
LEADER_NAMES = {
    "Ruler": ("Solomon", "Cleopatra", "Theseus"),
    "General": ("Sun Tzu", "Attila the Hun", "Hannibal", "Caesar", "Alexander"),
    "Thinker": ("Homer", "Siddhartha", "Aristotle", "Archimedes", "Confucius", "Plato"),
    "Builder": ("Nebuchadnezzar", "Cheops", "Gilgamesh"),
}

CITY_NAMES = (
    "Alexandria",
    "Antioch",
    "Athens",
    "Babylon",
    "Byzantium",
    "Cadiz",
    "Canton",
    "Carthage",
    "Ch'ang-an",
    "Damascus",
    "Delphi",
    "Giza",
    "Jericho",
    "Jerusalem",
    "Knossos",
    "Lo-yang",
    "Rome",
    "Sparta",
    "Thebes",
    "Troy",
    "Ur",
)
# A culture's first city takes the name of its own city on the list where there is one.
CAPITALS = {
    "Egyptian": "Giza",
    "Mesopotamian": "Ur",
    "Athenian": "Athens",
    "Roman": "Rome",
    "Minoan": "Knossos",
    "Babylonian": "Babylon",
    "Phoenician": "Carthage",
    "Spartan": "Sparta",
}
TRIBUTES = ("city", "gold", "population")
SEAT_LETTERS = "ABCDEFGHIJKL"


def in_category_order(pops: dict[str, int]) -> dict[str, int]:
    """Populations by category in CATEGORIES order, the order every table and report uses."""
    return {category: pops.get(category, 0) for category in CATEGORIES}


@dataclass
class Leader:
    name: str
    kind: str  # one of LEADER_TYPES


@dataclass
class City:
    name: str
    wonder: str = ""


@dataclass
class Project:
    """A City or Wonder under construction. A Wonder is built in `city`."""

    kind: str  # 'city' or 'wonder'
    name: str  # the city's name, or the wonder's
    labor: int = 0
    city: str = ""


@dataclass
class Support:
    """A standing order: send `armies` armies (and a General if `general`) to `seat`'s side."""

    seat: str
    armies: int
    general: bool = False


@dataclass
class Standing:
    """Standing orders: what a player would decide at the table while another plays."""

    surrender_below: int = 0  # surrender when the own army falls below this; 0: never
    tribute: list[str] = field(default_factory=lambda: list(TRIBUTES))
    supports: list[Support] = field(default_factory=list)


@dataclass
class Seat:
    name: str
    letter: str
    culture: str
    pops: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CATEGORIES, 0))
    gold: int = 0
    food: int = 0
    advances: list[str] = field(default_factory=list)  # in the order gained
    leaders: list[Leader] = field(default_factory=list)
    cities: list[City] = field(default_factory=list)  # in the order founded or taken
    projects: list[Project] = field(default_factory=list)
    wonders_built: list[str] = field(default_factory=list)  # for victory, kept when lost
    labor_credit: int = 0  # labor traded in (+) or out (-), for the next build phase
    alive: bool = True
    standing: Standing = field(default_factory=Standing)

    def __post_init__(self) -> None:
        self.pops = in_category_order(self.pops)

    def has(self, advance: str) -> bool:
        return advance in self.advances

    @property
    def population(self) -> int:
        return sum(self.pops.values())

    @property
    def army(self) -> int:
        return self.pops["army"]

    def wonders(self) -> list[str]:
        """The Wonders in the seat's cities now (whose effects it enjoys)."""
        return [city.wonder for city in self.cities if city.wonder]

    def has_wonder(self, wonder: str) -> bool:
        return wonder in self.wonders()

    def leaders_of(self, kind: str) -> list[Leader]:
        return [leader for leader in self.leaders if leader.kind == kind]

    def city(self, name: str) -> City | None:
        return next((c for c in self.cities if c.name.lower() == name.lower()), None)


@dataclass
class Item:
    """One thing in a trade: gold, food, labor or populations (with a count), a city, advance or
    leader (by name), or a promise (its text)."""

    kind: str  # gold food labor population city advance leader promise
    count: int = 0
    name: str = ""  # city, advance, leader name; the category of populations; promise text

    def key(self) -> tuple[str, int, str]:
        return (self.kind, self.count, self.name.lower())

    def describe(self) -> str:
        if self.kind == "population":
            return f"{self.count} {self.name} population"
        if self.kind == "labor":
            return f"{self.count} labor points"
        if self.kind in ("gold", "food"):
            return f"{self.count} {self.kind}"
        if self.kind == "promise":
            return f'promise "{self.name}"'
        return f"{self.kind} {self.name}"


def describe_items(items: list[Item] | tuple[Item, ...]) -> str:
    return ", ".join(item.describe() for item in items) or "nothing"


def same_items(one: list[Item] | tuple[Item, ...], two: list[Item] | tuple[Item, ...]) -> bool:
    return sorted(i.key() for i in one) == sorted(i.key() for i in two)


@dataclass
class Offer:
    """An open trade offer: `seat` gives `give` to `to` for `get`. It is tried in the offering
    seat's trade phase of the turn it is made and of that seat's next turn, then expires."""

    id: str
    seat: str
    to: str
    give: list[Item]
    get: list[Item]
    step: int  # the turn it was made
    tries: int = 0  # trade phases of the offering seat it has been tried in
    line_no: int = 0  # of the OFFER line in the orders of turn `step`

    def describe(self) -> str:
        return f"{describe_items(self.give)} FOR {describe_items(self.get)}"


@dataclass
class Acceptance:
    """A seat's ACCEPT, kept until an offer of `seat` matches it or it expires."""

    by: str
    seat: str  # the offering seat
    offer_id: str  # '' when accepted by its terms
    give: list[Item]  # the offer's terms as the accepting seat wrote them (if no id)
    get: list[Item]
    step: int  # the turn it was given in
    last_step: int  # the last turn in which it counts
    line_no: int = 0

    def matches(self, offer: Offer) -> bool:
        if offer.seat != self.seat or offer.to != self.by:
            return False
        if self.offer_id:
            return offer.id.lower() == self.offer_id.lower()
        return same_items(offer.give, self.give) and same_items(offer.get, self.get)


LAND, SEA = "L", "~"


@dataclass
class Territory:
    """A land territory of the map: the seat that controls it ('' for nobody) and its tokens."""

    owner: str = ""
    pops: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CATEGORIES, 0))
    city: str = ""  # the name of the city in it ('' for none): one City per territory
    leaders: list[str] = field(default_factory=list)  # names of the owner's leaders in it

    def __post_init__(self) -> None:
        self.pops = in_category_order(self.pops)

    @property
    def population(self) -> int:
        return sum(self.pops.values())

    @property
    def army(self) -> int:
        return self.pops["army"]

    def empty(self) -> bool:
        return not (self.population or self.city or self.leaders)


@dataclass
class Land:
    """The map: one row string per row of hexes, LAND or SEA, which never changes; and the land
    territories by name ("C4"), in reading order."""

    rows: tuple[str, ...]
    territories: dict[str, Territory]

    def __post_init__(self) -> None:
        # Stored JSON has its keys sorted as text ("A10" before "A2"); play goes in reading order.
        self.territories = dict(sorted(self.territories.items(), key=_reading))

    @classmethod
    def blank(cls, rows: tuple[str, ...]) -> Land:
        names = [
            hex_name(c, r) for r, line in enumerate(rows) for c, ch in enumerate(line) if ch == LAND
        ]
        return cls(tuple(rows), {name: Territory() for name in names})

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def height(self) -> int:
        return len(self.rows)

    def is_land(self, name: str) -> bool:
        return name in self.territories

    def spaces(self) -> list[str]:
        """Every space, land and sea, in reading order."""
        return [hex_name(c, r) for r in range(self.height) for c in range(self.width)]

    def neighbours(self, name: str) -> tuple[str, ...]:
        return neighbours(self.width, self.height, name)

    def land_neighbours(self, name: str) -> list[str]:
        return [n for n in self.neighbours(name) if n in self.territories]

    def coastal(self, name: str) -> bool:
        """A land territory next to a sea space."""
        return name in self.territories and any(
            n not in self.territories for n in self.neighbours(name)
        )

    def owned(self, seat: str) -> list[str]:
        return [n for n, t in self.territories.items() if t.owner == seat]

    def where_city(self, city: str) -> str:
        return next((n for n, t in self.territories.items() if t.city == city), "")

    def where_leader(self, leader: str) -> str:
        return next((n for n, t in self.territories.items() if leader in t.leaders), "")


def _reading(item: tuple[str, Territory]) -> tuple[int, int]:
    return reading_key(item[0])


@dataclass
class GameState(Serialisable):
    json_tag: ClassVar[dict[str, str]] = {"ruleset": "culture-and-conquest"}

    seats: list[Seat]  # in turn order, as rolled at setup
    options: dict[str, Any]
    offers: list[Offer] = field(default_factory=list)
    acceptances: list[Acceptance] = field(default_factory=list)
    wonders_lost: list[str] = field(default_factory=list)  # destroyed: never built again
    round: int = 1
    active: int = 0  # sequential mode: index of the seat whose turn is pending
    step: int = 1  # the number of the pending turn as the service counts turns
    winners: list[str] = field(default_factory=list)
    end_reason: str = ""
    land: Land | None = sparse(None, key="map")  # the map version's; None without a map

    def seat(self, name: str) -> Seat:
        return seat_named(self.seats, name)

    def all_cities(self) -> list[tuple[str, City]]:
        return [(seat.name, city) for seat in self.seats for city in seat.cities]

    def city_owner(self, name: str) -> str:
        return next((s for s, c in self.all_cities() if c.name.lower() == name.lower()), "")

    def wonder_taken(self, wonder: str) -> bool:
        """Built (standing or destroyed) by anyone: each Wonder is built once in a game."""
        return wonder in self.wonders_lost or any(wonder in s.wonders_built for s in self.seats)

    def names_in_use(self) -> set[str]:
        """City names standing or under construction, in lower case."""
        names = {city.name.lower() for _, city in self.all_cities()}
        return names | {p.name.lower() for s in self.seats for p in s.projects if p.kind == "city"}
