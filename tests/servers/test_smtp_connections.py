"""Several mails in the SMTP server's hands at once ([smtp] connections), on the real relay:
the sender carries as many sends at once as it has connections, a drain with lanes keeps
them busy, and a connection lost mid-mail neither loses that mail nor sends any twice."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import datetime

import pytest
from sqlalchemy import Engine

from pbem.config import Settings
from pbem.games.lanes import Lanes
from pbem.games.lifecycle import SeatSpec
from pbem.games.outbox import drain
from pbem.games.service import Service
from pbem.mail.delivery import TemporaryFailure
from pbem.mail.smtp import SmtpSender
from pbem.store import utcnow
from tests.servers.fake_time import FakeTime
from tests.servers.moderated import logging_restored
from tests.servers.test_smtp_sender import reply
from tests.servers.world import MailWorld, Player
from tests.support.games import new_game, outbox

SLOW = 0.3  # seconds the relay takes for each mail: sends in flight overlap in it


@pytest.fixture(autouse=True)
def _logging() -> Iterator[None]:
    with logging_restored():
        yield


@pytest.mark.parametrize("connections", [1, 3])
def test_the_sender_carries_as_many_mails_at_once_as_it_has_connections(
    world: MailWorld, connections: int
) -> None:
    alice = world.player("alice")
    sender = SmtpSender(world.smtp_settings(connections=connections))
    world.relay.slow, world.relay.most_at_once = SLOW, 0

    def send(number: int) -> None:
        sender.send(reply(alice.address, number=number))

    threads = [threading.Thread(target=send, args=(number,)) for number in range(1, 7)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    sender.close()

    assert world.relay.most_at_once == connections
    assert len(set(world.relay.peers_of(alice.address))) == connections
    received = sorted(str(m["Message-ID"]) for m in alice.wait_for_mail(6))
    assert received == sorted(f"<reply-{number}@pbem.test>" for number in range(1, 7))


def test_mail_sent_one_at_a_time_keeps_to_one_connection(world: MailWorld) -> None:
    """A trickle of replies does not open (and NOOP) every connection in turn."""
    alice = world.player("alice")
    sender = SmtpSender(world.smtp_settings(connections=4))
    for number in (1, 2, 3):
        sender.send(reply(alice.address, number=number))
    sender.close()

    assert len(alice.wait_for_mail(3)) == 3
    assert len(set(world.relay.peers_of(alice.address))) == 1


def test_an_outage_met_by_every_connection_at_once_is_counted_once(world: MailWorld) -> None:
    """Three mails in flight when the server drops all three connections: the backoff's
    first delay, not three doublings of it."""
    alice = world.player("alice")
    fake = FakeTime()
    sender = SmtpSender(world.smtp_settings(connections=3), clock=fake.clock)
    world.relay.slow, world.relay.drop_data = SLOW, 3
    failures: list[Exception] = []

    def send(number: int) -> None:
        try:
            sender.send(reply(alice.address, number=number))
        except TemporaryFailure as failure:
            failures.append(failure)

    threads = [threading.Thread(target=send, args=(number,)) for number in (1, 2, 3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    sender.close()

    assert len(failures) == 3
    assert sender.ready_in() == world.smtp_settings().backoff_first_seconds


def _game(world: MailWorld, service: Service, now: datetime) -> list[Player]:
    """A game of six seats, each its own mailbox: six start mails queued."""
    players = [world.player(f"p{number}") for number in range(6)]
    seats = [SeatSpec(f"s{n}", player.address, f"pw-{n}") for n, player in enumerate(players)]
    new_game(service, now, seats=seats, deadline_policy="none")
    return players


def test_a_drain_with_lanes_keeps_every_connection_busy_and_sends_each_mail_once(
    world: MailWorld, db: Engine, settings: Settings
) -> None:
    service, now = Service(db, settings), utcnow()
    players = _game(world, service, now)
    sender = SmtpSender(world.smtp_settings(connections=3))
    world.relay.slow, world.relay.most_at_once = SLOW, 0
    lanes = Lanes(3)
    started = time.monotonic()
    try:
        report = drain(service, sender, now=now, lanes=lanes)
    finally:
        lanes.close()
        sender.close()
    took = time.monotonic() - started

    assert (report.sent, report.failed) == (6, 0)
    assert world.relay.most_at_once == 3
    assert took < 6 * SLOW  # one at a time takes at least that
    assert all(row.sent_at == now for row in outbox(service))
    assert [world.relay.delivered_to(player.address) for player in players] == [1] * 6


def test_a_connection_lost_mid_mail_loses_nothing_and_doubles_nothing(
    world: MailWorld, db: Engine, settings: Settings
) -> None:
    """The server closes one connection at a DATA, answering nothing: the pass stops,
    holding nothing against that mail; the mails in flight on the other connections are
    sent and recorded once; the next pass, after the backoff, sends the rest. Every mailbox
    gets its mail exactly once."""
    service, now = Service(db, settings), utcnow()
    players = _game(world, service, now)
    fake = FakeTime()
    sender = SmtpSender(world.smtp_settings(connections=3), clock=fake.clock)
    world.relay.slow, world.relay.drop_data = SLOW, 1
    lanes = Lanes(3)
    try:
        first = drain(service, sender, now=now, lanes=lanes)
        assert first.stopped and first.sent < 6
        fake.advance(60)  # past the sender's backoff
        second = drain(service, sender, now=now, lanes=lanes)
    finally:
        lanes.close()
        sender.close()

    assert first.sent + second.sent == 6
    assert not second.stopped
    assert all(row.sent_at == now for row in outbox(service))
    assert [world.relay.delivered_to(player.address) for player in players] == [1] * 6
    for player in players:
        assert len(player.wait_for_mail(1)) == 1
