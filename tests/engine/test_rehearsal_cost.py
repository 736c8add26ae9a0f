"""What the order check's rehearsals cost (engine.rehearsal): a rehearsal stops once no phase
to come can tell more of the seat's orders, a line decided before any die is rolled is not
rehearsed again with other dice, and the first rehearsal plays on the game the check loaded.
A toy ruleset of three phases, each spending coins, shows the first two."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from engine import get_ruleset, rehearsal
from engine.dice import Dice
from engine.kit import GameRuleset
from engine.playthrough import bot_game
from engine.problems import Problem, ProblemKind
from engine.recorder import Recorder
from engine.records import ParsedOrders
from engine.rehearsal import Phases, judge


@dataclass
class Board:
    coins: int
    roll_in: str = ""  # the phase in whose step a die is rolled, before the spending
    ran: list[str] = field(default_factory=list)  # the phases played, shared by the copies


@dataclass(frozen=True)
class Spend:
    line_no: int
    text: str
    amount: int


class At1(Spend): ...


class At2(Spend): ...


class At3(Spend): ...


KINDS: dict[str, type[Spend]] = {"1": At1, "2": At2, "3": At3}


def parse(board: Board, seat: str, text: str) -> ParsedOrders:
    """`SPEND n AT p` lines; a line spending more than the board has is refused."""
    parsed = ParsedOrders()
    for line_no, line in enumerate(text.splitlines(), start=1):
        _, amount, _, phase = line.split()
        if int(amount) > board.coins:
            parsed.problems.append(Problem(ProblemKind.ILLEGAL, line_no, line, "too few coins"))
        else:
            parsed.orders.append(KINDS[phase](line_no, line, int(amount)))
    return parsed


def rehearse(board: Board, seat: str, orders: list[Any], seed: int, rec: Recorder) -> Iterator[str]:
    for phase, kind in KINDS.items():
        yield phase
        board.ran.append(phase)
        if board.roll_in == phase:
            Dice(seed, 1, seat, "luck", rec.dice_rolled).d(6)
        for order in orders:
            if type(order) is kind and order.amount <= board.coins:
                board.coins -= order.amount
                rec.done(seat, order)
            elif type(order) is kind:
                rec.skipped(seat, order, "too few coins")


PHASES = Phases(rehearse, {kind: phase for phase, kind in KINDS.items()})


def counting_rehearsals(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """From now on, the rehearsals played are counted in the list's one item."""
    count = [0]
    real = rehearsal._rehearse

    def counted(*args: Any) -> Any:
        count[0] += 1
        return real(*args)

    monkeypatch.setattr(rehearsal, "_rehearse", counted)
    return count


def check(board: Board, text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[ParsedOrders, int]:
    """The verdicts on `text`, and how many rehearsals it took."""
    count = counting_rehearsals(monkeypatch)

    def copy() -> Board:
        return Board(board.coins, board.roll_in, board.ran)

    return judge(board, copy, "ann", text, parse, PHASES), count[0]


def test_a_rehearsal_stops_after_the_last_phase_an_order_needs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    board = Board(coins=5)
    parsed, rehearsals = check(board, "SPEND 1 AT 1\nSPEND 2 AT 2", monkeypatch)
    assert [o.line_no for o in parsed.orders] == [1, 2] and not parsed.notes
    assert (board.ran, rehearsals) == (["1", "2"], 1)  # phase 3 would tell nothing


def test_a_line_failing_before_any_die_is_rolled_is_rehearsed_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    board = Board(coins=3, roll_in="3")
    parsed, rehearsals = check(board, "SPEND 2 AT 1\nSPEND 2 AT 2", monkeypatch)
    assert parsed.notes == [(2, "as things stand it fails at phase 2: too few coins")]
    assert (board.ran, rehearsals) == (["1", "2"], 1)


def test_a_line_failing_after_a_die_is_rolled_is_rehearsed_with_other_dice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    board = Board(coins=3, roll_in="1")
    parsed, rehearsals = check(board, "SPEND 2 AT 1\nSPEND 2 AT 2", monkeypatch)
    assert parsed.notes == [(2, "as things stand it fails at phase 2: too few coins")]
    assert rehearsals == len(rehearsal.REHEARSAL_SEEDS)


def test_a_line_refused_until_a_die_is_rolled_is_rehearsed_with_other_dice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    board = Board(coins=1, roll_in="1")
    parsed, rehearsals = check(board, "SPEND 1 AT 1\nSPEND 2 AT 3", monkeypatch)
    assert [p.line_no for p in parsed.problems] == [2]
    assert rehearsals == len(rehearsal.REHEARSAL_SEEDS)


def test_the_first_rehearsal_plays_on_the_game_the_check_loaded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ruleset = get_ruleset("temples-and-swords")
    assert isinstance(ruleset, GameRuleset)
    turn = next(bot_game(ruleset.id, ["ann", "bob"], 7))
    loads = [0]
    real_load = GameRuleset.load

    def load(self: GameRuleset[Any], state: dict[str, Any]) -> Any:
        loads[0] += 1
        return real_load(self, state)

    monkeypatch.setattr(GameRuleset, "load", load)
    rehearsals = counting_rehearsals(monkeypatch)
    parsed = ruleset.parse_orders(turn.state_before, "ann", turn.order_texts["ann"])
    assert parsed.orders and rehearsals[0] >= 1
    assert loads[0] == rehearsals[0]  # one load for the first parse and rehearsal together


@pytest.mark.parametrize("ruleset_id", ["temples-and-swords", "tribes", "culture-and-conquest"])
def test_the_orders_a_turn_is_played_with_are_not_rehearsed_when_no_line_is_refused(
    ruleset_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Resolution reads the orders again (pbem's stored texts, the bot games): only the check
    reply shows the notes the rehearsals give, so with no line refused before the turn the
    orders are the ones read, and no rehearsal is needed."""
    ruleset = get_ruleset(ruleset_id)
    turns = list(bot_game(ruleset.id, ["ann", "bob", "cat"], 3, max_turns=6))
    mails = [
        (turn.state_before, seat, text) for turn in turns for seat, text in turn.order_texts.items()
    ]
    checked = [ruleset.parse_orders(*mail) for mail in mails]
    assert any(parsed.notes for parsed in checked)  # the check's rehearsals told something
    rehearsals = counting_rehearsals(monkeypatch)
    played = [ruleset.orders_to_play(*mail) for mail in mails]
    assert rehearsals[0] == 0
    assert [(p.orders, p.problems, p.ignored) for p in played] == [
        (p.orders, p.problems, p.ignored) for p in checked
    ]


RULESET_IDS = ["classical", "culture-and-conquest", "medieval-micromanager"]
RULESET_IDS += ["temples-and-swords", "tribes"]


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_seats_orders_read_on_one_load_are_each_seats_own(
    ruleset_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 45: the orders of every seat of a turn read on the position loaded once (each
    rehearsal on a board of its own) are the orders each seat's own reading gives: no parser
    changes the position it reads. With its own texts and each seat's written by another."""
    ruleset = get_ruleset(ruleset_id)
    turns = list(bot_game(ruleset.id, ["ann", "bob", "cat"], 5, max_turns=8))
    for turn in turns:
        texts = dict(turn.order_texts)
        seats = list(texts)
        swapped = {seat: texts[seats[i - 1]] for i, seat in enumerate(seats)}  # refused lines
        for given in (texts, swapped):
            own = {
                seat: ruleset.orders_to_play(turn.state_before, seat, given[seat]) for seat in given
            }
            assert ruleset.orders_to_play_of(turn.state_before, given) == own
    loads = [0]
    load = GameRuleset.load

    def counted(self: GameRuleset[Any], state: dict[str, Any]) -> Any:
        loads[0] += 1
        return load(self, state)

    monkeypatch.setattr(GameRuleset, "load", counted)
    ruleset.orders_to_play_of(turns[-1].state_before, turns[-1].order_texts)
    assert loads[0] == 1
