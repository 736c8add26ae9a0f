"""Judging a seat's orders where they take effect, not against the position before the turn.

A ruleset's parser reads each line against a position. The position before the turn is the
wrong one for an order whose phase comes after the seat's own earlier orders: `UPGRADE D11`
(phase 4) makes D11 a city before `RECRUIT D11 1` (phase 8) needs one. So the seat's turn is
rehearsed on a copy of the game with the orders read before the turn. Before each phase, a line
refused so far is read again against the rehearsed position, and played if its own phase has
come and accepts it. Each order's outcome in the rehearsal is its verdict:

- a line the position before the turn refused, that its phase accepts, is accepted, with a note
  that it is possible after the seat's earlier orders and checked again when its phase runs;
- an order the rehearsed phase would not carry out (nothing left to pay with, a unit lost in a
  battle) is still accepted, since other seats may change the position, with a note that says
  how it fails as things stand;
- dice: a line that the rehearsal refuses or fails is rehearsed again with other dice, and a
  line that some dice carry and others do not is accepted with a note that the dice decide it.
  Other dice change nothing that came before the first die was rolled: when every line was
  answered by then (and none was still refused), the first rehearsal stands for all of them.

Other seats are not played: the player cannot know their orders. Every phase checks its orders
again when the turn is resolved, and the report gives each failure with its reason.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from engine.problems import ProblemKind
from engine.recorder import Recorder
from engine.records import OrderResult, OrderStatus, ParsedOrders

G = TypeVar("G")
# The dice of the rehearsals: the first is the one whose verdicts stand when no other carries
# a line. Fixed, so that the same text on the same position is always judged the same way.
REHEARSAL_SEEDS = (0x5EED0, 0x5EED1, 0x5EED2, 0x5EED3)
BEFORE_ANY_PHASE = ""  # the phase of orders that take effect before the seats play (standing)

Parse = Callable[[G, str, str], ParsedOrders]


@dataclass(frozen=True)
class Phases(Generic[G]):
    """How a ruleset's seat turn runs, for judging orders where they take effect.

    - rehearse(game, seat, orders, seed, rec): play that seat's turn on `game` (changing it,
      recording in `rec`), its standing orders first, yielding each phase's name just before
      the phase runs (phase_by_phase); `orders` is the list the phases read, which the caller
      adds to at each yield;
    - order_phases: the phase in which each kind of order takes effect; a kind not named
      (standing orders, the setup turn's) is judged against the position before the turn.
    """

    rehearse: Callable[[G, str, list[Any], int, Recorder], Iterator[str]]
    order_phases: Mapping[type, str]

    def phase_of(self, order: Any) -> str:
        return self.order_phases.get(type(order), BEFORE_ANY_PHASE)


class PhasedTurn(Protocol):
    phase: str


T = TypeVar("T", bound=PhasedTurn)


def phase_by_phase(
    turn: T, phases: Sequence[str], steps: Sequence[Callable[[T], None]]
) -> Iterator[str]:
    """A seat's turn run step by step, each phase's name given just before its step runs:
    the one loop that both plays a turn and rehearses it."""
    for phase, step in zip(phases, steps, strict=True):
        turn.phase = phase
        yield phase
        step(turn)


def play_phases(turn: T, phases: Sequence[str], steps: Sequence[Callable[[T], None]]) -> None:
    """Every phase of the seat's turn, for real."""
    for _phase in phase_by_phase(turn, phases, steps):
        pass


@dataclass
class _Rehearsal:
    """One rehearsal of the seat's turn: the lines refused before the turn that the position
    of their phase accepts, and how each order played went, by line."""

    accepted: dict[int, Any] = field(default_factory=dict)
    outcome: dict[int, OrderResult] = field(default_factory=dict)
    reached: bool = False
    # Whether any other dice would play it the same for every line: no die was rolled before
    # each line was answered, and no line was still refused when the first die was rolled.
    settled: bool = False

    def carried(self, line_no: int) -> bool | None:
        """Whether the rehearsed phase carried the line out; None if it never came to it."""
        result = self.outcome.get(line_no)
        return None if result is None else result.status is not OrderStatus.SKIPPED


def judge(
    game: G,
    copy: Callable[[], G],
    seat: str,
    text: str,
    parse: Parse[G],
    phases: Phases[G],
    notes: bool = True,
) -> ParsedOrders:
    """The seat's orders, each line judged against the position its phase will meet: `game`
    is the position before the turn, read; `copy()` makes a board for each rehearsal, another
    of that position (`game` itself may be the first: it is not read once a board is made).
    Without `notes` (the orders a turn is played with, not the check reply), a text with no
    line refused before the turn is not rehearsed: its orders are the ones read, and only
    the notes would tell more."""
    first = parse(game, seat, text)
    if not (first.orders or _refused(first)) or not (notes or _refused(first)):
        return first
    trials = [_rehearse(copy(), seat, text, first, parse, phases, REHEARSAL_SEEDS[0])]
    if not trials[0].reached:
        return first  # the seat plays no phase this turn (the setup turn, a seat out)
    for seed in REHEARSAL_SEEDS[1:]:
        if trials[0].settled or not _doubtful(first, trials, phases):
            break
        trials.append(_rehearse(copy(), seat, text, first, parse, phases, seed))
    return _verdicts(first, trials, phases)


def _refused(parsed: ParsedOrders) -> set[int]:
    """The lines that read as orders but broke a rule in the position they were read in."""
    return {p.line_no for p in parsed.problems if p.kind is ProblemKind.ILLEGAL}


def _doubtful(first: ParsedOrders, trials: Sequence[_Rehearsal], phases: Phases[Any]) -> bool:
    """Whether some line that takes effect in a phase was carried out by no rehearsal yet:
    other dice may carry it."""
    timed = {o.line_no for o in first.orders if phases.phase_of(o) != BEFORE_ANY_PHASE}
    return any(not any(t.carried(line_no) for t in trials) for line_no in timed | _refused(first))


def _rehearse(
    board: G,
    seat: str,
    text: str,
    first: ParsedOrders,
    parse: Parse[G],
    phases: Phases[G],
    seed: int,
) -> _Rehearsal:
    """Play the seat's turn on `board` with the orders read before the turn; before each
    phase, read the text again for the lines refused so far, and play those its position
    accepts. The rehearsal stops before the first phase nothing needs (_done)."""
    played = sorted(first.orders, key=_line)  # each phase reads its own kinds of order
    waiting = _refused(first)
    rec = Recorder()
    trial = _Rehearsal()
    ran: set[str] = {BEFORE_ANY_PHASE}
    refused_at_roll: bool | None = None  # whether a line was still refused at the first die
    for phase in phases.rehearse(board, seat, played, seed, rec):
        trial.reached = True
        if refused_at_roll is None and rec.before_dice is not None:
            refused_at_roll = bool(waiting)  # rolled in the phase before: as it was then
        if waiting:
            for order in parse(board, seat, text).orders:
                if order.line_no in waiting and phases.phase_of(order) == phase:
                    trial.accepted[order.line_no] = order
                    bisect.insort(played, order, key=_line)  # in the order written
            waiting -= set(trial.accepted)
        if not waiting and _done(played, phases, ran, rec.results.get(seat, [])):
            break
        ran.add(phase)
    results = rec.results.get(seat, [])
    trial.outcome = {r.line_no: r for r in results}
    if rec.before_dice is None:
        trial.settled = True  # no die rolled: any dice play it the same
    elif not (waiting if refused_at_roll is None else refused_at_roll):
        before = rec.before_dice.get(seat, 0)
        answered = {r.line_no for r in results[:before]}
        after = {r.line_no for r in results[before:]}
        lines = {order.line_no for order in played}
        trial.settled = lines <= answered and not lines & after
    return trial


def _done(
    played: Sequence[Any], phases: Phases[Any], ran: set[str], results: Sequence[OrderResult]
) -> bool:
    """Whether the phases still to come can tell nothing more of the orders played: each
    order's phase has run (`ran`) and each order has its result. The later phases are most of
    a rehearsal's cost (a migration, a disaster) where the seat's orders end early."""
    if not all(phases.phase_of(order) in ran for order in played):
        return False
    answered = {result.line_no for result in results}
    return all(order.line_no in answered for order in played)


def _line(order: Any) -> int:
    line_no: int = order.line_no
    return line_no


def _verdicts(
    first: ParsedOrders, trials: Sequence[_Rehearsal], phases: Phases[Any]
) -> ParsedOrders:
    """The orders read before the turn, each with a note where its phase would not carry it
    out; and the lines refused before the turn that a rehearsal accepted at their phase."""
    result = ParsedOrders(ignored=list(first.ignored), notes=list(first.notes))
    for order in first.orders:
        result.orders.append(order)
        _note(result, order.line_no, trials, phases.phase_of(order), taken=True)
    for problem in first.problems:
        takers = [t.accepted[problem.line_no] for t in trials if problem.line_no in t.accepted]
        if not takers:
            result.problems.append(problem)
            continue
        result.orders.append(takers[0])
        _note(result, problem.line_no, trials, phases.phase_of(takers[0]), taken=False)
    result.orders.sort(key=_line)
    result.notes.sort()
    return result


def _note(
    result: ParsedOrders, line_no: int, trials: Sequence[_Rehearsal], phase: str, taken: bool
) -> None:
    """What the check reply says beside an accepted line whose phase the position before the
    turn does not decide: possible only after the seat's earlier orders, up to the dice, or
    failing (or done in part) as things stand."""
    outcomes = [t.carried(line_no) for t in trials]
    first = trials[0].outcome.get(line_no)
    when = f"phase {phase}"
    if any(outcomes) and (False in outcomes or (not taken and None in outcomes)):
        note = f"the dice decide whether {when} carries it out: checked again when it runs"
    elif False in outcomes:
        failed = next(t.outcome[line_no] for t in trials if t.carried(line_no) is False)
        note = _meets(taken, when) + f"as things stand it fails at {when}: {failed.note}"
    elif first is not None and first.status is OrderStatus.PARTLY:
        note = _meets(taken, when) + f"as things stand {when} does it in part: {first.note}"
    elif not taken:
        note = f"possible in the position {when} will meet: checked again when it runs"
    else:
        return
    result.notes.append((line_no, note))


def _meets(taken: bool, when: str) -> str:
    return "" if taken else f"possible in the position {when} will meet, but "
