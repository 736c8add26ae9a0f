"""The ruleset kit: what every ruleset's entry module used to repeat, written once.

A ruleset keeps its state as a `Serialisable` dataclass (its `model`) and its rules as plain
functions on that object. `GameRuleset` turns those into the `Ruleset` interface, which speaks
plain JSON: it loads the state, calls the part, and writes the state back. A ruleset's entry
module then says only what is particular to it:

    class Classical(GameRuleset[GameState]):
        id = "classical"
        aliases = ("cls",)
        title = "Classical"
        max_seats = 6
        options = OPTIONS
        model = GameState
        parts = Parts(parse=orders.parse, play=turn.play, views=render, bot=bot.bot_orders,
                      edits=edits, examples=examples.position)

        def setup(self, names, options, seed) -> GameState: ...
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from engine.mapdata import MapView, Standings
from engine.recorder import Recorder
from engine.records import Outcome, ParsedOrders, Resolution
from engine.rehearsal import Phases, judge
from engine.ruleset import EditError, OptionError, Ruleset, State
from engine.serial import Serialisable
from engine.state_clock import StateClockAnswers
from engine.turns import seats_playing


class Game(Protocol):
    """What the kit reads of a ruleset's state object."""

    winners: list[str]
    end_reason: str

    @property
    def seats(self) -> Sequence[Any]: ...

    @property
    def options(self) -> Mapping[str, Any]: ...

    def to_json(self) -> dict[str, Any]: ...


G = TypeVar("G", bound=Game)
G_contra = TypeVar("G_contra", contravariant=True)


class Views(Protocol[G_contra]):
    """The texts of a report: a module with these functions does."""

    ORDER_HELP: str

    def render_map(self, game: G_contra, seat: str) -> str: ...

    def holdings(self, game: G_contra, seat: str) -> str: ...

    def public_summary(self, game: G_contra) -> str: ...

    def order_template(self, game: G_contra, seat: str) -> str: ...


class Pictures(Protocol[G_contra]):
    """The map and the standings as data (engine.mapdata); a module with these does."""

    def map_view(self, game: G_contra, seat: str) -> MapView | None: ...

    def standings(self, game: G_contra) -> Standings: ...


class Edits(Protocol[G_contra]):
    """Referee corrections: a module with `edit` (changing the game, or raising EditError or
    KeyError) and `EDIT_PATHS` does."""

    EDIT_PATHS: str

    def edit(self, game: G_contra, path: str, value: str) -> None: ...


@dataclass(frozen=True)
class Parts(Generic[G]):
    """A ruleset's rules, each a function (or module) on its own state object.

    - parse: one seat's order text read and checked against the game;
    - play: the pending turn played on the game (changing it), its record returned;
    - views: the report texts; bot: a legal order text for a seat;
    - pictures: the map and the standings as data, for pictures and the report's JSON;
    - edits: referee corrections; examples: the position the order reference's examples are
      written for, by variant name ('' for the default);
    - phases: how a seat's turn runs phase by phase, so that each order is judged against the
      position its phase will meet (engine.rehearsal).
    """

    parse: Callable[[G, str, str], ParsedOrders]
    play: Callable[[G, Mapping[str, Sequence[Any]], int], Recorder]
    views: Views[G]
    bot: Callable[[G, str, int], str]
    edits: Edits[G]
    examples: Callable[[str], G] | None = None
    pictures: Pictures[G] | None = None
    phases: Phases[G] | None = None


class GameRuleset(StateClockAnswers, Ruleset, Generic[G]):
    """A ruleset whose state is a `Serialisable` dataclass `model` and whose rules are `parts`.
    Subclasses write `setup` and declare the rest."""

    model: ClassVar[type[Serialisable]]
    parts: ClassVar[Parts[Any]]

    def setup(self, names: list[str], options: dict[str, Any], seed: int) -> G:
        """The game at its start; the seat names are checked and the options resolved."""
        raise NotImplementedError

    def after_edit(self, game: G) -> None:
        """Bring derived parts of the state in step after a referee edit (none by default)."""

    # -- the Ruleset interface, in terms of the above --------------------------------------
    def load(self, state: State) -> G:
        game: G = self.model.from_json(state)  # type: ignore[assignment]
        return game

    def new_game(self, seats: Sequence[str], options: Mapping[str, Any], seed: int) -> State:
        names = list(seats)
        if not self.min_seats <= len(names) <= self.max_seats:
            raise OptionError(f"{self.title} takes {self.min_seats} to {self.max_seats} seats")
        if len({n.lower() for n in names}) != len(names):
            raise OptionError("seat names must differ")
        return self.setup(names, self.resolve_options(options), seed).to_json()

    def parse_orders(self, state: State, seat: str, text: str) -> ParsedOrders:
        game = self.load(state)
        if seat not in {s.name for s in game.seats}:
            raise KeyError(f"no seat {seat!r} in this game")
        # Each rehearsal plays on a board of its own: the first on `game` itself (loaded for
        # this check alone; judge reads it only before its first board), the others on copies,
        # loading the JSON again being cheaper than copy.deepcopy of the game
        # (docs/measurements.md).
        copies = _boards(game, partial(self.load, state))
        return self.judge_orders(game, seat, text, copies)

    def orders_to_play(self, state: State, seat: str, text: str) -> ParsedOrders:
        game = self.load(state)
        if seat not in {s.name for s in game.seats}:
            raise KeyError(f"no seat {seat!r} in this game")
        copies = _boards(game, partial(self.load, state))
        return self.judge_orders(game, seat, text, copies, notes=False)

    def orders_to_play_of(self, state: State, texts: Mapping[str, str]) -> dict[str, ParsedOrders]:
        # The position loaded once for every seat (a load was a third of a bot game's time):
        # the parser only reads it, and each rehearsal plays on a board loaded for it alone.
        game = self.load(state)
        names = {s.name for s in game.seats}
        copies = partial(self.load, state)
        orders = {}
        for seat, text in texts.items():
            if seat not in names:
                raise KeyError(f"no seat {seat!r} in this game")
            orders[seat] = self.judge_orders(game, seat, text, copies, notes=False)
        return orders

    def judge_orders(
        self, game: G, seat: str, text: str, copy: Callable[[], G], notes: bool = True
    ) -> ParsedOrders:
        """The seat's orders read on the typed game, each judged against the position its
        phase will meet (engine.rehearsal) on copies that `copy()` makes; without `notes`,
        only what the turn is played with (no rehearsal unless a line needs one)."""
        if self.parts.phases is None:
            return self.parts.parse(game, seat, text)
        return judge(game, copy, seat, text, self.parts.parse, self.parts.phases, notes)

    def resolve(self, state: State, orders: Mapping[str, ParsedOrders], seed: int) -> Resolution:
        game = self.load(state)
        if game.winners:
            raise ValueError("the game is over")
        rec = self.parts.play(game, {s: p.orders for s, p in orders.items()}, seed)
        rec.sort_results()
        outcome = Outcome(tuple(game.winners), game.end_reason) if game.winners else None
        return Resolution(game.to_json(), rec.events, rec.results, outcome)

    def seats_to_order(self, state: State) -> list[str]:
        game = self.load(state)
        playing: list[Any] = seats_playing(game)  # type: ignore[arg-type]
        return [] if game.winners else [seat.name for seat in playing]

    def render_map(self, state: State, seat: str) -> str:
        return self.parts.views.render_map(self.load(state), seat)

    def holdings(self, state: State, seat: str) -> str:
        return self.parts.views.holdings(self.load(state), seat)

    def public_summary(self, state: State) -> str:
        return self.parts.views.public_summary(self.load(state))

    def order_template(self, state: State, seat: str) -> str:
        return self.parts.views.order_template(self.load(state), seat)

    def order_help(self) -> str:
        return self.parts.views.ORDER_HELP

    def bot_orders(self, state: State, seat: str, seed: int) -> str:
        return self.parts.bot(self.load(state), seat, seed)

    def edit(self, state: State, path: str, value: str) -> State:
        game = self.load(state)
        try:
            self.parts.edits.edit(game, path, value)
        except KeyError as missing:
            raise EditError(f"nothing at {path!r}: {missing}") from None
        self.after_edit(game)
        return game.to_json()

    def edit_paths(self) -> str:
        return self.parts.edits.EDIT_PATHS

    def normalise(self, state: State) -> State:
        return self.load(state).to_json()

    def map_view(self, state: State, seat: str) -> MapView | None:
        pictures = self.parts.pictures
        return pictures.map_view(self.load(state), seat) if pictures else None

    def standings(self, state: State) -> Standings:
        pictures = self.parts.pictures
        return pictures.standings(self.load(state)) if pictures else {}

    def seat_record(self, state: State, seat: str) -> dict[str, Any]:
        # The seat's own entry of the state's seat list, as the ruleset wrote it (the state
        # crosses the interface as the model's own JSON, so no need to load it).
        found: dict[str, Any] = next(r for r in state["seats"] if r["name"] == seat)
        return found

    def example_position(self, variant: str = "") -> State:
        if self.parts.examples is None:
            raise NotImplementedError(f"{self.id} has no example position")
        position: Game = self.parts.examples(variant)  # parts is Parts[Any]: a ClassVar
        return position.to_json()


def _boards(first: G, copy: Callable[[], G]) -> Callable[[], G]:
    """The rehearsals' boards: `first` for the first one, then copies."""
    given = [first]
    return lambda: given.pop() if given else copy()
