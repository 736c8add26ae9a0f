"""The phone user's trap (the fresh-eyes finding 4): a new order typed above a quoted copy
of an earlier order mail, with no GAME line of its own. As documented (docs/players.md, "Text
before the GAME line is not read ... a template filled in inside the quoted report is found
and read when the mail has no GAME line of its own") the quoted orders are read and stored;
the reply says that the line above, which reads as an order, was not read."""

from __future__ import annotations

from datetime import datetime

from pbem.games.service import Service
from pbem.intake.intake import receive
from tests.support.games import body, new_game, orders
from tests.support.mails import mail

QUOTED = "> GAME g1 SEAT alice PASSWORD pw-alice\n> TURN 1\n> ADD 1\n"


def test_an_order_above_a_quoted_order_mail_is_said_to_be_unread(
    service: Service, now: datetime
) -> None:
    new_game(service, now)
    text = "ADD 2\n\nSent from my iPhone\n\n" + QUOTED
    receipt = receive(service, mail(text), now=now)
    assert receipt.status == "accepted"
    [stored] = orders(service)
    assert "ADD 1" in stored.text and "ADD 2" not in stored.text  # the documented rule
    text = body(receipt.replies[0])
    reply = " ".join(text.split())
    assert "orders read from the quoted text" in reply
    # The warning comes first, where a phone shows it, and says plainly what happened.
    assert text.startswith("WARNING: the lines you wrote above the quoted text were NOT read.")
    assert "Line 1 (ADD 2) reads as an order" in reply, reply
    assert "the quoted orders were stored as your orders for turn 1" in reply, reply
    assert "To send it instead, write your GAME line above it" in reply, reply
    assert "To send they" not in reply


def test_two_orders_above_a_quoted_order_mail_are_named_in_plain_words(
    service: Service, now: datetime
) -> None:
    new_game(service, now)
    receipt = receive(service, mail("ADD 2\nATTACK bob\n\n" + QUOTED), now=now)
    text = body(receipt.replies[0])
    reply = " ".join(text.split())
    assert text.startswith("WARNING:"), text
    assert "Lines 1, 2 (ADD 2; ATTACK bob) read as orders" in reply, reply
    assert "To send them instead, write your GAME line above them" in reply, reply
    assert max(len(line) for line in text.splitlines()) <= 72


def test_prose_above_a_quoted_order_mail_is_not_called_an_order(
    service: Service, now: datetime
) -> None:
    new_game(service, now)
    receipt = receive(service, mail("Here are my orders, see below.\n\n" + QUOTED), now=now)
    assert receipt.status == "accepted"
    reply = " ".join(body(receipt.replies[0]).split())
    assert "orders read from the quoted text" in reply
    assert "reads as an order" not in reply and "read as orders" not in reply
