"""The moderator's pass (poll_once) on real mail: a player's order mail goes through the SMTP
server into Dovecot, the ImapInbox hands it to the pipeline, and the check reply comes back
to the player's mailbox through SmtpSender. A crash between the commit and mark_done, and an
SMTP outage, lose nothing and send nothing twice."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Engine

from pbem.config import Settings
from pbem.games.lifecycle import SeatSpec
from pbem.games.outbox import DrainReport, drain
from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.intake.poll import poll_once
from pbem.mail.compose import text_of
from pbem.mail.imap import ImapInbox
from pbem.mail.smtp import SmtpSender
from tests.servers.dovecot import Account
from tests.servers.fake_time import FakeTime
from tests.servers.world import MailWorld, Player, read_folder
from tests.support.games import new_game, outbox

ORDERS = "GAME g1 SEAT {seat} PASSWORD pw-{seat}\nADD 2\n"


@dataclass
class Table:
    """A game g1 whose seats alice and bob are players with real mailboxes."""

    service: Service
    moderator: Account
    alice: Player
    bob: Player
    inbox: ImapInbox
    sender: SmtpSender
    time: FakeTime


def moderated_game(
    world: MailWorld, db: Engine, settings: Settings, now: datetime, **spec: Any
) -> Table:
    moderator = world.account("moderator")
    alice, bob = world.player("alice"), world.player("bob")
    settings = replace(settings, mail=replace(settings.mail, address=moderator.address))
    service = Service(db, settings)
    seats = (
        SeatSpec("alice", alice.address, "pw-alice"),
        SeatSpec("bob", bob.address, "pw-bob"),
    )
    new_game(service, now, seats=seats, **spec)
    fake = FakeTime()
    inbox = ImapInbox(world.imap_settings(moderator))
    sender = SmtpSender(world.smtp_settings(backoff_first_seconds=5), clock=fake.clock)
    # Each seat's mail for the start of the game; the tests count from there.
    assert drain(service, sender, now=now) == DrainReport(sent=2, failed=0)
    assert [len(alice.wait_for_mail()), len(bob.wait_for_mail())] == [1, 1]
    return Table(service, moderator, alice, bob, inbox, sender, fake)


def test_an_order_mail_is_answered_through_real_servers(
    world: MailWorld, db: Engine, settings: Settings, now: datetime
) -> None:
    table = moderated_game(world, db, settings, now)
    sent = table.alice.send(table.moderator.address, ORDERS.format(seat="alice"))

    with table.inbox as inbox:
        report = poll_once(table.service, inbox, table.sender, now=now)
        assert inbox.pending() == []

    assert (dict(report.statuses), report.drained.sent, report.drained.failed) == (
        {"accepted": 1},
        1,
        0,
    )
    _start, answer = table.alice.wait_for_mail(2)
    assert answer["To"] == table.alice.address
    assert answer["In-Reply-To"] == sent
    assert text_of(answer).startswith(
        "Orders for alice in game g1, turn 1: all accepted.\r\n\r\n"
        "Accepted (1):\r\n  line 2: ADD 2\r\n    read as: add 2 points\r\n\r\n"
    )
    (processed,) = read_folder(world, table.moderator, "Processed")
    assert f"Message-ID: {sent}\r\n".encode() in processed


def test_a_crash_before_mark_done_neither_loses_nor_repeats(
    world: MailWorld, db: Engine, settings: Settings, now: datetime
) -> None:
    table = moderated_game(world, db, settings, now)
    table.alice.send(table.moderator.address, ORDERS.format(seat="alice"))

    with table.inbox as inbox:
        # The first process commits the mail, then dies before marking it done.
        (item,) = inbox.pending()
        assert receive(table.service, item.raw, now=now).status == "accepted"

    with ImapInbox(table.inbox.settings) as restarted:
        report = poll_once(table.service, restarted, table.sender, now=now)
        assert restarted.pending() == []

    assert (dict(report.statuses), report.drained.sent) == ({"duplicate": 1}, 1)
    assert len(table.alice.wait_for_mail(2)) == 2  # the start of the game, one answer
    assert len(outbox(table.service, "reply")) == 1


def test_replies_queued_during_an_smtp_outage_go_out_when_it_is_back(
    world: MailWorld, db: Engine, settings: Settings, now: datetime
) -> None:
    table = moderated_game(world, db, settings, now)
    # Two mails, two answers (the second replaces the first orders); bob's orders would
    # resolve the turn and add reports, which are not the point here.
    first = table.alice.send(table.moderator.address, ORDERS.format(seat="alice"))
    second = table.alice.send(table.moderator.address, ORDERS.format(seat="alice"))

    with table.inbox as inbox:
        world.smtp["plain"].stop()
        during = poll_once(table.service, inbox, table.sender, now=now)
        world.smtp["plain"].start()  # on the same port
        table.time.advance(5)  # the sender's backoff after one refused connection
        after = poll_once(table.service, inbox, table.sender, now=now + timedelta(hours=1))

    assert dict(during.statuses) == {"accepted": 2}
    # The first refused connection ends the pass: the second mail is not even tried.
    assert (during.drained.sent, during.drained.failed) == (0, 1)
    assert during.drained.stopped.startswith("smtp: SMTPConnectError: ")
    assert (after.drained.sent, after.drained.failed) == (2, 0)
    _start, *answers = table.alice.wait_for_mail(3)
    assert [answer["In-Reply-To"] for answer in answers] == [first, second]
