"""Deadline policies and durations: pure arithmetic, no database, no clock of its own.

Policies (the text stored on the game):

- ``none``: no deadline; a turn waits for every seat's orders or a referee's ``turn run``.
- ``interval:<duration>``: the deadline is that long after the turn opens, e.g. ``interval:48h``.
- ``weekly:<days>@<HH:MM> [<zone>]``: the next of the given weekdays at that wall-clock time
  in an IANA time zone (default: the game's), e.g. ``weekly:mon,thu@18:00 Europe/Berlin``.

Daylight-saving changes, for weekly policies and absence ends:

- A wall-clock time that does not exist (the clocks jump over it in spring) is moved forward
  by the length of the jump: 02:30 on the night Berlin goes from 02:00 to 03:00 is 03:30.
- A wall-clock time that happens twice (the clocks go back in autumn) is its first
  occurrence, still on summer time.

Both are what ``fold=0`` means in PEP 495, so the arithmetic is zoneinfo's own.

Durations are one or more ``<n><unit>`` with the units m (minutes), h (hours), d (days):
``90m``, ``48h``, ``1d12h``; ``0`` is no time at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pbem.errors import PbemError

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_DURATION = re.compile(r"^(?:\d+[mhd])+$")
_PART = re.compile(r"(\d+)([mhd])")
_UNITS = {"m": 60, "h": 3600, "d": 86400}
_WEEKLY = re.compile(r"^weekly:([a-z,]+)@(\d{1,2}):(\d{2})$")


class PolicyError(PbemError, ValueError):
    """A deadline policy, duration or time zone that cannot be read; the message says why."""


@dataclass(frozen=True)
class NoDeadline:
    def __str__(self) -> str:
        return "none"


@dataclass(frozen=True)
class Interval:
    step: timedelta

    def __str__(self) -> str:
        return f"interval:{format_duration(self.step)}"


@dataclass(frozen=True)
class Weekly:
    days: tuple[int, ...]  # Monday is 0, as datetime.weekday() counts
    at: time
    zone: str  # an IANA name, e.g. Europe/Berlin

    def __str__(self) -> str:
        days = ",".join(WEEKDAYS[day] for day in self.days)
        return f"weekly:{days}@{self.at:%H:%M} {self.zone}"


Policy = NoDeadline | Interval | Weekly


def parse_policy(text: str, zone: str = "UTC") -> Policy:
    """The policy in `text`; a weekly policy without a zone takes `zone` (the game's)."""
    text = " ".join(text.strip().split())
    lowered = text.lower()
    if lowered == "none":
        return NoDeadline()
    if lowered.startswith("interval:"):
        step = parse_duration(lowered.removeprefix("interval:"))
        if not step:
            raise PolicyError("an interval deadline needs a duration above 0, e.g. interval:48h")
        return Interval(step)
    if lowered.startswith("weekly:"):
        return _weekly(text, zone)
    raise PolicyError(
        f"deadline policy {text!r} is not 'none', 'interval:<duration>' (e.g. interval:48h) "
        "or 'weekly:<days>@<HH:MM> [zone]' (e.g. weekly:mon,thu@18:00 Europe/Berlin)"
    )


def _weekly(text: str, default_zone: str) -> Weekly:
    head, _, zone = text.partition(" ")
    match = _WEEKLY.match(head.lower())
    if not match:
        raise PolicyError(
            f"{text!r}: a weekly policy reads like weekly:mon,thu@18:00 Europe/Berlin"
        )
    names, hour, minute = match.group(1).split(","), int(match.group(2)), int(match.group(3))
    unknown = [name for name in names if name not in WEEKDAYS]
    if unknown or not names:
        raise PolicyError(f"{text!r}: weekdays are {', '.join(WEEKDAYS)}, not {unknown}")
    if hour > 23 or minute > 59:
        raise PolicyError(f"{text!r}: {hour:02}:{minute:02} is not a time of day")
    days = tuple(sorted({WEEKDAYS.index(name) for name in names}))
    return Weekly(days, time(hour, minute), check_zone(zone or default_zone))


def game_zone(zone: str, policy: Policy) -> str:
    """The zone a game reads and shows its dates in: its own (`zone`), or, for a game left on
    UTC, the zone its weekly deadlines fall in. A referee who writes "weekly:mon@18:00
    Europe/Berlin" runs a Berlin game, and its players should read 18:00 beside the UTC."""
    if zone == "UTC" and isinstance(policy, Weekly):
        return policy.zone
    return zone


def check_zone(name: str) -> str:
    """`name` if it is a time zone zoneinfo knows, else PolicyError."""
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise PolicyError(f"unknown time zone {name!r} (use an IANA name: Europe/Berlin)") from None
    return name


def next_deadline(
    policy: Policy, opened_at: datetime, *, previous: datetime | None = None
) -> datetime | None:
    """The deadline, in UTC, of a turn that opens at `opened_at`.

    A weekly deadline is the first slot after both `opened_at` and the `previous` turn's
    deadline: a turn resolved early (every order in) does not make the next one short, and
    the game keeps its weekly rhythm.
    """
    opened_at = opened_at.astimezone(UTC)
    if isinstance(policy, Interval):
        return opened_at + policy.step
    if isinstance(policy, Weekly):
        after = max(opened_at, previous.astimezone(UTC)) if previous else opened_at
        return _next_slot(policy, after)
    return None


def _next_slot(policy: Weekly, after: datetime) -> datetime:
    zone = ZoneInfo(policy.zone)
    first = after.astimezone(zone).date() - timedelta(days=1)  # a shifted slot may fall late
    for offset in range(9):
        day = first + timedelta(days=offset)
        if day.weekday() in policy.days:
            slot = wall_time(day, policy.at, policy.zone)
            if slot > after:
                return slot
    raise AssertionError("a weekly policy has a slot in every nine days")  # pragma: no cover


def wall_time(day: date, at: time, zone: str) -> datetime:
    """The UTC moment of wall-clock time `at` on `day` in `zone` (see the module docstring
    for times that do not exist or happen twice)."""
    return datetime.combine(day, at, tzinfo=ZoneInfo(zone)).astimezone(UTC)


def absence_end(until: date, zone: str) -> datetime:
    """When an absence "until `until`" is over: the midnight after that day, in `zone`."""
    return wall_time(until + timedelta(days=1), time(0, 0), zone)


def parse_duration(text: str) -> timedelta:
    """'48h', '90m', '1d12h' or '0' as a timedelta."""
    text = text.strip().lower()
    if text == "0":
        return timedelta(0)
    if not _DURATION.match(text):
        raise PolicyError(f"{text!r} is not a duration such as 90m, 48h, 2d or 1d12h")
    seconds = sum(int(n) * _UNITS[unit] for n, unit in _PART.findall(text))
    return timedelta(seconds=seconds)


def format_duration(span: timedelta) -> str:
    """The shortest text parse_duration reads back as `span` (whole minutes)."""
    minutes = int(span.total_seconds()) // 60
    if minutes == 0:
        return "0"
    parts = []
    for unit, size in (("d", 1440), ("h", 60), ("m", 1)):
        count, minutes = divmod(minutes, size)
        if count:
            parts.append(f"{count}{unit}")
    return "".join(parts)


def parse_offsets(text: str) -> tuple[timedelta, ...]:
    """Reminder offsets ('24h,2h') longest first, without repeats; '' or 'none' is none."""
    text = text.strip().lower()
    if text in ("", "none"):
        return ()
    spans = {parse_duration(part) for part in text.split(",")}
    if timedelta(0) in spans:
        raise PolicyError("a reminder 0 before the deadline comes too late to help")
    return tuple(sorted(spans, reverse=True))


def format_offsets(spans: tuple[timedelta, ...]) -> str:
    return ",".join(format_duration(span) for span in spans)
