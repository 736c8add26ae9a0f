"""Invariants of what a report shows: its text, its JSON and its pictures agree on the turn,
the seat, the deadline and the standings; every moment is shown in the game's time zone as
well as UTC; and every seat keeps its letter and its place in the map's legend (which gives
its colour: the picture colours the legend's n-th seat with the n-th seat colour).

What the mails do not carry is not guessed: the campaign chart is a matplotlib picture with
no data of its own, so its seat order (and so its colours) is not checked here, only that it
is a PNG of the turn it names; the map picture is checked to be a PNG whose palette holds the
colours of the legend's seats, not pixel by pixel."""

from __future__ import annotations

import io
import re
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from PIL import Image

from pbem.pictures.palette import SEAT_COLOURS
from tests.campaign.reading import UTC_TIME
from tests.campaign.record import Received, Record, Violation

_DUE = re.compile(rf"Orders for turn (\d+) are due by {UTC_TIME.pattern}")
_ENDED = re.compile(r"has ended after turn (\d+)")


def reports_agree(record: Record) -> list[Violation]:
    found: list[str] = []
    for mail in record.all_mail():
        if mail.view.report is not None:
            found += _report_agrees(record, mail)
        elif ended := _ENDED.search(mail.view.text):
            charts = [name for name in mail.view.attachments if name.startswith("chart-")]
            found += [
                f"{_what(mail)}: {name} is not the chart of turn {ended[1]}"
                for name in charts
                if name != f"chart-{record.game}-{ended[1]}.png"
            ]
        found += [
            f"{_what(mail)}: {name} is not a picture"
            for name, part in mail.view.attachments.items()
            if name.endswith(".png") and not _png(part.data)
        ]
    return [Violation("reports-agree", text) for text in found]


def _report_agrees(record: Record, mail: Received) -> list[str]:
    (turn, seat), view, what = mail.view.report or (0, ""), mail.view, _what(mail)
    found = []
    if not view.in_reply_to and f"turn {turn} " not in f"{view.subject} ":
        found.append(f"{what}: the subject names another turn than the text's {turn}")
    data = view.data
    if data is None:
        return found if view.in_reply_to else [*found, f"{what}: no report data attached"]
    if (data["game"], data["turn"], data["seat"]) != (record.game, turn, seat):
        found.append(f"{what}: the JSON is of {data['game']} turn {data['turn']} {data['seat']}")
    if f"report-{record.game}-{turn}-{seat}.json" not in view.attachments:
        found.append(f"{what}: the JSON is not named for turn {turn} and {seat}")
    found += _picture_agrees(mail, data, turn, seat)
    found += _deadline_agrees(mail, data)
    found += [f"{what}: {problem}" for problem in _standings_agree(mail, data)]
    return found


def _picture_agrees(mail: Received, data: dict[str, Any], turn: int, seat: str) -> list[str]:
    what, game = _what(mail), data["game"]
    maps = [name for name in mail.view.attachments if name.startswith("map-")]
    charts = [name for name in mail.view.attachments if name.startswith("chart-")]
    found = [
        f"{what}: {name} is not the chart of turn {turn}"
        for name in charts
        if name != f"chart-{game}-{turn}.png"
    ]
    if data["map"] is None:
        return found + [f"{what}: a map picture {name} for a game without a map" for name in maps]
    if maps != [f"map-{game}-{turn}-{seat}.png"]:
        return [*found, f"{what}: the map pictures are {maps}, not the map of turn {turn}"]
    colours = _palette(mail.view.attachments[maps[0]].data)
    wanted = {SEAT_COLOURS[i % len(SEAT_COLOURS)] for i in range(len(data["map"]["seats"]))}
    if not wanted <= colours:
        found.append(f"{what}: the picture lacks seat colours {sorted(wanted - colours)}")
    return found


def _deadline_agrees(mail: Received, data: dict[str, Any]) -> list[str]:
    due = _DUE.search(mail.view.flat)
    shown = (int(due[1]), f"{due[2].replace(' ', 'T')}:00Z") if due else None
    if data["next_turn"] is None or data["deadline"] is None:
        return [] if shown is None else [f"{_what(mail)}: the text shows a deadline, the JSON none"]
    if shown != (data["next_turn"], data["deadline"]):
        return [
            f"{_what(mail)}: the text's next turn and deadline {shown} are not the JSON's "
            f"{(data['next_turn'], data['deadline'])}"
        ]
    return []


def _standings_agree(mail: Received, data: dict[str, Any]) -> list[str]:
    """Each seat's measures in the JSON are the numbers of the text's standing table, read
    under the column whose heading starts as the measure does (population: Pop)."""
    table, found, compared = mail.view.standing, [], 0
    for seat, measures in data["standings"].items():
        row = table.get(seat)
        if row is None:
            found.append(f"the text's standing has no row for {seat}")
            continue
        for measure, value in measures.items():
            column = next((c for c in row if c[:3] == measure.lower()[:3]), None)
            if column is None:
                continue
            compared += 1
            if row[column] != str(value):
                found.append(
                    f"{seat}'s {measure} is {value} in the JSON, {row[column]!r} in the text"
                )
    if not compared and not found:
        found.append("no measure of the JSON's standings is a column of the text's standing")
    return found


def deadlines_in_zone(record: Record) -> list[Violation]:
    """Every moment a mail shows in UTC is shown in the game's zone too (the zone the
    referee gave: --timezone, or a weekly policy's own), at the same instant; a UTC game
    shows no other zone."""
    found = []
    zone = ZoneInfo(record.zone)
    for mail in record.all_mail():
        for shown in UTC_TIME.finditer(mail.view.flat):
            moment = datetime.fromisoformat(f"{shown[1]}+00:00")
            local = moment.astimezone(zone).strftime("%Y-%m-%d %H:%M")
            if record.zone == "UTC" and shown[4] not in (None, "UTC"):
                found.append(f"{_what(mail)}: {shown[0]!r} is shown in {shown[4]}, not UTC alone")
            elif record.zone != "UTC" and (shown[4], shown[2]) != (record.zone, local):
                found.append(
                    f"{_what(mail)}: {shown[0]!r} is not shown in {record.zone} ({local} there)"
                )
    return [Violation("deadline-in-zone", text) for text in found]


def colours_stable(record: Record) -> list[Violation]:
    """Each seat keeps one letter and one place in the map's legend (its colour) in every
    picture's data, text map and standing table of the game."""
    legend: list[Any] | None = None
    letters: dict[str, tuple[str, str]] = {}  # seat -> (letter, where first seen)
    found = []
    for mail in sorted(record.all_mail(), key=lambda m: m.step):
        what, data = _what(mail), mail.view.data
        seats = data["map"]["seats"] if data and data["map"] else None
        if seats is not None and legend is None:
            legend = seats
        elif seats is not None and seats != legend:
            found.append(f"{what}: the legend's seats are {_names(seats)}, first {_names(legend)}")
        shown = [
            *mail.view.legend.items(),
            *((seat, row["letter"]) for seat, row in mail.view.standing.items() if "letter" in row),
            *((seat["name"], seat["letter"]) for seat in seats or ()),
        ]
        for seat, letter in shown:
            first = letters.setdefault(seat, (letter, what))
            if first[0] != letter:
                found.append(f"{what}: {seat} is {letter}, in {first[1]} {first[0]}")
    return [Violation("colours-stable", text) for text in found]


def _names(seats: list[Any] | None) -> str:
    return ", ".join(f"{s['letter']}={s['name']}" for s in seats or [])


def _png(data: bytes) -> bool:
    try:
        with Image.open(io.BytesIO(data)) as image:
            image.verify()
            return bool(image.format == "PNG" and image.width > 0 and image.height > 0)
    except Exception:
        return False


def _palette(data: bytes) -> set[str]:
    with Image.open(io.BytesIO(data)) as image:
        flat = image.getpalette() or []
    return {"#" + "".join(f"{v:02X}" for v in flat[i : i + 3]) for i in range(0, len(flat), 3)}


def _what(mail: Received) -> str:
    return f"{mail.owner}'s {mail.view.subject!r} (step {mail.step})"
