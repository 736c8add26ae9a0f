"""The referee's preview is wrapped once, at 72 columns: its event and order lines read as
the report's do, not as text wrapped and then wrapped again ("... paid 0. Gold" / "now 3.")."""

from __future__ import annotations

from datetime import datetime

from pbem.games.lifecycle import SeatSpec
from pbem.games.service import Service
from pbem.templates import wrap
from tests.referee.support import Channel, referee_game
from tests.support.games import body, outbox

SEATS = tuple(SeatSpec(name, f"{name}@example.org", f"pw-{name}") for name in ("ann", "bob"))


def _section(text: str, title: str) -> str:
    return text.split(f"== {title} ==\n", 1)[1].split("\n\n", 1)[0]


def _paragraphs(section: str) -> list[str]:
    """Each entry of a section (a line and the indented lines that continue it) unwrapped."""
    entries: list[str] = []
    for line in section.splitlines():
        if line.startswith("    ") and entries:
            entries[-1] += " " + line.strip()
        else:
            entries.append(line)
    return entries


def test_preview_events_are_wrapped_once(service: Service, now: datetime, via: Channel) -> None:
    referee_game(service, now, ruleset="temples-and-swords", seats=SEATS)
    via.run("preview", reason="checking the upkeep")
    [mail] = [row for row in outbox(service) if row.subject.endswith("preview of turn 1")]
    text = body(mail)
    assert max(len(line) for line in text.splitlines()) <= 72
    events = _section(text, "What would happen")
    assert "paid 0." in events  # Temples and Swords' upkeep line, long enough to wrap
    # Wrapped once: each entry is what wrap() makes of it whole, with no short line inside.
    assert events == "\n".join(wrap(entry) for entry in _paragraphs(events))


def test_preview_wraps_its_seat_lists_indented_and_plays_seats_not_orders(
    service: Service, now: datetime, via: Channel
) -> None:
    names = [f"seatnumber{n:02d}" for n in range(8)]
    many = tuple(SeatSpec(name, f"{name}@example.org", f"pw-{name}") for name in names)
    referee_game(service, now, seats=many, ruleset="temples-and-swords")
    via.run("preview")
    [row] = [r for r in outbox(service) if r.subject.endswith("preview of turn 1")]
    text = body(row)
    head = text.split("No orders yet from: ", 1)[1].split("\n  seatnumber00:", 1)[0]
    assert all(line.startswith("    ") for line in head.splitlines()[1:]), head
    assert "As the turn would play each seat:" in text
