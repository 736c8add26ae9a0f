"""Turn-driver pieces that every ruleset plays the same way.

`SeatTurnBase` is the seat's turn in progress as each ruleset's phases see it (its dice, its
orders of a kind, its events); the functions are the bookkeeping around the seats' turns:
who plays, answering orders that were never reached, ending the game, moving the clock, and
who plays first in the next round.
The phases themselves, standing orders and scoring stay with each ruleset.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from engine.dice import Dice
from engine.recorder import RecordedOrder, Recorder
from engine.ruleset import OptionSpec

# The options the driver reads; every ruleset built on it offers them.
MODE_OPTION = OptionSpec(
    "mode",
    "round",
    "round: every seat orders, then the seats' turns are played in turn order; "
    "sequential: one seat's turn at a time",
    choices=("round", "sequential"),
)


# Offered by the rulesets whose first seat wins well over its share (their `first_seat_edge`).
ROTATE_FIRST_OPTION = OptionSpec(
    "rotate_first",
    False,
    "pass the first turn of the round to the next seat every round: the seat that played "
    "first plays last from the next round on (no: the same seat plays first every round, as "
    "the text)",
)


def turn_limit_option(who_wins: str) -> OptionSpec:
    """The option `close_turn` reads: after this many rounds `who_wins` (0: no limit)."""
    return OptionSpec(
        "turn_limit",
        0,
        f"end the game after this many rounds, {who_wins} winning (0: no limit, as the text)",
        minimum=0,
        maximum=10000,
    )


class PlayingSeat(Protocol):
    """What the turn driver reads of a seat."""

    @property
    def name(self) -> str: ...

    @property
    def alive(self) -> bool: ...


SeatT_co = TypeVar("SeatT_co", bound=PlayingSeat, covariant=True)
SeatT = TypeVar("SeatT", bound=PlayingSeat)


class ClockedState(Protocol[SeatT_co]):
    """What the turn driver reads and moves of a game state: its seats, mode and clock."""

    round: int
    active: int  # sequential mode: index of the seat whose turn is pending
    step: int
    winners: list[str]
    end_reason: str

    @property
    def seats(self) -> Sequence[SeatT_co]: ...

    @property
    def options(self) -> Mapping[str, Any]: ...


class RotatingState(Protocol[SeatT]):
    """What `rotate_first` moves: the seats in the order of play, and the seat to play next."""

    seats: list[SeatT]
    active: int
    winners: list[str]

    @property
    def options(self) -> Mapping[str, Any]: ...


StateT = TypeVar("StateT", bound=ClockedState[Any])
OrderT = TypeVar("OrderT", bound=RecordedOrder)
KindT = TypeVar("KindT")


@dataclass
class SeatTurnBase(Generic[StateT, SeatT, OrderT]):
    """One seat's turn in progress: the state, that seat's orders, its dice and the record.
    Each ruleset subclasses it with its own types and any fields of its own."""

    state: StateT
    seat: SeatT
    orders: list[OrderT]
    rec: Recorder
    seed: int
    phase: str = ""

    @property
    def name(self) -> str:
        return self.seat.name

    def dice(self, purpose: str) -> Dice:
        """The dice stream for one purpose in this seat's turn of this round."""
        return Dice(self.seed, self.state.round, self.name, purpose, self.rec.dice_rolled)

    def of(self, kind: type[KindT]) -> list[KindT]:
        """This seat's orders of one kind, in the order given."""
        return [order for order in self.orders if isinstance(order, kind)]

    def event(
        self,
        code: str,
        text: str,
        dice: tuple[int, ...] | list[int] = (),
        public: bool = False,
        also: tuple[str, ...] = (),
    ) -> None:
        self.rec.event(code, self.name, self.phase, text, dice, public, also)


def seats_playing(state: ClockedState[SeatT]) -> list[SeatT]:
    """The seats whose turn this is: the active seat in sequential mode, else every seat alive."""
    if state.options["mode"] == "sequential":
        return [state.seats[state.active]]
    return [seat for seat in state.seats if seat.alive]


def skip_unplayed(
    state: ClockedState[PlayingSeat], orders: Mapping[str, Sequence[RecordedOrder]], rec: Recorder
) -> None:
    """Every order gets a result: those of seats that did not play (game over, out) are skipped."""
    for seat, seat_orders in orders.items():
        answered = {r.line_no for r in rec.results.get(seat, [])}
        for order in seat_orders:
            if order.line_no not in answered:
                why = (
                    "the game ended before this order's phase"
                    if state.winners
                    else "not carried out: your seat did not play this turn"
                )
                rec.skipped(seat, order, why)


def finish(
    state: ClockedState[PlayingSeat], rec: Recorder, winners: list[str], reason: str
) -> None:
    """End the game with these winners, and tell every seat."""
    state.winners, state.end_reason = winners, reason
    rec.event(
        "game_over",
        "",
        "End",
        f"The game is over: {', '.join(winners)} wins ({reason}).",
        public=True,
    )


def advance_clock(state: ClockedState[PlayingSeat]) -> bool:
    """Count the turn, and in sequential mode pass play to the next seat alive. True when that
    completes a round (always in round mode), when the caller ends the round its own way."""
    state.step += 1
    if state.options["mode"] == "sequential":
        alive = [i for i, s in enumerate(state.seats) if s.alive]
        later = [i for i in alive if i > state.active]
        if later:
            state.active = later[0]
            return False
        state.active = alive[0] if alive else 0
    return True


def play_seats(
    state: ClockedState[SeatT],
    rec: Recorder,
    play: Callable[[SeatT], None],
    victory: Callable[[str], str],
) -> None:
    """The seats whose turn this is play in order; the first whose turn ends in victory (the
    reason `victory` gives, '' for none) wins, and nobody plays after it."""
    for seat in seats_playing(state):
        play(seat)
        reason = victory(seat.name)
        if reason:
            finish(state, rec, [seat.name], reason)
            return


def close_turn(
    state: ClockedState[SeatT],
    orders: Mapping[str, Sequence[RecordedOrder]],
    rec: Recorder,
    score: Callable[[SeatT], Any],
    describe: Callable[[Any], str],
    at_round_end: Callable[[], None] | None = None,
) -> bool:
    """After the seats have played: orders never reached are answered and the clock moves.
    When that completes a round, a goal the ruleset counts at the end of a round is checked
    (`at_round_end`, while nobody has won), then the turn limit (option `turn_limit`, 0 for
    none): the best `score` wins, said as `describe(best)`. True when a round was completed."""
    skip_unplayed(state, orders, rec)
    if not advance_clock(state):
        return False
    if at_round_end is not None and not state.winners:
        at_round_end()
    limit = state.options["turn_limit"]
    if not state.winners and limit and state.round >= limit:
        scores = {s.name: score(s) for s in state.seats if s.alive} or {
            s.name: score(s) for s in state.seats
        }
        best = max(scores.values())
        winners = [name for name, value in scores.items() if value == best]
        finish(state, rec, winners, f"turn limit {limit} reached with {describe(best)}")
    state.round += 1
    return True


def rotate_first(state: RotatingState[SeatT], rec: Recorder) -> None:
    """Option rotate_first, after a completed round of a game still on: the seat that played
    first plays last from the next round on, so that no seat keeps the head start of moving
    first. Call it when `close_turn` says the round is complete."""
    # A game stored before its ruleset offered the option plays as the text: no rotation.
    if not state.options.get("rotate_first", False) or state.winners:
        return
    state.seats.append(state.seats.pop(0))
    alive = [i for i, s in enumerate(state.seats) if s.alive]
    state.active = alive[0] if alive else 0  # sequential mode: the new first seat plays next
    first = state.seats[state.active].name
    rec.event("turn_order", "", "End", f"{first} plays first in the next round.", public=True)


def seat_named(seats: Sequence[SeatT], name: str) -> SeatT:
    """The seat of that name; KeyError if the game has none (every state's `seat(name)`)."""
    for seat in seats:
        if seat.name == name:
            return seat
    raise KeyError(name)
