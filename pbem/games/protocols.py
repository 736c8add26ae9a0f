"""The transport seen from the games: an inbox to take mail from and a sender to give it to.
The maildir pair and IMAP/SMTP implement them (pbem.daemon.transport chooses)."""

from __future__ import annotations

from collections.abc import Sequence
from email.message import EmailMessage
from typing import Protocol, runtime_checkable


class InboxItem(Protocol):
    @property
    def key(self) -> str: ...

    @property
    def raw(self) -> bytes: ...


class Inbox(Protocol):
    def pending(self) -> Sequence[InboxItem]:
        """Messages not yet marked done, oldest first."""
        ...

    def mark_done(self, *keys: str) -> None:
        """Called only after the messages' transactions committed; several at once where the
        inbox can mark them together (one IMAP command, one directory fsync)."""
        ...


class Sender(Protocol):
    def send(self, message: EmailMessage) -> None:
        """Return once the transport took the mail, or raise one of pbem.mail.delivery's two
        failures: TemporaryFailure (try again later; `transport_down` when the transport as a
        whole is away) or PermanentFailure (refused for good: the mail is bounced). Anything
        else raised is taken for a fault of this one mail and retried like a deferral."""
        ...


@runtime_checkable
class RawSender(Sender, Protocol):
    """A sender that also takes a mail as the bytes the outbox stored, without their being
    parsed into a message first (the real ones: SMTP and the maildir)."""

    def send_raw(self, raw: bytes) -> None: ...
