"""SET ADDRESS / CONFIRM and RESIGN (issue 19): a seat moves its mail only once the new address
has confirmed with its code, the old address told each time; a resignation takes the player
off the seat as the game's `resign` option says, the referees told; the referee command
`address` moves a seat at once; no other player learns an address."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from sqlmodel import select

from pbem.games.lifecycle import SeatSpec
from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.store import Seat, transaction
from tests.support.games import body, new_game, outbox
from tests.support.mails import mail, order_mail

NEW = "alice@new.example.org"


def _seat(service: Service, name: str = "alice") -> Seat:
    with transaction(service.db) as session:
        found = session.exec(select(Seat).where(Seat.name == name)).one()
        session.expunge(found)
        return found


def _ask(service: Service, now: datetime) -> str:
    """alice asks for her new address; the code mailed there."""
    receipt = receive(
        service, order_mail("g1", "alice", "pw-alice", f"SET ADDRESS {NEW}", message_id="a@x"),
        now=now,
    )  # fmt: skip
    assert receipt.status == "answered"
    [to_new] = [row for row in receipt.replies if row.recipient == NEW]
    # Issue 43, point 13: it went under the asking mail's subject ("Re: pw").
    assert to_new.subject == "[g1] confirm your address for seat alice"
    assert b"In-Reply-To" not in to_new.raw  # a mail of its own, not a reply
    found = re.search(r"CONFIRM ([A-Z0-9]{8})", body(to_new))
    assert found is not None
    return found.group(1)


def test_an_address_changes_only_when_the_new_one_confirms(service: Service, now: datetime) -> None:
    new_game(service, now)
    code = _ask(service, now)
    seat = _seat(service)
    assert seat.address == "alice@example.org" and seat.pending_address == NEW
    assert code not in seat.pending_code  # only a hash of the code is kept
    told = [row for row in outbox(service) if row.recipient == "alice@example.org"][-1]
    assert "asked to move its mail to alice@new.example.org" in " ".join(body(told).split())
    confirmed = receive(service, mail(f"CONFIRM {code}", sender=NEW, message_id="c@x"), now=now)
    assert confirmed.status == "answered"
    assert {row.recipient for row in confirmed.replies} == {NEW, "alice@example.org"}
    assert _seat(service).address == NEW and _seat(service).pending_address == ""
    # From now on the seat's mail goes there.
    orders = receive(service, order_mail("g1", "alice", "pw-alice", "ADD 1", sender=NEW,
                                          message_id="o@x"), now=now)  # fmt: skip
    assert [row.recipient for row in orders.replies] == [NEW]


def test_a_wrong_code_sender_or_late_confirm_changes_nothing(
    service: Service, now: datetime
) -> None:
    new_game(service, now)
    code = _ask(service, now)
    attempts = [
        ("CONFIRM ZZZZZZZZ", NEW, now),  # a wrong code
        (f"CONFIRM {code}", "mallory@evil.example", now),  # the code, from another address
        (f"CONFIRM {code}", NEW, now + timedelta(hours=73)),  # too late
    ]
    for n, (text, sender, at) in enumerate(attempts):
        receipt = receive(service, mail(text, sender=sender, message_id=f"w{n}@x"), now=at)
        assert receipt.status == "quarantined", text
    assert _seat(service).address == "alice@example.org"


def test_set_address_needs_the_password_and_an_address(service: Service, now: datetime) -> None:
    new_game(service, now)
    # Issue 36, 13: SET ADDRESS takes what pbem game new takes (pbem.mail.addresses), so
    # neither two addresses in one nor a dotless domain.
    texts = ("SET ADDRESS", "SET ADDRESS not-an-address", "SET ADDRESS a b")
    texts += ("SET ADDRESS a@x.org,b@x.org", "SET ADDRESS alice@localhost")
    for n, text in enumerate(texts):
        receipt = receive(service, order_mail("g1", "alice", "pw-alice", text,
                                              message_id=f"s{n}@x"), now=now)  # fmt: skip
        assert receipt.status == "quarantined", text
    wrong = order_mail("g1", "alice", "wrong", f"SET ADDRESS {NEW}", message_id="p@x")
    assert receive(service, wrong, now=now).status == "quarantined"
    assert _seat(service).pending_address == ""


def test_resign_puts_the_seat_in_disorder_and_asks_the_referees(
    service: Service, now: datetime
) -> None:
    new_game(service, now, referees=["ref@example.org"])
    receipt = receive(service, order_mail("g1", "bob", "pw-bob", "RESIGN", sender="bob@example.org",
                                          message_id="r@x"), now=now)  # fmt: skip
    assert receipt.status == "answered"
    seat = _seat(service, "bob")
    assert (seat.status, seat.address, seat.password_hash) == ("disorder", "", "")
    [to_player] = [row for row in receipt.replies if row.recipient == "bob@example.org"]
    assert "You have resigned seat bob of game g1" in " ".join(body(to_player).split())
    [to_referee] = [row for row in outbox(service) if row.recipient == "ref@example.org"
                    and "resigned" in row.subject]  # fmt: skip
    assert "REPLACE bob <their address> 48h BECAUSE bob resigned" in body(to_referee)
    again = order_mail("g1", "bob", "pw-bob", "ADD 1", sender="bob@example.org", message_id="x@x")
    assert receive(service, again, now=now).status == "quarantined"  # no longer their seat


def test_resign_to_the_bot_when_the_game_says_so(service: Service, now: datetime) -> None:
    new_game(service, now, resign="bot")
    receive(service, order_mail("g1", "bob", "pw-bob", "RESIGN", sender="bob@example.org",
                                message_id="r@x"), now=now)  # fmt: skip
    assert _seat(service, "bob").status == "bot"


def test_no_other_player_learns_an_address(service: Service, now: datetime) -> None:
    seats = [SeatSpec("alice", "alice@example.org", "pw-alice"),
             SeatSpec("bob", "bob@example.org", "pw-bob")]  # fmt: skip
    new_game(service, now, seats=seats, referees=["ref@example.org"])
    code = _ask(service, now)
    receive(service, mail(f"CONFIRM {code}", sender=NEW, message_id="c@x"), now=now)
    receive(service, order_mail("g1", "alice", "pw-alice", "RESIGN", sender=NEW,
                                message_id="r@x"), now=now)  # fmt: skip
    for row in outbox(service):
        if row.recipient == "bob@example.org":
            assert "alice@" not in body(row) and "pw-alice" not in body(row), row.subject


def test_five_wrong_codes_void_the_address_change(service: Service, now: datetime) -> None:
    """Wrong codes are counted across mails; the fifth voids the change: the right code then
    moves nothing, and alice must ask again."""
    new_game(service, now)
    code = _ask(service, now)
    for n in range(5):
        receipt = receive(service, mail(f"CONFIRM ZZZZZZZ{n + 2}", sender=NEW,
                                        message_id=f"w{n}@x"), now=now)  # fmt: skip
        assert receipt.status == "quarantined"
    said = " ".join(body(receipt.replies[0]).split())
    assert "5 wrong codes: an address change waiting here is void" in said
    assert _seat(service).pending_address == ""
    receive(service, mail(f"CONFIRM {code}", sender=NEW, message_id="late@x"), now=now)
    assert _seat(service).address == "alice@example.org"
