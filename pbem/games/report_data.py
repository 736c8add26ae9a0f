"""The report as data for players' own tools: `report-<game>-<turn>-<seat>.json`.
docs/report-json.md says what each field holds; docs/report.schema.json is the JSON Schema
every report is checked against in the tests. (The whole game record, for a referee after the
game, is `pbem game export`: pbem.proof.export.)

Only what the seat's report shows goes in: its own holdings, the map (no ruleset hides any of
it), the public standings, the events it may see with their dice, its own order results. No
password and nothing of another seat's that its report does not show.
"""

from __future__ import annotations

import json
from typing import Any

from engine.mapdata import MapView
from pbem.games.lines import MailLines
from pbem.games.resolved import ResolvedTurn
from pbem.store import utc

SCHEMA = "pbem-report/1"


def report_data(view: ResolvedTurn, seat: str) -> dict[str, Any]:
    ruleset, after, following = view.ruleset, view.after, view.due
    outcome = view.resolution.outcome
    shared = _shared(view)
    return {
        "schema": SCHEMA,
        "game": view.game.id,
        "ruleset": ruleset.id,
        "turn": view.turn.number,
        "seat": seat,
        "next_turn": following.number if following else None,
        "deadline": _when(following.deadline)
        if following and following.deadline and not view.paused
        else None,
        "holdings": {
            "text": ruleset.holdings(after, seat),
            "record": ruleset.seat_record(after, seat),
        },
        "map": shared["map"],
        "standings": shared["standings"],
        "events": [_event(event) for event in view.resolution.events_for(seat)],
        "results": _results(view, seat),
        "outcome": {"winners": list(outcome.winners), "reason": outcome.reason}
        if outcome
        else None,
    }


def _shared(view: ResolvedTurn) -> dict[str, Any]:
    """What every seat's data of the turn holds alike, made once: the map (no ruleset hides
    any of it from a seat) and the standings."""
    if "data" not in view.drawn:
        mapped = map_of(view)
        view.drawn["data"] = {
            "map": mapped.to_json() if mapped else None,
            "standings": view.ruleset.standings(view.after),
        }
    shared: dict[str, Any] = view.drawn["data"]
    return shared


def map_of(view: ResolvedTurn) -> MapView | None:
    """The turn's map as the view of no seat, read once for its picture and its data."""
    if "view" not in view.drawn:
        view.drawn["view"] = view.ruleset.map_view(view.after, "")
    mapped: MapView | None = view.drawn["view"]
    return mapped


def as_bytes(data: dict[str, Any]) -> bytes:
    """Canonical, compact JSON: the same data, the same bytes."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return (text + "\n").encode()


def _when(moment: Any) -> str:
    return str(utc(moment).isoformat().replace("+00:00", "Z"))


def _event(event: Any) -> dict[str, Any]:
    return {
        "phase": event.phase,
        "seat": event.seat,
        "text": event.text,
        "dice": list(event.dice),
        "public": event.public,
    }


def _results(view: ResolvedTurn, seat: str) -> list[dict[str, Any]]:
    mail = MailLines(view.line_maps.get(seat, []))
    return [
        {
            "line": mail.of(result.line_no),  # the line of the mail the order came in
            "order": result.order,
            "status": result.status.value,
            "note": mail.in_text(result.note),
        }
        for result in view.resolution.results.get(seat, [])
    ]
