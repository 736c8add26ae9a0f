"""Press by real mail (issue 19), through Dovecot and the SMTP relay: named press from one seat
to another, a plain reply (as a mail client makes it) arriving back through the moderator,
anonymous press where the game allows it; no player's address in anything another reads."""

from __future__ import annotations

from email.message import EmailMessage

import pytest

from pbem.mail.compose import text_of
from pbem.store import Game, transaction
from tests.servers.moderated import GAME, Table
from tests.servers.test_daemon_on_real_mail import serve_once
from tests.servers.test_daemon_on_real_mail import table as table  # the fixture


def _reply_to(original: EmailMessage, sender: str, text: str) -> EmailMessage:
    """What a mail client sends for "Reply": to the From, In-Reply-To and References set,
    the original quoted below."""
    reply = EmailMessage()
    reply["From"] = sender
    reply["To"] = str(original["From"])
    reply["Subject"] = f"Re: {original['Subject']}"
    reply["In-Reply-To"] = str(original["Message-ID"])
    reply["References"] = str(original["Message-ID"])
    quoted = "\n".join("> " + line for line in text_of(original).splitlines())
    reply.set_content(f"{text}\n\nOn Monday the moderator wrote:\n{quoted}\n")
    return reply


def test_press_and_a_plain_reply_by_real_mail(
    table: Table, capsys: pytest.CaptureFixture[str]
) -> None:
    moderator = table.moderator.address
    alice, bob, cy = (table.players[seat] for seat in ("alice", "bob", "cy"))
    serve_once(table, capsys)
    table.wait_for_subjects(1)  # the start mail

    alice.send(moderator, f"GAME {GAME} SEAT alice PASSWORD pw-alice\n"
                          "PRESS TO bob\nShall we share the river?\nEND PRESS\n")  # fmt: skip
    serve_once(table, capsys)
    relayed = bob.wait_for_mail(2)[-1]
    assert str(relayed["Subject"]) == f"[{GAME}] press from alice"
    assert "Shall we share the river?" in text_of(relayed)
    assert "sent to bob" in " ".join(text_of(alice.wait_for_mail(2)[-1]).split())

    bob.send_message(_reply_to(relayed, bob.address, "Yes, the river is yours."))
    serve_once(table, capsys)
    answer = alice.wait_for_mail(3)[-1]
    assert str(answer["Subject"]) == f"[{GAME}] press from bob"
    assert "Yes, the river is yours." in text_of(answer)
    assert "Shall we share" not in text_of(answer)  # the quote stays out

    with transaction(table.service.db) as session:
        game = session.get(Game, GAME)
        assert game is not None
        game.grey_press = True
    cy.send(moderator, f"GAME {GAME} SEAT cy PASSWORD pw-cy\n"
                       "PRESS TO alice ANONYMOUS\nWatch bob.\nEND PRESS\n")  # fmt: skip
    serve_once(table, capsys)
    grey = alice.wait_for_mail(4)[-1]
    assert str(grey["Subject"]) == f"[{GAME}] anonymous press"
    assert "Watch bob." in text_of(grey) and "cy" not in text_of(grey).split()

    for reader, others in ((alice, (bob, cy)), (bob, (alice, cy)), (cy, (alice, bob))):
        for message in reader.mailbox():
            content = text_of(message) + str(message["From"]) + str(message["Reply-To"])
            assert not any(other.address in content for other in others), message["Subject"]
