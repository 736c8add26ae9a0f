"""The courier in a process of its own ([service] courier = "process", the default on Linux).

One Python process runs its threads one at a time (the interpreter lock): in a deadline wave
a courier thread's sending and recording hold the lock a large share of the time, and intake
waits for it (docs/measurements.md, "What the code's choices rest on"). In a process of its own
the courier runs on another core, and intake has its process to itself.

The process is forked at the daemon's start, while the daemon has one thread and no database
connection open (its engine's are closed first: an SQLite connection must never cross a
fork, sqlite.org/howtocorrupt.html 2.6), so it starts at once with pbem imported already,
where a fresh interpreter would import it all again. It has the courier's loop, its own
engine and its own sender; the daemon wakes it, stops it and lets its bulk mail go through
shared events, the flags of the same Wake and stop the thread has. It ignores SIGTERM and
SIGINT (systemd and a terminal send them to the whole group): the daemon stops it after the
mail in hand, as it stops the thread. It dies with
the daemon: the kernel sends it SIGKILL when the daemon's process ends, however it ends
(PR_SET_PDEATHSIG), so a daemon killed and started again never has two couriers sending from
one SQLite file. A courier process that ends on its own (killed by the system, a bug) is
started again at the next wake, after a growing delay, in a fresh interpreter ("spawn"): by
then the daemon has threads, which a fork would copy mid-work.
"""

from __future__ import annotations

import ctypes
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from pbem.config import Settings
from pbem.daemon.courier import Courier
from pbem.daemon.transport import open_sender
from pbem.games.service import Service
from pbem.logs import configure_logging
from pbem.mail.backoff import Backoff
from pbem.store import utcnow

log = logging.getLogger(__name__)
_PR_SET_PDEATHSIG = 1  # linux/prctl.h


def process_courier_possible() -> bool:
    """Only Linux tells a child of its parent's death (the courier must not outlive the
    daemon): elsewhere the courier is a thread."""
    return sys.platform == "linux"


class CourierProcess:
    """The daemon's side of the courier's process: start, wake, stop, as Courier's thread."""

    def __init__(
        self, service: Service, *, cap: float, monotonic: Callable[[], float] = time.monotonic
    ) -> None:
        self.service = service
        self.cap = cap
        self._process: Any = None
        self._woken: Any = None  # the events of the process running, from its context
        self._stopping: Any = None
        self._bulk: Any = None
        self._restarts = Backoff(1.0, cap, clock=monotonic)
        # The loop and the schedule's thread both wake it: one of them starts it again.
        self._starting = threading.Lock()
        self.after_drain: Callable[[], None] = lambda: None  # the process wakes at retries itself

    def start(self) -> None:
        alone = threading.active_count() == 1
        if alone:
            self.service.dispose()  # no connection crosses the fork; the daemon opens anew
        context = (
            multiprocessing.get_context("fork") if alone else multiprocessing.get_context("spawn")
        )
        method = context.get_start_method()
        bulk = self._bulk.is_set() if self._bulk is not None else False  # a start again
        self._woken, self._stopping, self._bulk = context.Event(), context.Event(), context.Event()
        if bulk:
            self._bulk.set()
        flags = (self._woken, self._stopping, self._bulk)
        self._process = context.Process(
            target=serve_courier,
            args=(self.service.settings, self.cap, flags, os.getpid()),
            name="pbem-courier",
        )
        self._process.start()
        log.info("courier: process %d (%s)", self._process.pid, method)

    def wake(self) -> None:
        """Mail may be due: drain now (or right after the drain in hand)."""
        self._woken.set()
        with self._starting:
            if not self._process.is_alive() and not self._stopping.is_set():
                self._start_again()

    def send_bulk(self) -> None:
        """The clocks' first look is done: bulk mail may go too, now."""
        self._bulk.set()
        self.wake()

    def stop(self, timeout: float) -> bool:
        """Stop after the mail in hand; wait at most `timeout` seconds. False if it was still
        busy (killed: its mail stays unsent, and goes at the next start)."""
        self._stopping.set()
        self._woken.set()
        self._process.join(timeout)
        if not self._process.is_alive():
            return True
        self._process.kill()
        self._process.join()
        return False

    def _start_again(self) -> None:
        if self._restarts.remaining() > 0:
            return
        log.error(
            "the courier's process ended (exit code %s); starting it again",
            self._process.exitcode,
        )
        self._restarts.failed()
        self.start()
        self._woken.set()  # the new process drains at once


def serve_courier(settings: Settings, cap: float, flags: tuple[Any, Any, Any], parent: int) -> None:
    """The courier's process: its loop until the daemon stops it (or ends: then the kernel
    ends this process too). `flags`: its wake, its stop, and bulk mail's leave to go."""
    woken, stopping, bulk = flags
    _die_with(parent)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # the daemon stops us after the mail in hand
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    configure_logging(settings.logging)
    sender = open_sender(settings)
    courier = Courier(
        Service.from_settings(settings),
        sender,
        clock=utcnow,
        cap=cap,
        woken=woken,
        stopping=stopping,
        bulk=bulk,
        own_retries=True,
    )
    try:
        courier.run()
    finally:
        sender.close()


def _die_with(parent: int) -> None:
    """Have the kernel kill this process when the daemon's ends; if it has ended already (it
    died while this one started), end now."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    if os.getppid() != parent:
        os._exit(0)
