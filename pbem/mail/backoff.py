"""Exponential backoff with a cap, and a messages-per-minute limit, both on an injectable clock
so the tests can drive time instead of waiting for it."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

Clock = Callable[[], float]


class Backoff:
    """After the n-th consecutive failure, wait first * 2**(n-1) seconds, at most `cap`."""

    def __init__(self, first: float, cap: float, *, clock: Clock = time.monotonic) -> None:
        self.first = first
        self.cap = cap
        self.failures = 0
        self._clock = clock
        self._retry_at = 0.0

    def failed(self) -> float:
        """Count a failure; the delay before the next try."""
        self.failures += 1
        # The exponent is capped: 2.0 ** 1024 overflows, after a day of failures a minute apart.
        delay = min(self.cap, self.first * 2.0 ** min(self.failures - 1, 60))
        self._retry_at = self._clock() + delay
        return delay

    def succeeded(self) -> None:
        self.failures = 0
        self._retry_at = 0.0

    def remaining(self) -> float:
        """Seconds until the next try is due; 0.0 when it is due now."""
        return max(0.0, self._retry_at - self._clock())


class RateLimiter:
    """At most `per_minute` events in any 60-second window (a sliding window, so a burst after
    a quiet minute is allowed but never more than the limit within one minute). 0: no limit."""

    WINDOW = 60.0

    def __init__(self, per_minute: int, *, clock: Clock = time.monotonic) -> None:
        if per_minute < 0:
            raise ValueError("per_minute must be 0 or more")
        self.per_minute = per_minute
        self._clock = clock
        self._times: deque[float] = deque()

    def delay(self) -> float:
        """Seconds until one more event is allowed; 0.0 when it is allowed now."""
        if self.per_minute == 0:
            return 0.0
        now = self._clock()
        while self._times and self._times[0] <= now - self.WINDOW:
            self._times.popleft()
        if len(self._times) < self.per_minute:
            return 0.0
        return self._times[0] + self.WINDOW - now

    def try_acquire(self) -> bool:
        """Take a slot if one is free now (and say so); never blocks."""
        if self.delay() > 0:
            return False
        if self.per_minute:
            self._times.append(self._clock())
        return True

    def acquire(self, sleep: Callable[[float], None] = time.sleep) -> None:
        """Block until a slot is free, then take it."""
        while not self.try_acquire():
            sleep(self.delay())
