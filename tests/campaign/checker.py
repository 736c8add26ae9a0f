"""The invariant checker: every invariant over a campaign's record (the mail every mailbox
received, what every participant sent, what the referee did and which turns were played),
each a function returning its violations, each with a text that names the mail."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from tests.campaign.checks_mail import addressed_right, answered_once
from tests.campaign.checks_privacy import secrets_kept, secrets_told
from tests.campaign.checks_reports import colours_stable, deadlines_in_zone, reports_agree
from tests.campaign.checks_told import (
    clock_told,
    replacement_told,
    rollback_told,
    turns_reported,
)
from tests.campaign.checks_turns import early_turns_complete, misses_counted
from tests.campaign.record import Record, Violation

Invariant = Callable[[Record], list[Violation]]

INVARIANTS: dict[str, Invariant] = {
    "answered-once": answered_once,
    "addressed-right": addressed_right,
    "turn-reported": turns_reported,
    "clock-told": clock_told,
    "rollback-told": rollback_told,
    "replacement-told": replacement_told,
    "early-turn-complete": early_turns_complete,
    "misses-counted": misses_counted,
    "reports-agree": reports_agree,
    "deadline-in-zone": deadlines_in_zone,
    "colours-stable": colours_stable,
    "secret-kept": secrets_kept,
    "secret-told": secrets_told,
}


def check(record: Record) -> list[Violation]:
    return [violation for invariant in INVARIANTS.values() for violation in invariant(record)]


def by_kind(violations: list[Violation]) -> Counter[str]:
    return Counter(violation.invariant for violation in violations)
