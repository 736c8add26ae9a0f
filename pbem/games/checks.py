"""The check reply's facts about orders read from a mail: each accepted line beside what the
engine understood it as, the rejected lines with the rule that forbids them, the ignored lines,
all numbered as the lines of the mail the player sent; and the verdict in a few words."""

from __future__ import annotations

import dataclasses
import textwrap
from collections.abc import Sequence
from typing import Any

from engine import ParsedOrders
from pbem.games.lines import MailLines
from pbem.mail.envelope import Envelope
from pbem.templates import wrap


def shown(check: dict[str, Any], limit: int) -> dict[str, Any]:
    """The check as the reply lists it: each list cut to a size a mail can carry, with how
    many it had in all. Rejected and ignored lines get `limit` entries, accepted five times
    as many (they take a line each)."""
    bounds = {"accepted": 5 * limit, "rejected": limit, "ignored": limit}
    listed: dict[str, Any] = {}
    for name, items in check.items():
        bound = bounds.get(name)
        if bound is None:
            listed[name] = items
            continue
        listed[name] = items[:bound]
        listed[f"{name}_total"] = len(items)
    return listed


def check_lines(
    lines: Sequence[tuple[int, str]],
    parsed: ParsedOrders,
    envelope: Envelope,
    refused: Sequence[tuple[int, str]] = (),
) -> dict[str, Any]:
    """Accepted (with what each was understood as), rejected and ignored lines, numbered as in
    the mail the player sent. `refused`: (mail line, description) of lines refused before the
    ruleset read any (pbem.games.counted), listed among the rejected in the mail's order."""

    mail = MailLines([number for number, _ in lines])
    mail_line = mail.of

    def written(number: int) -> str:
        return lines[number - 1][1].strip() if 1 <= number <= len(lines) else ""

    # Each accepted order beside what the engine understood it as, so that a player sees
    # which seat 'c' was taken for and how "LABOR D4, 1." was read; and, where its phase of
    # the turn decides it, what the engine found there (engine.rehearsal).
    notes = dict(parsed.notes)
    accepted = [
        _echo(
            f"line {mail_line(number)}: {written(number)}\n  read as: {understood}"
            + (f"\n  note: {mail.in_text(notes[number])}" if number in notes else "")
        )
        for number, understood in parsed.understood()
    ]
    described = [
        (
            mail_line(problem.line_no),
            dataclasses.replace(
                problem, line_no=mail_line(problem.line_no), message=mail.in_text(problem.message)
            ).describe(),
        )
        for problem in parsed.problems
    ]
    ordered = sorted([*described, *refused], key=lambda item: item[0])  # stable: one a line
    rejected = [wrap(text, 70) for _, text in ordered]
    ignored = [(mail_line(number), why) for number, why in parsed.ignored]
    ignored += [_ignored_item(item) for item in envelope.ignored]
    return {"accepted": accepted, "rejected": rejected, "ignored": sorted(ignored)}


def _echo(text: str) -> str:
    """An accepted line and what it was read as, in 70 columns (72 once indented): the
    player's own line too, however long, and a word too long for a line is broken."""
    return "\n".join(
        textwrap.fill(line, 70, subsequent_indent="    ", break_on_hyphens=False)
        for line in text.splitlines()
    )


def _ignored_item(item: Any) -> tuple[int, str]:
    if isinstance(item, tuple) and len(item) == 2:
        return int(item[0]), str(item[1])
    return 0, str(item)


def verdict_of(check: dict[str, Any]) -> str:
    if not check["rejected"]:
        return "all accepted" if check["accepted"] else "no orders found"
    if not check["accepted"]:
        return "none accepted"
    return f"{len(check['accepted'])} accepted, {len(check['rejected'])} rejected"


def check_facts(
    lines: Sequence[tuple[int, str]],
    parsed: ParsedOrders,
    refused: Sequence[tuple[int, str]] = (),
) -> dict[str, Any]:
    """The check reply's accepted, rejected and ignored lines for orders read from `lines`
    ((mail line, text) each), without a mail's envelope (held orders, see advance.py)."""
    return check_lines(lines, parsed, Envelope(), refused)
