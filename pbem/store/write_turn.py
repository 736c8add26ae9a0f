"""SQLite's write lock handed between processes in turn, not to whoever asks again first.

SQLite's own wait is unfair: a process waiting for the write lock sleeps up to 100 ms between
tries, and a process that commits and begins again at once takes the lock every time. The
daemon's intake commits a mail and begins the next all the while, so another process on the
file (a command of the operator's) would wait behind it. So every pbem process on the file
queues here first, by two file locks (flock) beside the database:

- the *turn* is held from BEGIN IMMEDIATE until the transaction ends;
- the *gate* is held by the process waiting for the turn, until it has it.

A process that wants the turn takes the gate, then the turn, then lets the gate go. One that
ends its transaction and begins again at once finds the gate held by the process waiting, and
waits behind it: the turn alternates. A wait ends after `patience` seconds; the process then
goes on to SQLite's own wait, without its place. The locks are flock(2), which the system lets
go of when a process ends, however it ends; the waits look every millisecond, since flock has
no timeout of its own.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Callable

LOOK_SECONDS = 0.001


class FileTurn:
    def __init__(
        self,
        database: str,
        patience: float,
        *,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._paths = (f"{database}.write-gate", f"{database}.write-turn")
        self.patience = patience
        self._sleep = sleep
        self._clock = clock
        self._files: tuple[int, int] | None = None
        self._opened = False

    def take(self) -> bool:
        """Wait for the turn (the caller holds this process's turn already); False when it
        could not be had (the files cannot be opened, or the patience ran out)."""
        files = self._open()
        if files is None:
            return False
        gate, turn = files
        end = self._clock() + self.patience
        if not self._lock(gate, end):
            return False
        try:
            return self._lock(turn, end)
        finally:
            fcntl.flock(gate, fcntl.LOCK_UN)

    def give_back(self) -> None:
        if self._files is not None:
            fcntl.flock(self._files[1], fcntl.LOCK_UN)

    def _lock(self, fd: int, end: float) -> bool:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return True
            except BlockingIOError:
                if self._clock() >= end:
                    return False
                self._sleep(LOOK_SECONDS)

    def _open(self) -> tuple[int, int] | None:
        """The lock files, opened once (created if need be); None if they cannot be (a user
        who may not write beside the database: SQLite's wait alone, then)."""
        if not self._opened:
            self._opened = True
            try:
                gate = os.open(self._paths[0], os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            except OSError:
                return None
            try:
                turn = os.open(self._paths[1], os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            except OSError:
                os.close(gate)
                return None
            self._files = (gate, turn)
        return self._files
