"""A readable, complete record of a played game: every order text, event, result and the
standings after each turn. Golden tests compare it byte for byte."""

from __future__ import annotations

from collections.abc import Iterable

from engine.playthrough import TurnPlayed
from engine.ruleset import Ruleset


def transcript(ruleset: Ruleset, turns: Iterable[TurnPlayed]) -> str:
    lines: list[str] = []
    last = None
    for played in turns:
        lines += _turn(ruleset, played)
        last = played
    if last is not None:
        final = last.resolution.state
        lines += ["=== Final map ===", ruleset.render_map(final, ""), ""]
        outcome = ruleset.outcome(final)
        lines.append(f"Outcome: {outcome.winners} {outcome.reason}" if outcome else "Outcome: none")
    return "\n".join(lines) + "\n"


def _turn(ruleset: Ruleset, played: TurnPlayed) -> list[str]:
    lines = [f"=== Turn {played.number} ==="]
    for seat, text in played.order_texts.items():
        lines.append(f"--- orders of {seat} ---")
        lines += text.rstrip("\n").splitlines()
    lines.append("--- events ---")
    for event in played.resolution.events:
        dice = f"  dice {list(event.dice)}" if event.dice else ""
        lines.append(f"[{event.phase}] {event.seat or '-'} {event.code}: {event.text}{dice}")
    lines.append("--- results ---")
    for seat, results in played.resolution.results.items():
        for result in results:
            note = f" ({result.note})" if result.note else ""
            lines.append(
                f"{seat} line {result.line_no} {result.order}: {result.status.value}{note}"
            )
    lines += ["--- standings ---", ruleset.public_summary(played.resolution.state), ""]
    return lines
