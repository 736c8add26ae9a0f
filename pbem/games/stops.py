"""STOP: an address that asked for no more mail gets none (issue 42, 4). Every mail pbem
sends carries, in its List-Unsubscribe header (RFC 2369; added as it is sent, as its Date
is), a mailto: back to the moderator whose subject is `STOP <token>`: the address's token,
an HMAC of the address under the site's key, which only mail to that address carries. A
STOP with it stops that address at once; one without it is answered, to the address it
came from alone, with the token (pbem.intake.stop): a STOP under someone else's From cannot
stop their mail.

There is no List-Unsubscribe-Post (RFC 8058's one-click): it names an HTTPS address that
takes a POST, and pbem serves no such thing (its web archive is static files).

A stopped address's mail is queued as ever (a record of what it would have been) but
dropped at once, never sent: `dropped_at` set, and why in `last_error`. The STOP is answered
once, the last mail sent there, with the way back: `UNSTOP <token>` from the address, the
same token proving again that its sender reads that mailbox (pbem.intake.stop)."""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import cast
from urllib.parse import quote

from pbem.store import MailStop, utc
from pbem.store.engines import Databases
from pbem.store.work import Work

STOPPED = "not sent: the recipient asked for no more mail (STOP)"
TOKEN_LENGTH = 16  # 80 bits, in base32 letters and digits
_KEY_NAME = "stop"  # made by migration 0014
_STOPS = "pbem_stops"  # in a unit of work's memo: the _Stops read in this transaction
_READ_WHOLE = 1000  # up to this many stopped addresses are read at once


def stop_token(work: Work, address: str) -> str:
    return _token(work.site.site_key(_KEY_NAME), address)


def token_holds(work: Work, address: str, token: str) -> bool:
    return hmac.compare_digest(stop_token(work, address), token.strip().upper())


def unsubscribe_line(store: Databases, our_address: str, to: str) -> bytes:
    """The List-Unsubscribe header line of a mail to `to`, added as the mail is sent (the
    stored mail does not carry it: its bytes depend on the stored inputs alone, and the key
    is the site's). Nothing for an address that is not ASCII (no header could carry it)."""
    if not (our_address.isascii() and to.isascii()):
        return b""
    subject = quote(f"STOP {_token(store.site_key(_KEY_NAME), to)}")
    return f"List-Unsubscribe: <mailto:{our_address}?subject={subject}>\n".encode("ascii")


def _token(key: bytes, address: str) -> str:
    mac = hmac.new(key, address.strip().lower().encode(), hashlib.sha256)
    return base64.b32encode(mac.digest()).decode()[:TOKEN_LENGTH]


def is_stopped(work: Work, address: str) -> bool:
    """Has `address` asked for no more mail? The stopped addresses are read once a
    transaction, all of them while they are few (a deadline wave's transaction queues a
    mail to every seat of a game: one read, not one a seat), else one address at a time."""
    stops = _stops(work)
    key = address.strip().lower()
    if key not in stops.known and not stops.whole:
        stops.known[key] = work.outbox.is_stop_recorded(key)
    return stops.known.get(key, False)


@dataclass
class _Stops:
    known: dict[str, bool]  # address -> stopped, as read in this transaction
    whole: bool  # every stopped address is in `known`: any other is not stopped


def _stops(work: Work) -> _Stops:
    if _STOPS not in work.memo:
        found = work.outbox.stopped_addresses(_READ_WHOLE + 1)
        whole = len(found) <= _READ_WHOLE
        work.memo[_STOPS] = _Stops(dict.fromkeys(found, True) if whole else {}, whole)
    return cast(_Stops, work.memo[_STOPS])


def stop(
    work: Work, address: str, now: datetime, *, last: Callable[[], object] | None = None
) -> bool:
    """Stop all mail to `address`, the mail waiting to it too; False if it was stopped.
    `last` queues the one mail still sent there (the STOP's answer): after the waiting mail
    is dropped, before the address is stopped."""
    key = address.strip().lower()
    if is_stopped(work, key):
        return False
    work.outbox.drop_waiting_to(key, STOPPED, now)
    if last is not None:
        last()
    work.outbox.add(MailStop(address=key, stopped_at=utc(now)))
    _stops(work).known[key] = True
    return True


def unstop(work: Work, address: str) -> datetime | None:
    """Mail to `address` again (UNSTOP with its token, or the operator's `pbem unstop`); when
    it was stopped, None if it was not. The mail dropped meanwhile stays dropped: a report is
    asked for again with REPORT."""
    key = address.strip().lower()
    if not is_stopped(work, key):
        return None
    stopped_at = work.outbox.forget_stop(key)
    _stops(work).known[key] = False
    return stopped_at
