"""Orders on file for a seat whose own orders the turn does not play (civil disorder): STATUS
does not count them in, and a new player given the seat by REPLACE does not play them
unawares: they are deleted, and the welcome says so."""

from __future__ import annotations

from datetime import datetime

from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.store import loads
from tests.referee.support import Channel, referee_audit, referee_game, referee_mail
from tests.support.games import body, orders, outbox
from tests.support.mails import mail, order_mail


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_status_does_not_count_in_the_orders_of_a_seat_in_disorder(
    service: Service, now: datetime, via: Channel
) -> None:
    referee_game(service, now)
    assert receive(service, order_mail("g1", "bob", "pw-bob", "ADD 1\n"), now=now).status == (
        "accepted"
    )
    via.run("disorder", "bob", reason="gone")
    receipt = receive(service, mail("STATUS g1", message_id="s@x", sender="x@y.example"), now=now)
    text = body(receipt.replies[0])
    assert "Orders in from: nobody yet\n" in text
    assert "Still to send orders: alice\n" in text


def test_a_new_player_of_a_seat_in_disorder_starts_with_no_orders_on_file(
    service: Service, now: datetime, via: Channel
) -> None:
    """bob sent orders for turn 1 and ahead for turn 2, then went into civil disorder; carol
    takes the seat: both are deleted, the result and carol's welcome say so, and the turn
    waits for her (alice's orders alone do not resolve it)."""
    referee_game(service, now)
    receive(service, order_mail("g1", "bob", "pw-bob", "ADD 3\n", message_id="b1@x"), now=now)
    ahead = order_mail("g1", "bob", "pw-bob", "TURN 2\nADD 2\n", message_id="b2@x")
    assert receive(service, ahead, now=now).status == "accepted"
    assert sorted(row.turn for row in orders(service) if row.seat == "bob") == [1, 2]
    via.run("disorder", "bob", reason="gone")
    result = via.run("replace", "bob", "carol@example.org", reason="a new player")
    assert result.endswith("; the orders on file for turns 1, 2 were cleared")
    assert [row for row in orders(service) if row.seat == "bob"] == []
    change = loads(referee_audit(service)[-1].detail)["changes"][0]
    assert change["before"]["orders"] == {"1": "ADD 3", "2": "ADD 2"}  # kept in the audit
    [welcome] = [row for row in outbox(service) if row.recipient == "carol@example.org"]
    assert (
        "The orders the seat's former player had on file (for turns 1, 2) were deleted: your "
        "seat plays only the orders you send, and the turn waits for yours."
    ) in _flat(body(welcome))
    receive(service, order_mail("g1", "alice", "pw-alice", "ADD 1\n", message_id="a@x"), now=now)
    status = receive(service, mail("STATUS g1", message_id="s@x", sender="x@y.example"), now=now)
    assert "Still to send orders: bob\n" in body(status.replies[0])


def test_a_new_player_of_a_seat_without_orders_reads_that_none_are_on_file(
    service: Service, now: datetime, via: Channel
) -> None:
    referee_game(service, now)
    result = via.run("replace", "bob", "carol@example.org", reason="a new player")
    assert "cleared" not in result
    [welcome] = [row for row in outbox(service) if row.recipient == "carol@example.org"]
    assert "No orders are on file for your seat: it plays only the orders you send" in _flat(
        body(welcome)
    )


def test_orders_a_referee_stores_after_the_replace_in_the_same_mail_are_in_the_welcome(
    service: Service, now: datetime
) -> None:
    referee_game(service, now)
    lines = "REASON a new player\nREPLACE bob carol@example.org\nORDERS bob ADD 2\n"
    receive(service, referee_mail(lines), now=now)
    [welcome] = [row for row in outbox(service) if row.recipient == "carol@example.org"]
    text = body(welcome)
    assert "A referee stored orders for your seat for turn 1; it plays them unless you send" in (
        _flat(text)
    )
    assert "\n\n    ADD 2\n\n" in text and "No orders are on file" not in text


def test_no_orders_a_referee_stores_after_the_replace_are_in_the_welcome(
    service: Service, now: datetime
) -> None:
    # NO ORDERS stored: the seat is in with no orders; the welcome must not say the turn
    # waits for the new player's orders.
    referee_game(service, now)
    lines = "REASON a new player\nREPLACE bob carol@example.org\nORDERS bob NO ORDERS\n"
    receive(service, referee_mail(lines), now=now)
    [welcome] = [row for row in outbox(service) if row.recipient == "carol@example.org"]
    text = _flat(body(welcome))
    assert "No orders are on file" not in text, text
    assert "A referee stored NO ORDERS for your seat for turn 1" in text, text
