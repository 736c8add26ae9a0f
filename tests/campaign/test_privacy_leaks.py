"""The privacy invariants (checks_privacy.py) over the mail the real pipeline queues, on
SQLite and PostgreSQL: a thread of anonymous press (the writer, the one written to, the
writer's answer) keeps every secret; and a leak planted in the moderator's code on purpose
(a reply that carries another seat's password, the writer's own answer relayed under her
name) is caught and named, so that the campaigns' check is known to fail where it must."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest

from pbem.games.lifecycle import PressOptions, SeatSpec
from pbem.games.outbox import as_message
from pbem.games.service import Service
from pbem.intake import press
from pbem.intake.context import MailContext
from pbem.intake.intake import receive
from tests.campaign.checks_privacy import secrets_kept, secrets_told
from tests.campaign.record import Received, Record, Secret
from tests.support.games import new_game, outbox
from tests.support.mails import mail, order_mail

NAMES = ("alice", "bob", "cy")
REFEREE = "ref@example.org"
TEXTS = {"first": "planted-press-7a1", "reply": "planted-reply-7a2", "again": "planted-again-7a3"}


def _thread(service: Service, now: datetime) -> Record:
    """alice writes to bob anonymously, bob replies, alice answers the reply: the mail
    queued, as each recipient's mailbox would hold it, with every secret and its owners."""
    seats = tuple(SeatSpec(name, f"{name}@example.org", f"pw-{name}-8") for name in NAMES)
    new_game(service, now, seats=seats, referees=[REFEREE], press=PressOptions(grey=True))
    block = f"PRESS TO bob ANONYMOUS\n{TEXTS['first']}\nEND PRESS"
    receive(service, order_mail("g1", "alice", "pw-alice-8", block, sender="alice@example.org",
                                message_id="a1@x"), now=now)  # fmt: skip
    _answer(service, now, "bob", "anonymous press", TEXTS["reply"], "b1@x")
    _answer(service, now, "alice", "press from bob", TEXTS["again"], "a2@x")
    return _record(service, seats)


def _answer(service: Service, now: datetime, seat: str, subject: str, text: str, mid: str) -> None:
    [row] = [r for r in outbox(service, "press") if r.recipient.startswith(seat)][-1:]
    assert subject in row.subject, row.subject
    raw = mail(text, sender=f"{seat}@example.org", message_id=mid,
               headers={"In-Reply-To": row.message_id})  # fmt: skip
    assert receive(service, raw, now=now).status == "answered"


def _record(service: Service, seats: tuple[SeatSpec, ...]) -> Record:
    addresses = {seat.name: seat.address for seat in seats} | {"referee": REFEREE}
    record = Record("g1", "counting", "UTC", addresses, "referee", {n: n for n in NAMES})
    owner = {address: name for name, address in addresses.items()}
    record.mail = {name: [] for name in addresses}
    for row in outbox(service):
        record.mail[owner[row.recipient]].append(Received(1, owner[row.recipient],
                                                          as_message(row.raw)))  # fmt: skip
    for seat in seats:
        record.secrets += [
            Secret("address", seat.address, frozenset({seat.name, "referee"})),
            Secret("password", seat.password, frozenset({seat.name})),
        ]
    both = frozenset({"alice", "bob", "referee"})
    record.secrets += [Secret("press", text, both, told=True) for text in TEXTS.values()]
    within = (TEXTS["first"], TEXTS["again"], "<b1@x>")
    record.secrets.append(Secret("anonymous writer", "alice", both - {"bob"}, within))
    return record


def test_a_thread_of_anonymous_press_keeps_every_secret(service: Service, now: datetime) -> None:
    record = _thread(service, now)
    assert len(record.mail["bob"]) >= 3  # the press, the confirmation, alice's answer
    assert secrets_kept(record) == []
    assert secrets_told(record) == []


def _leak_cys_password(monkeypatch: pytest.MonkeyPatch) -> None:
    original = MailContext.reply_text

    def leaky(self: MailContext, to: str, body: str, *args: Any) -> None:
        original(self, to, f"{body}\n(cy's password is pw-cy-8)\n", *args)

    monkeypatch.setattr(MailContext, "reply_text", leaky)


def _name_the_writer_in_her_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(press, "_wrote_anonymously", lambda *_: False)


LEAKS: dict[str, tuple[Callable[[pytest.MonkeyPatch], None], str]] = {
    "password": (_leak_cys_password, "carries the password 'pw-cy-8', which only cy may know"),
    "writer": (_name_the_writer_in_her_answer, "press from alice' (step 1) carries the anon"),
}


@pytest.mark.parametrize("leak", list(LEAKS))
def test_a_planted_leak_is_caught(
    service: Service, now: datetime, monkeypatch: pytest.MonkeyPatch, leak: str
) -> None:
    plant, said = LEAKS[leak]
    plant(monkeypatch)
    found = [str(violation) for violation in secrets_kept(_thread(service, now))]
    assert found and all(said in text for text in found), found
    assert any(text.startswith("secret-kept: bob's mail") for text in found), found
