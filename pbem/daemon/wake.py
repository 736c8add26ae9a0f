"""How a runner is woken, the one way for every runner (pbem.daemon.runners, the courier):
a `Wake`, set by the schedule's jobs and the other runners, waited on by its runner, and
taken (cleared) with what it was set for. And `Foreground`, which keeps the archive's
background writes out of the clocks' looks."""

from __future__ import annotations

import contextlib
import os
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Due:
    """What a Wake asked for: every game (`everything`), or the games it names."""

    everything: bool = False
    games: frozenset[str] = field(default_factory=frozenset)

    def __bool__(self) -> bool:
        return self.everything or bool(self.games)


class Wake:
    """A runner's alarm. Several sets before the runner wakes make one wake, the games they
    named together."""

    def __init__(self) -> None:
        self._flag = threading.Event()
        self._lock = threading.Lock()  # the games and the flag change together
        self._everything = False
        self._games: set[str] = set()
        self._pipe: tuple[int, int] | None = None  # the bell (fileno), made when first asked

    def set(self, *games: str) -> None:
        """Wake the runner: for these games, or, with none named, for everything."""
        with self._lock:
            if games:
                self._games.update(games)
            else:
                self._everything = True
            if self._pipe is not None and not self._flag.is_set():
                os.write(self._pipe[1], b"!")  # one byte while set: the pipe never fills
            self._flag.set()

    def fileno(self) -> int:
        """A descriptor readable while the wake is set, for a runner that waits on a server's
        socket and its wake together (pbem.mail.bell)."""
        with self._lock:
            if self._pipe is None:
                read, write = os.pipe()
                os.set_blocking(read, False)
                self._pipe = (read, write)
                weakref.finalize(self, _close, read, write)
                if self._flag.is_set():
                    os.write(write, b"!")
            return self._pipe[0]

    def is_set(self) -> bool:
        return self._flag.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Until set (True) or `timeout` seconds passed (False)."""
        return self._flag.wait(timeout)

    def take(self) -> Due:
        """What the wake was set for, clearing it."""
        with self._lock:
            self._flag.clear()
            if self._pipe is not None:
                _drain(self._pipe[0])
            due = Due(self._everything, frozenset(self._games))
            self._everything = False
            self._games.clear()
            return due


def _drain(read: int) -> None:
    with contextlib.suppress(BlockingIOError):  # not set: nothing to read
        os.read(read, 64)


def _close(*descriptors: int) -> None:
    for descriptor in descriptors:
        os.close(descriptor)


class Foreground:
    """The clocks' looks go first; the archive's writes are background work, done only while
    no look is wanted or in hand, so that a deadline wave's turns are all resolved (and their
    reports queued) before its maps are drawn. Taken and acted on under one lock: a look
    that comes while a game is being written waits for that one write, no more."""

    def __init__(self) -> None:
        self._turn = threading.Condition()
        self._looks = 0  # looks wanted or in hand
        self._writing = False

    @contextmanager
    def look(self) -> Iterator[None]:
        with self._turn:
            self._looks += 1
            self._turn.wait_for(lambda: not self._writing)
        try:
            yield
        finally:
            with self._turn:
                self._looks -= 1
                self._turn.notify_all()

    @contextmanager
    def background(self) -> Iterator[None]:
        with self._turn:
            self._turn.wait_for(lambda: self._looks == 0)
            self._writing = True
        try:
            yield
        finally:
            with self._turn:
                self._writing = False
                self._turn.notify_all()
