"""Real mail servers for the transport tests, started once per session on loopback ports.

Dovecot (IMAP, LMTP) runs from a config in a temporary directory; aiosmtpd listens three times
(plain, STARTTLS, implicit TLS) and relays into Dovecot by LMTP. Each test gets fresh accounts
(see world.py), and the fixtures put back whatever a test switched off or on.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.servers.dovecot import Dovecot, make_certificate, make_root, remove_root
from tests.servers.relay import LmtpRelay, SmtpServer
from tests.servers.world import MailWorld, server_tls_context


@pytest.fixture(scope="session")
def mail_world() -> Iterator[MailWorld]:
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


@pytest.fixture
def world(mail_world: MailWorld) -> Iterator[MailWorld]:
    """The session's servers, as every test expects to find them and leaves them."""
    yield mail_world
    if not mail_world.dovecot.running:
        mail_world.dovecot.start()
    mail_world.relay.defer = mail_world.relay.defer_from = None
    for server in mail_world.smtp.values():
        if not server.running:
            server.start()
