"""A turn forced before its deadline: a referee's PROCESS, or `pbem turn run`. The seats
without orders were cut short, not late, so none is charged a missed turn (pbem.clock.nmr),
and every seat's report of that turn says why it came early: a public referee note on the
turn itself (the note of the PROCESS command would belong to the next turn, whose reports
come too late to explain this one). A rerun after a rollback plays a forced turn forced
again: its note is still there."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from pbem.deadlines.stored import describe
from pbem.store import Game, RefereeNote, Turn, utc
from pbem.store.work import Work

ACTION = "forced"  # the action of the referee note that marks a forced turn


@dataclass(frozen=True)
class Forced:
    """Who resolves a turn by hand, and why ('' when the command line gave no reason)."""

    by: str  # a referee's address, or "cli"
    reason: str = ""


def early(turn: Turn, now: datetime) -> bool:
    """Whether resolving `turn` at `now` comes before its deadline (always, without one)."""
    return turn.deadline is None or utc(now) < utc(turn.deadline)


def was_forced(work: Work, game_id: str, number: int) -> bool:
    return work.games.has_note(game_id, number, ACTION)


def note_forced(work: Work, game: Game, turn: Turn, forced: Forced, now: datetime) -> None:
    """The players' note that `turn` was played early, once (a rerun finds it there)."""
    if was_forced(work, game.id, turn.number):
        return
    when = (
        f"before its deadline ({describe(turn.deadline, game.timezone)})"
        if turn.deadline is not None
        else "before every seat's orders were in"
    )
    effect = (
        f"turn {turn.number} was played {when}, at the referee's word: a seat without "
        "orders has not missed a turn"
    )
    note = RefereeNote(
        game_id=game.id,
        turn=turn.number,
        at=utc(now),
        actor=forced.by,
        action=ACTION,
        reason=forced.reason,
        effect=effect,
    )
    work.games.add(note)
    work.flush()  # the reports of the turn read it
