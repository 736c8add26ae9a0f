"""Invariants of the turn flow: a turn is played before its deadline only with counted orders
from every seat it asked, or by a referee's hand; and a missed turn is counted only when a
deadline passed without the seat's orders, and is then told, with the misses in a row."""

from __future__ import annotations

import re

from tests.campaign.record import Record, Violation

_MISSED = re.compile(r"We had no orders from you for turn (\d+): (\d+) turns? in a row")


def early_turns_complete(record: Record) -> list[Violation]:
    """A turn played before its deadline, not by a referee's hand, had counted orders from
    every seat it asked (an accepted line, or NO ORDERS): a mail whose every line was refused
    does not put its seat in."""
    found = []
    for event in record.events:
        if event.kind == "resolved" and event.cause == "orders":
            for seat in event.seats:
                if not _had_orders(record, seat, event.turn, event.step):
                    kinds = [s.kind for s in record.sent if s.seat == seat and s.turn == event.turn]
                    found.append(
                        f"turn {event.turn} was played at step {event.step}, before its deadline "
                        f"and not forced, without counted orders from {seat} (its mails for the "
                        f"turn: {', '.join(kinds) or 'none'})"
                    )
    return [Violation("early-turn-complete", text) for text in found]


def misses_counted(record: Record) -> list[Violation]:
    """A report counts a missed turn ('N turns in a row') only for a turn whose deadline
    passed without the seat's counted orders, and then says so, with N the misses in a row:
    turns forced by the referee or played early neither count nor break the row; orders or a
    new player start it again."""
    found = []
    for mail in record.all_mail():
        if mail.view.report is None or mail.view.in_reply_to:
            continue
        turn, seat = mail.view.report
        cause = _cause(record, turn, mail.step)
        warned = _MISSED.search(mail.view.flat)
        expected = _misses(record, seat, turn, mail.step) if cause == "deadline" else 0
        what = f"{mail.owner}'s report of turn {turn} for {seat} (step {mail.step}, {cause})"
        if warned and int(warned[2]) != expected:
            found.append(f"{what} counts {warned[2]} missed turns in a row, not {expected}")
        elif expected and not warned:
            found.append(f"{what} does not say the turn was missed ({expected} in a row)")
    return [Violation("misses-counted", text) for text in found]


def _cause(record: Record, turn: int, step: int) -> str:
    """How the turn was played at `step`: a rerun plays it as it was first played."""
    causes = [
        e.cause for e in record.events if e.kind == "resolved" and e.turn == turn and e.step <= step
    ]
    first = [cause for cause in causes if cause != "rerun"]
    return first[-1] if first else (causes[-1] if causes else "unknown")


def _misses(record: Record, seat: str, turn: int, step: int) -> int:
    """Missed turns in a row up to `turn` (missed itself), as the rules of the clock count."""
    count = 0
    for number in range(turn, 0, -1):
        played = [
            e for e in record.events if e.kind == "resolved" and e.turn == number and e.step <= step
        ]
        if not played or _had_orders(record, seat, number, played[-1].step):
            break
        if any(
            e.kind == "replaced" and e.seat == seat and e.step > played[-1].step
            for e in record.events
            if e.step <= step
        ):
            break
        if _cause(record, number, played[-1].step) == "deadline":
            count += 1
    return count


def _had_orders(record: Record, seat: str, turn: int, step: int) -> bool:
    """Counted orders for `seat` and `turn` sent by the seat's player by `step`."""
    return any(
        sent.counted
        and sent.turn == turn
        and sent.seat == seat
        and sent.step <= step
        and sent.sender in record.held_during(sent.step).get(seat, set())
        for sent in record.sent
    )
