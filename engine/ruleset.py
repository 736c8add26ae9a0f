"""The one interface every ruleset implements.

A game state crosses this interface as plain JSON (dicts, lists, strings, numbers, booleans), so
the service can store it as it is and the same stored inputs always give the same stored outputs.
Inside, a ruleset loads it into its own typed objects.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.mapdata import MapView, Standings
from engine.records import Outcome, ParsedOrders, Resolution

State = dict[str, Any]


class EditError(ValueError):
    """A referee edit that was refused; the message says why."""


class OptionError(ValueError):
    """A game option that does not exist or has a value it cannot take."""


@dataclass(frozen=True)
class OptionSpec:
    """A game option players could reasonably disagree on, with its default and allowed values."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] = ()  # empty: any value of the default's type
    minimum: int | None = None
    maximum: int | None = None

    def check(self, value: Any) -> Any:
        if isinstance(self.default, bool):
            if isinstance(value, str) and value.lower() in ("yes", "true", "on", "1"):
                return True
            if isinstance(value, str) and value.lower() in ("no", "false", "off", "0"):
                return False
            if not isinstance(value, bool):
                raise OptionError(f"option {self.name} takes yes or no, not {value!r}")
            return value
        if isinstance(self.default, int):
            try:
                number = int(value)
            except (TypeError, ValueError):
                raise OptionError(
                    f"option {self.name} takes a whole number, not {value!r}"
                ) from None
            if self.minimum is not None and number < self.minimum:
                raise OptionError(f"option {self.name} is at least {self.minimum}")
            if self.maximum is not None and number > self.maximum:
                raise OptionError(f"option {self.name} is at most {self.maximum}")
            return number
        text = str(value).lower()
        if self.choices and text not in self.choices:
            raise OptionError(f"option {self.name} is one of {', '.join(map(str, self.choices))}")
        return text


@dataclass(frozen=True)
class SeatEdge:
    """The head start of the first seat in the order of play, as measured in seeded bot games
    (`pbem balance`), and the option value that evens it out."""

    share: float  # of the wins, by the first seat, with the default options
    seats: int  # in games of this many seats
    option: str  # the option that evens it out...
    value: str  # ...set to this, as written on the command line
    evened: float  # the first seat's share of the wins with it


class Ruleset(ABC):
    """A game's rules. Subclasses are registered by id and found by id or alias."""

    id: str = ""
    aliases: tuple[str, ...] = ()
    title: str = ""
    min_seats: int = 2
    max_seats: int = 8
    options: tuple[OptionSpec, ...] = ()
    # Options that keep a bot game going past turn 30 (victory out of reach), for bench/engine.py.
    bench_options: ClassVar[Mapping[str, Any]] = {}
    # The seat the examples in docs/orders/<id>.md are written for.
    example_seat: str = "ann"
    # Declared where the first seat wins well over its share; the referee is told when a
    # game is made without the option that evens it.
    first_seat_edge: ClassVar[SeatEdge | None] = None

    def resolve_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Every option with its default, overridden by `given`; unknown names are refused."""
        specs = {spec.name: spec for spec in self.options}
        unknown = sorted(set(given) - set(specs))
        if unknown:
            raise OptionError(f"{self.id} has no option {', '.join(unknown)}")
        return {
            name: spec.check(given[name]) if name in given else spec.default
            for name, spec in specs.items()
        }

    def seat_edge(self, options: Mapping[str, Any]) -> SeatEdge | None:
        """The first seat's edge in a game of these resolved options: None when the ruleset
        declares none or the options already even it out."""
        edge = self.first_seat_edge
        if edge is None:
            return None
        spec = next(spec for spec in self.options if spec.name == edge.option)
        return None if options.get(edge.option) == spec.check(edge.value) else edge

    def order_drawn(self, options: Mapping[str, Any]) -> bool:
        """Whether a game of these resolved options draws its order of play at setup, rather
        than playing its seats in the order they were listed: what the referee is told of
        the first seat's edge depends on it (who plays first is then nobody's choice)."""
        return False

    @abstractmethod
    def new_game(self, seats: Sequence[str], options: Mapping[str, Any], seed: int) -> State:
        """The state at the start of the game, for these seat names, in the order given."""

    @abstractmethod
    def parse_orders(self, state: State, seat: str, text: str) -> ParsedOrders:
        """Read one seat's order lines (no envelope) and check them against the state.
        Never raises on bad text: every bad line becomes a Problem naming it."""

    def orders_to_play(self, state: State, seat: str, text: str) -> ParsedOrders:
        """The seat's orders for resolving the turn: the same orders, problems and ignored
        lines as `parse_orders`; the notes, which only the check reply shows, may be left out
        (a ruleset may then spare the work that only the notes need)."""
        return self.parse_orders(state, seat, text)

    def orders_to_play_of(self, state: State, texts: Mapping[str, str]) -> dict[str, ParsedOrders]:
        """`orders_to_play` of each seat's text (seat -> text), all on the same position: a
        ruleset may read the position once for every seat."""
        return {seat: self.orders_to_play(state, seat, text) for seat, text in texts.items()}

    @abstractmethod
    def resolve(self, state: State, orders: Mapping[str, ParsedOrders], seed: int) -> Resolution:
        """Play the pending turn with these orders. Does not change `state`."""

    @abstractmethod
    def seats_to_order(self, state: State) -> list[str]:
        """The seats whose orders the pending turn waits for."""

    @abstractmethod
    def turn_number(self, state: State) -> int:
        """The number of the pending turn (the one orders are now given for)."""

    @abstractmethod
    def outcome(self, state: State) -> Outcome | None:
        """The result if the game has ended, else None."""

    @abstractmethod
    def render_map(self, state: State, seat: str) -> str:
        """The text map as `seat` sees it, at most 72 columns wide; seat '' is the view of no
        seat (the referees', and the final map for everyone)."""

    @abstractmethod
    def holdings(self, state: State, seat: str) -> str:
        """What `seat` holds, as text for its report."""

    @abstractmethod
    def public_summary(self, state: State) -> str:
        """Every seat's public standing (VP, cities...), as text."""

    @abstractmethod
    def order_template(self, state: State, seat: str) -> str:
        """Order lines for the next turn, to be filled in and mailed back."""

    @abstractmethod
    def order_help(self) -> str:
        """A short reference of every order, for HELP replies."""

    @abstractmethod
    def bot_orders(self, state: State, seat: str, seed: int) -> str:
        """A legal, sensible order text for `seat` (for bot seats and missed turns)."""

    @abstractmethod
    def edit(self, state: State, path: str, value: str) -> State:
        """A referee correction: a new state with `path` set to `value`.
        Raises EditError with the reason when the edit is not valid."""

    @abstractmethod
    def edit_paths(self) -> str:
        """A short reference of the paths `edit` takes, with examples."""

    def map_view(self, state: State, seat: str) -> MapView | None:
        """The map as `seat` sees it, as data for its picture and the report's JSON; None for
        a ruleset (or a game's options) without a map."""
        return None

    def standings(self, state: State) -> Standings:
        """Every seat's public standing as numbers, {seat: {measure: value}}, the leading
        measure (VP, fame...) first: the campaign chart plots them turn by turn."""
        return {}

    def seat_record(self, state: State, seat: str) -> dict[str, Any]:
        """What the state holds about `seat` itself, as JSON, for that seat's own report
        data: nothing here is another seat's."""
        return {}

    def seat_profile(self, state: State, seat: str) -> str:
        """The starting choice that sets `seat` apart (its culture, its civilization), for the
        balance report's win share by choice; '' where the ruleset has none."""
        return ""

    def normalise(self, state: State) -> State:
        """The state read into the ruleset's own objects and written back. A state the ruleset
        wrote comes back equal: the contract suite checks so, to prove reading loses nothing."""
        raise NotImplementedError(f"{self.id} does not say how it reads and writes its state")

    def example_position(self, variant: str = "") -> State:
        """The position the examples in docs/orders/<id>.md are written for: the blocks fenced
        ```orders (variant '') or ```orders <variant> are parsed as `example_seat` on it."""
        raise NotImplementedError(
            f"{self.id} has no example_position({variant!r}): write the position its "
            f"docs/orders/{self.id}.md describes, so that the doc's examples can be checked"
        )
