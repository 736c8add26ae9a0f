"""What a referee command works on: the game, the transaction, who acts and why, and the
changes it made (recorded by pbem.referee.command.run_command)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pbem.config import Settings
from pbem.errors import PbemError
from pbem.games.games import find_seat
from pbem.games.outbox import Letter, queue
from pbem.games.stops import STOPPED
from pbem.mail.compose import stable_message_id
from pbem.store import (
    Game,
    GameStatus,
    InboundMessage,
    Outbox,
    OutboxKind,
    Referee,
    Seat,
    Turn,
)
from pbem.store.audit import AuditTrail
from pbem.store.work import Work


class RefereeError(PbemError, ValueError):
    """A referee command that cannot be done as asked; the message says why."""


# Handles a recorded mail again in the work, its status and outcome left on its row, and
# gives the replies it queued: the `replay` command's. Handling mail runs referee commands, so
# whoever makes the context (referee mail, the command line) hands it in: the referee's
# commands sit below the intake and do not import it.
MailHandler = Callable[[Work, Settings, InboundMessage, datetime], Sequence[Outbox]]


@dataclass(frozen=True)
class Change:
    effect: str  # what changed, in words a player understands
    before: Any = None
    after: Any = None
    public: bool = True  # tell the players in their next reports
    edit_path: str = ""  # a state edit, applied again by a rerun
    edit_value: str = ""


@dataclass
class RefereeContext:
    work: Work
    settings: Settings
    game: Game
    actor: str  # the referee's address, or "cli"
    now: datetime
    origin: str  # unique per command use: the Message-IDs of the mail it sends derive from it
    handle_mail: MailHandler
    changes: list[Change] = field(default_factory=list)
    sent: int = 0
    stopped: list[str] = field(default_factory=list)  # addresses whose mail was dropped: STOP

    @property
    def audit(self) -> AuditTrail:
        """The game's audit log, in this command's unit of work."""
        return self.work.audit

    def change(self, effect: str, before: Any = None, after: Any = None, **how: Any) -> None:
        self.changes.append(Change(effect, before, after, **how))

    def pending_turn(self) -> Turn:
        """The turn orders are given for now (also while the game is paused)."""
        turn = self.work.games.turn_of(self.game.id, self.game.turn)
        if self.game.status == GameStatus.ENDED or turn is None or turn.resolved_at is not None:
            raise RefereeError(f"game {self.game.id} has no pending turn ({self.game.status})")
        return turn

    def seat(self, name: str) -> Seat:
        found = find_seat(self.work, self.game.id, name)
        if found is None:
            names = ", ".join(seat.name for seat in self.work.games.seats_of(self.game.id))
            raise RefereeError(f"game {self.game.id} has no seat {name}; the seats are {names}")
        return found

    def referees(self) -> list[Referee]:
        return self.work.games.referees_of(self.game.id)

    def send(
        self, to: str, subject: str, body: str, *, kind: OutboxKind = OutboxKind.REFEREE
    ) -> tuple[Letter, Outbox]:
        """Queue a mail; its Message-ID is stable for this command use. The letter and its
        row."""
        self.sent += 1
        message_id = stable_message_id(
            "referee", self.game.id, self.origin, str(self.sent), domain=self.settings.mail.domain
        )
        letter = Letter(
            kind, to, f"[{self.game.id}] {subject}", body, message_id, game_id=self.game.id
        )
        row = queue(self.work, self.settings, letter, now=self.now)
        if row.last_error == STOPPED and to.lower() not in self.stopped:
            self.stopped.append(to.lower())
        return letter, row

    def unsent(self) -> str:
        """For a result that says whom a mail went to: the addresses it did not go to, as
        they asked for no more mail (STOP); '' when it went to all."""
        if not self.stopped:
            return ""
        return (
            f"; NOT sent to {', '.join(self.stopped)}: that address asked for no more mail (STOP)"
        )
