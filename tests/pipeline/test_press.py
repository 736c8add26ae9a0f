"""Press (issue 19): seats write to each other through the moderator by seat name; a plain
reply goes back the same way; press is never read as orders; the game's options and each
seat's mutes decide who gets what; no address is ever shown to another player."""

from __future__ import annotations

import re
from datetime import datetime

from sqlmodel import select

from pbem.games.lifecycle import PressOptions, SeatSpec
from pbem.games.outbox import as_message
from pbem.games.service import Service
from pbem.intake.intake import Receipt, receive
from pbem.store import AuditLog, Game, Outbox, transaction
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


def _words(row: Outbox) -> set[str]:
    return set(re.findall(r"[a-z0-9@.-]+", body(row).lower() + " " + row.subject.lower()))


def test_a_reply_to_anonymous_press_never_names_the_writer(service: Service, now: datetime) -> None:
    """Issue 42.5: bob answers alice's anonymous press; his confirmation named her ("line 0:
    sent to alice"). Neither it nor anything else bob gets in that thread names alice, also
    when alice answers his answer; what alice gets names bob (he chose to answer)."""
    _game(service, now, grey=True)
    _press(service, now, "PRESS TO bob ANONYMOUS\nBeware cy.\nEND PRESS")
    [anonymous] = _relayed(service, "bob@example.org")
    receipt = receive(service, mail("Who are you?", sender="bob@example.org", message_id="b1@x",
                                    headers={"In-Reply-To": anonymous.message_id}),
                      now=now)  # fmt: skip
    assert receipt.status == "answered"
    [confirmation] = receipt.replies
    assert confirmation.recipient == "bob@example.org"
    assert "your reply: sent to the anonymous writer" in _flat(confirmation)
    assert not {"alice", "alice@example.org", "0:"} & _words(confirmation), body(confirmation)
    [to_alice] = _relayed(service, "alice@example.org")
    assert "Press in game g1 from bob (to alice):" in body(to_alice)
    # alice answers bob's answer, her mail client naming the whole thread: still unnamed.
    thread = f"{anonymous.message_id} {to_alice.message_id}"
    again = mail("Never mind.", sender="alice@example.org", message_id="a2@x",
                 headers={"In-Reply-To": to_alice.message_id, "References": thread})  # fmt: skip
    receipt = receive(service, again, now=now)
    assert receipt.status == "answered"
    assert "your reply: sent to bob" in _flat(receipt.replies[0])
    to_bob = _relayed(service, "bob@example.org")[-1]
    assert to_bob.subject == "[g1] anonymous press" and "Never mind." in body(to_bob)
    assert not {"alice", "alice@example.org"} & _words(to_bob), body(to_bob)
    # And bob's answer to that: confirmed without her name, relayed to her.
    receipt = receive(service, mail("Fine.", sender="bob@example.org", message_id="b3@x",
                                    headers={"In-Reply-To": to_bob.message_id}),
                      now=now)  # fmt: skip
    assert "your reply: sent to the anonymous writer" in _flat(receipt.replies[0])
    assert "Fine." in body(_relayed(service, "alice@example.org")[-1])


def test_the_audit_marks_anonymous_press(service: Service, now: datetime) -> None:
    """The game's referees may know the writer (issue 42.5), and are told it was unnamed."""
    _game(service, now, grey=True)
    _press(service, now, "PRESS TO bob ANONYMOUS\nBeware cy.\nEND PRESS")
    _press(service, now, "PRESS TO cy\nHello.\nEND PRESS", n=2)
    with transaction(service.db) as session:
        query = select(AuditLog.detail).where(AuditLog.action == "press")
        details = sorted(session.exec(query).all())
    assert details == ["alice -> bob (anonymous)", "alice -> cy"]


def test_a_mute_by_name_does_not_tell_who_writes_anonymously(
    service: Service, now: datetime
) -> None:
    """bob mutes alice: were alice's anonymous press held back too, bob would learn who
    wrote it by watching it stop. It comes; SET PRESS OFF stops all of it."""
    _game(service, now, grey=True)
    _press(service, now, "SET PRESS OFF FROM alice", seat="bob")
    _press(service, now, "PRESS TO bob\nNamed.\nEND PRESS", n=2)
    _press(service, now, "PRESS TO bob ANONYMOUS\nUnnamed.\nEND PRESS", n=3)
    assert [row.subject for row in _relayed(service, "bob@example.org")] == ["[g1] anonymous press"]
    _press(service, now, "SET PRESS OFF", seat="bob", n=4)
    receipt = _press(service, now, "PRESS TO bob ANONYMOUS\nAgain.\nEND PRESS", n=5)
    assert "not to bob: not taking press" in _flat(receipt.replies[0])
    assert len(_relayed(service, "bob@example.org")) == 1


def test_the_writers_mutes_do_not_tell_a_replier_who_wrote(service: Service, now: datetime) -> None:
    """A tester's find: bob writes to alice anonymously, then mutes her (or all press); her
    reply was answered "sent to nobody (not to the anonymous writer: not taking press)", and
    her named press to each seat then showed which one mutes her: bob. A reply to one's own
    anonymous press reaches its writer whatever their mutes (they opened the thread), and its
    answer is the same whoever wrote it and whatever they mute."""
    _game(service, now, grey=True)
    _press(service, now, "PRESS TO alice ANONYMOUS\nBeware cy.\nEND PRESS", seat="bob")
    [anonymous] = _relayed(service, "alice@example.org")
    answers = []
    for n, mute in enumerate(("SET PRESS OFF FROM alice", "SET PRESS OFF"), start=2):
        _press(service, now, mute, seat="bob", n=n)
        reply = mail(f"Why? ({n})", sender="alice@example.org", message_id=f"a{n}@x",
                     headers={"In-Reply-To": anonymous.message_id})  # fmt: skip
        receipt = receive(service, reply, now=now)
        assert receipt.status == "answered"
        answers.append(_flat(receipt.replies[0]).replace(f"({n})", ""))
        assert f"Why? ({n})" in body(_relayed(service, "bob@example.org")[-1])
    assert all("your reply: sent to the anonymous writer" in a for a in answers), answers
    assert not any("not taking press" in a or "nobody" in a for a in answers), answers
    assert answers[0] == answers[1]
