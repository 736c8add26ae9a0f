"""A rerun of a turn with one seat's orders changed (a player corrects a mail, a referee
replays a turn) leaves every other seat's dice alone: dice are Dice(seed, turn, seat, purpose),
so one seat's orders never move another seat's rolls. Events that involve the changed seat
(a war against it, say: its army decides how many dice are rolled) are left out. How many
dice another seat rolls may change through the game (a village the changed seat no longer
takes leaves that seat less to pay paid research rolls with), so the rolls are compared event
by event as far as both runs rolled: what was rolled must not move."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Ruleset
from engine.records import Event

from .games import CASES, case_id, played

Dice = dict[str, list[tuple[str, tuple[int, ...]]]]


def _dice_of_others(events: list[Event], changed: str) -> Dice:
    dice: Dice = {}
    for event in events:
        if event.dice and event.seat != changed and changed not in event.also:
            dice.setdefault(event.seat, []).append((event.code, event.dice))
    return dice


def _agree(before: Dice, after: Dice) -> bool:
    """Each seat's events with dice, one by one in order, roll the same dice as far as both
    runs rolled (the same kinds of event, each one's dice a prefix of the other's)."""
    for seat in before.keys() | after.keys():
        pairs = zip(before.get(seat, []), after.get(seat, []), strict=False)
        for (code, one), (again, other) in pairs:
            common = min(len(one), len(other))
            if code != again or one[:common] != other[:common]:
                return False
    return True


def _rerun(
    ruleset: Ruleset, state: dict[str, Any], texts: dict[str, str], seed: int
) -> list[Event]:
    parsed = {seat: ruleset.parse_orders(state, seat, text) for seat, text in texts.items()}
    return ruleset.resolve(state, parsed, seed).events


@pytest.mark.parametrize(("ruleset", "options"), CASES, ids=case_id)
def test_changing_one_seats_orders_leaves_the_other_seats_dice_alone(
    ruleset: Ruleset, options: dict[str, Any]
) -> None:
    compared = 0
    for turn in played(ruleset, options, 3, max_turns=10)[1:]:
        for changed in sorted(turn.order_texts):
            # The other orders a player might have sent: none, or another bot's
            others = {ruleset.bot_orders(turn.state_before, changed, 1000 + turn.number), ""}
            for text in sorted(others - {turn.order_texts[changed]}):
                corrected = dict(turn.order_texts, **{changed: text})
                before = _dice_of_others(
                    _rerun(ruleset, turn.state_before, turn.order_texts, 3), changed
                )
                after = _dice_of_others(_rerun(ruleset, turn.state_before, corrected, 3), changed)
                assert _agree(before, after), f"turn {turn.number}: {changed}'s orders moved dice"
                compared += sum(len(rolls) for rolls in before.values())
    assert compared > 20, "too few rolls of other seats to compare"
