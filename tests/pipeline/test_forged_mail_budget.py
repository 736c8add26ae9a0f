"""Mail anyone can send under a From (a wrong password for a seat, STATUS, a STOP without its
code) cannot use up the replies a seat's own mail is owed: a reply to a mail that proved its
seat counts against a limit of its own; the notice that a seat's mail was refused goes at
most once an hour, counting the rest; a reply held back by the limit is kept for the
operator to see, never sent. Both databases."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from itertools import count

from pbem.config import LimitSettings
from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.store import Outbox
from pbem.store.outbox_rows import RATE_LIMITED
from tests.support.games import body, new_game, outbox
from tests.support.mails import mail, order_mail

ALICE = "alice@example.org"
BOB = "bob@example.org"
MALLORY = "mallory@attacker.org"
LIMIT = 30
_IDS = count()


def _limited(service: Service) -> Service:
    return Service(service.db, replace(service.settings, limits=LimitSettings(LIMIT)))


def _sent_to(service: Service, address: str) -> list[Outbox]:
    return [row for row in outbox(service) if row.recipient == address and row.dropped_at is None]


def _from(service: Service, now: datetime, raw_text: str, sender: str, subject: str = "x") -> None:
    raw = mail(raw_text, sender=sender, subject=subject, message_id=f"f{next(_IDS)}@x")
    receive(service, raw, now=now)


def _orders(service: Service, now: datetime, seat: str, sender: str) -> list[Outbox]:
    ids = f"o{next(_IDS)}@x"
    raw = order_mail("g1", seat, f"pw-{seat}", "ADD 2\n", sender=sender, message_id=ids)
    return receive(service, raw, now=now).replies


def test_wrong_passwords_from_a_stranger_leave_the_seat_its_replies(
    service: Service, now: datetime
) -> None:
    limited = _limited(service)
    new_game(limited, now)
    for number in range(LIMIT):
        at = now + timedelta(seconds=number)
        _from(limited, at, f"GAME g1 SEAT bob PASSWORD wrong{number}\nADD 1\n", MALLORY)
    # bob is told once, saying so; the other tries are counted for the next notice
    told = [row for row in _sent_to(limited, BOB) if "was refused" in row.subject]
    assert len(told) == 1
    assert [r.recipient for r in _orders(limited, now + timedelta(minutes=1), "bob", BOB)] == [BOB]
    # an hour on, the next try is told, with the count of those not told and itself
    _from(limited, now + timedelta(minutes=61), "GAME g1 SEAT bob PASSWORD nope\n", MALLORY)
    told = [row for row in _sent_to(limited, BOB) if "was refused" in row.subject]
    assert len(told) == 2
    assert f"{LIMIT} mails for bob were refused since the last such notice" in " ".join(
        body(told[1]).split()
    )


def test_forged_status_and_stop_mail_leave_a_seat_its_replies(
    service: Service, now: datetime
) -> None:
    limited = _limited(service)
    new_game(limited, now)
    for _ in range(LIMIT // 2):
        _from(limited, now, "STATUS g1\n", ALICE)
        _from(limited, now, "STOP\n", ALICE)
    # the forged mail used up what unproved mail may have; alice's own orders are answered
    assert [r.recipient for r in _orders(limited, now, "alice", ALICE)] == [ALICE]
    # a further forged mail is not answered: its reply is kept, unsent, for the operator
    _from(limited, now, "STATUS g1\n", ALICE)
    held = [row for row in outbox(limited) if row.dropped_at is not None]
    assert [(row.recipient, row.last_error) for row in held] == [(ALICE, RATE_LIMITED)]


def test_proved_mail_has_a_limit_of_its_own(service: Service, now: datetime) -> None:
    """A mail loop through a seat's own mail (an auto-responder quoting the password) is
    still held: the replies to proved mail have the same limit."""
    limited = _limited(service)
    new_game(limited, now)
    answered = [bool(_orders(limited, now, "bob", BOB)) for _ in range(LIMIT + 2)]
    assert answered == [True] * LIMIT + [False] * 2
