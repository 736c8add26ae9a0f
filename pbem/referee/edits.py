"""Correcting the state of the pending turn through the ruleset's validated edits."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine import EditError, get_ruleset
from pbem.referee.command import RefereeError
from pbem.referee.context import RefereeContext
from pbem.referee.words import need
from pbem.store import dumps, loads

EDIT_USAGE = "edit PATH = VALUE"


def edit(ctx: RefereeContext, args: Sequence[str], reason: str) -> str:
    need(args, 1, EDIT_USAGE)
    path, value = split_edit(args)
    turn = ctx.pending_turn()
    before = loads(turn.state_before)
    after = apply_edit(ctx.game.ruleset, before, path, value)
    changed = differences(before, after)
    if not changed:
        raise RefereeError(f"{path} = {value} changes nothing")
    turn.state_before = dumps(after)
    ctx.work.games.add(turn)
    effect = f"{path} set to {value}: " + "; ".join(
        f"{where} {old} -> {new}" for where, old, new in changed
    )
    ctx.change(
        effect,
        {where: old for where, old, _ in changed},
        {where: new for where, _, new in changed},
        edit_path=path,
        edit_value=value,
    )
    return effect


def split_edit(args: Sequence[str]) -> tuple[str, str]:
    """`path = value`, `path=value` or `path value`."""
    text = " ".join(args).strip()
    path, found, value = text.partition("=")
    if not found:
        path, _, value = text.partition(" ")
    if not path.strip() or not value.strip():
        raise RefereeError(f"an edit names a path and a value; write: {EDIT_USAGE}")
    return path.strip(), value.strip()


def apply_edit(ruleset_id: str, state: dict[str, Any], path: str, value: str) -> dict[str, Any]:
    try:
        return get_ruleset(ruleset_id).edit(state, path, value)
    except EditError as error:
        raise RefereeError(f"edit refused: {error}") from None


def differences(before: Any, after: Any, where: str = "") -> list[tuple[str, Any, Any]]:
    """Every leaf that differs between two JSON values, as (dotted path, before, after)."""
    if isinstance(before, dict) and isinstance(after, dict):
        found: list[tuple[str, Any, Any]] = []
        for key in sorted(set(before) | set(after)):
            inner = f"{where}.{key}" if where else str(key)
            found += differences(before.get(key), after.get(key), inner)
        return found
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        found = []
        for index, (old, new) in enumerate(zip(before, after, strict=True)):
            # Name a seat by its name rather than its place in the list.
            key = old.get("name", index) if isinstance(old, dict) else index
            found += differences(old, new, f"{where}.{key}" if where else str(key))
        return found
    return [] if before == after else [(where, before, after)]
