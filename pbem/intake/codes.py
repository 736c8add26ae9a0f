"""The confirmation codes that prove an address reads its mail: SET ADDRESS's new address
(pbem.intake.own_address) and a JOIN's (pbem.intake.joining) both get one, and both are
confirmed by the one command CONFIRM <code> from that address within CONFIRM_HOURS. Only a
hash of a code is stored."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import datetime, timedelta

from pbem.store import utc

CONFIRM_FORM = "CONFIRM <the code mailed to your address>"
CONFIRM_HOURS = 72
_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no look-alikes, as read from a phone


def new_code() -> str:
    return "".join(secrets.choice(_ALPHABET) for _ in range(8))


def code_hash(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def given_code(args: tuple[str, ...]) -> str:
    """The code of a CONFIRM line's words, as it is hashed; '' when there is not one."""
    return args[0].upper().replace("-", "") if len(args) == 1 else ""


def still_fresh(since: datetime | None, now: datetime) -> bool:
    return since is not None and utc(since) >= utc(now) - timedelta(hours=CONFIRM_HOURS)


def matches(stored: str, code: str) -> bool:
    return bool(stored) and hmac.compare_digest(stored, code_hash(code))
