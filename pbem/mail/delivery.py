"""What every sender promises the outbox, whatever the transport (SMTP, a maildir, a test's):
`send(message)` returns once the mail is taken, or raises one of the two failures below (a
real transport also takes the stored bytes as they are, `send_raw(raw)`). The
outbox (pbem.games.outbox) acts on those alone, and retries a deferred mail by the transport-
neutral RetryPolicy ([outbox] in the config); any other exception is a bug or an unexpected
fault of one mail, and is retried like a deferral so that one mail cannot hold up the rest."""

from __future__ import annotations

import email.policy
import email.utils
from dataclasses import dataclass
from datetime import timedelta
from email.message import Message
from email.parser import BytesHeaderParser


class SendFailure(Exception):
    """A mail the transport did not take. `code` is the server's reply code when it gave one."""

    def __init__(self, reason: str, *, code: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code


class TemporaryFailure(SendFailure):
    """Try again later. `transport_down`: the transport as a whole is away (no connection, login
    refused, a maildir that cannot be written); the mail is not counted against and the pass
    stops. Otherwise this mail alone was deferred (`retry_in` seconds, if the transport knows)."""

    def __init__(
        self,
        reason: str,
        *,
        code: int | None = None,
        transport_down: bool = False,
        retry_in: float = 0.0,
    ) -> None:
        super().__init__(reason, code=code)
        self.transport_down = transport_down
        self.retry_in = retry_in


class PermanentFailure(SendFailure):
    """Refused for good (an unknown recipient, rejected content): the mail is bounced."""

    def __init__(
        self, reason: str, *, code: int | None = None, recipients: tuple[str, ...] = ()
    ) -> None:
        super().__init__(reason, code=code)
        self.recipients = recipients


@dataclass(frozen=True)
class RetryPolicy:
    """A deferred mail is tried again after `first_seconds`, the delay doubling up to
    `max_seconds`, and bounced when still deferred `give_up_hours` after it was queued."""

    first_seconds: int = 60
    max_seconds: int = 3600
    give_up_hours: int = 120

    def delay(self, attempts: int) -> timedelta:
        """How long to wait before the next try of a mail deferred `attempts` times (>= 1)."""
        # The exponent is capped: 2.0 ** 1024 overflows, and the cap is reached long before.
        seconds = self.first_seconds * 2.0 ** min(max(0, attempts - 1), 60)
        return timedelta(seconds=min(float(self.max_seconds), seconds))

    def give_up_after(self) -> timedelta:
        """A mail still deferred this long after it was queued is bounced."""
        return timedelta(hours=self.give_up_hours)


def read_headers(raw: bytes) -> Message:
    """The headers of a mail we wrote, read without parsing its body (a report's pictures
    would cost milliseconds to parse, only to be written out again), as plain strings: the
    header classes of the default policy cost ten times the parse, for values we wrote."""
    head = raw.split(b"\n\n", 1)[0] + b"\n\n"  # the parser would read the body line by line
    return BytesHeaderParser(policy=email.policy.compat32).parsebytes(head)


def with_date(raw: bytes, headers: Message) -> bytes:
    """The mail with a Date header of now in front, unless it has one: the outbox stores mail
    without one, so that the same mail is the same bytes (pbem.mail.compose)."""
    if headers["Date"] is not None:
        return raw
    head, blank, body = raw.partition(b"\n\n")  # the Date goes last, as a header set later
    return head + f"\nDate: {email.utils.formatdate(usegmt=True)}".encode() + blank + body
