"""The mail conversation on the real servers (Dovecot, the SMTP relay), through `pbem serve`
and `pbem referee`: a deadline change reaches every player's mailbox; orders forwarded or sent
as a text attachment are accepted; a 100,000-line mail is answered briefly while another
player's reply still arrives within 2 s; a check reply overtakes a queued wave of reports
under the rate limit; a failed IMAP login fails `serve --once`; a referee action on the
command line reaches a sleeping daemon's players within seconds."""

from __future__ import annotations

import time
from collections import Counter
from email.message import EmailMessage

import pytest
from sqlmodel import col, select

from engine import get_ruleset
from pbem.cli import main
from pbem.games.games import pending_turn
from pbem.games.outbox import Letter, queue
from pbem.intake.poll import poll_once
from pbem.mail.compose import text_of
from pbem.mail.imap import ImapInbox
from pbem.mail.smtp import SmtpSender
from pbem.store import Game, Outbox, loads, transaction, utcnow
from pbem.store.work import work_of
from tests.servers.moderated import SEATS, Table, inbound_rows
from tests.servers.test_daemon_on_real_mail import serve_once
from tests.servers.test_daemon_on_real_mail import table as table  # the fixture
from tests.servers.test_daemon_process import Daemons
from tests.servers.world import MailWorld


def test_a_deadline_change_reaches_every_mailbox(
    table: Table, capsys: pytest.CaptureFixture[str]
) -> None:
    serve_once(table, capsys)
    table.wait_for_subjects(1)
    table.players["alice"].send(
        table.moderator.address, table_orders(table, "alice"), subject="turn 1"
    )
    serve_once(table, capsys)
    table.players["alice"].wait_for_mail(2)
    argv = ["--config", str(table.config), "referee", "g1", "deadline", "set"]
    assert main([*argv, "2030-01-02T03:04", "--reason", "the map is ready early"]) == 0
    # In the ruleset's order, as STATUS names them (pbem.games.games.awaited).
    said = capsys.readouterr().out.rstrip("\n").split("no orders yet from ")[1]
    assert sorted(said.split(", ")) == ["bob", "cy"]
    serve_once(table, capsys)
    for seat in SEATS:
        mails = table.players[seat].wait_for_mail(3 if seat == "alice" else 2)
        [notice] = [m for m in mails if str(m["Subject"]) == "[g1] turn 1: new deadline"]
        text = text_of(notice)
        assert "Now:    2030-01-02 03:04 UTC" in text
        assert "Reason: the map is ready early" in text
        missing = f"We have no orders from {seat} for turn 1 yet." in " ".join(text.split())
        assert missing == (seat != "alice")


def table_orders(table: Table, seat: str) -> str:
    """The bot's order mail body for `seat` on turn 1 of the table's game."""
    with transaction(table.service.db) as session:
        game = session.get(Game, "g1")
        assert game is not None
        turn = pending_turn(work_of(session), game)
        assert turn is not None
        state = loads(turn.state_before)
    orders = get_ruleset("temples-and-swords").bot_orders(state, seat, 7)
    return f"GAME g1 SEAT {seat} PASSWORD pw-{seat}\nTURN 1\n{orders}END\n"


def test_forwarded_and_attached_orders_are_accepted(
    table: Table, capsys: pytest.CaptureFixture[str]
) -> None:
    serve_once(table, capsys)
    table.wait_for_subjects(1)
    alice, bob = table.players["alice"], table.players["bob"]

    inner = EmailMessage()
    inner["From"] = alice.address
    inner["Subject"] = "orders"
    inner.set_content(table_orders(table, "alice"))
    forwarded = _message(alice.address, table.moderator.address, "Fwd: orders")
    forwarded.set_content("See below: I sent these to myself by mistake.\n")
    forwarded.add_attachment(inner)
    alice.send_message(forwarded)

    attached = _message(bob.address, table.moderator.address, "orders")
    attached.set_content("Orders attached.\n")
    attached.add_attachment(table_orders(table, "bob"), filename="orders.txt")
    bob.send_message(attached)

    assert serve_once(table, capsys)[0] == "mail in: 2 (2 accepted)"
    assert inbound_rows(table.service) == [("accepted", 1)] * 2
    for player, where in ((alice, "the forwarded message"), (bob, "attachment orders.txt")):
        reply = player.wait_for_mail(2)[-1]
        text = " ".join(text_of(reply).split())
        assert text.startswith(f"Orders for {player.account.address.split('-')[0]} in game g1")
        assert f"orders read from {where}; line numbers are its lines" in text


def _message(sender: str, to: str, subject: str) -> EmailMessage:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    return message


def test_a_huge_mail_is_answered_briefly_and_holds_up_nobody(
    table: Table, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 100,000-line order mail, then bob's orders: bob's check reply is in his mailbox
    within 2 s of the pass starting, and alice's answer is a short refusal."""
    serve_once(table, capsys)
    table.wait_for_subjects(1)
    alice, bob = table.players["alice"], table.players["bob"]
    huge = "GAME g1 SEAT alice PASSWORD pw-alice\n" + "MOVE A1 B1\n" * 100_000
    alice.send(table.moderator.address, huge, subject="many orders")
    bob.send(table.moderator.address, table_orders(table, "bob"), subject="turn 1")
    started = time.monotonic()
    assert serve_once(table, capsys)[0] == "mail in: 2 (1 accepted, 1 quarantined)"
    bob.wait_for_mail(2, timeout=2.0)
    assert time.monotonic() - started < 2.0
    assert str(bob.mailbox()[-1]["Subject"]) == "Re: turn 1"
    [refusal] = [m for m in alice.wait_for_mail(2) if str(m["Subject"]) == "Re: many orders"]
    assert len(refusal.as_bytes()) < 3_000
    assert "the mail has 100,001 lines" in text_of(refusal)


def test_a_check_reply_goes_out_before_a_wave_of_reports_under_the_rate_limit(
    world: MailWorld, table: Table
) -> None:
    """Ten mails a minute: the start mails and a wave of 20 reports fill what bulk mail may
    use of the limit (8), then alice's orders come in; her check reply goes out at once,
    ahead of the 15 reports still waiting, in a slot the limit keeps for replies."""
    moderator, service = table.moderator, table.service
    inbox = ImapInbox(world.imap_settings(moderator))
    sender = SmtpSender(world.smtp_settings(moderator, rate_per_minute=10))
    now = utcnow()
    with service.store.transaction() as work:
        for n in range(20):
            seat = SEATS[n % 3]
            text = f"report {n}\n"
            letter = Letter(
                "report",
                table.players[seat].address,
                f"[g1] report {n}",
                text,
                f"wave-{n}@pbem.test",
                game_id="g1",
            )
            queue(work, service.settings, letter, now=now)
    try:
        first = poll_once(service, inbox, sender, now=now)
        assert (first.drained.sent, first.drained.stopped) == (
            8,  # what bulk may use of the limit: the 3 start mails and 5 of the wave
            "smtp: rate limit of 10 a minute reached",
        )
        table.players["alice"].send(moderator.address, table_orders(table, "alice"), subject="t1")
        second = poll_once(service, inbox, sender, now=utcnow())
    finally:
        inbox.close()
    assert second.statuses == Counter(accepted=1)
    assert second.drained.sent == 1
    subjects = [str(m["Subject"]) for m in table.players["alice"].wait_for_mail(1)]
    assert "Re: t1" in subjects
    with transaction(service.db) as session:
        waiting = session.exec(select(Outbox.kind).where(col(Outbox.sent_at).is_(None))).all()
    assert list(waiting) == ["report"] * 15


def test_serve_once_exits_non_zero_when_the_imap_login_fails(
    table: Table, capsys: pytest.CaptureFixture[str]
) -> None:
    (table.config.parent / "mailbox-password").write_text("not the password\n")
    capsys.readouterr()
    assert main(["serve", "--once", "--config", str(table.config)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith("inbox unavailable: ")


def test_a_referee_action_on_the_command_line_reaches_players_at_once(
    table: Table, capsys: pytest.CaptureFixture[str]
) -> None:
    """`pbem serve` sleeps in IMAP IDLE with a minute to its next wake-up; a deadline set
    with `pbem referee` is in every mailbox within seconds, not at the next pass."""
    table.config.write_text(
        table.config.read_text().replace("max_wait_seconds = 5", "max_wait_seconds = 60")
    )
    daemons = Daemons(table.config)
    try:
        daemons.start()
        table.wait_for_subjects(1)
        time.sleep(0.5)  # the daemon is asleep now, its next wake-up a minute away
        argv = ["--config", str(table.config), "referee", "g1", "deadline", "set"]
        started = time.monotonic()
        assert main([*argv, "2030-01-02T03:04", "--reason", "a test"]) == 0
        for seat in SEATS:
            table.players[seat].wait_for_mail(2, timeout=10)
        assert time.monotonic() - started < 5.0
        assert all(
            subjects[-1] == "[g1] turn 1: new deadline"
            for subjects in table.wait_for_subjects(2).values()
        )
    finally:
        daemons.close()
