"""Bots in empty seats: a referee gives a seat to the ruleset's bot and back (by command line
and by mail), and the game option nmr = bot plays a seat that missed its deadline with the
bot. The bot's orders go through the parser, are kept in the turn's record (so the game
still verifies) and are marked as the bot's in the reports."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import select

from engine import get_ruleset
from pbem.clock.turns import resolve_due
from pbem.games.service import Service
from pbem.proof.export import export_game
from pbem.proof.verify import verify
from pbem.store import Seat, loads, transaction
from tests.clock.support import DEADLINE, HOUR, clock_game, command, orders, run
from tests.referee.support import Channel, referee_game
from tests.support.games import body, game_row, outbox, turns


def _seat(service: Service, name: str) -> Seat:
    with transaction(service.db) as session:
        return session.exec(select(Seat).where(Seat.name == name)).one()


def _reports(service: Service, seat: str, turn: int) -> list[str]:
    return [
        body(row)
        for row in outbox(service, "report")
        if row.recipient == f"{seat}@example.org" and row.subject.endswith(f"turn {turn} report")
    ]


def test_a_referee_gives_a_seat_to_the_bot_and_back(
    service: Service, now: datetime, via: Channel
) -> None:
    referee_game(service, now)
    assert via.run("bot", "bob", reason="bob is travelling") == (
        "bob is played by the bot from turn 1; bob's player was told"
    )
    assert _seat(service, "bob").status == "bot"
    assert via.refuse("bot", "bob") == "bob is played by the bot already"
    # bob's own orders are refused while the bot plays; nobody waits for him.
    assert command(service, "bob", "ADD 3", now) == "quarantined"
    orders(service, "alice", "ADD 1", now)
    [summary] = resolve_due(service, now=now)
    assert summary.orders == 1
    first = turns(service)[0]
    record = loads(first.record or "{}")
    state = loads(first.state_before)
    bot_text = get_ruleset("counting").bot_orders(state, "bob", game_row(service).seed)
    assert record["played"]["bob"] == {"by": "bot", "text": bot_text}
    assert record["results"]["bob"][0]["order"] == bot_text  # read by the parser
    [bobs] = _reports(service, "bob", 1)
    assert "The bot played your seat this turn: these are its orders." in bobs
    assert "No orders from you" not in bobs
    [alices] = _reports(service, "alice", 1)
    assert "bob was played by the bot this turn." in alices
    assert _seat(service, "bob").missed == 0
    # The seat goes back to its player: the next turn waits for him again.
    assert via.run("bot", "bob", "off", reason="bob is back") == (
        "bob is played by its player from turn 2; bob's player was told"
    )
    orders(service, "alice", "ADD 2", now)
    assert resolve_due(service, now=now) == []
    orders(service, "bob", "ADD 2", now)
    assert [s.turn for s in resolve_due(service, now=now)] == [2]
    assert loads(turns(service)[1].record or "{}")["played"]["bob"]["by"] == "orders"


def test_bad_bot_commands_are_refused(service: Service, now: datetime, via: Channel) -> None:
    referee_game(service, now)
    assert via.refuse("bot", "bob", "of") == "write: bot SEAT [OFF]"
    assert via.refuse("bot", "bob", "off") == "bob is not played by the bot"
    assert "no seat" in via.refuse("bot", "zed")


def test_nmr_bot_plays_a_seat_that_missed_its_deadline(service: Service) -> None:
    clock_game(service, nmr="bot")
    orders(service, "alice", "ADD 1", DEADLINE - HOUR)
    run(service, DEADLINE + HOUR)
    record = loads(turns(service)[0].record or "{}")
    assert record["played"]["bob"]["by"] == "bot"
    assert record["results"]["bob"][0]["status"] == "done"
    assert _seat(service, "bob").missed == 1  # still his miss
    [bobs] = _reports(service, "bob", 1)
    assert "Your seat was played by the ruleset's bot (the game's nmr = bot)." in bobs
    assert "The bot played your seat this turn: these are its orders." in bobs
    # The bot's turn replays from the export like any other.
    with service.store.reading() as work:
        document = export_game(work, "g1")
    game = game_row(service)
    document.update(seed=game.seed, salt=game.seed_salt)
    assert verify(document).ok
