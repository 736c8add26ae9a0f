"""The tests' SMTP server: aiosmtpd, handing every accepted message to Dovecot over LMTP.

It plays the part of the provider's submission server, so no Postfix is needed:

- recipients are checked at RCPT against Dovecot's accounts (550 5.1.1 for unknown ones, as a
  real MTA with a recipient map does), so permanent failures are real SMTP replies;
- `defer` makes it answer every DATA with a 4xx (or only those of `defer_from`), for
  temporary failures of a message, and for a provider whose mail store is away;
- stop() and start() take it off the network and back on the same port, for outages;
- `slow` makes every DATA take that long, `drop_data` closes the connection at the next DATA
  commands without an answer, and `most_at_once` tells how many DATA were in hand at once:
  for the sender's several connections;
- listeners for plain, STARTTLS and implicit TLS; `auth_required` makes AUTH compulsory,
  checked against the same accounts as IMAP.
"""

from __future__ import annotations

import asyncio
import logging
import smtplib
import ssl
from collections import Counter
from collections.abc import Callable
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session

from tests.servers.dovecot import free_port, wait_for_port_closed

Security = str  # "plain" | "starttls" | "tls"


class _NoLoginDataWarning(logging.Filter):
    # aiosmtpd warns about its own deprecated attribute on every AUTH; nothing of ours.
    def filter(self, record: logging.LogRecord) -> bool:
        return "login_data is deprecated" not in record.getMessage()


logging.getLogger("mail.log").addFilter(_NoLoginDataWarning())


class LmtpRelay:
    """The aiosmtpd handler: accept for known accounts, deliver by LMTP."""

    def __init__(self, lmtp_port: int, knows: Callable[[str], bool]) -> None:
        self.lmtp_port = lmtp_port
        self.knows = knows
        self.defer: str | None = None  # e.g. "451 4.3.0 try later": every DATA gets this
        # ... or only the DATA of mail from this envelope sender (the moderator's provider
        # failing its mail while the players' mail still goes through)
        self.defer_from: str | None = None
        # The next MAIL FROM gets this (e.g. "421 4.4.2 closing"), once: a server that has
        # just decided to close the connection.
        self.refuse_next_mail: str | None = None
        self.slow = 0.0  # seconds each DATA takes, on top of the delivery
        self.drop_data = 0  # the next this many DATA: the connection closed, nothing answered
        self.most_at_once = 0  # the most DATA in hand at one time (set it to 0 to measure)
        self._at_once = 0
        self._delivered: Counter[str] = Counter()
        self._helo: dict[str, str] = {}
        self._login: dict[str, str] = {}
        self._peers: dict[str, list[object]] = {}

    def peers_of(self, address: str) -> list[object]:
        """The client end (host, port) of the connection that carried each message to this
        recipient, in order: one connection per distinct peer."""
        return self._peers.get(address.lower(), [])

    def delivered_to(self, address: str) -> int:
        """How many messages went into Dovecot for this recipient."""
        return self._delivered[address.lower()]

    def login_of(self, address: str) -> str:
        """The AUTH user of the client that sent the last message for this recipient ("" for
        none)."""
        return self._login[address.lower()]

    def helo_of(self, address: str) -> str:
        """The EHLO name of the client that sent the last message for this recipient."""
        return self._helo[address.lower()]

    async def handle_MAIL(
        self,
        server: SMTP,
        session: Session,
        envelope: Envelope,
        address: str,
        mail_options: list[str],
    ) -> str:
        refusal, self.refuse_next_mail = self.refuse_next_mail, None
        if refusal:
            return refusal
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(
        self,
        server: SMTP,
        session: Session,
        envelope: Envelope,
        address: str,
        rcpt_options: list[str],
    ) -> str:
        if not self.knows(address):
            return f"550 5.1.1 <{address}>: Recipient address rejected: User unknown"
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        if self.defer and self.defer_from in (None, (envelope.mail_from or "").lower()):
            return self.defer
        if self.drop_data > 0:
            self.drop_data -= 1
            await asyncio.sleep(self.slow)
            assert server.transport is not None
            server.transport.close()  # a connection lost mid-mail: nothing delivered
            return "421 4.4.2 gone"
        self._at_once += 1
        self.most_at_once = max(self.most_at_once, self._at_once)
        try:
            return await self._take(session, envelope)
        finally:
            self._at_once -= 1

    async def _take(self, session: Session, envelope: Envelope) -> str:
        if self.slow:
            await asyncio.sleep(self.slow)
        # smtplib blocks; keep the server's loop free for other connections meanwhile. The
        # worker also counts: a client killed mid-DATA cancels this coroutine, not the delivery
        # it started, and that mail is in the mailbox.
        host, login = session.host_name or "", str(session.auth_data or "")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, self._deliver, envelope, host, login, session.peer)

    def _deliver(self, envelope: Envelope, host: str, login: str, peer: object) -> str:
        content = envelope.original_content or b""
        try:
            with smtplib.LMTP("127.0.0.1", self.lmtp_port, timeout=10) as lmtp:
                lmtp.sendmail(envelope.mail_from or "", envelope.rcpt_tos, content)
        except smtplib.SMTPRecipientsRefused as error:
            code, text = next(iter(error.recipients.values()))
            return f"{code} {_text(text)}"
        except smtplib.SMTPResponseException as error:
            return f"{error.smtp_code} {_text(error.smtp_error)}"
        except OSError:
            return "451 4.4.1 mail store unreachable"
        for address in envelope.rcpt_tos:
            self._delivered[address.lower()] += 1
            self._helo[address.lower()] = host
            self._login[address.lower()] = login
            self._peers.setdefault(address.lower(), []).append(peer)
        return "250 2.0.0 delivered"


class SmtpServer:
    """One listener on a fixed loopback port that can be stopped and started again."""

    def __init__(
        self,
        handler: LmtpRelay,
        *,
        security: Security,
        tls_context: ssl.SSLContext | None,
        accounts: Callable[[], dict[str, str]],
        auth_required: bool = False,
    ) -> None:
        self.handler = handler
        self.security = security
        self.port = free_port()
        self._tls_context = tls_context
        self._accounts = accounts
        self._auth_required = auth_required
        self._controller: Controller | None = None

    @property
    def running(self) -> bool:
        return self._controller is not None

    def start(self) -> None:
        assert self._controller is None, "already running"
        kwargs: dict[str, Any] = {
            "server_hostname": "relay.pbem.test",
            "authenticator": self._authenticate,
            "auth_required": self._auth_required,
            # aiosmtpd counts only STARTTLS as TLS (an implicit-TLS listener is TLS from the
            # first byte anyway), and the plain mode's loopback tests log in without TLS.
            "auth_require_tls": self.security == "starttls",
        }
        if self.security == "starttls":
            kwargs.update(tls_context=self._tls_context, require_starttls=True)
        elif self.security == "tls":
            kwargs.update(ssl_context=self._tls_context)
        # A new Controller each time: a stopped one does not reliably start again.
        controller = Controller(self.handler, hostname="127.0.0.1", port=self.port, **kwargs)
        controller.start()
        self._controller = controller

    def stop(self) -> None:
        controller, self._controller = self._controller, None
        if controller is not None:
            controller.stop()
            wait_for_port_closed(self.port)

    def _authenticate(
        self, server: SMTP, session: Session, envelope: Envelope, mechanism: str, data: Any
    ) -> AuthResult:
        if isinstance(data, LoginPassword):
            user, password = data.login.decode(), data.password.decode()
            if self._accounts().get(user.lower()) == password:
                return AuthResult(success=True, auth_data=user)
        return AuthResult(success=False, handled=False)


def _text(reply: bytes | str) -> str:
    return reply.decode(errors="replace") if isinstance(reply, bytes) else reply
