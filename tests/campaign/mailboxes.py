"""A participant's mailbox, read over IMAP after every step: the new messages, by UID, each
tagged with the step it arrived in. Nothing is marked read or deleted."""

from __future__ import annotations

import re
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import cast

from imap_tools import MailBoxUnencrypted

from tests.campaign.record import Received
from tests.servers.dovecot import Account
from tests.servers.world import MailWorld, read_folder

_UID = re.compile(rb"UID (\d+)")


class Mailbox:
    def __init__(self, world: MailWorld, account: Account, owner: str) -> None:
        self.world, self.account, self.owner = world, account, owner
        self.received: list[Received] = []
        self._last_uid = 0

    def collect(self, step: int) -> list[Received]:
        """The messages that arrived since the last look, as received in `step`."""
        new = [Received(step, self.owner, message) for message in self._fetch_new()]
        self.received += new
        return new

    def complete(self) -> bool:
        """Does what was collected hold every message the mailbox holds now?"""
        return len(read_folder(self.world, self.account)) == len(self.received)

    def _fetch_new(self) -> list[EmailMessage]:
        port = self.world.dovecot.imap_port
        with MailBoxUnencrypted("127.0.0.1", port, timeout=5) as box:
            box.login(self.account.address, self.account.password, initial_folder="INBOX")
            uids = sorted(int(uid) for uid in box.uids() if int(uid) > self._last_uid)
            if not uids:
                return []
            typ, data = box.client.uid("FETCH", ",".join(map(str, uids)), "(UID BODY.PEEK[])")
            assert typ == "OK", data
        fetched: dict[int, EmailMessage] = {}
        for part in data:
            if isinstance(part, tuple):
                uid = _UID.search(part[0])
                assert uid is not None, part[0]
                message = message_from_bytes(part[1], policy=policy.default)
                fetched[int(uid[1])] = cast(EmailMessage, message)
        self._last_uid = max(uids)
        return [fetched[uid] for uid in sorted(fetched)]
