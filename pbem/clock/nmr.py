"""Missed turns (NMR, "no moves received"), inside turn resolution.

A seat the ruleset asks for orders and that sent none is played by the game's `nmr` option:

- ``no-orders``: with empty orders; a ruleset then applies the seat's standing orders kept in
  its state (advance choices, defence, losses) and nothing else.
- ``standing``: with the last order text the seat sent for an earlier turn, parsed again
  against the current state (lines that no longer make sense are dropped as problems);
  with no earlier orders, as ``no-orders``. Only its present player's: a referee who gives
  the seat to a new player (REPLACE) marks the turn they start from (Seat.player_from).
- ``bot``: with the ruleset's bot's orders, read by the same parser as a player's.

A seat a referee gave to the bot (seat status ``bot``) is always played by the bot.

Each miss counts one more on the seat's run of misses (orders reset it to 0), except while the
seat is away (SET ABSENCE) or not active (abandoned, or taken out by a referee): an announced
absence is not a miss; nor is a turn a referee forced before its deadline (pbem.clock.forced),
whose seats without orders are recorded with `forced` and their count left as it was. After
the game's
`abandon_after` misses in a row the seat becomes "abandoned" and the referees get a mail.
The facts go into the turn's `nmr` column, so the report (and a resent one) can warn the seat.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from engine import Ruleset
from engine.words import plural
from pbem.clock.due import facts_of
from pbem.clock.notices import abandoned_letter, queue_once
from pbem.config import Settings
from pbem.games.audit import audit
from pbem.games.played import BOT, NO_ORDERS, Played, bot_played
from pbem.store import Game, OrderSet, Seat, SeatStatus, Turn, dumps, loads, utc
from pbem.store.work import Work


def orders_for_missing(
    work: Work, ruleset: Ruleset, game: Game, turn: Turn, state: Any, seat: Seat
) -> Played:
    """What a seat without orders this turn is played with (see the module docstring)."""
    if game.nmr == BOT:
        return bot_played(ruleset, state, seat.name, game.seed)
    last = _last_orders(work, game.id, turn.number, seat) if game.nmr == "standing" else None
    if last is None:
        return Played(NO_ORDERS, "")
    return Played("standing", last.text)


def missing_mode(work: Work, game: Game, turn: Turn, seat: Seat) -> str:
    """How a seat without orders is played, without playing it: bot, standing or no-orders."""
    if seat.status == SeatStatus.BOT or game.nmr == BOT:
        return BOT
    if game.nmr == "standing" and _last_orders(work, game.id, turn.number, seat):
        return "standing"
    return NO_ORDERS


def _last_orders(work: Work, game_id: str, before: int, seat: Seat) -> OrderSet | None:
    """The seat's last orders its present player gave: a former player's are not theirs."""
    return work.games.last_orders_before(game_id, seat.name, before, seat.player_from)


def note_misses(
    work: Work,
    settings: Settings,
    game: Game,
    turn: Turn,
    *,
    now: datetime,
    forced: bool = False,
) -> dict[str, dict[str, Any]]:
    """Count this turn's misses on the seats, abandon seats past the limit (telling the
    referees), and keep the facts in turn.nmr. Call while resolving `turn`, before the
    reports are rendered. A turn `forced` before its deadline (pbem.clock.forced) counts no
    miss: its seats without orders had time left."""
    facts = facts_of(work, game, now)
    assert facts is not None and facts.turn.id == turn.id, "note_misses needs the pending turn"
    # Away at the deadline counts, even if the turn waited (wait_for_absent) until the seat
    # was back: it had no time to send orders.
    at = min(utc(turn.deadline), utc(now)) if turn.deadline else utc(now)
    away = replace(facts, now=at)
    entries: dict[str, dict[str, Any]] = {}
    for seat in facts.asked:
        if seat.status == SeatStatus.BOT:
            continue  # a referee gave it to the bot: no player misses anything
        if seat.name in facts.ordered:
            seat.missed = 0
        elif forced:
            entries[seat.name] = _cut_short(work, game, turn, seat, away.absent(seat))
        else:
            entries[seat.name] = _miss(work, settings, game, turn, seat, away.absent(seat), now)
        work.games.add(seat)
    turn.nmr = dumps(entries)
    work.games.add(turn)
    return entries


def _miss(
    work: Work,
    settings: Settings,
    game: Game,
    turn: Turn,
    seat: Seat,
    absent: bool,
    now: datetime,
) -> dict[str, Any]:
    counted = seat.status == SeatStatus.ACTIVE and not absent  # only a player's own misses count
    if counted:
        seat.missed += 1
    played = missing_mode(work, game, turn, seat)
    newly = counted and 0 < game.abandon_after <= seat.missed
    if newly:
        seat.status = SeatStatus.ABANDONED
        _tell_referees(work, settings, game, turn, seat, now)
    return {
        "missed": seat.missed,
        "absent": absent,
        "abandoned": seat.status == SeatStatus.ABANDONED,
        "newly_abandoned": newly,
        "played": played,
    }


def _cut_short(work: Work, game: Game, turn: Turn, seat: Seat, absent: bool) -> dict[str, Any]:
    """A seat without orders in a forced turn: played as if it had missed, but its count of
    missed turns stays as it was."""
    return {
        "missed": seat.missed,
        "absent": absent,
        "abandoned": seat.status == SeatStatus.ABANDONED,
        "newly_abandoned": False,
        "played": missing_mode(work, game, turn, seat),
        "forced": True,
    }


def _tell_referees(
    work: Work, settings: Settings, game: Game, turn: Turn, seat: Seat, now: datetime
) -> None:
    for referee in work.games.referees_of(game.id):
        letter = abandoned_letter(settings, game, turn.number, seat, referee.address)
        queue_once(work, settings, letter, now=now)
    missed = plural(seat.missed, "turn")
    detail = f"{seat.name} after {missed} in a row without orders (turn {turn.number})"
    audit(work, now, "clock", "seat-abandoned", game.id, detail)


def undo_misses(work: Work, game_id: str, target: int) -> None:
    """Before a rollback to the start of turn `target`: every seat's count of missed turns goes
    back to what it was when that turn opened (as turn `target` - 1 recorded it), and a seat
    that the undone turns abandoned is active again, so that a rerun counts each miss once."""
    from_before = work.games.turns_after(game_id, target - 2)  # turn target - 1 and after
    recorded = {row.number: loads(row.nmr or "{}") for row in from_before}
    before = recorded.get(target - 1, {})
    undone = [entries for number, entries in recorded.items() if number >= target]
    for seat in work.games.seats_of(game_id):
        seat.missed = before.get(seat.name, {}).get("missed", 0)
        if any(entries.get(seat.name, {}).get("newly_abandoned") for entries in undone):
            seat.status = SeatStatus.ACTIVE
        work.games.add(seat)
