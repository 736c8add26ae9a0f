"""What a check reply promises: nothing the moderator will not keep."""

from __future__ import annotations

from datetime import datetime

from pbem.pipeline.intake import receive
from pbem.pipeline.service import Service
from tests.support.games import body, new_game
from tests.support.mails import order_mail

PROMISE = "You may send new orders until the deadline"


def test_the_last_seat_is_not_promised_time_it_does_not_have(
    service: Service, now: datetime
) -> None:
    new_game(service, now)  # early processing: the turn resolves once every order is in
    first = receive(service, order_mail("g1", "alice", "pw-alice", "ADD 1\n"), now=now)
    assert PROMISE in body(first.replies[0])
    last = receive(
        service, order_mail("g1", "bob", "pw-bob", "ADD 2\n", message_id="m2@x"), now=now
    )
    text = body(last.replies[0])
    assert PROMISE not in text
    assert "so it is resolved now,\nbefore the deadline: these orders are the ones played" in text


def test_without_early_processing_the_promise_stands(service: Service, now: datetime) -> None:
    new_game(service, now, early_processing=False)
    receive(service, order_mail("g1", "alice", "pw-alice", "ADD 1\n"), now=now)
    last = receive(
        service, order_mail("g1", "bob", "pw-bob", "ADD 2\n", message_id="m2@x"), now=now
    )
    text = body(last.replies[0])
    assert "Every seat has sent orders for this turn." in text
    assert PROMISE in text
