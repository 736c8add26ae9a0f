"""Missed turns: a seat without orders is played with no orders or its last orders, warned in
its report after each miss, and marked abandoned (the referees told) after N in a row."""

from __future__ import annotations

from sqlmodel import col, select

from pbem.cli import main
from pbem.games.games import awaited, pending_turn
from pbem.games.service import Service
from pbem.store import AuditLog, Game, loads, transaction
from pbem.store.work import work_of
from tests.clock.support import (
    DEADLINE,
    HOUR,
    SIGNATURE,
    clock_bodies,
    clock_game,
    clock_mail,
    orders,
    run,
    seat,
)
from tests.support.games import body, outbox, turns

TURN = 48 * HOUR


def _report(service: Service, seat_name: str, turn: int) -> str:
    subject = f"[g1] turn {turn} report"
    [row] = [
        r for r in outbox(service, "report") if r.subject == subject and seat_name in r.recipient
    ]
    return body(row)


def _warning(report: str) -> str:
    start = report.index("== No orders from you ==")
    return report[start : report.index("== What happened ==")]


def test_misses_are_counted_warned_and_abandon_the_seat(service: Service) -> None:
    clock_game(service, abandon_after=2, referees=["ref@example.org"])
    orders(service, "alice", "ADD 1", DEADLINE - HOUR)
    run(service, DEADLINE)
    assert (seat(service, "bob").missed, seat(service, "bob").status) == (1, "active")
    assert _warning(_report(service, "bob", 1)) == (
        "== No orders from you ==\n"
        "We had no orders from you for turn 1: 1 turn in a row.\n"
        "Your seat was played with no orders (your standing orders only).\n"
        "After 2 turns in a row without orders a seat is marked\n"
        "abandoned and the referee is told.\n\n"
    )
    assert "No orders from you" not in _report(service, "alice", 1)
    orders(service, "alice", "ADD 1", DEADLINE + HOUR)
    run(service, DEADLINE + TURN)
    bob = seat(service, "bob")
    assert (bob.missed, bob.status) == (2, "abandoned")
    assert "Your seat is now marked abandoned, and the referee has been told.\n" in _report(
        service, "bob", 2
    )
    assert clock_mail(service) == [("ref@example.org", "[g1] seat bob abandoned")]
    assert clock_bodies(service) == [
        "Seat bob (bob@example.org) in game g1 sent no orders for 2 turns in a\n"
        "row, up to turn 2, and is now marked abandoned.\n\n"
        "Its turns go on being played without new orders. It gets no more\n"
        "reminders. You may find a new player for the seat.\n" + SIGNATURE
    ]
    first, second, _ = turns(service)
    assert loads(first.nmr) == {
        "bob": {
            "missed": 1,
            "absent": False,
            "abandoned": False,
            "newly_abandoned": False,
            "played": "no-orders",
        }
    }
    assert loads(second.nmr)["bob"]["newly_abandoned"] is True
    with transaction(service.db) as session:
        query = select(AuditLog).where(AuditLog.action == "seat-abandoned")
        [entry] = session.exec(query.order_by(col(AuditLog.id)))
    assert (entry.actor, entry.detail) == (
        "clock",
        "bob after 2 turns in a row without orders (turn 2)",
    )


def test_one_missed_turn_is_written_in_the_singular(service: Service) -> None:
    """Issue 43, point 14: plurals; a seat abandoned after one miss "sent no orders for 1
    turns in a row"."""
    clock_game(service, abandon_after=1, referees=["ref@example.org"])
    orders(service, "alice", "ADD 1", DEADLINE - HOUR)
    run(service, DEADLINE)
    [letter] = clock_bodies(service)
    assert " ".join(letter.split()).startswith(
        "Seat bob (bob@example.org) in game g1 sent no orders for 1 turn in a row,"
    )
    with transaction(service.db) as session:
        query = select(AuditLog).where(AuditLog.action == "seat-abandoned")
        [entry] = session.exec(query)
    assert entry.detail == "bob after 1 turn in a row without orders (turn 1)"


def test_orders_reset_the_count(service: Service) -> None:
    clock_game(service, abandon_after=2)
    run(service, DEADLINE)
    assert seat(service, "alice").missed == 1
    orders(service, "alice", "ADD 1", DEADLINE + HOUR)
    run(service, DEADLINE + TURN)
    assert (seat(service, "alice").missed, seat(service, "bob").missed) == (0, 2)
    assert seat(service, "alice").status == "active"


def test_an_abandoned_seat_is_not_waited_for_nor_reminded(service: Service) -> None:
    clock_game(service, abandon_after=1, reminders="2h")
    orders(service, "alice", "ADD 1", DEADLINE - 3 * HOUR)
    run(service, DEADLINE)  # bob: abandoned after one miss
    assert seat(service, "bob").status == "abandoned"
    run(service, DEADLINE + TURN - HOUR)  # turn 2: only alice is reminded
    assert [to for to, _ in clock_mail(service)] == ["alice@example.org"]
    with transaction(service.db) as session:  # nor listed as "still to send orders"
        game = session.get(Game, "g1")
        assert game is not None
        pending = pending_turn(work_of(session), game)
        assert pending is not None
        assert awaited(work_of(session), game, pending, now=DEADLINE + TURN).waiting == ["alice"]
    orders(service, "alice", "ADD 1", DEADLINE + TURN - HOUR)
    [turn] = run(service, DEADLINE + TURN - HOUR).turns  # early: all active seats are in
    assert (turn.turn, turn.orders) == (2, 1)
    assert seat(service, "bob").missed == 1  # abandoned seats no longer count


def test_standing_plays_the_seats_last_orders_again(service: Service) -> None:
    clock_game(service, nmr="standing")
    orders(service, "alice", "ADD 1", DEADLINE - HOUR)
    orders(service, "bob", "ADD 3\nATTACK alice", DEADLINE - HOUR)
    run(service, DEADLINE - HOUR)
    orders(service, "alice", "ADD 2", DEADLINE)
    run(service, DEADLINE + TURN - HOUR)
    second = turns(service)[1]
    results = loads(second.record or "{}")["results"]
    assert [(r["order"], r["status"]) for r in results["bob"]] == [
        ("ADD 3", "done"),
        ("ATTACK alice", "done"),
    ]
    assert loads(second.nmr)["bob"]["played"] == "standing"
    assert "Your seat was played with your last orders again.\n" in _report(service, "bob", 2)


def test_standing_without_earlier_orders_plays_no_orders(service: Service) -> None:
    clock_game(service, nmr="standing")
    run(service, DEADLINE)
    first = turns(service)[0]
    assert loads(first.record or "{}")["results"]["bob"] == []
    assert loads(first.nmr)["bob"]["played"] == "no-orders"


def test_standing_never_plays_a_former_players_orders_for_a_new_player(
    service: Service,
) -> None:
    """A seat a referee gave to a new player (REPLACE): its orders of the turns before were its
    former player's, and the new player did not write them; a turn without the new player's
    orders is played as a seat with no earlier orders is (no orders), not with them."""
    clock_game(service, nmr="standing")
    orders(service, "alice", "ADD 1", DEADLINE - HOUR)
    orders(service, "bob", "ADD 3\nATTACK alice", DEADLINE - HOUR)
    run(service, DEADLINE - HOUR)
    url = service.db.url.render_as_string(hide_password=False)
    argv = ["--db", url, "--now", DEADLINE.isoformat(), "referee", "g1", "replace", "bob"]
    assert main([*argv, "carol@example.org", "--reason", "bob left"]) == 0
    orders(service, "alice", "ADD 2", DEADLINE)
    run(service, DEADLINE + TURN + HOUR)  # the grace of the replace, 48h, is over
    second = turns(service)[1]
    assert loads(second.record or "{}")["results"]["bob"] == []
    assert loads(second.nmr)["bob"]["played"] == "no-orders"
