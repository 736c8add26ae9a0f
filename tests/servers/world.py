"""The mail world the server tests run in: one Dovecot, three SMTP listeners relaying into it,
fresh accounts per test, and players who send by SMTP and read their mailbox by IMAP."""

from __future__ import annotations

import itertools
import smtplib
import ssl
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any, cast

from imap_tools import MailBoxUnencrypted

from pbem.mail.settings import ImapSettings, SmtpSettings
from tests.servers.dovecot import Account, Dovecot, make_certificate, make_root, remove_root
from tests.servers.relay import LmtpRelay, SmtpServer

_serial = itertools.count(1)


@dataclass
class MailWorld:
    dovecot: Dovecot
    relay: LmtpRelay
    smtp: dict[str, SmtpServer]  # by security: plain, starttls, tls
    cert: Path

    def account(self, role: str) -> Account:
        """A new mailbox nobody else uses: '<role>-<n>@pbem.test'."""
        return self.dovecot.add_account(f"{role}-{next(_serial)}", f"pw-{role}-{next(_serial)}")

    def imap_settings(
        self, account: Account, *, security: str = "plain", **changes: Any
    ) -> ImapSettings:
        port = self.dovecot.imaps_port if security == "tls" else self.dovecot.imap_port
        settings = ImapSettings(
            host="127.0.0.1",
            port=port,
            security=security,
            user=account.address,
            password=account.password,
            ca_file=str(self.cert),
            timeout_seconds=5,
        )
        return replace(settings, **changes)

    def smtp_settings(
        self, account: Account | None = None, *, security: str = "plain", **changes: Any
    ) -> SmtpSettings:
        settings = SmtpSettings(
            host="127.0.0.1",
            port=self.smtp[security].port,
            security=security,
            user=account.address if account else "",
            password=account.password if account else "",
            ca_file=str(self.cert),
            helo_name="moderator.pbem.test",
            timeout_seconds=5,
            rate_per_minute=0,
        )
        return replace(settings, **changes)

    def player(self, name: str) -> Player:
        return Player(self, self.account(name))


@dataclass
class Player:
    """A person with a mail account: sends through the SMTP server, reads over IMAP."""

    world: MailWorld
    account: Account
    sent: list[str] = field(default_factory=list)

    @property
    def address(self) -> str:
        return self.account.address

    def send(self, to: str, body: str, *, subject: str = "orders", message_id: str = "") -> str:
        """Submit a mail (plain listener, with AUTH); its Message-ID."""
        message = EmailMessage()
        message["From"] = self.address
        message["To"] = to
        message["Subject"] = subject
        message["Message-ID"] = message_id or f"<{next(_serial)}.{self.address}>"
        message.set_content(body)
        return self.send_message(message)

    def send_message(self, message: EmailMessage) -> str:
        """Submit a mail as built (plain listener, with AUTH); its Message-ID."""
        if "Message-ID" not in message:
            message["Message-ID"] = f"<{next(_serial)}.{self.address}>"
        with smtplib.SMTP("127.0.0.1", self.world.smtp["plain"].port, timeout=5) as client:
            client.login(self.account.address, self.account.password)
            client.send_message(message)
        self.sent.append(str(message["Message-ID"]))
        return str(message["Message-ID"])

    def mailbox(self, folder: str = "INBOX") -> list[EmailMessage]:
        """Every message in the folder, oldest first, parsed from the bytes as stored."""
        return [
            cast(EmailMessage, message_from_bytes(raw, policy=policy.default))
            for raw in read_folder(self.world, self.account, folder)
        ]

    def wait_for_mail(self, count: int = 1, *, timeout: float = 5.0) -> list[EmailMessage]:
        """The mailbox once it holds at least `count` messages."""
        deadline = time.monotonic() + timeout
        while True:
            messages = self.mailbox()
            if len(messages) >= count or time.monotonic() > deadline:
                return messages
            time.sleep(0.05)


@contextmanager
def running_world() -> Iterator[MailWorld]:
    """Dovecot and the three SMTP listeners (plain, STARTTLS, implicit TLS) relaying into it,
    in a temporary folder; everything stopped and removed at the end. The tests start it once
    a session (conftest.py); the benchmarks once a run."""
    root = make_root()
    dovecot: Dovecot | None = None
    servers: dict[str, SmtpServer] = {}
    try:
        cert, key = make_certificate(root)
        dovecot = Dovecot(root, cert, key)
        dovecot.start()
        relay = LmtpRelay(dovecot.lmtp_port, dovecot.knows)
        tls = server_tls_context(cert, key)
        servers = {
            "plain": SmtpServer(
                relay, security="plain", tls_context=None, accounts=dovecot.accounts
            ),
            # A provider's submission port: STARTTLS first, then AUTH, both required.
            "starttls": SmtpServer(
                relay, security="starttls", tls_context=tls, accounts=dovecot.accounts,
                auth_required=True,
            ),
            # AUTH offered, not required: aiosmtpd would warn that it cannot tell this
            # listener is TLS from the first byte.
            "tls": SmtpServer(relay, security="tls", tls_context=tls, accounts=dovecot.accounts),
        }  # fmt: skip
        for server in servers.values():
            server.start()
        yield MailWorld(dovecot, relay, servers, cert)
    finally:
        for server in servers.values():
            server.stop()
        if dovecot is not None:
            dovecot.stop()
        remove_root(root)


def serve_config(
    world: MailWorld,
    folder: Path,
    moderator: Account,
    url: str,
    *,
    cost: int,
    more: dict[str, dict[str, str | int]] | None = None,
) -> Path:
    """A config for `pbem serve` on this world: the moderator's mailbox by IMAP (plain) and
    its submission port (STARTTLS with AUTH), no rate limits, the log in `folder`; `more`
    adds settings by section. The benchmarks' daemons run with it."""
    secret = folder / "password"
    secret.write_text(moderator.password)
    secret.chmod(0o600)
    sections: dict[str, dict[str, str | int]] = {
        "database": {"url": url},
        "mail": {"address": moderator.address},
        "service": {"transport": "mail"},
        "imap": {"host": "127.0.0.1", "port": world.dovecot.imap_port, "security": "plain",
                 "user": moderator.address, "password_file": str(secret)},
        "smtp": {"host": "127.0.0.1", "port": world.smtp["starttls"].port,
                 "security": "starttls", "user": moderator.address,
                 "password_file": str(secret), "ca_file": str(world.cert),
                 "rate_per_minute": 0},
        "limits": {"replies_per_sender": 1_000_000},
        "security": {"password_cost": cost},
        "logging": {"file": str(folder / "pbem.log")},
    }  # fmt: skip
    for name, values in (more or {}).items():
        sections[name] = {**sections.get(name, {}), **values}
    config = folder / "pbem.toml"
    config.write_text("".join(_toml_section(name, values) for name, values in sections.items()))
    return config


def _toml_section(name: str, values: dict[str, str | int]) -> str:
    lines = [f"{key} = {value}" if isinstance(value, int) else f'{key} = "{value}"'
             for key, value in values.items()]  # fmt: skip
    return f"[{name}]\n" + "\n".join(lines) + "\n"


def client_tls_context(cert: Path) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=str(cert))


def server_tls_context(cert: Path, key: Path) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(str(cert), str(key))
    return context


def read_folder(world: MailWorld, account: Account, folder: str = "INBOX") -> list[bytes]:
    """The raw bytes of every message in an account's folder, by UID, without setting \\Seen."""
    with MailBoxUnencrypted("127.0.0.1", world.dovecot.imap_port, timeout=5) as box:
        box.login(account.address, account.password, initial_folder=folder)
        uids = box.uids()
        if not uids:
            return []
        typ, data = box.client.uid("FETCH", ",".join(uids), "(BODY.PEEK[])")
        assert typ == "OK", data
        return [part[1] for part in data if isinstance(part, tuple)]
