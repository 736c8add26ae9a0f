"""The transport seen from the pipeline: an inbox to take mail from and a sender to give it to.
The maildir pair implements these now; IMAP and SMTP will implement the same."""

from __future__ import annotations

from email.message import EmailMessage
from typing import Protocol


class InboxItem(Protocol):
    key: str
    raw: bytes


class Inbox(Protocol):
    def pending(self) -> list[InboxItem]: ...

    def mark_done(self, key: str) -> None: ...


class Sender(Protocol):
    def send(self, message: EmailMessage) -> None: ...
