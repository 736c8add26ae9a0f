"""What is due, given the database and `now`: turns to resolve, reminders to send, deadlines
an outage made us miss, and the next moment any of these becomes due. Reads only; the
changes are made by pbem.clock.run (and turn resolution by pbem.clock.turns)."""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Generic, Protocol, TypeVar, cast

from engine import get_ruleset
from pbem.deadlines.policy import absence_end, parse_offsets
from pbem.games.games import is_away, pending_turn, still_waiting
from pbem.store import Game, GameStatus, Seat, SeatStatus, Turn, loads, utc
from pbem.store.work import Work


class GameView(Protocol):
    """What the clock reads of a game: a Game, or a row of running_facts's light read."""

    id: str
    ruleset: str
    status: GameStatus
    early_processing: bool
    timezone: str
    grace_seconds: int
    reminders: str
    wait_for_absent: bool
    paused_at: datetime | None


class TurnView(Protocol):
    number: int
    state_before: str
    deadline: datetime | None
    opened_at: datetime | None


class SeatView(Protocol):
    name: str
    status: SeatStatus
    absent_until: date | None


G = TypeVar("G", bound=GameView)
T = TypeVar("T", bound=TurnView)
S = TypeVar("S", bound=SeatView)


@dataclass(frozen=True)
class Facts(Generic[G, T, S]):
    """One running game's pending turn as the clock sees it at `now`: of its rows (facts_of,
    to change them) or of read-only rows (running_facts, to decide what to do)."""

    game: G
    turn: T
    asked: tuple[S, ...]  # the seats the ruleset wants orders from, in seat order
    ordered: frozenset[str]  # seats whose orders are in
    now: datetime

    @property
    def paused(self) -> bool:
        return self.game.paused_at is not None

    def absent(self, seat: S) -> bool:
        return is_away(seat, self.game.timezone, self.now)

    def missing(self) -> list[S]:
        return [seat for seat in self.asked if seat.name not in self.ordered]

    def required(self) -> list[S]:
        """Missing seats that the turn waits for (pbem.games.games.still_waiting, which every
        reply and page that names them asks too): active (not abandoned, nor taken out by a
        referee), and not away unless the game waits for absent seats."""
        names = [seat.name for seat in self.asked]
        waiting = set(still_waiting(names, self.ordered, self.asked, self.game, self.now))
        return [seat for seat in self.asked if seat.name in waiting]

    def blocking(self) -> list[S]:
        """Missing seats that hold the turn past its deadline (wait_for_absent): those away
        at the deadline. They hold it until their absence ends, also once it has ended."""
        deadline = self.turn.deadline
        if not self.game.wait_for_absent or deadline is None:
            return []
        return [
            seat
            for seat in self.missing()
            if seat.status == SeatStatus.ACTIVE
            and seat.absent_until is not None
            and absence_end(seat.absent_until, self.game.timezone) > utc(deadline)
        ]

    def remindable(self) -> list[S]:
        return [s for s in self.missing() if s.status == SeatStatus.ACTIVE and not self.absent(s)]

    def due_at(self) -> datetime | None:
        """When the turn resolves by time: deadline plus grace, later while a required seat is
        away. None without a deadline or while paused."""
        if self.paused or self.turn.deadline is None:
            return None
        moment = utc(self.turn.deadline)
        for seat in self.blocking():
            assert seat.absent_until is not None
            moment = max(moment, absence_end(seat.absent_until, self.game.timezone))
        return moment + timedelta(seconds=self.game.grace_seconds)

    def every_order_in(self) -> bool:
        """Every seat the turn waits for has sent orders (and somebody has: a game whose
        seats are all abandoned waits for its deadline, not for nothing)."""
        return bool(self.ordered) and not self.required()

    def all_in(self) -> bool:
        """Due for its orders: every order in, and the game resolves early."""
        return self.game.early_processing and self.every_order_in()

    def is_due(self) -> bool:
        if self.paused:
            return False
        due_at = self.due_at()
        return self.all_in() or (due_at is not None and due_at <= self.now)

    def overdue_by(self) -> timedelta | None:
        """How long ago the turn fell due by time (None if it has not, or is due for its
        orders being in, which an outage does not change)."""
        due_at = self.due_at()
        if due_at is None or due_at > self.now or self.every_order_in():
            return None
        return self.now - due_at

    def reminder_times(self) -> list[tuple[timedelta, datetime]]:
        """(offset, moment) of each reminder offset that falls inside this turn."""
        deadline = self.turn.deadline
        if deadline is None:
            return []
        opened = utc(self.turn.opened_at) if self.turn.opened_at else None
        times = [(offset, utc(deadline) - offset) for offset in parse_offsets(self.game.reminders)]
        # An offset as long as the turn, or longer, would remind the moment the turn opens,
        # with the start mail or the report (interval:24h and a 24h reminder): skip it.
        return [(offset, moment) for offset, moment in times if opened is None or moment > opened]


def facts_of(work: Work, game: Game, now: datetime) -> Facts[Game, Turn, Seat] | None:
    turn = pending_turn(work, game)
    if turn is None:
        return None
    ordered = frozenset(work.games.stored_orders(game.id, turn.number))
    return facts_from(game, turn, work.games.seats_of(game.id), ordered, now)


def facts_from(
    game: G, turn: T, seats: Sequence[S], ordered: frozenset[str], now: datetime
) -> Facts[G, T, S]:
    """The Facts of a game's pending turn from its rows, read already by the caller."""
    by_name = {seat.name: seat for seat in seats}
    wanted = seats_asked(game.ruleset, turn.state_before)
    asked = tuple(by_name[name] for name in wanted if name in by_name)
    return Facts(game, turn, asked, ordered, utc(now))


def seats_asked(ruleset: str, state: str) -> tuple[str, ...]:
    """The seats a turn wants orders from. Every pass asks it of every running game, and the
    answer depends on the stored state alone: it is remembered by the state's digest."""
    return _SEATS_ASKED.get(ruleset, state)


class _SeatsAsked:
    """seats_to_order by (ruleset, digest of the state): loading a state into the ruleset
    costs milliseconds, the digest microseconds. The oldest entries go beyond `size`."""

    def __init__(self, size: int = 20_000) -> None:
        self.size = size
        self._found: OrderedDict[tuple[str, bytes], tuple[str, ...]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, ruleset: str, state: str) -> tuple[str, ...]:
        key = (ruleset, hashlib.blake2b(state.encode(), digest_size=16).digest())
        with self._lock:
            if key in self._found:
                self._found.move_to_end(key)
                return self._found[key]
        wanted = tuple(get_ruleset(ruleset).seats_to_order(loads(state)))
        with self._lock:
            self._found[key] = wanted
            while len(self._found) > self.size:
                self._found.popitem(last=False)
        return wanted


_SEATS_ASKED = _SeatsAsked()


Clock = Facts[GameView, TurnView, SeatView]


def running_facts(
    work: Work, now: datetime, only: Collection[str] | None = None
) -> Iterator[Clock]:
    """The Facts of every running game (or of those `only` names), in four queries whatever
    their number, read as plain rows (pbem.store.clock_rows). What is decided from them is
    done on the game's rows read again under its lock (facts_of)."""
    read = work.games.running_rows(
        only, game=_names(GameView), turn=_names(TurnView), seat=_names(SeatView)
    )
    for row in read.games:
        if row.id in read.turns:
            yield facts_from(
                cast(GameView, row),
                cast(TurnView, read.turns[row.id]),
                [cast(SeatView, seat) for seat in read.seats[row.id]],
                frozenset(read.ordered[row.id]),
                now,
            )


def _names(view: type) -> list[str]:
    """The columns a view names."""
    return list(view.__annotations__)


def sent_reminders(work: Work, game_id: str, turn: int) -> set[tuple[str, int]]:
    return {(row.seat, row.before_seconds) for row in work.games.reminders_sent(game_id, turn)}


def reminders_due(facts: Facts[G, T, S], sent: set[tuple[str, int]]) -> list[tuple[S, timedelta]]:
    """(seat, offset) of each reminder to send now. Only the nearest offset that has come is
    sent (after an outage, one reminder rather than a burst), and never to a seat that had
    it, or a nearer one, this turn."""
    deadline = facts.turn.deadline
    if facts.paused or deadline is None or facts.now >= utc(deadline):
        return []
    come = [offset for offset, moment in facts.reminder_times() if moment <= facts.now]
    if not come:
        return []
    nearest = min(come)
    return [
        (seat, nearest)
        for seat in facts.remindable()
        if not any(
            (seat.name, int(offset.total_seconds())) in sent
            for offset, _ in facts.reminder_times()
            if offset <= nearest
        )
    ]


def wakeup(facts: Clock) -> datetime | None:
    """The next moment after `now` at which something may fall due in this game."""
    if facts.paused:
        return None
    moments = [facts.due_at()]
    if facts.remindable():
        moments += [moment for _, moment in facts.reminder_times()]
    moments += [
        absence_end(seat.absent_until, facts.game.timezone)
        for seat in facts.asked
        if seat.absent_until is not None
    ]
    future = [moment for moment in moments if moment is not None and moment > facts.now]
    return min(future, default=None)


def wakeups(work: Work, now: datetime, only: Collection[str] | None = None) -> dict[str, datetime]:
    """Each running game's next wakeup (or of those `only` names; games with none are left
    out)."""
    return wakeups_of(running_facts(work, now, only))


def wakeups_of(games: Iterable[Clock]) -> dict[str, datetime]:
    """The next wakeup of each of `games` read already (those with none are left out)."""
    found = {}
    for facts in games:
        moment = wakeup(facts)
        if moment is not None:
            found[facts.game.id] = moment
    return found
