"""Taking a seat by mail, as a player does: JOIN, then CONFIRM with the code mailed back."""

from __future__ import annotations

import re
from datetime import datetime

from pbem.games.service import Service
from pbem.intake.intake import Receipt, receive
from tests.support.games import body
from tests.support.mails import mail


def join(service: Service, now: datetime, line: str, sender: str, key: str) -> Receipt:
    """Send the JOIN `line` from `sender` and confirm it with its code; the CONFIRM's receipt.
    `key` makes the two mails' Message-IDs."""
    asked = receive(service, mail(line, sender=sender, message_id=f"{key}@x"), now=now)
    assert asked.status == "answered", asked.outcome
    found = re.search(r"CONFIRM ([A-Z0-9]{8})", body(asked.replies[0]))
    assert found is not None
    confirm = mail(f"CONFIRM {found.group(1)}", sender=sender, message_id=f"{key}-c@x")
    return receive(service, confirm, now=now)
