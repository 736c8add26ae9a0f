"""The addresses a referee gives (replace, promote, address) pass the project's one address
check (pbem.mail.addresses), by command line and by mail alike: a seat's mail or a new
referee's password must not go to a typo."""

from __future__ import annotations

from datetime import datetime

import pytest

from pbem.games.service import Service
from tests.referee.support import Channel, referee_game
from tests.support.games import outbox


@pytest.mark.parametrize(
    ("command", "args", "given"),
    [
        ("promote", (), "deputy@"),
        ("replace", ("bob",), "carol@example..org"),
        ("address", ("bob",), "bob-at-example.org"),
    ],
)
def test_an_address_that_is_none_is_refused(
    service: Service, now: datetime, via: Channel, command: str, args: tuple[str, ...], given: str
) -> None:
    referee_game(service, now)
    refusal = via.refuse(command, *args, given)
    assert refusal.startswith(f"{given!r} is not a mail address: "), refusal
    assert given.lower() not in [row.recipient for row in outbox(service)]


def test_a_good_address_is_taken(service: Service, now: datetime, via: Channel) -> None:
    referee_game(service, now)
    assert via.run("address", "bob", "Bob@New.example.org") == (
        "bob's mail now goes to bob@new.example.org"
    )
