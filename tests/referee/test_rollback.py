"""Roll back to the start of turn N (later turns kept as an archived branch, never deleted) and
rerun with corrected orders: turns whose inputs did not change come out identical, dice
included, and a corrected seat leaves every other seat's dice and results as they were."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from sqlmodel import col, select

from engine import get_ruleset
from pbem.clock.turns import resolve_due
from pbem.deadlines.options import ClockOptions
from pbem.games.lifecycle import SeatSpec
from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.store import ArchivedOrderSet, ArchivedTurn, loads, transaction
from tests.clock.support import DEADLINE, HOUR, SIGNATURE
from tests.clock.support import orders as mail_orders
from tests.clock.support import run as run_clock
from tests.clock.support import seat as seat_row
from tests.conftest import NOW
from tests.referee.support import REFEREE, Channel, referee_game
from tests.support.games import body, game_row, orders, outbox, turns
from tests.support.mails import order_mail

SEATS = tuple(
    SeatSpec(name, f"{name}@example.org", f"pw-{name}") for name in ("ann", "bob", "cat", "dan")
)


def _play(service: Service, now: datetime, count: int) -> None:
    """`count` turns of bot orders, each mailed in by its seat and resolved when all are in."""
    game = game_row(service)
    ruleset = get_ruleset(game.ruleset)
    for _ in range(count):
        turn = turns(service)[-1]
        state = loads(turn.state_before)
        for seat in ruleset.seats_to_order(state):
            text = ruleset.bot_orders(state, seat, game.seed)
            raw = order_mail("g1", seat, f"pw-{seat}", text, message_id=f"{seat}{turn.number}@x")
            assert receive(service, raw, now=now).status == "accepted"
        assert [s.turn for s in resolve_due(service, now=now)] == [turn.number]


def _archive(service: Service) -> tuple[list[ArchivedTurn], list[ArchivedOrderSet]]:
    with transaction(service.db) as session:
        kept = session.exec(select(ArchivedTurn).order_by(col(ArchivedTurn.id))).all()
        sets = session.exec(select(ArchivedOrderSet).order_by(col(ArchivedOrderSet.id))).all()
        return list(kept), list(sets)


def _by_seat(record: str | None, seat: str) -> tuple[list[Any], list[Any]]:
    """A seat's dice-bearing events (code and dice) and its order results in a turn record."""
    data = loads(record or "{}")
    dice = [(e["code"], e["dice"]) for e in data["events"] if e["seat"] == seat and e["dice"]]
    return dice, data["results"].get(seat, [])


def test_rollback_and_rerun_unchanged_gives_identical_turns(
    service: Service, now: datetime, via: Channel
) -> None:
    referee_game(service, now, ruleset="tns", seats=SEATS, seed=3)
    _play(service, now, 4)
    played = {t.number: (t.state_before, t.state_after, t.record) for t in turns(service)}
    reports = len(outbox(service, "report"))
    assert via.run("rollback", "2", reason="a disputed turn") == (
        "rolled back to the start of turn 2; turns 2 to 4 as played are kept as branch 1; "
        "the game is paused: correct orders, then rerun"
    )
    assert [t.number for t in turns(service)] == [1, 2]
    assert turns(service)[1].state_after is None
    assert (game_row(service).turn, game_row(service).status) == (2, "paused")
    kept, sets = _archive(service)
    assert [(t.branch, t.number) for t in kept] == [(1, 2), (1, 3), (1, 4), (1, 5)]
    assert len(sets) == 12  # 4 seats x turns 2, 3, 4
    assert {row.turn for row in orders(service)} == {1, 2}
    assert via.run("rerun", reason="replay it") == (
        "turn 2: identical to branch turn 3: identical to branch turn 4: identical to branch "
        "pending turn 5; the game is running"
    )
    again = {t.number: (t.state_before, t.state_after, t.record) for t in turns(service)}
    assert again == played  # byte for byte, dice included
    assert len(_archive(service)[0]) == 4  # the branch stays
    # The rerun turns' reports went out again, with new Message-IDs, to all four seats.
    assert len(outbox(service, "report")) == reports + 3 * 4


def test_rollback_three_turns_with_one_seat_corrected(
    service: Service, now: datetime, via: Channel
) -> None:
    """Turn 2 of ann corrected (no TECH): bob's, cat's and dan's dice and results in turns
    2, 3 and 4 are exactly as first played; ann's own tech rolls are gone."""
    referee_game(service, now, ruleset="tns", seats=SEATS, seed=3)
    _play(service, now, 4)
    first = {t.number: t.record for t in turns(service) if t.record}
    via.run("rollback", "2")
    [ann] = [row for row in orders(service) if (row.seat, row.turn) == ("ann", 2)]
    corrected = [line for line in ann.text.splitlines() if not line.startswith("TECH")]
    assert corrected != ann.text.splitlines()
    via.run("orders", "ann", "; ".join(corrected), reason="her TECH line was a typo")
    assert via.run("rerun") == (
        "turn 2: changed turn 3: changed turn 4: changed pending turn 5; the game is running"
    )
    second = {t.number: t.record for t in turns(service) if t.record}
    for number in (2, 3, 4):
        for seat in ("bob", "cat", "dan"):
            dice, results = _by_seat(second[number], seat)
            assert (dice, results) == _by_seat(first[number], seat), (number, seat)
            assert dice  # they did roll
    assert [c for c, _ in _by_seat(first[2], "ann")[0]].count("tech") == 1
    assert [c for c, _ in _by_seat(second[2], "ann")[0]].count("tech") == 0


def test_rollback_needs_a_turn_and_rerun_a_branch(
    service: Service, now: datetime, via: Channel
) -> None:
    referee_game(service, now)
    assert via.refuse("rollback", "7") == "game g1 has no turn 7"
    assert via.refuse("rerun") == "game g1 has no rolled-back turns to rerun"


def test_a_rerun_makes_the_referees_edits_again(
    service: Service, now: datetime, via: Channel
) -> None:
    """An edit is an input of its turn: after a rollback before it, the rerun applies it
    again, and the rerun's report tells of the rollback."""
    referee_game(service, now)
    _play_counting_turn(service, now, 1)
    via.run("edit", "score.bob", "5", reason="a lost bonus")
    via.run("rollback", "1", reason="alice's orders were misread")
    via.run("rerun", reason="with the right orders")
    [_, second] = turns(service)
    assert loads(second.state_before)["score"]["bob"] == 5
    report = body(outbox(service, "report")[-2])  # alice's report of turn 1, again
    assert "\nGame g1 (Counting (a test ruleset)), report of turn 1 for alice\n" in report
    assert (
        "the game was rolled back to the start of turn 1; turn 1 as played is\n"
        "    kept as branch 1. Why: alice's orders were misread\n"
    ) in report


def test_an_ended_game_rolls_back_and_plays_on(
    service: Service, now: datetime, via: Channel
) -> None:
    referee_game(service, now, options={"target": 6})
    _play_counting_turn(service, now, 1, alice="ADD 3")
    _play_counting_turn(service, now, 2, alice="ADD 3")
    assert (game_row(service).status, loads(game_row(service).result)["winners"]) == (
        "ended",
        ["alice"],
    )
    via.run("rollback", "2", reason="alice's second ADD 3 was a typo for ADD 1")
    assert (game_row(service).status, game_row(service).result) == ("paused", "")
    via.run("orders", "alice", "ADD 1")
    via.run("orders", "bob", "TURN", "3", "ADD 2", reason="bob's orders for turn 3, by phone")
    assert via.run("rerun") == "turn 2: changed pending turn 3; the game is running"
    assert [row.text for row in orders(service) if row.turn == 3] == ["ADD 2"]


def _play_counting_turn(service: Service, now: datetime, number: int, alice: str = "ADD 1") -> None:
    for seat, text in (("alice", alice), ("bob", "ADD 1")):
        raw = order_mail("g1", seat, f"pw-{seat}", text, message_id=f"{seat}{number}@x")
        receive(service, raw, now=now)
    assert [s.turn for s in resolve_due(service, now=now)] == [number]


def test_a_rollback_gives_back_the_missed_turns_it_undoes(
    service: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    """bob misses turns 1 and 2 and is abandoned (abandon after 2). Rolled back to the start
    of turn 2, he stands as when turn 2 opened: one miss, active; the rerun counts turn 2's
    miss once more, not twice."""
    referee_game(service, NOW, clock=ClockOptions(abandon_after=2))
    mail_orders(service, "alice", "ADD 1", DEADLINE - HOUR)
    run_clock(service, DEADLINE)
    mail_orders(service, "alice", "ADD 1", DEADLINE + HOUR)
    run_clock(service, DEADLINE + 48 * HOUR)
    assert (seat_row(service, "bob").missed, seat_row(service, "bob").status) == (2, "abandoned")
    later = Channel("cli", service, DEADLINE + 49 * HOUR, capsys)
    later.run("rollback", "2")
    assert (seat_row(service, "bob").missed, seat_row(service, "bob").status) == (1, "active")
    later.run("rerun")
    assert (seat_row(service, "bob").missed, seat_row(service, "bob").status) == (2, "abandoned")


def test_a_rerun_tells_seats_whose_stored_orders_face_a_new_position(
    service: Service, now: datetime, via: Channel
) -> None:
    """Rollback and rerun in one go: every seat hears the game runs again (not only that it
    was paused), and bob, whose orders for the pending turn were written for a position the
    corrected rerun changed, is told so, as is the referee."""
    referee_game(service, now, ruleset="tns", seats=SEATS, seed=3)
    _play(service, now, 2)
    pending = turns(service)[-1]
    text = get_ruleset("tns").bot_orders(loads(pending.state_before), "bob", 3)
    raw = order_mail("g1", "bob", "pw-bob", text, message_id="bob-early@x")
    assert receive(service, raw, now=now).status == "accepted"
    via.run("rollback", "2")
    [ann] = [row for row in orders(service) if (row.seat, row.turn) == ("ann", 2)]
    corrected = [line for line in ann.text.splitlines() if not line.startswith("TECH")]
    via.run("orders", "ann", "; ".join(corrected), reason="her TECH line was a typo")
    assert via.run("rerun") == (
        "turn 2: changed turn 3: the stored orders of bob are now checked against a "
        "different position (their seats were told) pending turn 3; the game is running"
    )
    subjects = [(row.recipient, row.subject) for row in outbox(service)]
    resumed = [to for to, subject in subjects if subject == "[g1] game resumed"]
    assert sorted(resumed) == [f"{seat.name}@example.org" for seat in SEATS]
    told = [to for to, subject in subjects if subject == "[g1] turn 3: check your orders"]
    assert told == ["bob@example.org"]
    assert ("bob", 3) in [(row.seat, row.turn) for row in orders(service)]


def test_a_forced_turn_played_again_is_forced_again(
    service: Service, now: datetime, via: Channel
) -> None:
    """Processed before its deadline without bob's orders, turn 1 charged bob nothing; rolled
    back and rerun, it still charges nothing."""
    referee_game(service, now)
    receive(service, order_mail("g1", "alice", "pw-alice", "ADD 1"), now=now)
    via.run("process", reason="bob is away all week")
    via.run("rollback", "1", reason="a bonus was lost")
    via.run("rerun", reason="with the bonus")
    assert seat_row(service, "bob").missed == 0
    assert "It does not count as a missed turn." in body(outbox(service, "report")[-1])


ROLLED_BACK = """\
The referee of game g1 (Counting (a test ruleset)) has rolled the game
back to the start of turn 2.

Undone: turn 2 as played. Your report of it no longer stands.
Why: alice's orders were misread

Played again: turn 2, when the referee reruns the game with the
corrections. The game is paused until then. You will get a new report of
turn 2, which replaces the one you had, and then the deadline of the
turn that comes next.

If the referee resumes the game instead, turn 2 is open for orders again
until its deadline, 2d after the game resumes.
"""


def test_a_rollback_tells_every_seat_what_was_undone_why_and_what_comes_next(
    service: Service, now: datetime, via: Channel
) -> None:
    """Turn 3 pending, never played: rolled back to turn 2, only turn 2 as played is undone,
    and every player hears which turn, why, and when it is played again; the rerun's reports
    say they replace the earlier ones."""
    referee_game(service, now)
    _play_counting_turn(service, now, 1)
    _play_counting_turn(service, now, 2)
    before = len(outbox(service))
    assert via.run("rollback", "2", reason="alice's orders were misread") == (
        "rolled back to the start of turn 2; turn 2 as played is kept as branch 1; "
        "the game is paused: correct orders, then rerun"
    )
    told = [row for row in outbox(service)[before:] if row.recipient != REFEREE]
    assert [(row.recipient, row.subject) for row in told] == [
        ("alice@example.org", "[g1] turn 2 rolled back"),
        ("bob@example.org", "[g1] turn 2 rolled back"),
    ]
    assert body(told[0]) == ROLLED_BACK + SIGNATURE
    via.run("rerun", reason="with alice's orders read right")
    again = [row for row in outbox(service, "report") if row.subject.startswith("[g1] turn 2")]
    assert [row.subject for row in again] == ["[g1] turn 2 report"] * 2 + [
        "[g1] turn 2 report (replaces the earlier report)"
    ] * 2
    assert body(again[-1]).startswith(
        "This report replaces your earlier report of turn 2: the referee rolled\n"
        "the game back and turn 2 was played again.\n"
        "Game g1 (Counting (a test ruleset)), report of turn 2 for bob\n"
    )
    # Turn 3 was pending at the rollback, never played: its first report replaces nothing.
    _play_counting_turn(service, now, 3)
    third = [row for row in outbox(service, "report") if row.subject.startswith("[g1] turn 3")]
    assert [row.subject for row in third] == ["[g1] turn 3 report"] * 2
    assert "replaces" not in body(third[0])


def test_a_rollback_while_paused_gives_the_reopened_turn_its_whole_time(
    service: Service, now: datetime, capsys: pytest.CaptureFixture[str]
) -> None:
    """Paused with ten hours left of turn 3, rolled back to turn 2: resumed, turn 2 has the
    two days its rollback mail promised, not the ten hours turn 3 had."""
    referee_game(service, now)
    _play_counting_turn(service, now, 1)
    _play_counting_turn(service, now, 2)
    later = Channel("cli", service, now + 38 * HOUR, capsys)
    later.run("pause")
    later.run("rollback", "2")
    later.run("resume")
    assert turns(service)[-1].deadline == now + 38 * HOUR + 48 * HOUR
