"""Mail that arrives between wait_for_mail's last look and the start of IDLE: Dovecot
announces it as IDLE starts, next to the continuation line, where imaplib takes it in before
idle.poll() waits on the socket. The waiter must wake at once, not sleep to its timeout."""

from __future__ import annotations

import time

import pytest

from pbem.mail import imap
from pbem.mail.imap import ImapInbox
from tests.servers.world import MailWorld, Player


class LateMail(ImapInbox):
    """Delivers a mail right after wait_for_mail's look finds nothing."""

    def __init__(self, player: Player, to: str, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.player, self.to = player, to

    def _has_pending(self, session: imap._Session) -> bool:
        found = super()._has_pending(session)
        self.player.send(self.to, "STATUS\n")  # stored in Dovecot when this returns
        return found


@pytest.mark.parametrize("security", ["plain", "tls"])
def test_mail_announced_as_idle_starts_wakes_the_waiter(world: MailWorld, security: str) -> None:
    moderator, alice = world.account("moderator"), world.player("alice")
    settings = world.imap_settings(moderator, security=security)
    with LateMail(alice, moderator.address, settings) as inbox:
        assert inbox.pending() == []
        started = time.monotonic()
        assert inbox.wait_for_mail(5) is True
        assert time.monotonic() - started < 2.0
        assert len(inbox.pending()) == 1
        assert inbox.mode == "idle"
