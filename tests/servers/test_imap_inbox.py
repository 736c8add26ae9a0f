"""ImapInbox against a real Dovecot: mail sent by players through the SMTP server shows up as
pending, leaves when marked done, survives reconnects, and IDLE wakes the waiter at once."""

from __future__ import annotations

import logging
import threading
import time
from email import message_from_bytes
from typing import Any

import pytest
from imap_tools import MailBoxUnencrypted

from pbem.daemon.wake import Wake
from pbem.mail.imap import ImapInbox, ImapItem, ImapUnavailable
from tests.servers.dovecot import Account
from tests.servers.fake_time import FakeTime
from tests.servers.world import MailWorld, read_folder


def message_ids(items: list[ImapItem]) -> list[str]:
    return [str(message_from_bytes(item.raw)["Message-ID"]) for item in items]


def folder_state(world: MailWorld, account: Account, folder: str = "INBOX") -> dict[str, str]:
    """UIDVALIDITY, and each UID's flags, as the server has them."""
    with MailBoxUnencrypted("127.0.0.1", world.dovecot.imap_port, timeout=5) as box:
        box.login(account.address, account.password, initial_folder=folder)
        state = {"uidvalidity": str(box.folder.status(folder, ["UIDVALIDITY"])["UIDVALIDITY"])}
        for message in box.fetch(mark_seen=False, headers_only=True):
            state[str(message.uid)] = " ".join(sorted(message.flags))
        return state


def test_pending_lists_waiting_mail_oldest_first_with_the_stored_bytes(world: MailWorld) -> None:
    moderator, alice, bob = world.account("moderator"), world.player("alice"), world.player("bob")
    first = alice.send(moderator.address, "GAME g1 SEAT red PASSWORD x\nMOVE 1 2\n")
    second = bob.send(moderator.address, "GAME g1 SEAT blue PASSWORD y\nHOLD\n")
    uidvalidity = folder_state(world, moderator)["uidvalidity"]

    with ImapInbox(world.imap_settings(moderator)) as inbox:
        items = inbox.pending()

    assert [item.key for item in items] == [f"{uidvalidity}:1", f"{uidvalidity}:2"]
    assert message_ids(items) == [first, second]
    assert [item.raw for item in items] == read_folder(world, moderator)
    assert message_from_bytes(items[1].raw).get_payload() == (
        "GAME g1 SEAT blue PASSWORD y\r\nHOLD\r\n"
    )


def test_reading_does_not_mark_mail_seen(world: MailWorld) -> None:
    moderator, alice = world.account("moderator"), world.player("alice")
    alice.send(moderator.address, "HELP\n")

    with ImapInbox(world.imap_settings(moderator)) as inbox:
        assert len(inbox.pending()) == 1

    assert folder_state(world, moderator)["1"] == ""


def test_mark_done_moves_to_the_processed_folder_and_survives_a_restart(
    world: MailWorld,
) -> None:
    moderator, alice = world.account("moderator"), world.player("alice")
    first = alice.send(moderator.address, "STATUS\n")
    second = alice.send(moderator.address, "HELP\n")
    settings = world.imap_settings(moderator, processed_folder="Done")

    with ImapInbox(settings) as inbox:
        done, waiting = inbox.pending()
        inbox.mark_done(done.key)
        inbox.mark_done(done.key)  # again, as after a crash between move and bookkeeping
        assert message_ids(inbox.pending()) == [second]

    # A new process (a restart) sees the same: the moved mail is not pending again.
    with ImapInbox(settings) as inbox:
        assert inbox.pending() == [waiting]

    assert read_folder(world, moderator, "Done") == [done.raw]
    assert [message_from_bytes(raw)["Message-ID"] for raw in read_folder(world, moderator)] == [
        second
    ]
    assert message_ids([done]) == [first]


@pytest.mark.parametrize("processed_folder", ["Done", ""])
def test_several_marked_done_go_in_one_command(world: MailWorld, processed_folder: str) -> None:
    """A deadline wave's intake marks its batch together: one UID MOVE (or STORE) for them
    all, not a round trip a mail. A key of an older UIDVALIDITY among them is left alone."""
    moderator, alice = world.account("moderator"), world.player("alice")
    sent = [alice.send(moderator.address, f"STATUS {n}\n") for n in range(4)]
    settings = world.imap_settings(moderator, processed_folder=processed_folder)

    with ImapInbox(settings) as inbox:
        items = inbox.pending()
        uidvalidity, uid = items[3].key.split(":")
        stale = f"{int(uidvalidity) + 1}:{uid}"
        commands: list[tuple[str, ...]] = []
        client = inbox._connected().box.client
        real_uid = client.uid

        def counted(command: str, *args: str) -> Any:
            commands.append((command, *args))
            return real_uid(command, *args)

        client.uid = counted  # type: ignore[method-assign]
        inbox.mark_done(*(item.key for item in items[:3]), stale)
        assert [command[:2] for command in commands] == [
            (
                "MOVE" if processed_folder else "STORE",
                ",".join(i.key.split(":")[1] for i in items[:3]),
            )
        ]
        inbox.mark_done()  # nothing: no command
        assert len(commands) == 1
        assert message_ids(inbox.pending()) == [sent[3]]


@pytest.mark.parametrize("flag", ["\\Flagged", "\\Seen", "$PbemDone"])
def test_flag_mode_leaves_the_mail_in_place_with_the_done_flag(world: MailWorld, flag: str) -> None:
    moderator, alice = world.account("moderator"), world.player("alice")
    alice.send(moderator.address, "STATUS\n")
    second = alice.send(moderator.address, "HELP\n")
    settings = world.imap_settings(moderator, processed_folder="", done_flag=flag)

    with ImapInbox(settings) as inbox:
        inbox.mark_done(inbox.pending()[0].key)
        assert message_ids(inbox.pending()) == [second]

    state = folder_state(world, moderator)
    assert (state["1"], state["2"]) == (flag, "")


def test_a_key_from_another_uidvalidity_is_left_alone(world: MailWorld) -> None:
    moderator, alice = world.account("moderator"), world.player("alice")
    alice.send(moderator.address, "STATUS\n")

    with ImapInbox(world.imap_settings(moderator)) as inbox:
        (item,) = inbox.pending()
        uidvalidity, uid = item.key.split(":")
        inbox.mark_done(f"{int(uidvalidity) + 1}:{uid}")
        assert inbox.pending() == [item]
        with pytest.raises(KeyError):
            inbox.mark_done("not-a-key")


@pytest.mark.parametrize("security", ["tls", "starttls"])
def test_tls_and_starttls(world: MailWorld, security: str) -> None:
    moderator, alice = world.account("moderator"), world.player("alice")
    sent = alice.send(moderator.address, "STATUS\n")

    with ImapInbox(world.imap_settings(moderator, security=security)) as inbox:
        assert message_ids(inbox.pending()) == [sent]
        assert inbox.mode == "idle"


def test_an_untrusted_certificate_is_refused(world: MailWorld) -> None:
    moderator = world.account("moderator")
    settings = world.imap_settings(moderator, security="tls", ca_file="")

    with ImapInbox(settings) as inbox, pytest.raises(ImapUnavailable, match="CERTIFICATE"):
        inbox.pending()


def test_reconnects_when_the_server_drops_the_connection(world: MailWorld) -> None:
    moderator, alice = world.account("moderator"), world.player("alice")
    with ImapInbox(world.imap_settings(moderator)) as inbox:
        assert inbox.pending() == []
        world.dovecot.kick(moderator.address)
        sent = alice.send(moderator.address, "STATUS\n")

        assert message_ids(inbox.pending()) == [sent]
        assert inbox.mode == "idle"


def test_server_down_backs_off_without_blocking_and_recovers(world: MailWorld) -> None:
    moderator, alice = world.account("moderator"), world.player("alice")
    fake = FakeTime()
    settings = world.imap_settings(moderator, backoff_first_seconds=2, backoff_max_seconds=5)
    with ImapInbox(settings, clock=fake.clock, sleep=fake.sleep) as inbox:
        assert inbox.pending() == []
        world.dovecot.stop()

        with pytest.raises(ImapUnavailable, match="ConnectionRefusedError"):
            inbox.pending()  # the stale connection fails, the reconnect is refused
        with pytest.raises(ImapUnavailable, match="waiting 2s"):
            inbox.pending()  # within the backoff: no network at all
        # Sleeps out the backoff (2 s), tries (refused), 4 s, tries, then the delay would be
        # 5 s (the cap) but only 4 s of the timeout are left.
        assert inbox.wait_for_mail(10) is False
        assert fake.sleeps == [2.0, 4.0, 4.0]

        world.dovecot.start()
        sent = alice.send(moderator.address, "STATUS\n")
        assert inbox.wait_for_mail(60) is True  # the last second of the backoff, then mail
        assert fake.sleeps == [2.0, 4.0, 4.0, 1.0]
        assert message_ids(inbox.pending()) == [sent]


def test_idle_wakes_within_a_second_of_delivery(world: MailWorld) -> None:
    moderator, alice = world.account("moderator"), world.player("alice")
    delivered: list[float] = []

    def deliver_later() -> None:
        time.sleep(0.3)
        alice.send(moderator.address, "STATUS\n")
        delivered.append(time.monotonic())

    with ImapInbox(world.imap_settings(moderator)) as inbox:
        assert inbox.pending() == []
        assert inbox.mode == "idle"
        sender = threading.Thread(target=deliver_later)
        sender.start()
        woke = inbox.wait_for_mail(10)
        woke_at = time.monotonic()
        sender.join()
        assert woke is True
        assert woke_at - delivered[0] < 1.0
        assert len(inbox.pending()) == 1


def test_idle_times_out_quietly_and_the_connection_stays_usable(world: MailWorld) -> None:
    moderator = world.account("moderator")
    with ImapInbox(world.imap_settings(moderator)) as inbox:
        started = time.monotonic()
        assert inbox.wait_for_mail(0.5) is False
        assert 0.5 <= time.monotonic() - started < 1.5
        assert inbox.pending() == []
        assert inbox.mode == "idle"


def test_waiting_mail_returns_at_once(world: MailWorld) -> None:
    moderator, alice = world.account("moderator"), world.player("alice")
    alice.send(moderator.address, "STATUS\n")
    fake = FakeTime()
    with ImapInbox(world.imap_settings(moderator), clock=fake.clock, sleep=fake.sleep) as inbox:
        assert inbox.wait_for_mail(60) is True
        assert fake.sleeps == []


def test_a_dropped_idle_connection_wakes_the_waiter(world: MailWorld) -> None:
    moderator, alice = world.account("moderator"), world.player("alice")
    kicked: list[float] = []

    def kick_later() -> None:
        time.sleep(0.3)
        kicked.append(time.monotonic())
        world.dovecot.kick(moderator.address)

    with ImapInbox(world.imap_settings(moderator)) as inbox:
        inbox.pending()
        kicker = threading.Thread(target=kick_later)
        kicker.start()
        assert inbox.wait_for_mail(10) is True
        assert time.monotonic() - kicked[0] < 1.0
        kicker.join()
        assert inbox.mode == "disconnected"
        sent = alice.send(moderator.address, "STATUS\n")
        assert message_ids(inbox.pending()) == [sent]


def test_without_idle_it_polls_at_the_interval(world: MailWorld) -> None:
    moderator, alice = world.account("moderator"), world.player("alice")
    fake = FakeTime()
    settings = world.imap_settings(moderator, idle=False, poll_seconds=20)
    with ImapInbox(settings, clock=fake.clock, sleep=fake.sleep) as inbox:
        assert inbox.wait_for_mail(60) is False
        assert inbox.mode == "poll"

        def deliver(_seconds: float) -> None:
            alice.send(moderator.address, "STATUS\n")

        fake.on_sleep = deliver
        assert inbox.wait_for_mail(5) is True
        assert fake.sleeps == [20.0, 5.0]


def test_the_password_is_never_logged(
    world: MailWorld, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    moderator = world.account("moderator")
    monkeypatch.setenv("PBEM_TEST_IMAP_PASSWORD", moderator.password)
    caplog.set_level(logging.DEBUG)
    good = world.imap_settings(moderator, password="", password_env="PBEM_TEST_IMAP_PASSWORD")
    bad = world.imap_settings(moderator, password="wrong-" + moderator.password)

    with ImapInbox(good) as inbox:
        assert inbox.pending() == []
    with ImapInbox(bad) as inbox, pytest.raises(ImapUnavailable) as failure:
        inbox.pending()

    assert "AUTHENTICATIONFAILED" in str(failure.value)
    assert moderator.password not in str(failure.value)
    assert moderator.password not in caplog.text
    assert f"as {moderator.address}" in caplog.text


@pytest.mark.parametrize("idle", [True, False])
def test_the_bell_ends_the_wait_at_once_in_idle_and_in_a_poll(world: MailWorld, idle: bool) -> None:
    """The daemon's intake waits on the inbox and its Wake together: a retry, the safety
    poll or a stop rung 0.3 s into a wait ends it then, not at the next of some seconds'
    looks at a flag (it used to ask every 2 s)."""
    moderator = world.account("moderator")
    bell = Wake()
    rung: list[float] = []

    def ring_later() -> None:
        time.sleep(0.3)
        rung.append(time.monotonic())
        bell.set()

    settings = world.imap_settings(moderator, idle=idle, poll_seconds=30)
    with ImapInbox(settings) as inbox:
        assert inbox.pending() == []
        ringer = threading.Thread(target=ring_later)
        ringer.start()
        assert inbox.wait_for_mail(30, bell) is True
        woke_after = time.monotonic() - rung[0]
        ringer.join()
        assert woke_after < 1.0
        assert inbox.mode == ("idle" if idle else "poll")
        bell.take()
        started = time.monotonic()
        assert inbox.wait_for_mail(0.5, bell) is False  # taken: it rings no more
        assert time.monotonic() - started >= 0.5
