"""Lanes: a few threads that each carry one piece of work at a time, so that a drain of the
outbox (pbem.games.outbox.drain) can have several mails in the transport's hands at once,
each on a connection of its own.

Not a concurrent.futures.ThreadPoolExecutor: its threads are joined when the interpreter
exits, and a send that hangs on a server that never answers would hold the daemon's stop up
until it timed out. A lane is a daemon thread, as the courier's own thread is: a stop leaves
a hung send to the process's end, and its mail stays unsent for the next start.
"""

from __future__ import annotations

import contextvars
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

T = TypeVar("T")
# A piece of work: the caller's context, the future to settle, the work. None: the lane ends.
_Item = tuple[contextvars.Context, "Future[Any]", Callable[[], Any]] | None


class Lanes:
    """`width` threads taking work in the order it is submitted; started at the first."""

    def __init__(self, width: int, *, name: str = "pbem-lane") -> None:
        if width < 1:
            raise ValueError("a lane at least")
        self.width = width
        self._name = name
        self._work: queue.SimpleQueue[_Item] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._starting = threading.Lock()

    def submit(self, work: Callable[[], T]) -> Future[T]:
        """`work` run on a lane, in the caller's context (its log context: pbem.logs)."""
        self._start()
        future: Future[T] = Future()
        self._work.put((contextvars.copy_context(), future, work))
        return future

    def close(self) -> None:
        """Each lane ends once the work in its hands is done; nothing waits for that."""
        with self._starting:
            for _ in self._threads:
                self._work.put(None)
            self._threads = []

    def _start(self) -> None:
        with self._starting:
            while len(self._threads) < self.width:
                number = len(self._threads) + 1
                lane = threading.Thread(target=self._run, name=f"{self._name}-{number}")
                lane.daemon = True
                lane.start()
                self._threads.append(lane)

    def _run(self) -> None:
        while (item := self._work.get()) is not None:
            context, future, work = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(context.run(work))
            except BaseException as error:  # noqa: BLE001 - handed to whoever waits on it
                future.set_exception(error)
