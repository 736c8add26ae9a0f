"""What a transport's wait listens to beside its server: a bell, readable while it rings.

A runner that waits on the inbox (IMAP IDLE, a poll, a watched folder) must also wake the
moment other work comes for it (a retry, the safety poll, a stop). Listening for both on one
selector wakes it at once; asking a flag every few seconds would wake it late and cost a
look each time. pbem.daemon.wake.Wake is the bell the daemon gives."""

from __future__ import annotations

import selectors
from typing import Protocol


class Bell(Protocol):
    def fileno(self) -> int:
        """A file descriptor that is readable while the bell rings."""
        ...


def ready(bell: Bell | None, sock: Bell | None, timeout: float) -> set[Bell]:
    """What became readable within `timeout` seconds (at least one of the two is given): the
    bell, the socket (an IMAP connection's, or anything else with a fileno()), both or
    neither."""
    with selectors.DefaultSelector() as selector:
        for source in (bell, sock):
            if source is not None:
                selector.register(source, selectors.EVENT_READ)
        return {key.fileobj for key, _events in selector.select(max(timeout, 0.0))}  # type: ignore[misc]


def rung(bell: Bell | None) -> bool:
    """Whether the bell rings now, without waiting."""
    return bell is not None and bell in ready(bell, None, 0.0)
