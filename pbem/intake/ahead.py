"""Mail looked at ahead of its turn. Before the daemon handles one mail, the next ones are
read, found recorded or not, and their seats' passwords checked as far as an HMAC tells
(intake.look_ahead), a BLOCK at a time: one claim and one read of the database for the
block. What only scrypt can tell (about 50 ms at the production cost: a daemon just started
without a check key pays it once a seat) runs in a thread of its own: scrypt lets go of the
interpreter, so those checks use every core while the mails before are handled.

The cheap part is done in line, not in the threads: in a wave of mail whose passwords are
proved by their checks, threads would only fight over the interpreter, for a share of
intake's CPU (docs/measurements.md, "What the code's choices rest on"). A mail is claimed
(pbem.store.claims) before it is looked at: with several daemons, none checks a password for
mail another one takes in. Two daemons going down the same batch leapfrog a block at a
time."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor

from pbem.games.protocols import InboxItem
from pbem.games.service import Service
from pbem.intake.intake import Looked, look_ahead
from pbem.store.claims import Claims

log = logging.getLogger(__name__)

AHEAD = 2  # threads to run the scrypt of mails looked at ahead
# Mails looked at together. On PostgreSQL a claim and a read a mail are a third of a mail's
# round trips in a wave; a block pays them once for 16 mails. The block's scrypt, if any,
# waits in the threads' queue, AHEAD at a time.
BLOCK = 16


class Ahead:
    """The look-aheads of one batch of mail; `close` it (contextlib.closing) when done."""

    def __init__(self, service: Service, claims: Claims) -> None:
        self._service = service
        self._claims = claims
        # Its threads start at the first scrypt, if any.
        self._pool = ThreadPoolExecutor(AHEAD, thread_name_prefix="pbem-ahead")
        self._looks: dict[str, tuple[Looked, Future[object] | None]] = {}
        self._tried: set[str] = set()  # keys of the mails looked at (or tried: claimed elsewhere)

    def close(self) -> None:
        """Wait for the checks begun; drop the ones not begun."""
        self._pool.shutdown(wait=True, cancel_futures=True)

    def begin(self, items: Sequence[InboxItem], index: int) -> None:
        """Unless the mail after items[index] was looked at, look at it and the ones after
        it, BLOCK in all (those this daemon may claim), and begin their scrypt, if any, in
        the threads."""
        block = items[index + 1 : index + 1 + BLOCK]
        if not block or block[0].key in self._tried:
            return
        self._tried.update(item.key for item in block)
        ours = self._claims.take_all([item.key for item in block])
        mine = [item for item in block if item.key in ours]
        try:
            looks = look_ahead(self._service, [item.raw for item in mine])
        except Exception as error:  # noqa: BLE001 - each mail's handling looks again, tells it
            log.debug("look-ahead of %d mails failed: %s", len(mine), error)
            return
        for item, looked in zip(mine, looks, strict=True):
            slow = self._pool.submit(looked.slow) if looked.slow is not None else None
            self._looks[item.key] = (looked, slow)

    def result(self, key: str) -> Looked | None:
        """The look at `key`, its scrypt done; None if none was begun or it failed (the
        mail's handling then looks again, and a fault is told there as it should be)."""
        looked, slow = self._looks.pop(key, (None, None))
        if looked is None or slow is None:
            return looked
        try:
            slow.result()
        except Exception as error:  # noqa: BLE001 - the mail's handling looks again, tells it
            log.debug("look-ahead of %s failed: %s", key, error)
            return None
        return looked
