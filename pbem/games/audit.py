"""The audit log: who did what to which game, written in the transaction that did it, and read
back for a referee (`pbem referee GAME audit`, the referee mail command AUDIT)."""

from __future__ import annotations

import json
import re
import textwrap
from datetime import datetime
from typing import Any

from pbem.store import AuditLog, utc
from pbem.store.work import Work

WIDTH = 72  # a mail's line
INDENT = "    "
ENTRY_LINES = 6  # one entry's lines at most: a rerun's result names every turn it played
SHOWN_ARGS = 160  # characters of a command's arguments shown (an announcement's whole text)
# A moment in UTC as ISO 8601 (datetime.isoformat), as details written before were: shown as
# every time the product shows (pbem.deadlines.stored.describe), to the minute.
_ISO_UTC = re.compile(r"\b(\d{4}-\d\d-\d\d)T(\d\d:\d\d)(?::\d\d(?:\.\d+)?)?(?:\+00:00|Z)")


def audit(
    work: Work, now: datetime, actor: str, action: str, game_id: str | None, detail: str = ""
) -> None:
    """An entry in the unit of work `work`, the one that makes the change it records."""
    work.audit.record(now, actor, action, game_id, detail)


JOINED = "seat-joined"  # a player took a seat by JOIN, with a password of their own


def joined_seats(work: Work, game_id: str) -> set[tuple[str, str]]:
    """(seat, address) of each seat taken by JOIN: that player chose the seat's password; a
    seat given by the referee (or its new player after a replacement) got it from them."""
    joined = work.audit.details_and_actors(game_id, JOINED)
    return {(seat, actor.lower()) for seat, actor in joined}


def entry_lines(entry: AuditLog, width: int | None = WIDTH) -> list[str]:
    """One entry as lines of at most `width` columns (a mail's; None: a line as long as it
    is, for a page that wraps it at its own width): when, who and what on the first, then for
    a referee's command why and what came of it."""
    head = f"{utc(entry.at):%Y-%m-%d %H:%M}  {entry.actor}  "
    referee = _referee_detail(entry)
    if referee is None:
        detail = _ISO_UTC.sub(r"\1 \2 UTC", entry.detail)
        what = f"{entry.action}: {detail}" if detail else entry.action
        return _clipped(_wrapped(head + _short(what), INDENT, width))
    name = entry.action.removeprefix("referee-")
    args = " ".join(str(arg) for arg in referee.get("args", []))
    lines = _wrapped(head + _short(f"{name} {args}".strip()), INDENT, width)
    lines += _field("why", str(referee.get("reason", "")), width)
    lines += _field("result", str(referee.get("result", "")), width)
    return _clipped(lines)


def _field(label: str, text: str, width: int | None) -> list[str]:
    """`label: text` under an entry's first line; the text's own lines under it."""
    first, *rest = text.splitlines() or [""]
    lines = _wrapped(f"{INDENT}{label}: {first}", INDENT * 2, width)
    for line in rest:
        lines += _wrapped(INDENT * 2 + line.strip(), INDENT * 2, width)
    return lines


def _referee_detail(entry: AuditLog) -> dict[str, Any] | None:
    """A referee command's detail (pbem.referee.context: JSON with reason, args, result);
    None for every other entry, whose detail is plain text."""
    if not entry.action.startswith("referee-"):
        return None
    try:
        detail = json.loads(entry.detail)
    except ValueError:
        return None
    return detail if isinstance(detail, dict) else None


def _short(text: str) -> str:
    """Arguments on one line (the lines of ORDERS' orders joined), and not a whole
    announcement."""
    flat = "; ".join(line.strip() for line in text.splitlines() if line.strip())
    return flat if len(flat) <= SHOWN_ARGS else flat[: SHOWN_ARGS - 3] + "..."


def _wrapped(line: str, indent: str, width: int | None) -> list[str]:
    # Long words broken too: no line of the mail goes past its width, whatever an address is.
    if width is None:
        return [line]
    return textwrap.wrap(line, width, subsequent_indent=indent) or [line]


def _clipped(lines: list[str]) -> list[str]:
    if len(lines) <= ENTRY_LINES:
        return lines
    return [*lines[: ENTRY_LINES - 1], f"{INDENT}(... {len(lines) - ENTRY_LINES + 1} more lines)"]
