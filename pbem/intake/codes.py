"""The confirmation codes that prove an address reads its mail: SET ADDRESS's new address
(pbem.intake.own_address) and a JOIN's (pbem.intake.joining) both get one, and both are
confirmed by the one command CONFIRM <code> from that address within CONFIRM_HOURS. Only a
hash of a code is stored.

A wrong code is counted against every request waiting for a CONFIRM from the address, across
mails; the MAX_MISSES-th voids them, so that no mail (nor many) can try code after code: the
player asks again and gets a new code."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import datetime, timedelta

from pbem.intake.context import MailContext
from pbem.store import JoinRequest, Seat, utc

CONFIRM_FORM = "CONFIRM <the code mailed to your address>"
CONFIRM_HOURS = 72
MAX_MISSES = 5  # wrong codes from an address that void what waits for its CONFIRM
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


def waiting_joins(context: MailContext, address: str) -> list[JoinRequest]:
    """The JOINs from `address` (lower-cased) whose code is still fresh."""
    found = context.work.games.joins_from(address)
    return [r for r in found if still_fresh(r.asked_at, context.now)]


def waiting_changes(context: MailContext, address: str) -> list[Seat]:
    """The seats moving to `address` (lower-cased) whose code is still fresh."""
    found = context.work.games.seats_moving_to(address)
    return [s for s in found if still_fresh(s.pending_since, context.now)]


def wrong_code(context: MailContext, address: str) -> str:
    """A CONFIRM from `address` whose code is none of its requests': count it against each
    that waits; void those with MAX_MISSES. The refusal, saying what waited and what is left."""
    joins, changes = waiting_joins(context, address), waiting_changes(context, address)
    what = " and ".join(["a JOIN"] * bool(joins) + ["an address change"] * bool(changes))
    if not what:
        return "no JOIN or address change waits for a CONFIRM from this address"
    for join in joins:
        join.misses += 1
        context.work.games.add(join)
    for seat in changes:
        seat.pending_misses += 1
        context.work.games.add(seat)
    misses = max([j.misses for j in joins] + [s.pending_misses for s in changes])
    if misses < MAX_MISSES:
        context.work.flush()  # the work does not flush itself: the mail's next line
        left = MAX_MISSES - misses
        more = "1 more wrong code voids" if left == 1 else f"{left} more wrong codes void"
        return f"that is not the code of {what} waiting here ({more} it)"
    for join in joins:
        context.work.games.remove(join)
    for seat in changes:
        seat.pending_address, seat.pending_code, seat.pending_since = "", "", None
    context.work.flush()  # must not find what this line voided
    return (
        f"{MAX_MISSES} wrong codes: {what} waiting here is void; "
        "send the JOIN or SET ADDRESS again for a new code"
    )
