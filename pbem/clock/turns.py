"""Turn resolution: when every seat's orders are in (early processing) or the deadline has
passed, the stored order texts are parsed again against the state before the turn and the
engine resolves it. The snapshot, the turn record, the next turn and every seat's report are
written in one transaction per game, so a crash resolves a turn wholly or not at all."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from engine import Resolution, Ruleset, get_ruleset
from pbem.clock.due import facts_of, running_facts
from pbem.clock.forced import Forced, early, note_forced
from pbem.clock.nmr import note_misses, orders_for_missing
from pbem.config import Settings
from pbem.errors import PbemError
from pbem.games.attachments import EndPictures, report_attachments
from pbem.games.audit import audit
from pbem.games.games import (
    NO_PLAYER,
    open_turn,
    pending_turn,
)
from pbem.games.held import check_held_orders
from pbem.games.outbox import queue
from pbem.games.played import NO_ORDERS, Played, bot_played, parsed_all
from pbem.games.reports import end_letter, report_letter
from pbem.games.resolved import ResolvedTurn
from pbem.games.service import Service
from pbem.games.stale import drop_turn_notices
from pbem.logs import log_context
from pbem.store import (
    Game,
    GameStatus,
    Seat,
    SeatStatus,
    Turn,
    dumps,
    loads,
    utc,
)
from pbem.store.work import Work

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TurnSummary:
    game: str
    turn: int
    orders: int  # seats whose orders were in
    events: int
    ended: bool
    winners: tuple[str, ...] = ()
    # The turn it opened is due at once (its held orders all in): resolve it in the same pass.
    next_due: bool = False


class TurnError(PbemError, ValueError):
    pass


def due_games(work: Work, *, now: datetime) -> list[str]:
    """Running games whose pending turn is due: deadline passed, or all orders in."""
    return [facts.game.id for facts in running_facts(work, now) if facts.is_due()]


def is_due(work: Work, game: Game, *, now: datetime) -> bool:
    """The clock decides: deadline plus grace passed, or every order in (early processing);
    never while paused or while a seat the game waits for is away (pbem.clock.due)."""
    facts = facts_of(work, game, now)
    return facts is not None and facts.is_due()


def resolve_due(service: Service, *, now: datetime) -> list[TurnSummary]:
    """Resolve every due turn, each game in its own transaction."""
    with service.store.transaction() as work:
        game_ids = due_games(work, now=now)
    return resolve_some(service, game_ids, now=now, enough=lambda: False)[0]


def resolve_some(
    service: Service, game_ids: Sequence[str], *, now: datetime, enough: Callable[[], bool]
) -> tuple[list[TurnSummary], list[str]]:
    """Resolve the turns of these games that are still due once each game is locked, each in
    its own transaction, until `enough()` (asked before each game after the first) says so;
    and the games left for the next call. The daemon takes its mail in between, so that a
    deadline wave does not hold up replies."""
    summaries: list[TurnSummary] = []
    for number, game_id in enumerate(game_ids):
        if number and enough():
            return summaries, list(game_ids[number:])
        try:
            with service.store.transaction() as work:
                summary = resolve_turn(work, service.settings, game_id, now=now, only_if_due=True)
        except Exception:
            # One game's failure (a ruleset bug, bad stored state) must not stop the others;
            # its turn stays pending, rolled back whole, and is tried again next pass.
            with log_context(game=game_id):
                log.exception("turn not resolved")
            continue
        if summary:
            summaries.append(summary)
    return summaries, []


def resolve_turn(
    work: Work,
    settings: Settings,
    game_id: str,
    *,
    now: datetime,
    only_if_due: bool = False,
    forced: Forced | None = None,
    replayed_next: bool = False,
) -> TurnSummary | None:
    """Resolve the pending turn of `game_id` now. With only_if_due, do nothing unless it is
    still due once the game row is locked (another process may have resolved it). `forced`:
    a referee resolves it by hand; before its deadline, that is a forced turn
    (pbem.clock.forced), which charges no seat a missed turn. `replayed_next`: a referee's
    rerun resolves the following turn too, at once, so the reports ask for no orders."""
    game = work.games.lock(game_id)
    if game is None:
        raise TurnError(f"there is no game {game_id}")
    if only_if_due and not is_due(work, game, now=now):
        return None
    turn = pending_turn(work, game)
    if turn is None:
        raise TurnError(f"game {game_id} has no pending turn (status {game.status})")
    resolution, played = _resolve(work, game, turn)
    ordered = sum(1 for item in played.values() if item.by == "orders")
    cut_short = forced is not None and early(turn, now)
    if forced is not None and cut_short:
        note_forced(work, game, turn, forced, now)
    # Before resolved_at: it needs the turn pending.
    note_misses(work, settings, game, turn, now=now, forced=cut_short)
    turn.state_after = dumps(resolution.state)
    # The inputs go with the outputs: the export replays the turn from them (pbem.proof).
    played_json = {seat: item.to_json() for seat, item in played.items()}
    turn.record = dumps({**resolution.record_json(), "played": played_json})
    turn.resolved_at = utc(now)
    work.games.add(turn)
    drop_turn_notices(work, game.id, turn.number, now=now)
    outcome = resolution.outcome or get_ruleset(game.ruleset).outcome(resolution.state)
    following = None
    if outcome is None:
        following = open_turn(
            work, game, resolution.state, now=now, previous_deadline=turn.deadline
        )
    else:
        game.status = GameStatus.ENDED
        game.result = dumps(outcome.to_json())
        work.games.add(game)
    ended = outcome is not None
    _queue_mail(work, settings, game, turn, ended=ended, now=now, replayed_next=replayed_next)
    next_due = False
    if following is not None:  # after the report: the orders held for it are checked now
        due = partial(is_due, work, game, now=now)  # asked once the held rows are kept
        next_due = check_held_orders(work, settings, game, following, now=now, opens_due=due)
    audit(
        work,
        now,
        "pipeline",
        "turn-resolved",
        game.id,
        f"turn {turn.number}, {ordered} orders, {len(resolution.events)} events",
    )
    winners = outcome.winners if outcome else ()
    return TurnSummary(
        game.id, turn.number, ordered, len(resolution.events), bool(outcome), winners, next_due
    )


def preview_resolution(work: Work, game: Game, turn: Turn) -> tuple[Resolution, dict[str, Played]]:
    """What resolving `turn` now would give, and what each seat would be played with (its
    own orders, its last ones again, the bot's, none); nothing is stored (a referee's
    preview)."""
    return _resolve(work, game, turn)


def _resolve(work: Work, game: Game, turn: Turn) -> tuple[Resolution, dict[str, Played]]:
    ruleset = get_ruleset(game.ruleset)
    state = loads(turn.state_before)
    sent = {seat: row.text for seat, row in work.games.stored_orders(game.id, turn.number).items()}
    rows = {seat.name: seat for seat in work.games.seats_of(game.id)}
    played = {
        name: _played(work, ruleset, game, turn, state, rows[name], sent.get(name))
        for name in ruleset.seats_to_order(state)
    }
    orders = parsed_all(ruleset, state, played)
    return ruleset.resolve(state, orders, game.seed), played


def _played(
    work: Work,
    ruleset: Ruleset,
    game: Game,
    turn: Turn,
    state: dict[str, Any],
    seat: Seat,
    sent: str | None,
) -> Played:
    # A seat in civil disorder (or without a player) plays with no orders: standing orders only.
    if seat.status in NO_PLAYER:
        return Played(NO_ORDERS, "")
    if seat.status == SeatStatus.BOT:  # given to the bot by a referee: its player's orders wait
        return bot_played(ruleset, state, seat.name, game.seed)
    if sent is not None:
        return Played("orders", sent)
    return orders_for_missing(work, ruleset, game, turn, state, seat)


def _queue_mail(
    work: Work,
    settings: Settings,
    game: Game,
    turn: Turn,
    *,
    ended: bool,
    now: datetime,
    replayed_next: bool,
) -> None:
    seats = work.games.seats_of(game.id)
    view = ResolvedTurn.load(work, game, turn, replayed_next=replayed_next)
    seats = [seat for seat in seats if seat.address]  # an ejected seat has no player to mail
    for seat in seats:
        attached = report_attachments(work, view, seat)
        queue(work, settings, report_letter(settings, view, seat, attached), now=now)
    if not ended:
        return
    readers = [(seat.name, seat.address, seat.pictures) for seat in seats]
    referees = work.games.referees_of(game.id)
    readers += [("", referee.address, True) for referee in referees]  # '': seen by no seat
    drawn = EndPictures(work, game, turn)
    for seat_name, address, pictures in readers:
        attached = drawn.for_reader(seat_name, pictures=pictures)
        letter = end_letter(
            settings, game, seat_name, address, turn, revision=view.revision, attachments=attached
        )
        queue(work, settings, letter, now=now)
