"""`pbem game export GAME`: the whole record of a game as one JSON document.

It holds what a verifier needs and nothing private: the ruleset and options, the seats
(names and positions; never addresses or passwords), every live turn with its states,
record (events with their dice, results) and the order texts each seat was played with,
the referee's state edits by turn, and every rollback branch. The seed and salt are in it
only once the game has ended; before, only their commitment.
"""

from __future__ import annotations

from typing import Any

from pbem.errors import PbemError
from pbem.games.commitment import commitment
from pbem.games.games import find_game
from pbem.games.played import played_of
from pbem.store import ArchivedTurn, Game, GameStatus, Turn, loads
from pbem.store.work import Work

FORMAT = "pbem-game-export/1"


class ExportError(PbemError, ValueError):
    pass


def export_game(work: Work, game_id: str) -> dict[str, Any]:
    game = find_game(work, game_id)
    if game is None:
        raise ExportError(f"there is no game {game_id}")
    ended = game.status == GameStatus.ENDED
    live = work.games.turns_of(game.id)
    return {
        "format": FORMAT,
        "game": game.id,
        "ruleset": game.ruleset,
        "options": loads(game.options),
        "status": game.status,
        "result": loads(game.result) if game.result else None,
        "commitment": commitment(game.seed, game.seed_salt),
        "seed": game.seed if ended else None,
        "salt": game.seed_salt if ended else None,
        "seats": [{"name": s.name, "position": s.position} for s in work.games.seats_of(game.id)],
        "edits": _edits(work, game),
        "turns": [_turn(row) for row in live],
        "branches": _branches(work, game),
    }


def _turn(row: Turn | ArchivedTurn) -> dict[str, Any]:
    record = loads(row.record) if row.record else None
    played = played_of(record or {})
    return {
        "number": row.number,
        "state_before": loads(row.state_before),
        "state_after": loads(row.state_after) if row.state_after else None,
        # The record as the reports show it (events with their dice, results, outcome); the
        # inputs it also keeps are given on their own.
        "record": {k: v for k, v in record.items() if k != "played"} if record else None,
        "played": {seat: item.to_json() for seat, item in played.items()},
        "resolved_at": row.resolved_at.isoformat() if row.resolved_at else None,
    }


def _edits(work: Work, game: Game) -> dict[str, list[dict[str, str]]]:
    """The referee's state edits, by the turn they were made in, in the order made."""
    edits: dict[str, list[dict[str, str]]] = {}
    for note in work.games.edit_notes(game.id):
        edits.setdefault(str(note.turn), []).append(
            {"path": note.edit_path, "value": note.edit_value}
        )
    return edits


def _branches(work: Work, game: Game) -> list[dict[str, Any]]:
    rows = work.branches.archived_turns(game.id)
    branches: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        branches.setdefault(row.branch, []).append(_turn(row))
    return [{"branch": n, "turns": turns} for n, turns in sorted(branches.items())]
