"""`pbem verify EXPORT.json`: every turn of an exported game played again from the revealed
seed and the order texts each seat was played with, through the engine interface alone.

Checked, in order: the seed and salt against the start mail's commitment; the first turn's
state against a new game of the ruleset with the seats and options; then each live turn: its
starting state against the previous turn's result with the referee's edits of the turn made
again (an edit the ruleset refuses is skipped, as a rerun skips it), and its replay against
the stored state and record (every event and its dice, every order's result, the outcome),
compared as canonical JSON text, byte for byte. Each turn of each rollback branch is replayed
from its own starting state. The first difference found is named, and the check stops there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine import EditError, Ruleset, get_ruleset
from engine.records import Resolution
from engine.registry import UnknownRuleset
from pbem.games.commitment import commitment
from pbem.games.played import Played, parsed_all
from pbem.proof.export import FORMAT
from pbem.referee.edits import differences
from pbem.store import dumps


@dataclass
class Verdict:
    ok: bool
    turns: int = 0  # turns replayed and found equal
    difference: str = ""  # the first difference, naming its turn; '' when ok
    notes: list[str] = field(default_factory=list)

    def text(self) -> str:
        if self.ok:
            return "\n".join([*self.notes, f"verified: {self.turns} turns replayed, all equal"])
        return "\n".join([*self.notes, f"NOT verified: {self.difference}"])


class Mismatch(Exception):
    """The first difference; its message names the turn."""


def verify(export: dict[str, Any]) -> Verdict:
    verdict = Verdict(ok=False)
    try:
        ruleset, seed = _opening(export)
        verdict.turns = _live_turns(export, ruleset, seed, verdict)
        verdict.turns += _branches(export, ruleset, seed, verdict)
    except Mismatch as mismatch:
        verdict.difference = str(mismatch)
        return verdict
    verdict.ok = True
    return verdict


def _opening(export: dict[str, Any]) -> tuple[Ruleset, int]:
    if export.get("format") != FORMAT:
        raise Mismatch(f"this is not a {FORMAT} document")
    seed, salt = export.get("seed"), export.get("salt")
    if seed is None or salt is None:
        raise Mismatch("the seed is not revealed: it is, once the game has ended")
    if commitment(seed, salt) != export.get("commitment"):
        raise Mismatch("the seed and salt do not match the commitment of the start mail")
    try:
        return get_ruleset(export["ruleset"]), int(seed)
    except UnknownRuleset as error:
        raise Mismatch(f"this pbem has no ruleset {export['ruleset']!r}: {error}") from None


def _live_turns(export: dict[str, Any], ruleset: Ruleset, seed: int, verdict: Verdict) -> int:
    seats = sorted(export["seats"], key=lambda seat: seat["position"])
    expected = ruleset.new_game([s["name"] for s in seats], export["options"], seed)
    replayed, where = 0, "its starting state is not a new game of these seats and options"
    for turn in export["turns"]:
        number = turn["number"]
        expected = _edited(ruleset, expected, export["edits"].get(str(number), []), verdict)
        _same(expected, turn["state_before"], f"turn {number}: {where}")
        where = f"its starting state is not what turn {number} left"
        if turn["state_after"] is None:
            verdict.notes.append(f"turn {number} is pending: not replayed")
            break
        _replay(ruleset, seed, turn, f"turn {number}")
        expected = turn["state_after"]
        replayed += 1
    return replayed


def _edited(
    ruleset: Ruleset, state: dict[str, Any], edits: list[dict[str, str]], verdict: Verdict
) -> dict[str, Any]:
    for item in edits:
        try:
            state = ruleset.edit(state, item["path"], item["value"])
        except EditError as error:
            verdict.notes.append(f"edit {item['path']} = {item['value']} skipped: {error}")
    return state


def _branches(export: dict[str, Any], ruleset: Ruleset, seed: int, verdict: Verdict) -> int:
    replayed = 0
    for branch in export["branches"]:
        for turn in branch["turns"]:
            if turn["state_after"] is not None:
                _replay(ruleset, seed, turn, f"branch {branch['branch']}, turn {turn['number']}")
                replayed += 1
    if replayed:
        verdict.notes.append(f"{replayed} turns of rolled-back branches replayed")
    return replayed


def _replay(ruleset: Ruleset, seed: int, turn: dict[str, Any], name: str) -> None:
    state = turn["state_before"]
    if turn["record"] is None:
        raise Mismatch(f"{name}: resolved, but it has no record")
    played = {seat: Played.from_json(item) for seat, item in turn["played"].items()}
    if not played and ruleset.seats_to_order(state):
        raise Mismatch(f"{name}: its record keeps no orders (resolved by an older pbem?)")
    orders = parsed_all(ruleset, state, played)
    resolution = ruleset.resolve(state, orders, seed)
    _same_record(resolution, turn["record"], name)
    _same(resolution.state, turn["state_after"], f"{name}: the state after it differs")


def _same_record(resolution: Resolution, record: dict[str, Any], name: str) -> None:
    again = resolution.record_json()
    recorded = record.get("events", [])
    for index, (new, old) in enumerate(zip(again["events"], recorded, strict=False)):
        if dumps(new) != dumps(old):
            dice = new.get("dice", []) != old.get("dice", [])
            what = "its dice" if dice else "it"
            raise Mismatch(
                f"{name}: event {index + 1} ({new.get('code')}) differs: replayed, "
                f"{what} {_brief(new, dice)}; recorded, {_brief(old, dice)}"
            )
    for part in ("events", "results", "outcome"):
        if dumps(again[part]) != dumps(record.get(part)):
            raise Mismatch(f"{name}: the {part} differ{_first(again[part], record.get(part))}")


def _same(replayed: Any, stored: Any, where: str) -> None:
    if dumps(replayed) != dumps(stored):
        raise Mismatch(f"{where}{_first(replayed, stored)}")


def _first(replayed: Any, stored: Any) -> str:
    found = differences(stored, replayed)
    if not found:
        return ""
    path, old, new = found[0]
    return f" (at {path or 'the top'}: replayed {new!r}, stored {old!r})"


def _brief(event: dict[str, Any], dice: bool) -> str:
    return " ".join(map(str, event.get("dice", []))) if dice else repr(event.get("text"))
