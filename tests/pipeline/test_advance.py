"""Advance orders: orders for a later turn (TURN n, up to three beyond the pending one) are
held, not refused; when turn n opens they are checked against its position and the seat
gets the check reply it would have had sending them then."""

from __future__ import annotations

from datetime import datetime

from pbem.clock.turns import resolve_due
from pbem.games.service import Service
from pbem.intake.intake import Receipt, receive
from pbem.store import Outbox
from tests.support.games import body, new_game, orders, outbox
from tests.support.mails import order_mail


def _send(service: Service, now: datetime, seat: str, text: str, turn: int, n: int) -> Receipt:
    raw = order_mail(
        "g1",
        seat,
        f"pw-{seat}",
        text,
        turn=turn,
        message_id=f"{seat}-{turn}-{n}@x",
        sender=f"{seat}@example.org",
    )
    return receive(service, raw, now=now)


def _held_replies(service: Service) -> list[Outbox]:
    return [row for row in outbox(service, "reply") if "your held orders" in row.subject]


def test_orders_for_later_turns_are_held_then_checked_when_their_turn_opens(
    service: Service, now: datetime
) -> None:
    new_game(service, now)
    second = _send(service, now, "alice", "ADD 2", 2, 1)
    third = _send(service, now, "alice", "ADD 3\nADD 9", 3, 1)
    assert (second.status, second.outcome) == ("accepted", "orders held for alice, turn 2")
    reply = body(second.replies[0])
    assert reply.startswith(
        "Orders for alice in game g1 held for turn 2.\n\nThe pending turn is 1."
    )
    assert all(len(line) <= 72 for line in reply.splitlines())
    assert [(o.turn, o.seat, o.text) for o in orders(service)] == [
        (2, "alice", "ADD 2"),
        (3, "alice", "ADD 3\nADD 9"),
    ]
    # Turn 1 still waits for alice's turn-1 orders; nothing is checked yet.
    _send(service, now, "bob", "ADD 1", 1, 1)
    assert resolve_due(service, now=now) == []
    assert _held_replies(service) == []
    _send(service, now, "alice", "ADD 1", 1, 1)
    assert [s.turn for s in resolve_due(service, now=now)] == [1]
    # Turn 2 opened: alice's held orders are checked against it, in reply to their mail.
    [check] = _held_replies(service)
    assert check.recipient == "alice@example.org"
    text = body(check)
    assert text.startswith("Orders for alice in game g1, turn 2: all accepted.")
    assert "line 3: ADD 2" in text  # numbered as in the mail (TURN is line 2)
    assert "they were held until now" in " ".join(text.split())  # a note wrapped at 72
    assert "Still to send orders: bob" in text
    assert f"In-Reply-To: <{second.message_id}>" in check.raw.decode()
    # They are alice's orders for turn 2: only bob is waited for.
    _send(service, now, "bob", "ADD 1", 2, 1)
    assert [s.turn for s in resolve_due(service, now=now)] == [2]
    *_, check3 = _held_replies(service)
    assert body(check3).startswith("Orders for alice in game g1, turn 3: 1 accepted, 1 rejected.")
    assert third.status == "accepted"


def test_a_later_mail_for_a_held_turn_replaces_it(service: Service, now: datetime) -> None:
    new_game(service, now)
    _send(service, now, "alice", "ADD 2", 3, 1)
    again = _send(service, now, "alice", "ADD 1", 3, 2)
    assert "They replace the orders you sent earlier for turn 3." in body(again.replies[0])
    [row] = orders(service)
    assert (row.turn, row.text, row.version) == (3, "ADD 1", 2)


def test_too_far_ahead_or_past_turns_are_refused(service: Service, now: datetime) -> None:
    new_game(service, now)
    far = _send(service, now, "alice", "ADD 2", 5, 1)
    assert far.status == "quarantined"
    why = "these orders are for turn 5, but the pending turn is 1 (orders are held at most 3"
    assert why in " ".join(body(far.replies[0]).split())
    assert orders(service) == []
    _send(service, now, "alice", "ADD 2", 1, 1)
    _send(service, now, "bob", "ADD 2", 1, 1)
    resolve_due(service, now=now)
    past = _send(service, now, "alice", "ADD 2", 1, 2)
    assert past.status == "quarantined"
