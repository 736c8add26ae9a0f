"""The courier's lanes (pbem.games.lanes): work runs on at most `width` daemon threads at
once, in the submitter's context, and what it raises reaches whoever waits on it."""

from __future__ import annotations

import contextvars
import threading

import pytest

from pbem.games.lanes import Lanes

_WHO: contextvars.ContextVar[str] = contextvars.ContextVar("who", default="nobody")


def test_at_most_width_pieces_of_work_run_at_once() -> None:
    lanes = Lanes(2)
    gate, running, most = threading.Event(), [0], [0]
    lock = threading.Lock()

    def work() -> str:
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        gate.wait(5)
        with lock:
            running[0] -= 1
        return threading.current_thread().name

    futures = [lanes.submit(work) for _ in range(5)]
    threading.Timer(0.2, gate.set).start()
    names = {future.result(timeout=5) for future in futures}
    lanes.close()

    assert most[0] == 2
    assert names <= {"pbem-lane-1", "pbem-lane-2"}


def test_work_runs_in_the_submitters_context_and_its_failure_reaches_the_waiter() -> None:
    lanes = Lanes(1)
    _WHO.set("the courier")

    def fail() -> None:
        raise ValueError(_WHO.get())

    with pytest.raises(ValueError, match="the courier"):
        lanes.submit(fail).result(timeout=5)
    assert lanes.submit(_WHO.get).result(timeout=5) == "the courier"  # the lane goes on
    lanes.close()


def test_lanes_are_daemon_threads_a_hung_send_cannot_hold_the_exit() -> None:
    lanes = Lanes(1, name="pbem-test-lane")
    thread = lanes.submit(threading.current_thread).result(timeout=5)
    lanes.close()

    assert thread.daemon and thread.name == "pbem-test-lane-1"
