"""The report as data for players' own tools: `report-<game>-<turn>-<seat>.json`, and the whole
game record a referee exports after the game. docs/report-json.md says what each field holds;
docs/report.schema.json is the JSON Schema every report is checked against in the tests.

Only what the seat's report shows goes in: its own holdings, the map (no ruleset hides any of
it), the public standings, the events it may see with their dice, its own order results. No
password and nothing of another seat's that its report does not show.
"""

from __future__ import annotations

import json
from typing import Any

from sqlmodel import Session, col, select

from pbem.games.games import seats_of
from pbem.games.lines import MailLines
from pbem.games.resolved import ResolvedTurn
from pbem.store import Game, OrderSet, Turn, loads, utc

SCHEMA = "pbem-report/1"
EXPORT_SCHEMA = "pbem-game/1"


def report_data(view: ResolvedTurn, seat: str) -> dict[str, Any]:
    ruleset, after, following = view.ruleset, view.after, view.following
    outcome = view.resolution.outcome
    mapped = ruleset.map_view(after, seat)
    return {
        "schema": SCHEMA,
        "game": view.game.id,
        "ruleset": ruleset.id,
        "turn": view.turn.number,
        "seat": seat,
        "next_turn": following.number if following else None,
        "deadline": _when(following.deadline) if following and following.deadline else None,
        "holdings": {
            "text": ruleset.holdings(after, seat),
            "record": ruleset.seat_record(after, seat),
        },
        "map": mapped.to_json() if mapped else None,
        "standings": ruleset.standings(after),
        "events": [_event(event) for event in view.resolution.events_for(seat)],
        "results": _results(view, seat),
        "outcome": {"winners": list(outcome.winners), "reason": outcome.reason}
        if outcome
        else None,
    }


def as_bytes(data: dict[str, Any]) -> bytes:
    """Canonical JSON: the same data, the same bytes."""
    return (json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode()


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


def game_record(session: Session, game: Game) -> dict[str, Any]:
    """The whole game for its referee to archive or publish: options, seats (without
    passwords or addresses), and every turn's orders, events and states. The seed is in it
    only once the game has ended, as the end mail shows it then."""
    turns = session.exec(
        select(Turn).where(Turn.game_id == game.id).order_by(col(Turn.number))
    ).all()
    return {
        "schema": EXPORT_SCHEMA,
        "game": game.id,
        "ruleset": game.ruleset,
        "status": game.status,
        "options": loads(game.options),
        "seed": game.seed if game.status == "ended" else None,
        "seats": [
            {"name": seat.name, "position": seat.position, "status": seat.status}
            for seat in seats_of(session, game.id)
        ],
        "turns": [_turn(session, game, turn) for turn in turns],
    }


def _turn(session: Session, game: Game, turn: Turn) -> dict[str, Any]:
    # The orders of a turn not yet resolved stay secret, even from an export.
    query = select(OrderSet).where(OrderSet.game_id == game.id, OrderSet.turn == turn.number)
    orders = session.exec(query).all() if turn.resolved_at else []
    record = loads(turn.record) if turn.record else None
    return {
        "number": turn.number,
        "deadline": _when(turn.deadline) if turn.deadline else None,
        "resolved_at": _when(turn.resolved_at) if turn.resolved_at else None,
        "orders": {row.seat: row.text for row in sorted(orders, key=lambda row: row.seat)},
        "state_before": loads(turn.state_before),
        "state_after": loads(turn.state_after) if turn.state_after else None,
        "events": record["events"] if record else [],
        "results": record["results"] if record else {},
        "outcome": record.get("outcome") if record else None,
    }
