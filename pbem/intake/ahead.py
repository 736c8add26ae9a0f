"""Mail looked at ahead of its turn. While the daemon handles one mail, the next AHEAD are
read, found recorded or not, and their seats' passwords checked (intake.look_ahead), each in
a thread of its own. scrypt (about 50 ms at the production cost) lets go of the interpreter,
so a daemon that has just started, which pays it once a seat, checks passwords on every core
while it handles the mail before. A mail is claimed (pbem.store.claims) before it is looked
at: with several daemons, none checks a password for mail another one takes in."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor

from pbem.games.protocols import InboxItem
from pbem.games.service import Service
from pbem.intake.intake import Looked, look_ahead
from pbem.store.claims import Claims

log = logging.getLogger(__name__)

AHEAD = 2  # mails looked at ahead, and threads to do it


class Ahead:
    """The look-aheads of one batch of mail; `close` it (contextlib.closing) when done."""

    def __init__(self, service: Service, claims: Claims) -> None:
        self._service = service
        self._claims = claims
        self._pool = ThreadPoolExecutor(AHEAD, thread_name_prefix="pbem-ahead")
        self._looks: dict[str, Future[Looked]] = {}

    def close(self) -> None:
        """Wait for the looks begun; drop the ones not begun."""
        self._pool.shutdown(wait=True, cancel_futures=True)

    def begin(self, items: Sequence[InboxItem], index: int) -> None:
        """Begin looking at the AHEAD mails after items[index] (those this daemon may claim)."""
        for item in items[index + 1 : index + 1 + AHEAD]:
            if item.key not in self._looks and self._claims.take(item.key):
                self._looks[item.key] = self._pool.submit(look_ahead, self._service, item.raw)

    def result(self, key: str) -> Looked | None:
        """The look at `key`, once done; None if none was begun or it failed (the mail's
        handling then looks again, and a fault is told there as it should be)."""
        look = self._looks.pop(key, None)
        if look is None:
            return None
        try:
            return look.result()
        except Exception as error:
            log.debug("look-ahead of %s failed: %s", key, error)
            return None
