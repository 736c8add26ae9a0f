"""A player's own settings by real mail (issue 19), through Dovecot and the SMTP relay: a
password change, an address change confirmed from the new mailbox, a resignation and LIST;
and nothing that reaches another player carries a player's address or password."""

from __future__ import annotations

import re

import pytest

from pbem.games.lifecycle import GameSpec, create_game
from pbem.mail.compose import text_of
from pbem.store import utcnow
from tests.servers.moderated import GAME, SEATS, Table
from tests.servers.test_daemon_on_real_mail import serve_once
from tests.servers.test_daemon_on_real_mail import table as table  # the fixture
from tests.servers.world import MailWorld


def _last(table: Table, seat: str, count: int) -> str:
    mails = table.players[seat].wait_for_mail(count)
    assert len(mails) >= count, [str(m["Subject"]) for m in mails]
    return " ".join(text_of(mails[-1]).split())


def test_password_address_resign_and_list_by_real_mail(
    table: Table, world: MailWorld, capsys: pytest.CaptureFixture[str]
) -> None:
    moderator, alice, bob = table.moderator.address, table.players["alice"], table.players["bob"]
    serve_once(table, capsys)
    table.wait_for_subjects(1)  # the start mail

    alice.send(moderator, f"GAME {GAME} SEAT alice PASSWORD pw-alice\nSET PASSWORD Lark-Song-77")
    serve_once(table, capsys)
    text = _last(table, "alice", 2)
    assert "is changed to L" in text and "Lark-Song-77" not in text

    new = world.player("alice-new")
    alice.send(
        moderator, f"GAME {GAME} SEAT alice PASSWORD Lark-Song-77\nSET ADDRESS {new.address}"
    )
    serve_once(table, capsys)
    [asked] = new.wait_for_mail(1)
    code = re.search(r"CONFIRM ([A-Z0-9]{8})", text_of(asked))
    assert code is not None
    assert "asked to move its mail to" in _last(table, "alice", 3)
    new.send(moderator, f"CONFIRM {code.group(1)}", subject=f"Re: {asked['Subject']}")
    serve_once(table, capsys)
    assert "now goes to" in _last(table, "alice", 4)  # the old address is told
    assert len(new.wait_for_mail(2)) == 2  # and the new one
    new.send(moderator, f"GAME {GAME} SEAT alice PASSWORD Lark-Song-77\nSTATUS")
    serve_once(table, capsys)
    assert "g1" in " ".join(text_of(new.wait_for_mail(3)[-1]).split())

    bob.send(moderator, f"GAME {GAME} SEAT bob PASSWORD pw-bob\nRESIGN")
    serve_once(table, capsys)
    assert "You have resigned seat bob of game g1" in _last(table, "bob", 2)

    with table.service.store.transaction() as work:  # a game open to join, for LIST
        spec = GameSpec(id="open1", ruleset="temples-and-swords", seats=(), seed=1,
                        signup_seats=3)  # fmt: skip
        create_game(work, table.service.settings, spec, now=utcnow())
    stranger = world.player("stranger")
    stranger.send(moderator, "LIST")
    serve_once(table, capsys)
    [listing] = stranger.wait_for_mail(1)
    assert "open1" in text_of(listing)

    secrets = [alice.address, new.address, "Lark-Song-77", "pw-alice", "pw-bob"]
    for seat in SEATS:
        if seat == "alice":
            continue
        for message in table.players[seat].mailbox():
            content = text_of(message)
            assert not any(secret in content for secret in secrets), message["Subject"]
    for message in stranger.mailbox():
        assert not any(secret in text_of(message) for secret in secrets)
