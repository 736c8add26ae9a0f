"""SmtpSender against the real SMTP server (aiosmtpd relaying into Dovecot): mail reaches the
player's mailbox, and every way of failing is sorted into temporary or permanent."""

from __future__ import annotations

import logging
from email.message import EmailMessage
from typing import Any

import aiosmtplib
import pytest

from pbem.mail.compose import Attachment, mail_bytes, text_of
from pbem.mail.delivery import PermanentFailure, TemporaryFailure
from pbem.mail.smtp import SmtpSender
from tests.servers.fake_time import FakeTime
from tests.servers.world import MailWorld


def reply(to: str, *, subject: str = "Re: orders", number: int = 1) -> EmailMessage:
    message = EmailMessage()
    message["From"] = "PBEM Moderator <moderator@pbem.test>"
    message["To"] = to
    message["Subject"] = subject
    message["Message-ID"] = f"<reply-{number}@pbem.test>"
    message["Auto-Submitted"] = "auto-replied"
    message.set_content("Results:\n  MOVE 1 2: accepted\n")
    return message


def test_send_delivers_to_the_players_mailbox(world: MailWorld) -> None:
    alice = world.player("alice")

    SmtpSender(world.smtp_settings()).send(reply(alice.address))

    (received,) = alice.wait_for_mail()
    assert received["From"] == "PBEM Moderator <moderator@pbem.test>"
    assert received["To"] == alice.address
    assert received["Subject"] == "Re: orders"
    assert received["Message-ID"] == "<reply-1@pbem.test>"
    assert received["Auto-Submitted"] == "auto-replied"
    assert received["Date"] is not None  # added at send time, as the outbox expects
    assert received["Return-Path"] == "<moderator@pbem.test>"
    assert text_of(received) == "Results:\r\n  MOVE 1 2: accepted\r\n"


def test_the_callers_message_is_left_unchanged(world: MailWorld) -> None:
    alice = world.player("alice")
    message = reply(alice.address)

    SmtpSender(world.smtp_settings()).send(message)

    assert message["Date"] is None


def test_envelope_sender_and_helo_name_come_from_the_settings(world: MailWorld) -> None:
    alice = world.player("alice")
    settings = world.smtp_settings(envelope_from="bounces@pbem.test")

    SmtpSender(settings).send(reply(alice.address))

    (received,) = alice.wait_for_mail()
    assert received["Return-Path"] == "<bounces@pbem.test>"
    assert world.relay.helo_of(alice.address) == "moderator.pbem.test"
    assert world.relay.login_of(alice.address) == ""  # no user in the settings: no AUTH


@pytest.mark.parametrize("security", ["starttls", "tls"])
def test_starttls_and_tls_with_auth(world: MailWorld, security: str) -> None:
    moderator, alice = world.account("moderator"), world.player("alice")

    SmtpSender(world.smtp_settings(moderator, security=security)).send(reply(alice.address))

    assert [m["Message-ID"] for m in alice.wait_for_mail()] == ["<reply-1@pbem.test>"]
    assert world.relay.login_of(alice.address) == moderator.address


@pytest.mark.parametrize("security", ["plain", "starttls", "tls"])
def test_one_connection_carries_mail_after_mail(world: MailWorld, security: str) -> None:
    """A deadline wave sends thousands: each send does not pay TCP, TLS and AUTH again."""
    moderator, alice = world.account("moderator"), world.player("alice")
    sender = SmtpSender(world.smtp_settings(moderator, security=security))
    for number in (1, 2, 3):
        sender.send(reply(alice.address, number=number))
    sender.close()

    assert len(alice.wait_for_mail(3)) == 3
    assert len(set(world.relay.peers_of(alice.address))) == 1


@pytest.mark.parametrize("fresh", [True, False], ids=["used-a-moment-ago", "probed-by-noop"])
def test_a_connection_the_server_closed_is_replaced_without_a_failure(
    world: MailWorld, monkeypatch: pytest.MonkeyPatch, fresh: bool
) -> None:
    """Found closed by the NOOP, or (used a moment ago, so not probed) by the mail's first
    command: either way the mail goes on a new connection."""
    if not fresh:
        monkeypatch.setattr("pbem.mail.smtp.FRESH_SECONDS", 0.0)
    alice = world.player("alice")
    sender = SmtpSender(world.smtp_settings())
    sender.send(reply(alice.address, number=1))
    world.smtp["plain"].stop()  # closes every connection, the kept one too
    world.smtp["plain"].start()
    sender.send(reply(alice.address, number=2))
    sender.close()

    assert [m["Message-ID"] for m in alice.wait_for_mail(2)] == [
        "<reply-1@pbem.test>",
        "<reply-2@pbem.test>",
    ]
    first, second = world.relay.peers_of(alice.address)
    assert first != second


def test_a_connection_the_server_closes_with_a_421_is_replaced_without_a_failure(
    world: MailWorld,
) -> None:
    """Used a moment ago, so not probed: a server that answers its MAIL FROM with 421 (it is
    closing the connection) has the mail again on a new connection."""
    alice = world.player("alice")
    sender = SmtpSender(world.smtp_settings())
    sender.send(reply(alice.address, number=1))
    world.relay.refuse_next_mail = "421 4.4.2 closing connection"
    try:
        sender.send(reply(alice.address, number=2))
    finally:
        world.relay.refuse_next_mail = None
    sender.close()

    assert len(alice.wait_for_mail(2)) == 2
    first, second = world.relay.peers_of(alice.address)
    assert first != second


def test_a_connection_that_just_carried_a_mail_is_not_probed_first(
    world: MailWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a deadline wave a NOOP before each mail cost a round trip as dear as the send: a
    connection used a moment ago carries the next mail at once; one idle longer is asked."""
    alice = world.player("alice")
    noops: list[bool] = []
    real_noop = aiosmtplib.SMTP.noop

    async def counted(self: aiosmtplib.SMTP, *args: Any, **kwargs: Any) -> Any:
        noops.append(True)
        return await real_noop(self, *args, **kwargs)

    monkeypatch.setattr(aiosmtplib.SMTP, "noop", counted)
    sender = SmtpSender(world.smtp_settings())
    for number in (1, 2, 3):
        sender.send(reply(alice.address, number=number))
    assert noops == []
    monkeypatch.setattr("pbem.mail.smtp.FRESH_SECONDS", 0.0)  # as if idle since
    sender.send(reply(alice.address, number=4))
    sender.close()

    assert len(noops) == 1
    assert len(alice.wait_for_mail(4)) == 4
    assert len(set(world.relay.peers_of(alice.address))) == 1


def test_a_connection_is_replaced_after_its_share_of_messages(
    world: MailWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice = world.player("alice")
    monkeypatch.setattr("pbem.mail.smtp.REUSE_MESSAGES", 2)
    sender = SmtpSender(world.smtp_settings())
    for number in (1, 2, 3):
        sender.send(reply(alice.address, number=number))
    sender.close()

    assert len(alice.wait_for_mail(3)) == 3
    peers = world.relay.peers_of(alice.address)
    assert peers[0] == peers[1] != peers[2]


def test_a_wrong_password_is_temporary_and_about_the_transport(
    world: MailWorld, caplog: pytest.LogCaptureFixture
) -> None:
    moderator, alice = world.account("moderator"), world.player("alice")
    settings = world.smtp_settings(moderator, security="starttls", password="not-the-password")
    caplog.set_level(logging.DEBUG)

    with pytest.raises(TemporaryFailure) as failure:
        SmtpSender(settings).send(reply(alice.address))

    assert (failure.value.code, failure.value.transport_down) == (535, True)
    assert "not-the-password" not in caplog.text
    assert "not-the-password" not in str(failure.value)


def test_starttls_is_never_skipped(world: MailWorld) -> None:
    """Asked for STARTTLS, a server that does not offer it gets nothing in the clear."""
    alice = world.player("alice")
    settings = world.smtp_settings(security="starttls", port=world.smtp["plain"].port)

    with pytest.raises(TemporaryFailure, match="STARTTLS") as failure:
        SmtpSender(settings).send(reply(alice.address))

    assert failure.value.transport_down is True
    assert world.relay.delivered_to(alice.address) == 0


def test_an_untrusted_certificate_is_refused(world: MailWorld) -> None:
    moderator, alice = world.account("moderator"), world.player("alice")
    settings = world.smtp_settings(moderator, security="tls", ca_file="")

    with pytest.raises(TemporaryFailure, match="CERTIFICATE_VERIFY_FAILED") as failure:
        SmtpSender(settings).send(reply(alice.address))

    assert failure.value.transport_down is True


def test_an_unknown_recipient_is_permanent(world: MailWorld) -> None:
    with pytest.raises(PermanentFailure) as failure:
        SmtpSender(world.smtp_settings()).send(reply("nobody@pbem.test"))

    assert failure.value.code == 550
    assert failure.value.recipients == ("nobody@pbem.test",)
    assert str(failure.value) == (
        "nobody@pbem.test: 550 5.1.1 <nobody@pbem.test>: Recipient address rejected: User unknown"
    )


def test_a_deferral_is_temporary_and_about_the_message(world: MailWorld) -> None:
    alice = world.player("alice")
    world.relay.defer = "451 4.3.0 Mailbox busy, try again later"
    sender = SmtpSender(world.smtp_settings())

    with pytest.raises(TemporaryFailure) as failure:
        sender.send(reply(alice.address))

    assert (failure.value.code, failure.value.transport_down) == (451, False)
    assert str(failure.value) == "smtp: 451 4.3.0 Mailbox busy, try again later"
    assert sender.ready_in() == 0.0  # nothing wrong with the server: the next mail may go


def test_a_rejected_message_is_permanent(world: MailWorld) -> None:
    alice = world.player("alice")
    world.relay.defer = "554 5.7.1 Message rejected as spam"

    with pytest.raises(PermanentFailure) as failure:
        SmtpSender(world.smtp_settings()).send(reply(alice.address))

    assert (failure.value.code, failure.value.recipients) == (554, ())


def test_an_outage_backs_off_and_nothing_is_lost(world: MailWorld) -> None:
    alice = world.player("alice")
    fake = FakeTime()
    settings = world.smtp_settings(backoff_first_seconds=5, backoff_max_seconds=30)
    sender = SmtpSender(settings, clock=fake.clock)
    world.smtp["plain"].stop()

    with pytest.raises(TemporaryFailure, match="ConnectError") as down:
        sender.send(reply(alice.address, number=1))
    assert (down.value.transport_down, down.value.retry_in) == (True, 5.0)

    # Within the backoff the sender does not even try.
    fake.advance(4)
    with pytest.raises(TemporaryFailure, match="waiting") as waiting:
        sender.send(reply(alice.address, number=1))
    assert waiting.value.retry_in == 1.0
    assert sender.ready_in() == 1.0

    fake.advance(1)
    with pytest.raises(TemporaryFailure) as again:
        sender.send(reply(alice.address, number=1))
    assert again.value.retry_in == 10.0

    world.smtp["plain"].start()
    fake.advance(10)
    sender.send(reply(alice.address, number=1))
    sender.send(reply(alice.address, number=2))

    assert sender.ready_in() == 0.0
    assert [m["Message-ID"] for m in alice.wait_for_mail(2)] == [
        "<reply-1@pbem.test>",
        "<reply-2@pbem.test>",
    ]


def test_the_rate_limit_holds_mail_back_without_sending(world: MailWorld) -> None:
    alice = world.player("alice")
    fake = FakeTime()
    sender = SmtpSender(world.smtp_settings(rate_per_minute=2), clock=fake.clock)

    sender.send(reply(alice.address, number=1))
    fake.advance(10)
    sender.send(reply(alice.address, number=2))
    fake.advance(10)
    with pytest.raises(TemporaryFailure, match="rate limit of 2 a minute") as limited:
        sender.send(reply(alice.address, number=3))
    assert (limited.value.transport_down, limited.value.retry_in) == (True, 40.0)

    fake.advance(40)
    sender.send(reply(alice.address, number=3))

    assert len(alice.wait_for_mail(3)) == 3
    assert world.relay.delivered_to(alice.address) == 3


def test_a_stored_mail_with_attachments_is_sent_as_it_stands(world: MailWorld) -> None:
    alice = world.player("alice")
    picture = bytes(range(256)) * 100
    raw = mail_bytes(
        sender="PBEM Moderator <moderator@pbem.test>",
        to=alice.address,
        subject="[g1] turn 3 report",
        body="Turn 3 of g1.\n",
        message_id="<report-3@pbem.test>",
        loop_token="pbem.test",
        auto="auto-generated",
        attachments=(Attachment("map-g1-3-alice.png", "image/png", picture),),
    )

    SmtpSender(world.smtp_settings()).send_raw(raw)

    (received,) = alice.wait_for_mail()
    assert received["Message-ID"] == "<report-3@pbem.test>"
    assert received["Date"] is not None  # added at send time
    assert received["Return-Path"] == "<moderator@pbem.test>"
    assert text_of(received).replace("\r\n", "\n") == "Turn 3 of g1.\n"
    [part] = list(received.iter_attachments())
    assert part.get_filename() == "map-g1-3-alice.png" and part.get_content() == picture
