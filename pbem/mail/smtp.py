"""The sender on a real SMTP server: the Sender protocol over aiosmtplib, called synchronously.

send() either hands the message to the server or raises one of two exceptions, so that the
outbox drainer knows what to do with the row:

- TemporaryFailure: try again later. `transport_down` says whether the failure concerns the
  server as a whole (unreachable, timed out, refused our login or our envelope sender, over our
  own rate limit) rather than this one message (a 4xx for its recipient). When it is down,
  every further send in the same pass would fail the same way, so the drainer should stop the
  pass without holding it against the row; while the sender's own backoff runs, send() fails
  at once without touching the network. `retry_in` is then the seconds until it tries again.
- PermanentFailure: the server rejected this message for good (5xx). Retrying cannot help;
  the drainer records it like a bounce.

Failures of our own setup (wrong password, sender refused) are temporary on purpose: bouncing
every queued mail because of a config mistake would lose them; fixing the config sends them.
"""

from __future__ import annotations

import asyncio
import copy
import email.policy
import email.utils
import logging
import queue
import ssl
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from email import message_from_bytes
from email.message import EmailMessage, Message
from email.utils import getaddresses, parseaddr
from typing import Any, TypeVar

import aiosmtplib

from pbem.mail.backoff import Backoff, Clock, RateLimiter
from pbem.mail.delivery import (
    PermanentFailure,
    SendFailure,
    TemporaryFailure,
    read_headers,
    with_date,
)
from pbem.mail.secrets import resolve_secret
from pbem.mail.settings import SmtpSettings, is_loopback

log = logging.getLogger(__name__)

# A kept connection is replaced after this long or this many messages (Postfix's smtp client:
# smtp_connection_reuse_time_limit = 300 s; providers limit the messages of one connection).
REUSE_SECONDS = 300.0
REUSE_MESSAGES = 100
# A server answers a NOOP at once; one that does not in this long gets a new connection.
NOOP_SECONDS = 5.0
# A connection that carried a mail this recently is used again without a NOOP first: in a
# deadline wave the NOOP's round trip cost as much as a send. Servers close idle connections
# after minutes (Postfix: 300 s); one closed sooner fails the send at its first command,
# which is then made on a new connection.
FRESH_SECONDS = 2.0

R = TypeVar("R")

# Hands the mail to a connected client: send_message or sendmail, awaited.
Transmit = Callable[[aiosmtplib.SMTP], Awaitable[tuple[dict[str, aiosmtplib.SMTPResponse], str]]]


class SmtpSender:
    """Sends over SMTP connections kept open from mail to mail, as an MTA does: a deadline
    wave sends thousands of reports, and a connection of their own (TCP, STARTTLS and AUTH,
    and an event loop to run them) cost each send several times what the sending itself
    does. Before a kept connection is used again it must answer a NOOP (a server that closed
    it meanwhile is met with a new one), and it is replaced after REUSE_SECONDS or
    REUSE_MESSAGES, as Postfix's smtp client bounds its reuse. Any failure drops it.

    Up to [smtp] connections sends may be in hand at once, each on a line of its own (a
    connection and the event loop it lives on, run by the calling thread): a server takes a
    mail in a round trip of its own, and mail in flight on several connections overlaps
    those waits, as an MTA's delivery agents do. A line opens its connection at its first
    mail: a sender called by one thread at a time keeps one connection open.

    Holds state that must live as long as the process: the backoff while the server is away,
    the rate limiter, and the connections with their event loops. Make one sender, keep it,
    and close() it at the end.
    """

    def __init__(
        self,
        settings: SmtpSettings,
        *,
        clock: Clock = time.monotonic,
        limiter: RateLimiter | None = None,
    ) -> None:
        self.settings = settings
        self._password = resolve_secret(
            value=settings.password,
            env=settings.password_env,
            file=settings.password_file,
            what="smtp password",
        )
        self.limiter = limiter or RateLimiter(settings.rate_per_minute, clock=clock)
        self._backoff = Backoff(
            settings.backoff_first_seconds, settings.backoff_max_seconds, clock=clock
        )
        if settings.security == "plain" and not is_loopback(settings.host):
            log.warning("smtp: plain (unencrypted) connection to %s", settings.host)
        # The lines not in use; the one used last is taken first, so that mail sent one at
        # a time keeps to one connection (the others, idle, are closed by the server or
        # replaced at their next use).
        self._free: queue.LifoQueue[_Line] = queue.LifoQueue()
        for _ in range(settings.connections):
            self._free.put(_Line())
        # The backoff and the rate limit, asked and changed by every line's thread.
        self._pacing = threading.Lock()
        self._tls: ssl.SSLContext | None = None  # made once: loading the CA store is costly

    @property
    def connections(self) -> int:
        """How many sends may be in hand at once."""
        return self.settings.connections

    def close(self) -> None:
        """QUIT the kept connections, if any, and close their event loops. A send that still
        hangs in another thread keeps its line: the process is ending and takes it along."""
        deadline = time.monotonic() + 1.0
        taken = []
        for _ in range(self.settings.connections):
            try:
                taken.append(self._free.get(timeout=max(0.0, deadline - time.monotonic())))
            except queue.Empty:
                break
        for line in taken:
            line.close()
            self._free.put(line)

    @property
    def reserve(self) -> int:
        """Slots of the rate limit that bulk mail leaves free for replies to people who just
        wrote: a fifth of it, at least one (none when the limit is one a minute or off)."""
        per_minute = self.limiter.per_minute
        return max(per_minute // 5, 1) if per_minute > 1 else 0

    def ready_in(self) -> float:
        """Seconds until send() may touch the network again (backoff, or the rate limit as
        bulk mail sees it); 0.0: now."""
        with self._pacing:
            return max(self._backoff.remaining(), self.limiter.delay(self.reserve))

    def send(self, message: EmailMessage) -> None:
        """Deliver `message` to its To/Cc/Bcc (Bcc is not transmitted). Adds a Date header to a
        copy when missing. Raises TemporaryFailure or PermanentFailure."""
        if message["Date"] is None:
            message = copy.deepcopy(message)
            message["Date"] = email.utils.formatdate(usegmt=True)
        envelope = self.settings.envelope_from or None
        self._deliver(message, lambda client: client.send_message(message, sender=envelope))

    def send_raw(self, raw: bytes) -> None:
        """Deliver a mail we wrote (pbem.mail.compose: no Cc or Bcc) as its bytes stand, with
        a Date header added; as send() does, without parsing and writing out its body again."""
        if not raw.split(b"\n\n", 1)[0].isascii():
            # An address in UTF-8: send_message knows when the server must offer SMTPUTF8.
            self.send(message_from_bytes(raw, policy=email.policy.default))
            return
        headers = read_headers(raw)
        recipients = [address for _name, address in getaddresses(headers.get_all("To", []))]
        sender = self.settings.envelope_from or parseaddr(str(headers["From"]))[1]
        data = with_date(raw, headers)
        self._deliver(headers, lambda client: client.sendmail(sender, recipients, data))

    def _deliver(self, headers: Message, transmit: Transmit) -> None:
        self._admit(headers)
        try:
            refused = self._run(transmit)
        except Exception as error:
            failure = classify(error)
            if isinstance(failure, TemporaryFailure) and failure.transport_down:
                failure.retry_in = self._failed()
            log.warning("smtp: %s not sent: %s", headers["Message-ID"], failure)
            raise failure from error
        with self._pacing:
            self._backoff.succeeded()
        for recipient, response in refused.items():
            # The server took the mail for the other recipients; a retry would duplicate it.
            log.warning("smtp: %s refused by %s: %s", recipient, self.settings.host, response)

    def _admit(self, headers: Message) -> None:
        """Raise TemporaryFailure (the transport down) while the backoff runs or the rate
        limit is reached; else take a slot of the limit."""
        # A reply (RFC 3834 "auto-replied": to a mail a person just sent) may use every
        # slot of the limit; other mail (reports, reminders) leaves the reserve free for it.
        reply = str(headers.get("Auto-Submitted", "")).startswith("auto-replied")
        reserve = 0 if reply else self.reserve
        with self._pacing:
            waiting = self._backoff.remaining()
            if waiting > 0:
                raise TemporaryFailure(
                    "smtp: server unavailable, waiting before the next try",
                    transport_down=True,
                    retry_in=waiting,
                )
            if not self.limiter.try_acquire(reserve):
                raise TemporaryFailure(
                    f"smtp: rate limit of {self.limiter.per_minute} a minute reached",
                    transport_down=True,
                    retry_in=self.limiter.delay(reserve),
                )

    def _failed(self) -> float:
        """The server failed as a whole: the delay before the next try. Sends in flight on
        other connections when it went away fail too; the outage is counted once, by the
        first, or each would double the delay again."""
        with self._pacing:
            return self._backoff.remaining() or self._backoff.failed()

    def _run(self, transmit: Transmit) -> dict[str, aiosmtplib.SMTPResponse]:
        line = self._free.get()
        try:
            return line.run(self._send(line, transmit))
        finally:
            self._free.put(line)

    async def _send(self, line: _Line, transmit: Transmit) -> dict[str, aiosmtplib.SMTPResponse]:
        kept = line.kept if line.kept is not None and await line.kept.usable() else None
        if kept is not None and kept.fresh():
            try:
                return await kept.carry(transmit)
            except (aiosmtplib.SMTPServerDisconnected, ConnectionError):
                kept = None  # closed since its last mail, unprobed: as a NOOP would have found
            except aiosmtplib.SMTPResponseException as error:
                if error.code != 421:
                    raise
                kept = None  # "closing the channel" (aiosmtplib has closed it): the same
        if kept is None:
            line.drop()
            kept = line.kept = _Kept(await self._connect(), time.monotonic())
        return await kept.carry(transmit)

    async def _connect(self) -> aiosmtplib.SMTP:
        settings = self.settings
        client = aiosmtplib.SMTP(
            hostname=settings.host,
            port=settings.effective_port,
            username=settings.user or None,
            password=self._password if settings.user else None,
            local_hostname=settings.helo_name or None,
            timeout=settings.timeout_seconds,
            use_tls=settings.security == "tls",
            # True, not None: never fall back to plain text when STARTTLS was asked for.
            start_tls=settings.security == "starttls",
            tls_context=self._tls_context(),
        )
        await client.connect()
        return client

    def _tls_context(self) -> ssl.SSLContext | None:
        if self.settings.security == "plain":
            return None
        with self._pacing:  # lines connecting at once share the one context
            if self._tls is None:
                self._tls = _tls_context(self.settings)
            return self._tls


class _Line:
    """One connection the sender keeps, with the event loop it lives on; used by one thread
    at a time (the sender hands it out)."""

    def __init__(self) -> None:
        self.runner: asyncio.Runner | None = None
        self.kept: _Kept | None = None

    def run(self, sending: Coroutine[Any, Any, R]) -> R:
        if self.runner is None:
            self.runner = asyncio.Runner()
        try:
            return self.runner.run(sending)
        except BaseException:
            self.drop()  # whatever state the session is in, it is not worth keeping
            raise

    def drop(self) -> None:
        kept, self.kept = self.kept, None
        if kept is not None:
            kept.client.close()

    def close(self) -> None:
        """QUIT the connection, if any, and close the event loop."""
        runner, self.runner = self.runner, None
        kept, self.kept = self.kept, None
        if runner is not None:
            with runner:  # closes the loop, whatever the QUIT does
                if kept is not None:
                    runner.run(kept.quit())


@dataclass
class _Kept:
    """The connection kept between sends, since when, and how many messages it carried."""

    client: aiosmtplib.SMTP
    since: float
    messages: int = 0
    used: float = 0.0  # when it last carried a mail (monotonic)

    def fresh(self) -> bool:
        """It carried a mail a moment ago (FRESH_SECONDS): no NOOP is asked of it."""
        return time.monotonic() - self.used < FRESH_SECONDS

    async def carry(self, transmit: Transmit) -> dict[str, aiosmtplib.SMTPResponse]:
        refused, _reply = await transmit(self.client)
        self.messages += 1
        self.used = time.monotonic()
        return refused

    async def usable(self) -> bool:
        """Young enough to keep, and the server still answers on it (asked by a NOOP unless
        it is fresh)."""
        if time.monotonic() - self.since > REUSE_SECONDS or self.messages >= REUSE_MESSAGES:
            await self.quit()
            return False
        if not self.client.is_connected:
            return False
        if self.fresh():
            return True
        try:
            await self.client.noop(timeout=NOOP_SECONDS)
        except (aiosmtplib.SMTPException, OSError):
            return False  # the server closed it or went away: a new connection will tell
        return True

    async def quit(self) -> None:
        try:
            await self.client.quit()
        except (aiosmtplib.SMTPException, OSError):
            self.client.close()


def classify(error: BaseException) -> SendFailure:
    """Which of our two failures an aiosmtplib or network error is."""
    if isinstance(error, SendFailure):
        return error
    if isinstance(error, aiosmtplib.SMTPRecipientsRefused):
        # Every recipient was refused (a partial refusal is not an error in aiosmtplib).
        codes = [refusal.code for refusal in error.recipients]
        recipients = tuple(refusal.recipient for refusal in error.recipients)
        detail = "; ".join(f"{r.recipient}: {r.code} {r.message}" for r in error.recipients)
        if all(code >= 500 for code in codes):
            return PermanentFailure(detail, code=codes[0], recipients=recipients)
        return TemporaryFailure(detail, code=min(codes))
    if isinstance(
        error,
        aiosmtplib.SMTPAuthenticationError
        | aiosmtplib.SMTPSenderRefused
        | aiosmtplib.SMTPConnectResponseError
        | aiosmtplib.SMTPHeloError,
    ):
        # About us, not this message: our login, our envelope sender, or the server greeting
        # us with an error. Wait for the operator (or the server) rather than bounce.
        return TemporaryFailure(_describe(error), code=error.code, transport_down=True)
    if isinstance(error, aiosmtplib.SMTPResponseException):
        if 500 <= error.code < 600:
            return PermanentFailure(_describe(error), code=error.code)
        if 400 <= error.code < 500:
            return TemporaryFailure(_describe(error), code=error.code)
        return TemporaryFailure(_describe(error), code=error.code, transport_down=True)
    if isinstance(error, aiosmtplib.SMTPNotSupported):
        # The message needs SMTPUTF8 and the server lacks it: no retry will change that.
        return PermanentFailure(f"smtp: {error}")
    if isinstance(error, aiosmtplib.SMTPException | OSError):
        # Connect, timeout and disconnect errors, TLS errors and STARTTLS not offered.
        return TemporaryFailure(f"smtp: {type(error).__name__}: {error}", transport_down=True)
    if isinstance(error, ValueError):
        # aiosmtplib found no sender or no recipient in the headers: the message is broken.
        return PermanentFailure(f"smtp: unsendable message: {error}")
    raise error


def _describe(error: aiosmtplib.SMTPResponseException) -> str:
    return f"smtp: {error.code} {error.message}"


def _tls_context(settings: SmtpSettings) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=settings.ca_file or None)
