"""An order is judged against the position its phase will meet, the seat's own earlier orders
of the turn applied (engine.rehearsal), for every ruleset.

The order sets are made so that later lines depend on earlier ones: the seat's bot orders for
the phases before phase p, and the lines its bot writes for the position phase p meets after
them (a city upgraded, a unit moved next to a hex). Such a set must be accepted exactly when the
resolution carries it out: every line written for its phase's position is accepted, and an
accepted line is carried out unless the check reply said it fails as things stand (the dice
aside, which the reply names). The seat is the first to play, so no other seat's turn comes
between the check and its phases, and the turn is resolved with the rehearsal's dice."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Ruleset, get_ruleset
from engine.kit import GameRuleset
from engine.recorder import Recorder
from engine.records import OrderStatus, ParsedOrders
from engine.rehearsal import BEFORE_ANY_PHASE, REHEARSAL_SEEDS, Phases

from .games import CASES, case_id, played

EVERY_RULESET = pytest.mark.parametrize(("ruleset", "options"), CASES, ids=case_id)
QUICK = settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
SEED = REHEARSAL_SEEDS[0]


@dataclass(frozen=True)
class OrderSet:
    """A seat's order text whose last lines were written for the position `phase` meets."""

    state: dict[str, Any]
    seat: str
    phase: str
    text: str
    dependent: tuple[int, ...]  # the line numbers written for the phase's position
    refused_before: tuple[int, ...]  # of those, the lines the position before the turn refuses


def phases_of(ruleset: Ruleset) -> Phases[Any]:
    assert isinstance(ruleset, GameRuleset) and ruleset.parts.phases is not None
    return ruleset.parts.phases


def order_set(ruleset: GameRuleset[Any], state: dict[str, Any], pick: int) -> OrderSet | None:
    """The bot's lines for the phases before the picked one, then the lines the bot writes for
    the position that phase meets after them; None where the seat plays no phase."""
    phases = phases_of(ruleset)
    seat = ruleset.seats_to_order(state)[0]
    opening = ruleset.bot_orders(state, seat, pick)
    read = ruleset.parts.parse(ruleset.load(state), seat, opening)
    board = ruleset.load(state)
    names = list(_phase_names(ruleset, state, seat, read))
    if not names:
        return None
    wanted = names[pick % len(names)]
    earlier = [o for o in read.orders if _before(phases.phase_of(o), wanted, names)]
    for phase in phases.rehearse(board, seat, sorted(earlier, key=_line), SEED, Recorder()):
        if phase == wanted:
            break
    written = ruleset.bot_orders(board.to_json(), seat, pick).splitlines()
    there = ruleset.parts.parse(board, seat, "\n".join(written))
    later = [o.text for o in there.orders if phases.phase_of(o) == wanted]
    lines = [o.text for o in sorted(earlier, key=_line)] + later
    text = "\n".join(lines)
    dependent = tuple(range(len(earlier) + 1, len(lines) + 1))
    before = ruleset.parts.parse(ruleset.load(state), seat, text)
    refused = tuple(p.line_no for p in before.problems if p.line_no in dependent)
    return OrderSet(state, seat, wanted, text, dependent, refused)


def _phase_names(
    ruleset: GameRuleset[Any], state: dict[str, Any], seat: str, read: ParsedOrders
) -> Iterator[str]:
    """The phases of the seat's turn that orders take effect in."""
    phases = phases_of(ruleset)
    timed = set(phases.order_phases.values())
    for phase in phases.rehearse(ruleset.load(state), seat, [], SEED, Recorder()):
        if phase in timed:
            yield phase


def _before(phase: str, wanted: str, names: list[str]) -> bool:
    return phase == BEFORE_ANY_PHASE or (
        phase in names and names.index(phase) < names.index(wanted)
    )


def _line(order: Any) -> int:
    line_no: int = order.line_no
    return line_no


def positions(ruleset: Ruleset, options: dict[str, Any]) -> list[dict[str, Any]]:
    """Every position of a short seeded bot game that is still being played."""
    game = played(ruleset, options, 17, max_turns=12)
    return [t.state_before for t in game if ruleset.outcome(t.state_before) is None]


@EVERY_RULESET
@QUICK
@given(data=st.data())
def test_an_order_set_is_accepted_exactly_when_its_resolution_carries_it_out(
    ruleset: Ruleset, options: dict[str, Any], data: st.DataObject
) -> None:
    assert isinstance(ruleset, GameRuleset)
    states = positions(ruleset, options)
    state = data.draw(st.sampled_from(states), "position")
    made = order_set(ruleset, state, data.draw(st.integers(0, 50), "pick"))
    if made is None:
        return
    parsed = ruleset.parse_orders(state, made.seat, made.text)
    refused = {p.line_no: p.describe() for p in parsed.problems}
    assert not set(made.dependent) & set(refused), (made.phase, made.text, refused)
    resolution = ruleset.resolve(state, {made.seat: parsed}, SEED)
    carried = {
        r.line_no: r.status is not OrderStatus.SKIPPED
        for r in resolution.results.get(made.seat, [])
    }
    notes = dict(parsed.notes)
    for order in parsed.orders:
        note = notes.get(order.line_no, "")
        if phases_of(ruleset).phase_of(order) == BEFORE_ANY_PHASE or "dice decide" in note:
            continue
        assert carried[order.line_no] == ("it fails" not in note), (order.text, note)


def generated(ruleset: GameRuleset[Any], options: dict[str, Any]) -> list[OrderSet]:
    made = [
        order_set(ruleset, state, pick)
        for state in positions(ruleset, options)
        for pick in range(20)
    ]
    return [m for m in made if m is not None]


@EVERY_RULESET
def test_the_order_sets_hold_lines_written_for_a_later_phase(
    ruleset: Ruleset, options: dict[str, Any]
) -> None:
    """The property above is no walk-over: many generated sets end in lines written for the
    position a later phase meets."""
    assert isinstance(ruleset, GameRuleset)
    made = generated(ruleset, options)
    assert sum(1 for m in made if m.dependent) >= len(made) // 4


@pytest.mark.parametrize(
    ("ruleset", "options"),
    [(get_ruleset(i), {}) for i in ("classical", "tribes")],
    ids=["classical", "tribes"],
)
def test_lines_refused_before_the_turn_are_accepted_where_their_phase_allows_them(
    ruleset: Ruleset, options: dict[str, Any]
) -> None:
    """Classical (a city upgraded before Recruit) and Tribes (a unit moved before Bribes and
    buildings): some generated lines are refused against the position before the turn, and
    every one of them is accepted, judged where it takes effect."""
    assert isinstance(ruleset, GameRuleset)
    depending = [m for m in generated(ruleset, options) if m.refused_before]
    refused_now = [
        m
        for m in depending
        if {p.line_no for p in ruleset.parse_orders(m.state, m.seat, m.text).problems}
        & set(m.refused_before)
    ]
    assert depending and refused_now == []
