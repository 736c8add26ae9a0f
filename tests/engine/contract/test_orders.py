"""Random and hostile order texts never make parse_orders raise, and whatever it accepts never
makes resolve raise: every bad line becomes a problem naming its line. The words come from the
ruleset's own help, template and bot orders, so many lines are nearly right."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Ruleset
from engine.records import ParsedOrders

from .games import CASES, NAMES, case_id, dump, played

SEATS = NAMES[:4]
pytestmark = pytest.mark.parametrize(("ruleset", "options"), CASES, ids=case_id)
QUICK = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)


@cache
def _positions(ruleset: Ruleset, options_key: str) -> tuple[dict[str, Any], ...]:
    game = played(ruleset, _options(options_key), 21, max_turns=12)
    return (game[0].state_before, game[len(game) // 2].state_before, game[-1].state_before)


def _options(key: str) -> dict[str, Any]:
    options: dict[str, Any] = json.loads(key)
    return options


_key = dump


@cache
def _words(ruleset: Ruleset, options_key: str) -> tuple[str, ...]:
    """The words the ruleset itself writes: in its help, its templates and its bots' orders."""
    texts = [ruleset.order_help()]
    for state in _positions(ruleset, options_key):
        for seat in ruleset.seats_to_order(state):
            texts += [ruleset.order_template(state, seat), ruleset.bot_orders(state, seat, 0)]
    words = {word for text in texts for word in text.split()}
    return (*sorted(words), "-1", "0", "99", "999999999999", "#", ",", '"', "zed", "A0", "Z99")


def _order_text(lines: list[str], words: tuple[str, ...]) -> st.SearchStrategy[str]:
    """Lines a bot would write for this seat here, the same with a word swapped, word soup and
    any text at all."""
    word = st.sampled_from(words)
    line = st.sampled_from(lines or [""])
    mutated = st.tuples(line, st.integers(0, 8), word).map(
        lambda t: " ".join(_swap(t[0].split(), t[1], t[2]))
    )
    soup = st.lists(word, min_size=1, max_size=8).map(" ".join)
    mixed = st.one_of(line, line, line, mutated, mutated, soup, st.text(max_size=80))
    return st.lists(mixed, min_size=1, max_size=12).map("\n".join)


def _swap(words: list[str], at: int, word: str) -> list[str]:
    if not words:
        return [word]
    words = list(words)
    words[at % len(words)] = word
    return words


def _check_problems(parsed: ParsedOrders, text: str) -> None:
    lines = text.splitlines()
    for problem in parsed.problems:
        assert 1 <= problem.line_no <= max(len(lines), 1)
        assert problem.describe().startswith(f"line {problem.line_no}: ")


def test_any_text_parses_without_raising(ruleset: Ruleset, options: dict[str, Any]) -> None:
    positions = _positions(ruleset, _key(options))

    @settings(QUICK, max_examples=100)
    @given(text=st.text(max_size=400), at=st.sampled_from(positions), seat=st.sampled_from(SEATS))
    def check(text: str, at: dict[str, Any], seat: str) -> None:
        _check_problems(ruleset.parse_orders(at, seat, text), text)

    check()


def test_nearly_right_orders_parse_and_resolve_without_raising(
    ruleset: Ruleset, options: dict[str, Any]
) -> None:
    positions = _positions(ruleset, _key(options))[:2]
    words = _words(ruleset, _key(options))
    accepted: list[int] = []

    @settings(QUICK, max_examples=120)
    @given(data=st.data(), at=st.sampled_from(positions))
    def check(data: st.DataObject, at: dict[str, Any]) -> None:
        seats = ruleset.seats_to_order(at)
        texts = {}
        for seat in seats:
            lines = ruleset.bot_orders(at, seat, data.draw(st.integers(0, 3))).splitlines()
            texts[seat] = data.draw(_order_text(lines, words), label=seat)
        parsed = {seat: ruleset.parse_orders(at, seat, texts[seat]) for seat in seats}
        for seat in seats:
            _check_problems(parsed[seat], texts[seat])
        accepted.append(sum(len(p.orders) for p in parsed.values()))
        resolution = ruleset.resolve(at, parsed, 99)
        for seat in seats:
            assert len(resolution.results.get(seat, [])) == len(parsed[seat].orders), seat

    check()
    # Guards the generator: texts that were all rejected would test resolve with nothing.
    assert sum(1 for count in accepted if count) > len(accepted) // 2, accepted


def test_every_bot_writes_only_orders_without_a_problem(
    ruleset: Ruleset, options: dict[str, Any]
) -> None:
    for seed in (1, 2, 3):
        for turn in played(ruleset, options, seed, max_turns=40):
            for seat, text in turn.order_texts.items():
                problems = ruleset.parse_orders(turn.state_before, seat, text).problems
                assert problems == [], (seat, text, [p.describe() for p in problems])
