"""The transport seen from the pipeline: an inbox to take mail from and a sender to give it to.
The maildir pair implements these now; IMAP and SMTP will implement the same."""

from __future__ import annotations

from collections.abc import Sequence
from email.message import EmailMessage
from typing import Protocol


class InboxItem(Protocol):
    @property
    def key(self) -> str: ...

    @property
    def raw(self) -> bytes: ...


class Inbox(Protocol):
    def pending(self) -> Sequence[InboxItem]:
        """Messages not yet marked done, oldest first."""
        ...

    def mark_done(self, key: str) -> None:
        """Called only after the message's transaction committed."""
        ...


class Sender(Protocol):
    def send(self, message: EmailMessage) -> None: ...
