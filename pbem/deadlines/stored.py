"""Deadline policies as the pipeline uses them; the arithmetic is pbem.deadlines.policy's.

"none" (a turn waits for every seat's orders or a referee's `turn run`), "interval:<duration>"
(the deadline that long after a turn opens) or "weekly:<days>@<HH:MM> [zone]"."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from pbem.deadlines.policy import Interval, NoDeadline, PolicyError, Weekly, parse_policy
from pbem.deadlines.policy import next_deadline as _next_deadline
from pbem.store import utc


def interval(policy: str) -> timedelta | None:
    """The time a turn stays open under an interval `policy`, or None for "none"; a weekly
    policy has no fixed length and is refused here."""
    parsed = parse_policy(policy)
    if isinstance(parsed, Weekly):
        raise PolicyError(f"{policy!r} is a weekly policy, not an interval")
    return parsed.step if isinstance(parsed, Interval) else None


def canonical(policy: str, zone: str = "UTC") -> str:
    """`policy` as stored: checked, and a weekly one with its time zone spelled out."""
    parsed = parse_policy(policy, zone)
    return str(parsed) if isinstance(parsed, Weekly) else policy.strip().lower()


def next_deadline(
    policy: str, opened: datetime, *, zone: str = "UTC", previous: datetime | None = None
) -> datetime | None:
    parsed = parse_policy(policy, zone)
    if isinstance(parsed, NoDeadline):
        return None
    return _next_deadline(parsed, opened, previous=previous)


def describe(deadline: datetime | None, zone: str = "UTC") -> str:
    """A deadline as players read it: UTC, with the game's local time when it has a zone."""
    if deadline is None:
        return "none (when all orders are in)"
    moment = utc(deadline)
    text = moment.strftime("%Y-%m-%d %H:%M UTC")
    if zone == "UTC":
        return text
    local = moment.astimezone(ZoneInfo(zone))
    return f"{text} ({local:%Y-%m-%d %H:%M %Z} in {zone})"
