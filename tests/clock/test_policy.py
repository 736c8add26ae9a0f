"""Deadline policy arithmetic, pure: parsing, next deadlines in UTC, daylight-saving changes in
Europe/Berlin and America/New_York, absence ends, durations and reminder offsets."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from pbem.deadlines.policy import (
    Interval,
    NoDeadline,
    PolicyError,
    Weekly,
    absence_end,
    format_duration,
    next_deadline,
    parse_duration,
    parse_offsets,
    parse_policy,
    wall_time,
)

BERLIN = "Europe/Berlin"
NEW_YORK = "America/New_York"


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def test_none_and_interval_policies() -> None:
    assert parse_policy("none") == NoDeadline()
    assert parse_policy("interval:48h") == Interval(timedelta(hours=48))
    assert parse_policy(" Interval:1d12h ") == Interval(timedelta(hours=36))
    assert next_deadline(parse_policy("none"), at("2026-03-01T12:00")) is None
    assert next_deadline(parse_policy("interval:90m"), at("2026-03-01T12:00")) == at(
        "2026-03-01T13:30"
    )


def test_an_interval_counts_real_hours_across_a_clock_change() -> None:
    # Berlin springs forward on 2026-03-29; an interval is elapsed time, not wall-clock time.
    opened = wall_time(date(2026, 3, 28), time(12, 0), BERLIN)
    deadline = next_deadline(parse_policy("interval:48h"), opened)
    assert deadline == opened + timedelta(hours=48) == at("2026-03-30T11:00")


def test_a_weekly_policy_is_stored_with_its_zone_and_sorted_days() -> None:
    policy = parse_policy("weekly:THU,mon@18:00", BERLIN)
    assert policy == Weekly((0, 3), time(18, 0), BERLIN)
    assert str(policy) == "weekly:mon,thu@18:00 Europe/Berlin"
    assert parse_policy("weekly:mon@9:05 America/New_York", BERLIN) == Weekly(
        (0,), time(9, 5), NEW_YORK
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("hourly", "is not 'none'"),
        ("interval:0h", "above 0"),
        ("interval:2w", "is not a duration"),
        ("weekly:mon", "reads like"),
        ("weekly:mon,funday@18:00", "weekdays are"),
        ("weekly:mon@24:00", "is not a time of day"),
        ("weekly:mon@18:00 Mars/Olympus", "unknown time zone"),
    ],
)
def test_bad_policies_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(PolicyError, match=message):
        parse_policy(text)


def test_the_next_weekly_slot_in_winter_and_summer() -> None:
    policy = parse_policy("weekly:mon,thu@18:00 Europe/Berlin")
    # Sunday 2026-03-01 (CET, UTC+1): Monday 18:00 is 17:00 UTC.
    assert next_deadline(policy, at("2026-03-01T12:00")) == at("2026-03-02T17:00")
    # Exactly at a slot: the next one.
    assert next_deadline(policy, at("2026-03-02T17:00")) == at("2026-03-05T17:00")
    # Friday 2026-03-27, before the change: Monday 30 March is summer time (UTC+2).
    assert next_deadline(policy, at("2026-03-27T12:00")) == at("2026-03-30T16:00")
    # And back to winter time after 25 October.
    assert next_deadline(policy, at("2026-10-23T12:00")) == at("2026-10-26T17:00")


def test_a_turn_resolved_early_keeps_the_weekly_rhythm() -> None:
    policy = parse_policy("weekly:mon,thu@18:00 Europe/Berlin")
    # Resolved on Monday morning, before its Monday 18:00 deadline: the next is Thursday's.
    opened, previous = at("2026-03-02T09:00"), at("2026-03-02T17:00")
    assert next_deadline(policy, opened, previous=previous) == at("2026-03-05T17:00")
    assert next_deadline(policy, opened) == at("2026-03-02T17:00")


def test_berlin_spring_forward_moves_a_missing_time_forward() -> None:
    # 2026-03-29: 02:00 CET becomes 03:00 CEST, so 02:30 does not exist: it is 03:30 CEST.
    policy = parse_policy("weekly:sun@02:30 Europe/Berlin")
    deadline = next_deadline(policy, at("2026-03-28T12:00"))
    assert deadline == at("2026-03-29T01:30")
    assert deadline is not None
    assert deadline.astimezone(ZoneInfo(BERLIN)).strftime("%H:%M %Z") == "03:30 CEST"


def test_berlin_fall_back_takes_the_first_of_a_twice_happening_time() -> None:
    # 2026-10-25: 03:00 CEST becomes 02:00 CET, so 02:30 happens twice: the first is CEST.
    policy = parse_policy("weekly:sun@02:30 Europe/Berlin")
    assert next_deadline(policy, at("2026-10-24T12:00")) == at("2026-10-25T00:30")
    # Once the first 02:30 has passed, the second one is not a new slot: next week's is.
    assert next_deadline(policy, at("2026-10-25T00:30")) == at("2026-11-01T01:30")


def test_new_york_spring_forward_and_fall_back() -> None:
    gap = parse_policy("weekly:sun@02:30 America/New_York")
    # 2026-03-08: 02:00 EST becomes 03:00 EDT; 02:30 is 03:30 EDT, 07:30 UTC.
    assert next_deadline(gap, at("2026-03-07T12:00")) == at("2026-03-08T07:30")
    twice = parse_policy("weekly:sun@01:30 America/New_York")
    # 2026-11-01: 02:00 EDT becomes 01:00 EST; the first 01:30 is EDT, 05:30 UTC.
    assert next_deadline(twice, at("2026-10-31T12:00")) == at("2026-11-01T05:30")
    weekday = parse_policy("weekly:mon@09:00 America/New_York")
    assert next_deadline(weekday, at("2026-02-27T12:00")) == at("2026-03-02T14:00")  # EST
    assert next_deadline(weekday, at("2026-03-06T12:00")) == at("2026-03-09T13:00")  # EDT


def test_an_absence_ends_at_the_midnight_after_its_last_day_in_the_zone() -> None:
    assert absence_end(date(2026, 3, 10), "UTC") == at("2026-03-11T00:00")
    assert absence_end(date(2026, 3, 10), BERLIN) == at("2026-03-10T23:00")
    assert absence_end(date(2026, 7, 10), BERLIN) == at("2026-07-10T22:00")
    assert absence_end(date(2026, 3, 7), NEW_YORK) == at("2026-03-08T05:00")


def test_durations_read_and_write() -> None:
    assert parse_duration("90m") == timedelta(minutes=90)
    assert parse_duration("1d12h") == timedelta(hours=36)
    assert parse_duration("0") == timedelta(0)
    for text in ("2w", "h", "-1h", "1.5h", ""):
        with pytest.raises(PolicyError):
            parse_duration(text)
    assert [format_duration(parse_duration(t)) for t in ("48h", "90m", "0", "25h")] == [
        "2d",
        "1h30m",
        "0",
        "1d1h",
    ]


def test_reminder_offsets_longest_first_without_repeats() -> None:
    assert parse_offsets("2h,24h,2h") == (timedelta(hours=24), timedelta(hours=2))
    assert parse_offsets("") == parse_offsets("none") == ()
    with pytest.raises(PolicyError, match="too late"):
        parse_offsets("24h,0")
