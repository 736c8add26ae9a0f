"""Press (issue 19): seats write to each other through the moderator by seat name; a plain
reply goes back the same way; press is never read as orders; the game's options and each
seat's mutes decide who gets what; no address is ever shown to another player."""

from __future__ import annotations

from datetime import datetime

from pbem.games.lifecycle import PressOptions, SeatSpec
from pbem.games.outbox import as_message
from pbem.games.service import Service
from pbem.intake.intake import Receipt, receive
from pbem.store import Game, Outbox, transaction
from tests.support.games import body, new_game, orders, outbox
from tests.support.mails import mail, order_mail

SEATS = tuple(SeatSpec(n, f"{n}@example.org", f"pw-{n}") for n in ("alice", "bob", "cy"))


def _game(service: Service, now: datetime, **press: bool) -> None:
    new_game(service, now, seats=SEATS, referees=["ref@example.org"], press=PressOptions(**press))


def _press(
    service: Service, now: datetime, lines: str, *, seat: str = "alice", n: int = 1
) -> Receipt:
    raw = order_mail("g1", seat, f"pw-{seat}", lines, sender=f"{seat}@example.org",
                     message_id=f"p{n}.{seat}@x")  # fmt: skip
    return receive(service, raw, now=now)


def _relayed(service: Service, to: str) -> list[Outbox]:
    return [row for row in outbox(service, "press") if row.recipient == to]


def _flat(row: Outbox) -> str:
    return " ".join(body(row).split())


def test_press_goes_to_the_seats_named_by_name_only(service: Service, now: datetime) -> None:
    _game(service, now)
    receipt = _press(service, now, "PRESS TO bob\nShall we share the river?\nEND PRESS")
    assert receipt.status == "answered"
    [to_bob] = _relayed(service, "bob@example.org")
    assert to_bob.subject == "[g1] press from alice"
    text = body(to_bob)
    assert "Press in game g1 from alice (to bob):" in text and "Shall we share the river?" in text
    assert "alice@example.org" not in text
    message = as_message(to_bob.raw)
    assert message["From"].addresses[0].addr_spec == "moderator@pbem.localhost"
    assert _relayed(service, "cy@example.org") == []
    [confirmation] = receipt.replies
    assert confirmation.recipient == "alice@example.org"
    assert "line 2: sent to bob" in _flat(confirmation)


def test_press_to_all_and_beside_orders_each_answered(service: Service, now: datetime) -> None:
    _game(service, now)
    receipt = _press(service, now, "ADD 2\nPRESS TO ALL\nADD 3 of these, I say\nEND\nADD 1")
    assert {row.recipient for row in outbox(service, "press")} == {
        "bob@example.org",
        "cy@example.org",
    }
    [stored] = orders(service)
    assert "ADD 3" not in stored.text  # the press block was never read as orders
    check = next(body(r) for r in receipt.replies if "read as" in body(r))
    assert "line 6: a second ADD this turn" in check  # the mail's own line numbers
    assert receipt.status == "accepted" and "PRESS: line 3: sent to bob, cy" in receipt.outcome


def test_a_plain_reply_goes_back_through_the_moderator(service: Service, now: datetime) -> None:
    _game(service, now)
    _press(service, now, "PRESS TO bob\nDeal?\nEND PRESS")
    [to_bob] = _relayed(service, "bob@example.org")
    reply = mail(
        "Yes, deal.\n\nOn Monday the moderator wrote:\n> Deal?\n",
        sender="bob@example.org",
        message_id="r1@x",
        subject=f"Re: {to_bob.subject}",
        headers={"In-Reply-To": to_bob.message_id},
    )
    assert receive(service, reply, now=now).status == "answered"
    [to_alice] = _relayed(service, "alice@example.org")
    assert "Press in game g1 from bob (to alice):" in body(to_alice)
    assert "Yes, deal." in body(to_alice) and "Deal?" not in body(to_alice)
    assert "bob@example.org" not in body(to_alice)
    # The same reply from another address is no reply of bob's: nothing is relayed.
    forged = mail("Nope.", sender="mallory@evil.example", message_id="r2@x",
                  headers={"In-Reply-To": to_bob.message_id})  # fmt: skip
    receive(service, forged, now=now)
    assert len(_relayed(service, "alice@example.org")) == 1


def test_an_auto_reply_to_press_is_never_relayed(service: Service, now: datetime) -> None:
    _game(service, now)
    _press(service, now, "PRESS TO bob\nDeal?\nEND PRESS")
    [to_bob] = _relayed(service, "bob@example.org")
    away = mail("I am on holiday.", sender="bob@example.org", message_id="v@x",
                headers={"In-Reply-To": to_bob.message_id,
                         "Auto-Submitted": "auto-replied"})  # fmt: skip
    assert receive(service, away, now=now).status == "ignored"
    assert _relayed(service, "alice@example.org") == []


def test_anonymous_press_only_where_the_game_allows(service: Service, now: datetime) -> None:
    _game(service, now)
    receipt = _press(service, now, "PRESS TO bob ANONYMOUS\nBeware cy.\nEND PRESS")
    assert "not sent: game g1 allows no anonymous press" in _flat(receipt.replies[0])
    assert _relayed(service, "bob@example.org") == []
    with transaction(service.db) as session:
        game = session.get(Game, "g1")
        assert game is not None
        game.grey_press = True
    _press(service, now, "PRESS TO bob ANONYMOUS\nBeware cy.\nEND PRESS", n=2)
    [to_bob] = _relayed(service, "bob@example.org")
    assert to_bob.subject == "[g1] anonymous press"
    assert "alice" not in body(to_bob) and "Beware cy." in body(to_bob)


def test_mutes_and_game_options(service: Service, now: datetime) -> None:
    _game(service, now, to_referees=True)
    assert _press(service, now, "SET PRESS OFF FROM alice", seat="bob").status == "answered"
    receipt = _press(service, now, "PRESS TO bob, cy\nHello.\nEND PRESS")
    assert "sent to cy (not to bob: not taking press)" in _flat(receipt.replies[0])
    [copy] = [row for row in outbox(service, "referee") if "press alice" in row.subject]
    assert copy.subject == "[g1] press alice to cy"
    _press(service, now, "SET PRESS ON", seat="bob", n=2)
    _press(service, now, "PRESS TO bob\nAgain.\nEND PRESS", n=3)
    assert len(_relayed(service, "bob@example.org")) == 1
    with transaction(service.db) as session:
        game = session.get(Game, "g1")
        assert game is not None
        game.press = False
    receipt = _press(service, now, "PRESS TO bob\nAnyone?\nEND PRESS", n=4)
    assert "not sent: game g1 allows no press" in _flat(receipt.replies[0])


def test_press_to_an_unknown_seat_names_the_seats(service: Service, now: datetime) -> None:
    _game(service, now)
    receipt = _press(service, now, "PRESS TO bobby\nHi.\nEND PRESS")
    assert "not sent: no seat bobby (the others: bob, cy)" in _flat(receipt.replies[0])
