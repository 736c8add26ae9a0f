"""Orders on behalf of a seat, and deleting a seat's orders, by command line and by mail."""

from __future__ import annotations

from datetime import datetime

from pbem.clock.turns import resolve_turn
from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.store import loads
from tests.referee.support import REFEREE, Channel, referee_audit, referee_game, referee_mail
from tests.support.games import body, orders, outbox
from tests.support.mails import order_mail


def test_orders_on_behalf_of_a_seat(service: Service, now: datetime, via: Channel) -> None:
    referee_game(service, now)
    result = via.run("orders", "alice", "ADD 2;", "ATTACK", "bob", reason="her mail bounced")
    assert result == "orders stored for alice, turn 1 (2 lines)"
    [row] = orders(service)
    assert (row.seat, row.turn, row.text, row.version) == ("alice", 1, "ADD 2\nATTACK bob", 1)
    assert loads(row.line_map) == [1, 2]
    [entry] = referee_audit(service)
    assert (entry.action, entry.game_id) == ("referee-orders", "g1")
    assert entry.actor == ("cli" if via.way == "cli" else REFEREE)
    detail = loads(entry.detail)
    assert detail["reason"] == "her mail bounced"
    assert detail["changes"] == [
        {
            "effect": "the referee entered orders for alice for turn 1",
            "before": None,
            "after": "ADD 2\nATTACK bob",
        }
    ]


def test_orders_the_engine_rejects_are_refused_whole(
    service: Service, now: datetime, via: Channel
) -> None:
    referee_game(service, now)
    why = via.refuse("orders", "alice", "ADD 9")
    assert why == (
        "the orders have problems, nothing stored: line 1: cannot add 9 points "
        "(rule: Rule 2: a seat adds 1, 2 or 3 points a turn.)"
    )
    assert orders(service) == []
    assert referee_audit(service) == []


def test_orders_replace_the_seats_own(service: Service, now: datetime, via: Channel) -> None:
    referee_game(service, now)
    receive(service, order_mail("g1", "alice", "pw-alice", "ADD 1\n"), now=now)
    via.run("orders", "alice", "ADD 3")
    [row] = orders(service)
    assert (row.text, row.version) == ("ADD 3", 2)
    assert loads(referee_audit(service)[0].detail)["changes"][0]["before"] == "ADD 1"


def test_orders_by_mail_as_a_block(service: Service, now: datetime) -> None:
    referee_game(service, now)
    raw = referee_mail("ORDERS bob BECAUSE he phoned them in\nADD 3\nATTACK alice\nEND ORDERS\n")
    receipt = receive(service, raw, now=now)
    assert receipt.status == "answered"
    [row] = orders(service)
    assert (row.seat, row.text) == ("bob", "ADD 3\nATTACK alice")


def test_delete_orders(service: Service, now: datetime, via: Channel) -> None:
    referee_game(service, now)
    receive(service, order_mail("g1", "bob", "pw-bob", "ADD 3\n"), now=now)
    assert via.run("delete-orders", "bob", reason="sent by mistake") == (
        "orders of bob for turn 1 deleted"
    )
    assert orders(service) == []
    detail = loads(referee_audit(service)[0].detail)
    assert detail["changes"][0]["before"] == "ADD 3"
    assert detail["changes"][0]["after"] is None
    assert via.refuse("delete-orders", "bob") == "bob has no orders stored for turn 1"


def test_the_next_report_tells_the_players(service: Service, now: datetime, via: Channel) -> None:
    referee_game(service, now)
    via.run("orders", "alice", "ADD 2", reason="her mail bounced")
    receive(service, order_mail("g1", "bob", "pw-bob", "ADD 3\n"), now=now)
    with service.store.transaction() as work:
        resolve_turn(work, service.settings, "g1", now=now)
    report = body(outbox(service, "report")[-1])
    assert "== Referee notes ==\n" in report
    assert (
        "the referee entered orders for alice for turn 1. Why: her mail bounced\n\n"
        "== Orders for turn 2 ==" in report
    )


def test_a_block_without_its_end_line_is_unprocessed(service: Service, now: datetime) -> None:
    referee_game(service, now)
    raw = referee_mail("ORDERS bob BECAUSE he phoned them in\nADD 3\n")
    reply = body(receive(service, raw, now=now).replies[0])
    assert reply.split("Unprocessed:\n", 1)[1].startswith(
        "> line 2: ORDERS bob BECAUSE he phoned them in\n"
        "no END ORDERS line after it\n"
        "> line 3: ADD 3\n"
        "there is no referee command ADD\n"
    )
    assert orders(service) == []


def test_no_orders_for_a_seat_is_stored_as_a_players_no_orders_is(
    service: Service, now: datetime, via: Channel
) -> None:
    """NO ORDERS, which a player's mail may say, said by a referee for the seat: the seat is
    in, with an empty order text that the turn plays as no orders (pbem.games.counted)."""
    referee_game(service, now)
    result = via.run("orders", "bob", "no", "orders.", reason="bob said so by phone")
    assert result == (
        "NO ORDERS stored for bob, turn 1: the seat is in and plays the turn with no orders "
        "(its standing orders only)"
    )
    [row] = orders(service)
    assert (row.seat, row.text, loads(row.line_map)) == ("bob", "", [])
    receive(service, order_mail("g1", "alice", "pw-alice", "ADD 1\n", message_id="a@x"), now=now)
    with service.store.transaction() as work:
        summary = resolve_turn(work, service.settings, "g1", now=now)
    assert summary is not None and summary.turn == 1
    assert via.run("orders", "bob", "TURN", "2", "ADD 1;", "NO ORDERS", reason="both") == (
        "orders stored for bob, turn 2 (1 line); NO ORDERS passed over: the accepted orders count"
    )


def _told(service: Service, seat: str) -> list[str]:
    return [
        body(row)
        for row in outbox(service)
        if row.recipient == f"{seat}@example.org" and "orders entered" in row.subject
    ]


def test_orders_entered_for_a_seat_are_mailed_to_its_player(
    service: Service, now: datetime, via: Channel
) -> None:
    # Every change that affects a player is mailed to them at once: the orders the turn
    # will play for their seat, and that a mail of their own replaces them.
    referee_game(service, now)
    receive(service, order_mail("g1", "alice", "pw-alice", "ADD 1\n"), now=now)
    via.run("orders", "alice", "ADD 3;", "ATTACK", "bob", reason="her mail bounced")
    [text] = _told(service, "alice")
    flat = " ".join(text.split())
    assert "entered these orders for your seat alice, turn 1" in flat, flat
    assert "  ADD 3\n  ATTACK bob\n" in text, text
    assert "Reason: her mail bounced" in flat
    assert "They replace the orders on file for turn 1" in flat, flat
    assert "Orders for turn 1 are due by 2026-03-03" in flat, flat
    assert max(len(line) for line in text.splitlines()) <= 72
    assert _told(service, "bob") == []


def test_no_orders_entered_for_a_seat_are_mailed_to_its_player(
    service: Service, now: datetime, via: Channel
) -> None:
    referee_game(service, now)
    via.run("orders", "bob", "NO ORDERS")
    [text] = _told(service, "bob")
    flat = " ".join(text.split())
    assert "entered NO ORDERS for your seat bob, turn 1" in flat, flat
    assert "plays the turn with no orders (its standing orders only)" in flat, flat


def test_a_referees_misspelt_command_gets_a_did_you_mean(service: Service, now: datetime) -> None:
    # As a player's misspelt command does (pbem.intake.commands): the referee sees the fix.
    referee_game(service, now)
    reply = body(receive(service, referee_mail("DISORDR bob BECAUSE gone\n"), now=now).replies[0])
    assert "there is no referee command DISORDR; did you mean DISORDER?" in reply, reply
