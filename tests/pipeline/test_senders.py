"""Issue 42, 3: who a mail is from is the address of its From header as it came (in angle
brackets, or the one bare address), never a display name decoded into the shape of one; a
mail from several addresses is answered to none of them."""

from __future__ import annotations

from datetime import datetime

import pytest

from pbem.games.service import Service
from pbem.intake.intake import receive
from tests.support.games import body, inbound, new_game, outbox, quarantined


def _raw(from_header: str, text: str, message_id: str = "s1@evil.example") -> bytes:
    return (
        f"From: {from_header}\nTo: moderator@pbem.localhost\nSubject: hello\n"
        f"Message-ID: <{message_id}>\n\n{text}\n"
    ).encode()


@pytest.mark.parametrize(
    "from_header",
    [
        "=?utf-8?q?alice=40example=2Eorg?= <mal@evil.example>",
        "=?utf-8?b?YWxpY2VAZXhhbXBsZS5vcmc=?= <mal@evil.example>",
        '"alice@example.org" <mal@evil.example>',
    ],
)
def test_a_display_name_shaped_as_an_address_is_not_the_sender(
    service: Service, now: datetime, from_header: str
) -> None:
    new_game(service, now)
    receipt = receive(service, _raw(from_header, "LIST MINE"), now=now)
    assert receipt.status == "answered"
    assert [row.recipient for row in outbox(service, "reply")] == ["mal@evil.example"]
    assert inbound(service)[0].sender == "mal@evil.example"
    # alice's games are told to nobody but alice
    assert "No seat of any game is registered with mal@evil.example" in body(receipt.replies[0])


@pytest.mark.parametrize(
    "from_header",
    [
        "alice@example.org, mal@evil.example",
        "alice@example.org <mal@evil.example>",
        "players: alice@example.org, mal@evil.example;",
    ],
)
def test_a_mail_from_several_addresses_is_answered_to_none(
    service: Service, now: datetime, from_header: str
) -> None:
    new_game(service, now, seats=(), signup_seats=2)
    receipt = receive(service, _raw(from_header, "JOIN g1 vic PASSWORD x"), now=now)
    assert receipt.status == "quarantined"
    assert outbox(service) == []
    [held] = quarantined(service)
    assert held.reason == "no-sender"
    assert "names 2 addresses" in held.error and "answered to none of them" in held.error


def test_two_from_headers_are_two_senders(service: Service, now: datetime) -> None:
    raw = _raw("mal@evil.example", "HELP").replace(b"From:", b"From: alice@example.org\nFrom:", 1)
    receipt = receive(service, raw, now=now)
    assert receipt.status == "quarantined"
    assert outbox(service) == []
    # Issue 42's leftovers: the refusal quoted the first From header alone.
    [held] = quarantined(service)
    assert "('alice@example.org, mal@evil.example')" in held.error
