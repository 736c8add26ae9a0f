"""One resolved turn as its reports are made from it: the state after it, its record, the
mail lines of the orders and the referee notes, loaded once for every seat's report."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from engine import Resolution, Ruleset, get_ruleset
from pbem.games.games import paused_turn, pending_turn
from pbem.games.played import BOT, played_of
from pbem.store import Game, GameStatus, Turn, loads
from pbem.store.work import Work
from pbem.templates import wrap


@dataclass(frozen=True)
class ResolvedTurn:
    """What every seat's report of one resolved turn is made from, loaded once."""

    game: Game
    turn: Turn
    ruleset: Ruleset
    after: dict[str, Any]
    resolution: Resolution
    following: Turn | None
    line_maps: dict[str, list[int]]  # seat -> the mail line of each line of its order text
    revision: int = 0  # how many times the turn was rolled back: 0 for its first resolution
    referee_notes: tuple[str, ...] = ()  # what a referee changed during the turn, and why
    bot_seats: tuple[str, ...] = ()  # seats the ruleset's bot played this turn
    # A referee's rerun resolves the following turn again in the same command: its own
    # report follows, and this one asks for no orders (pbem.referee.turns).
    replayed_next: bool = False
    # The turn being played now, when this report is an old one (`following` has been played
    # since: a resend, REPORT n); None while the report is the latest, or once the game ended.
    current: Turn | None = None
    # What is drawn once for all the turn's reports (pbem.games.attachments): the map...
    drawn: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def old(self) -> bool:
        """Whether the turn after this one has been played since: the report is a copy, and
        its deadline and order template are long past."""
        return self.following is not None and self.following.resolved_at is not None

    @property
    def due(self) -> Turn | None:
        """The turn orders are wanted for now, as this report is sent: the following turn,
        or for an old report the one being played; none while a rerun goes on past it."""
        if self.replayed_next:
            return None
        return self.current if self.old else self.following

    @property
    def paused(self) -> bool:
        """The game is paused with a turn due (the latest report's next turn, or for an old
        report the one being played): no deadline stands, it is set at the resume, so none
        is shown."""
        return self.due is not None and self.game.status == GameStatus.PAUSED

    @property
    def played_since(self) -> str:
        """For an old report, the turns played after it, as its copy line says them: 'turn 3
        has' or 'turns 3 to 4 have' (up to the turn before the one being played, or to the
        last, once the game ended)."""
        if self.following is None:
            return ""
        first = self.following.number
        last = self.current.number - 1 if self.current else self.game.turn
        return f"turn {first} has" if last <= first else f"turns {first} to {last} have"

    def due_state(self) -> dict[str, Any]:
        """The position the order template of `due` is written for."""
        if self.old and self.current is not None:
            state: dict[str, Any] = loads(self.current.state_before)
            return state
        return self.after

    @cached_property
    def summary(self) -> str:
        """The ruleset's public summary after the turn, the same in every seat's report and
        on the turn's web page: worked out once (a few ms a call on a big map)."""
        return self.ruleset.public_summary(self.after)

    @classmethod
    def load(
        cls, work: Work, game: Game, turn: Turn, *, replayed_next: bool = False
    ) -> ResolvedTurn:
        """`replayed_next`: a referee's rerun resolves the following turn too, at once."""
        ruleset = get_ruleset(game.ruleset)
        after = loads(turn.state_after or turn.state_before)
        played = played_of(loads(turn.record or "{}"))
        # The mail lines of the orders a seat sent, unless the bot played it instead.
        orders = {
            seat: row
            for seat, row in work.games.stored_orders(game.id, turn.number).items()
            if seat not in played or played[seat].by == "orders"
        }
        following = _following_turn(work, game, ruleset, after)
        # Read only for an old report (a query the web archive's every turn need not make).
        old = following is not None and following.resolved_at is not None
        return cls(
            game=game,
            turn=turn,
            ruleset=ruleset,
            after=after,
            resolution=Resolution.from_record(after, loads(turn.record or "{}")),
            following=following,
            line_maps={seat: loads(row.line_map) for seat, row in orders.items()},
            revision=_revision(work, game.id, turn.number),
            referee_notes=_referee_notes(work, game, turn.number),
            bot_seats=tuple(seat for seat, item in played.items() if item.by == BOT),
            replayed_next=replayed_next,
            current=(pending_turn(work, game) or paused_turn(work, game)) if old else None,
        )


def _revision(work: Work, game_id: str, number: int) -> int:
    """How many times the turn was played before, and rolled back: a branch keeps a turn
    pending at its rollback too, never played and never reported, which does not count."""
    return work.games.times_played_before(game_id, number)


def _referee_notes(work: Work, game: Game, number: int) -> tuple[str, ...]:
    """The public referee notes of the turn, unless the game opted out of them."""
    if not game.announce_referee_actions:
        return ()
    notes = work.games.public_notes(game.id, number)
    # A turn forced on the command line may come without a reason (pbem.clock.forced).
    return tuple(
        wrap(f"{note.effect}. Why: {note.reason}" if note.reason else f"{note.effect}.")
        for note in notes
    )


def _following_turn(work: Work, game: Game, ruleset: Ruleset, after: dict[str, Any]) -> Turn | None:
    if ruleset.outcome(after) is not None:
        return None
    number = ruleset.turn_number(after)
    return work.games.turn_of(game.id, number)
