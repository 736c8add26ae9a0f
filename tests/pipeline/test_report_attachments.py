"""What comes with a turn report: the map picture, the campaign chart every few turns and at
the end, and the report as JSON that the schema in docs/ describes; SET PICTURES OFF, SET DATA
OFF and the game's options turn them off."""

from __future__ import annotations

import io
import json
from datetime import datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from PIL import Image

from engine import get_ruleset
from pbem.clock.turns import resolve_due
from pbem.games.lifecycle import ReportOptions
from pbem.games.outbox import as_message
from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.store import Outbox, loads
from tests.support.games import body, new_game, outbox, turns
from tests.support.mails import mail, order_mail

SCHEMA = json.loads((Path(__file__).parents[2] / "docs" / "report.schema.json").read_text())
TNS = "temples-and-swords"


def _play_turn(service: Service, now: datetime, number: int, ruleset_id: str = TNS) -> None:
    """Both seats send the bot's orders, and the turn resolves."""
    ruleset = get_ruleset(ruleset_id)
    state = loads(turns(service)[-1].state_before)
    for seat in ruleset.seats_to_order(state):
        text = ruleset.bot_orders(state, seat, 1)
        ident = f"t{number}-{seat}@example.org"
        sender = f"{seat}@example.org"
        receive(
            service,
            order_mail("g1", seat, f"pw-{seat}", text, message_id=ident, sender=sender),
            now=now,
        )
    resolve_due(service, now=now)


def _reports(service: Service, number: int) -> dict[str, EmailMessage]:
    rows: list[Outbox] = outbox(service, "report")
    return {
        row.recipient.split("@")[0]: as_message(row.raw)
        for row in rows
        if f"turn {number} report" in row.subject
    }


def _attached(message: EmailMessage) -> dict[str, bytes]:
    return {str(part.get_filename()): part.get_content() for part in message.iter_attachments()}


def test_a_report_carries_the_seats_map_and_its_data(service: Service, now: datetime) -> None:
    new_game(service, now, ruleset=TNS)
    _play_turn(service, now, 1)
    reports = _reports(service, 1)
    assert set(reports) == {"alice", "bob"}
    for seat, message in reports.items():
        files = _attached(message)
        assert set(files) == {f"map-g1-1-{seat}.png", f"report-g1-1-{seat}.json"}
        assert message.get_body(("plain",)) is not None  # the text stays first and whole
        picture = Image.open(io.BytesIO(files[f"map-g1-1-{seat}.png"]))
        picture.load()
        assert picture.format == "PNG" and len(files[f"map-g1-1-{seat}.png"]) < 200_000
        data = json.loads(files[f"report-g1-1-{seat}.json"])
        jsonschema.validate(data, SCHEMA)
        assert (data["game"], data["turn"], data["seat"], data["next_turn"]) == ("g1", 1, seat, 2)
        assert data["deadline"].endswith("Z")
        assert data["holdings"]["record"]["name"] == seat
        assert {p["owner"] for p in data["map"]["places"]} == {"", "alice", "bob"}


def test_a_seats_data_holds_nothing_of_the_others_it_may_not_see(
    service: Service, now: datetime
) -> None:
    new_game(service, now, ruleset=TNS)
    _play_turn(service, now, 1)
    reports = _reports(service, 1)
    alice = json.loads(_attached(reports["alice"])["report-g1-1-alice.json"])
    raw = json.dumps(alice)
    assert "pw-alice" not in raw and "pw-bob" not in raw and "@example.org" not in raw
    record = loads(turns(service)[0].record or "{}")
    hidden = [(e["seat"], e["text"]) for e in record["events"] if not _seen_by(e, "alice")]
    assert hidden  # bob's own events of the turn
    assert not set(hidden) & {(e["seat"], e["text"]) for e in alice["events"]}
    assert alice["results"] and all(r["order"] for r in alice["results"])
    bob_orders = {r["order"] for r in record["results"]["bob"]} - {
        r["order"] for r in record["results"]["alice"]
    }
    assert not bob_orders & {r["order"] for r in alice["results"]}
    assert set(alice) == set(SCHEMA["properties"])  # nothing beyond the documented fields


def _seen_by(event: dict[str, Any], seat: str) -> bool:
    return bool(event.get("public")) or event["seat"] == seat or seat in event.get("also", [])


def test_set_pictures_off_and_set_data_off_are_honoured(service: Service, now: datetime) -> None:
    new_game(service, now, ruleset=TNS)
    head = "GAME g1 SEAT alice PASSWORD pw-alice\n"
    answer = receive(service, mail(head + "SET PICTURES OFF\n", message_id="s1@x"), now=now)
    assert answer.status == "answered"
    assert "the map picture and the campaign chart will not come" in " ".join(
        body(answer.replies[0]).split()
    )
    _play_turn(service, now, 1)
    assert set(_attached(_reports(service, 1)["alice"])) == {"report-g1-1-alice.json"}
    receive(service, mail(head + "SET DATA OFF\n", message_id="s2@x"), now=now)
    _play_turn(service, now + timedelta(seconds=1), 2)
    reports = _reports(service, 2)
    assert _attached(reports["alice"]) == {}
    assert reports["alice"].get_content_type() == "text/plain"  # a plain mail again
    assert set(_attached(reports["bob"])) == {"map-g1-2-bob.png", "report-g1-2-bob.json"}
    wrong = receive(service, mail(head + "SET PICTURES MAYBE\n", message_id="s3@x"), now=now)
    assert "SET PICTURES ON or SET PICTURES OFF" in body(wrong.replies[0])


def test_the_game_can_go_without_attachments(service: Service, now: datetime) -> None:
    new_game(service, now, ruleset=TNS, reports=ReportOptions(pictures=False, data=False))
    _play_turn(service, now, 1)
    reports = _reports(service, 1)
    assert {seat: _attached(m) for seat, m in reports.items()} == {"alice": {}, "bob": {}}


def test_a_chart_comes_every_n_turns(service: Service, now: datetime) -> None:
    new_game(service, now, ruleset=TNS, reports=ReportOptions(chart_every=2))
    _play_turn(service, now, 1)
    assert "chart-g1-1.png" not in _attached(_reports(service, 1)["alice"])
    _play_turn(service, now + timedelta(seconds=1), 2)
    reports = _reports(service, 2)
    charts = {seat: _attached(m)["chart-g1-2.png"] for seat, m in reports.items()}
    assert charts["alice"] == charts["bob"]  # the same chart for every seat
    Image.open(io.BytesIO(charts["alice"])).load()


def test_the_start_mail_and_a_report_asked_again_carry_them_too(
    service: Service, now: datetime
) -> None:
    new_game(service, now, ruleset=TNS)
    starts = [row for row in outbox(service, "report") if "game begins" in row.subject]
    assert {tuple(_attached(as_message(row.raw))) for row in starts} == {
        ("map-g1-start-alice.png",),
        ("map-g1-start-bob.png",),
    }
    _play_turn(service, now, 1)
    ask = mail(
        "GAME g1 SEAT bob PASSWORD pw-bob\nREPORT 1\n", message_id="r@x", sender="bob@example.org"
    )
    again = receive(service, ask, now=now).replies[0]
    first = _reports(service, 1)["bob"]
    assert _attached(as_message(again.raw)) == _attached(first)


@pytest.mark.parametrize(
    ("ruleset", "options"),
    [
        ("classical", {}),
        ("culture-and-conquest", {}),
        ("culture-and-conquest", {"map": "generated"}),
        ("medieval-micromanager", {}),
        ("tribes", {}),
    ],
)
def test_every_rulesets_data_fits_the_schema(
    service: Service, now: datetime, ruleset: str, options: dict[str, str]
) -> None:
    new_game(service, now, ruleset=ruleset, options=options)
    _play_turn(service, now, 1, ruleset)
    reports = _reports(service, 1)
    assert reports, "the turn was reported"
    has_map = get_ruleset(ruleset).map_view(loads(turns(service)[0].state_before), "") is not None
    for seat, message in reports.items():
        files = _attached(message)
        data = json.loads(files[f"report-g1-1-{seat}.json"])
        jsonschema.validate(data, SCHEMA)
        assert (data["map"] is not None) == has_map == (f"map-g1-1-{seat}.png" in files)


def test_a_ruleset_without_map_or_standings_sends_its_data_alone(
    service: Service, now: datetime
) -> None:
    new_game(service, now, reports=ReportOptions(chart_every=1))  # the test ruleset: neither
    receive(service, order_mail("g1", "alice", "pw-alice", "ADD 2\n"), now=now)
    bob = order_mail("g1", "bob", "pw-bob", "ADD 1\n", message_id="m2@x", sender="bob@example.org")
    receive(service, bob, now=now)
    resolve_due(service, now=now)
    reports = _reports(service, 1)
    assert {seat: set(_attached(m)) for seat, m in reports.items()} == {
        "alice": {"report-g1-1-alice.json"},
        "bob": {"report-g1-1-bob.json"},
    }
