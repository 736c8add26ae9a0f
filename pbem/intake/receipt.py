"""What became of one mail taken in or replayed: its status, its outcome, its replies."""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.store import MailStatus, Outbox


@dataclass
class Receipt:
    message_id: str
    status: MailStatus
    outcome: str
    replies: list[Outbox] = field(default_factory=list)
    game_id: str | None = None  # the game the mail was about, when known (for the logs)
    clock_work: bool = False  # the mail may have made clock work due (MailContext.clock_work)
