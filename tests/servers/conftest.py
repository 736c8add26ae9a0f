"""Real mail servers for the transport tests, started once per session on loopback ports.

Dovecot (IMAP, LMTP) runs from a config in a temporary directory; aiosmtpd listens three times
(plain, STARTTLS, implicit TLS) and relays into Dovecot by LMTP. Each test gets fresh accounts
(see world.py), and the fixtures put back whatever a test switched off or on.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.servers.world import MailWorld, running_world


@pytest.fixture(scope="session")
def mail_world() -> Iterator[MailWorld]:
    with running_world() as world:
        yield world


@pytest.fixture
def world(mail_world: MailWorld) -> Iterator[MailWorld]:
    """The session's servers, as every test expects to find them and leaves them."""
    yield mail_world
    if not mail_world.dovecot.running:
        mail_world.dovecot.start()
    mail_world.relay.defer = mail_world.relay.defer_from = None
    mail_world.relay.slow, mail_world.relay.drop_data = 0.0, 0
    for server in mail_world.smtp.values():
        if not server.running:
            server.start()
