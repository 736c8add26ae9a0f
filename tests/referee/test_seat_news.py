"""A referee's DISORDER and BOT change what a seat's player may do: the player is mailed at
once what it means for them, and the game's other referees are told, as a resignation or a
STOP is told to them."""

from __future__ import annotations

from datetime import datetime

from pbem.games.service import Service
from pbem.store import Outbox
from tests.referee.support import REFEREE, Channel, flat, referee_game
from tests.support.games import body, outbox

DEPUTY = "deputy@example.org"


def _to(service: Service, address: str) -> list[Outbox]:
    return [row for row in outbox(service, "referee") if row.recipient == address]


def test_disorder_tells_the_player_and_the_other_referees(
    service: Service, now: datetime, via: Channel
) -> None:
    referee_game(service, now, referees=[REFEREE, DEPUTY])
    via.run("disorder", "bob", reason="no orders for a month")
    [told] = _to(service, "bob@example.org")
    assert told.subject == "[g1] bob is in civil disorder"
    text = flat(body(told))
    assert "has put your seat bob in civil disorder from turn 1" in text
    assert "Reason: no orders for a month" in text
    assert "plays with no orders (its standing orders only)" in text
    assert "Mail you send for the seat is refused" in text
    [deputy] = _to(service, DEPUTY)
    assert deputy.subject == "[g1] bob is in civil disorder"
    assert "bob's player was told" in flat(body(deputy))
    assert _to(service, "alice@example.org") == []
    assert all(len(line) <= 72 for row in (told, deputy) for line in body(row).splitlines())


def test_bot_and_bot_off_tell_the_player_and_the_other_referees(
    service: Service, now: datetime, via: Channel
) -> None:
    referee_game(service, now, referees=[REFEREE, DEPUTY])
    via.run("bot", "bob", reason="bob is travelling")
    [given] = _to(service, "bob@example.org")
    assert given.subject == "[g1] bob is played by the bot"
    text = flat(body(given))
    assert "has given your seat bob to the game's bot from turn 1" in text
    assert "Reason: bob is travelling" in text
    assert "Mail you send for the seat is refused" in text
    via.run("bot", "bob", "off", reason="bob is back")
    [_, back] = _to(service, "bob@example.org")
    assert back.subject == "[g1] bob is yours again"
    text = flat(body(back))
    assert "has given seat bob back to you from turn 1" in text
    assert "Orders for turn 1 are due by" in text
    assert [row.subject for row in _to(service, DEPUTY)] == [
        "[g1] bob is played by the bot",
        "[g1] bob is played by its player again",
    ]
