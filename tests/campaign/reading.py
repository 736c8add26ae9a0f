"""Reading one received mail as a player's program would: its headers, its text, the report
data and pictures attached, the deadlines it shows and the standing table of a report.

Only what the mail carries: nothing here looks at the moderator's database."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from email.message import EmailMessage
from functools import cached_property
from typing import Any

from pbem.mail.compose import text_of

REPORT = re.compile(r"report of turn (\d+) for\s+(\w+)")  # the line may wrap before the seat
# A deadline (or any moment) as the moderator writes it: UTC, then perhaps the local time.
UTC_TIME = re.compile(
    r"(\d{4}-\d\d-\d\d \d\d:\d\d) UTC(?: \((\d{4}-\d\d-\d\d \d\d:\d\d) (\S+) in ([\w/+-]+)\))?"
)
# The seat a mail is about, where it names one (the first pattern that matches).
SEAT_NAMED = (
    REPORT,
    re.compile(r"game begins: you are (\w+)"),
    re.compile(r"you (?:now|no longer) play (\w+)"),
    re.compile(r"a mail for (\w+) was refused"),
    re.compile(r"^Orders for (\w+) in game", re.MULTILINE),
    re.compile(r"has no orders from (\w+) for turn"),
)


@dataclass(frozen=True)
class Attached:
    filename: str
    content_type: str
    data: bytes


class MailView:
    """One mail, read: the parts a check needs, each read once."""

    def __init__(self, message: EmailMessage) -> None:
        self.message = message

    @cached_property
    def subject(self) -> str:
        return " ".join(str(self.message["Subject"] or "").split())

    @cached_property
    def message_id(self) -> str:
        return str(self.message["Message-ID"] or "").strip()

    @cached_property
    def in_reply_to(self) -> str:
        return str(self.message["In-Reply-To"] or "").strip()

    @cached_property
    def to(self) -> str:
        return str(self.message["To"] or "").strip().lower()

    @cached_property
    def text(self) -> str:
        return text_of(self.message).replace("\r\n", "\n")

    @cached_property
    def content(self) -> str:
        """Everything the mail shows its reader: every header, decoded, and every part (a
        text part as its charset says, any other part's bytes as Latin-1)."""
        shown = [f"{name}: {value}" for name, value in self.message.items()]
        for part in self.message.walk():
            if part.is_multipart():
                continue
            if part.get_content_maintype() == "text":
                shown.append(str(part.get_content()))
            else:
                data = part.get_payload(decode=True)
                shown.append(data.decode("latin-1") if isinstance(data, bytes) else str(data))
        return "\n".join(shown)

    @cached_property
    def flat(self) -> str:
        """The text with every run of white space one space: wrapped lines joined."""
        return " ".join(self.text.split())

    @cached_property
    def attachments(self) -> dict[str, Attached]:
        found = {}
        for part in self.message.iter_attachments():
            name = part.get_filename() or ""
            data = part.get_payload(decode=True)
            assert isinstance(data, bytes), name  # an attachment is bytes, base64 or not
            found[name] = Attached(name, part.get_content_type(), data)
        return found

    @cached_property
    def data(self) -> dict[str, Any] | None:
        """The report's JSON (report-<game>-<turn>-<seat>.json), if it has one."""
        for name, part in self.attachments.items():
            if name.startswith("report-") and name.endswith(".json"):
                loaded: dict[str, Any] = json.loads(part.data)
                return loaded
        return None

    @cached_property
    def report(self) -> tuple[int, str] | None:
        """(turn, seat) of a turn report; None for any other mail."""
        head = " ".join(self.text.split("\n")[:6])  # a rerun's report says so first
        found = REPORT.search(head)
        return (int(found[1]), found[2]) if found else None

    @cached_property
    def seat_named(self) -> str:
        """The seat the mail is about, if its subject or text names one."""
        for pattern in SEAT_NAMED:
            found = pattern.search(self.subject) or pattern.search(self.text)
            if found:
                return found[1]
        return ""

    def section(self, title: str) -> list[str]:
        """The lines of a '== title ==' part of the text, up to the next part."""
        lines = self.text.split("\n")
        start = next((i for i, line in enumerate(lines) if line == f"== {title} =="), None)
        if start is None:
            return []
        part = []
        for line in lines[start + 1 :]:
            if line.startswith("== ") or line == "-- ":
                break
            part.append(line)
        return part

    @cached_property
    def standing(self) -> dict[str, dict[str, str]]:
        """The '== Standing ==' table by seat: {seat: {column: value}}, each number read
        under its right-aligned column heading, and 'letter' the seat's letter if the row
        starts with one. Seats are known by the report data's standings."""
        rows = [line for line in self.section("Standing") if line.strip()]
        seats = set((self.data or {}).get("standings", {}))
        if not rows or not seats:
            return {}
        heading, table = rows[0], {}
        for row in rows[1:]:
            words = row.split()
            seat = next((w for w in words[:2] if w in seats), "")
            if not seat:
                continue
            cells = {"letter": words[0]} if words[0] != seat else {}
            for found in re.finditer(r"\S+", heading):
                cells[found[0].lower()] = _cell_ending_at(row, found.end())
            table[seat] = cells
        return table

    @cached_property
    def legend(self) -> dict[str, str]:
        """The text map's 'Seats: A=ann (you)  B=bob' line: seat -> letter."""
        for line in self.text.split("\n"):
            if line.startswith("Seats: "):
                return {name: letter for letter, name in re.findall(r"(\w+)=(\w+)", line)}
        return {}


def _cell_ending_at(row: str, end: int) -> str:
    """The word of `row` that ends at column `end` or spans it (a right-aligned number)."""
    for found in re.finditer(r"\S+", row):
        if found.start() < end <= found.end():
            return found[0]
    return ""
