"""Invariants of what a seat's player is told: every change to the seat's situation is mailed
to its player in the step it happens. A turn played: its report (a turn played again after a
rollback says its report replaces the first). The clock: paused, resumed, a new deadline,
the game over. A rollback: which turn was undone, and why. A replacement: the old player is
told the seat is no longer theirs, the new one gets the position and an order template."""

from __future__ import annotations

import re
from collections.abc import Callable

from tests.campaign.reading import UTC_TIME
from tests.campaign.record import Event, Received, Record, Violation

_ROLLBACK = re.compile(r"\broll(?:ed|s|ing)?\b(?: \w+){0,2} back|\brollback\b", re.IGNORECASE)
Told = Callable[[Record, Event], list[str]]


def turns_reported(record: Record) -> list[Violation]:
    return _each(record, "turn-reported", {"resolved": _turn_played})


def clock_told(record: Record) -> list[Violation]:
    moment = UTC_TIME.pattern
    return _each(
        record,
        "clock-told",
        {
            "ended": _told(r"\bended\b", "that the game has ended"),
            "paused": _told(r"\bpaused\b", "that the game is paused"),
            "resumed": _told(r"goes on|resum|runs again", "that the game goes on"),
            "deadline": _told(rf"deadline.*{moment}|{moment}.*deadline", "the new deadline"),
        },
    )


def rollback_told(record: Record) -> list[Violation]:
    return _each(record, "rollback-told", {"rollback": _rolled_back})


def replacement_told(record: Record) -> list[Violation]:
    return _each(record, "replacement-told", {"replaced": _replaced})


def _each(record: Record, invariant: str, expected: dict[str, Told]) -> list[Violation]:
    found: list[str] = []
    for event in record.events:
        if event.kind in expected:
            found += expected[event.kind](record, event)
    return [Violation(invariant, text) for text in found]


def _turn_played(record: Record, event: Event) -> list[str]:
    """Every seat's player gets the report of the turn. A turn played again after a rollback
    says that its report replaces the one first sent (by its subject, or its opening lines);
    a turn played for the first time does not say so."""
    found = []
    for seat, player in record.holders(event.step).items():
        mine = [
            m
            for m in record.in_step(player, event.step)
            if m.view.report == (event.turn, seat) and not m.view.in_reply_to
        ]
        if not mine:
            found.append(
                f"{player} got no report of turn {event.turn} for {seat} at step {event.step}"
            )
        else:
            found += _replaces_if_again(record, mine[0], event.turn, seat)
    return found


def _replaces_if_again(record: Record, report: Received, turn: int, seat: str) -> list[str]:
    earlier = [
        m
        for m in record.all_mail()
        if m.step < report.step and not m.view.in_reply_to and m.view.report == report.view.report
    ]
    head = report.view.text.split("== What happened ==")[0]  # the report's opening lines
    says = re.search(r"replaces", f"{report.view.subject} {head}", re.IGNORECASE)
    what = f"{report.owner}'s report of turn {turn} for {seat} (step {report.step})"
    if earlier and not says and earlier[-1].view.subject == report.view.subject:
        return [
            f"{what}, played again after the rollback, has the first one's subject "
            f"{report.view.subject!r} and does not say it replaces it"
        ]
    if says and not earlier:
        return [f"{what} says it replaces an earlier report of the turn; there was none"]
    return []


def _told(pattern: str, what: str) -> Told:
    """Every seat's player (and, for the end, the referee) gets a notice of its own in the
    step (not an answer to a mail) whose text matches `pattern`."""

    def check(record: Record, event: Event) -> list[str]:
        players = set(record.holders(event.step).values())
        if event.kind == "ended":
            players.add(record.referee)
        found = []
        for player in sorted(players):
            mails = [
                m
                for m in record.in_step(player, event.step)
                if not m.view.in_reply_to and re.search(pattern, m.view.flat)
            ]
            if not mails:
                found.append(f"{player} was not told {what} at step {event.step}")
        return found

    return check


def _rolled_back(record: Record, event: Event) -> list[str]:
    """Which turn was undone, and why (the referee's reason)."""
    found = []
    for player in sorted(set(record.holders(event.step).values())):
        mails = record.in_step(player, event.step)
        told = [m for m in mails if _ROLLBACK.search(m.view.flat)]
        if not told:
            subjects = ", ".join(repr(m.view.subject) for m in mails) or "nothing"
            found.append(
                f"{player} was not told of the rollback to turn {event.turn} at step "
                f"{event.step} (got {subjects})"
            )
        elif not any(
            f"turn {event.turn}" in m.view.flat and event.reason in m.view.flat for m in told
        ):
            found.append(f"{player}'s rollback mail names not turn {event.turn} or the reason")
    return found


def _replaced(record: Record, event: Event) -> list[str]:
    """The old player is told the seat is no longer theirs; the new one gets, at once, the
    position and an order template for the pending turn (not a pointer to a report they
    never had). The other seats hear of the new deadline (the 'deadline' event)."""
    found = []
    old = record.in_step(event.old, event.step)
    if not any(m.view.seat_named == event.seat and "no longer" in m.view.flat for m in old):
        found.append(
            f"{event.old} was not told at step {event.step} that {event.seat} is no longer theirs"
        )
    new = record.in_step(event.new, event.step)
    template = re.compile(
        rf"^GAME {record.game} SEAT {event.seat} PASSWORD .*\nTURN {event.turn}\n", re.MULTILINE
    )
    if not any(template.search(m.view.text) and m.view.section("Your holdings") for m in new):
        subjects = ", ".join(repr(m.view.subject) for m in new) or "nothing"
        found.append(
            f"{event.new}, the new player of {event.seat}, got no position and order template "
            f"for turn {event.turn} at step {event.step} (got {subjects})"
        )
    return found
