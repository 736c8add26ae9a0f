"""Deadline policies: "interval:<n>[mhd]" (the next deadline that long after a turn opens) or
"none" (a turn waits for every seat's orders or a referee's `turn run`)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

_INTERVAL = re.compile(r"^interval:(\d+)([mhd])$")
_UNITS = {"m": "minutes", "h": "hours", "d": "days"}


class DeadlinePolicyError(ValueError):
    pass


def interval(policy: str) -> timedelta | None:
    """The time a turn stays open under `policy`, or None for no deadline."""
    if policy == "none":
        return None
    match = _INTERVAL.match(policy)
    if not match or int(match.group(1)) == 0:
        raise DeadlinePolicyError(
            f"deadline policy {policy!r} is not 'none' or 'interval:<n>' with m, h or d, "
            "e.g. interval:48h"
        )
    return timedelta(**{_UNITS[match.group(2)]: int(match.group(1))})


def next_deadline(policy: str, opened: datetime) -> datetime | None:
    step = interval(policy)
    return opened + step if step else None


def describe(deadline: datetime | None) -> str:
    return deadline.strftime("%Y-%m-%d %H:%M UTC") if deadline else "none (when all orders are in)"
