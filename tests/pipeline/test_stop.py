"""STOP (issue 42, 4): whoever gets mail from pbem stops it all with one mail and no password,
by the token each mail's List-Unsubscribe carries; a STOP without it stops nothing and is
answered to its own address alone; the referees of the seat are told, and the game goes on."""

from __future__ import annotations

import mailbox
import re
from datetime import datetime, timedelta
from pathlib import Path
from urllib.parse import unquote

import pytest
from sqlmodel import select

from pbem.clock.turns import resolve_due
from pbem.games.outbox import drain
from pbem.games.service import Service
from pbem.games.stops import STOPPED, stop
from pbem.intake.intake import receive
from pbem.mail.maildir import MaildirSender
from pbem.store import JoinRequest, MailStop, transaction
from pbem.store.work import work_of
from tests.conftest import NOW
from tests.support.games import SEATS, body, new_game, orders, outbox, quarantined
from tests.support.mails import mail, order_mail

ALICE = "alice@example.org"
BOB = "bob@example.org"
REFEREE = "ref@example.org"
_MAILTO = re.compile(r"^<mailto:moderator@pbem\.localhost\?subject=(STOP%20[A-Z2-7]{16})>$")
_IDS = iter(range(10_000))


def _unsubscribe_subject(service: Service, to: str, box: Path) -> str:
    """The subject the List-Unsubscribe of the mail sent to `to` has a mail client send: the
    waiting mail is sent into the maildir `box` (the header is written as a mail is sent)."""
    drain(service, MaildirSender(box), now=NOW)
    sent = [message for message in mailbox.Maildir(box, create=False) if message["To"] == to]
    headers = {str(message["List-Unsubscribe"]) for message in sent}
    assert len(headers) == 1, headers  # one token an address
    found = _MAILTO.match(headers.pop())
    assert found is not None
    return unquote(found.group(1))


def _send(service: Service, now: datetime, text: str, sender: str, subject: str) -> list[str]:
    raw = mail(text, sender=sender, subject=subject, message_id=f"s{next(_IDS)}@x")
    return [row.recipient for row in receive(service, raw, now=now).replies]


def _stopped(service: Service) -> list[str]:
    with transaction(service.db) as session:
        return sorted(row.address for row in session.exec(select(MailStop)))


def test_every_mail_names_a_stop_for_its_own_address(
    service: Service, now: datetime, tmp_path: Path
) -> None:
    new_game(service, now)
    tokens = {to: _unsubscribe_subject(service, to, tmp_path) for to in (ALICE, BOB)}
    assert tokens[ALICE] != tokens[BOB]
    for message in mailbox.Maildir(tmp_path, create=False):
        # no one-click POST: pbem has no HTTP endpoint that takes one
        assert message["List-Unsubscribe-Post"] is None
    # the stored mail has no token: its bytes depend on the stored inputs alone
    assert all(b"List-Unsubscribe" not in row.raw for row in outbox(service))


def test_the_unsubscribe_mail_stops_every_mail_to_the_address(
    service: Service, now: datetime, tmp_path: Path
) -> None:
    new_game(service, now, referees=(REFEREE,))
    subject = _unsubscribe_subject(service, ALICE, tmp_path / "first")
    _send(service, now, "HELP", ALICE, "help")  # its answer waits in the outbox
    # a mail client's unsubscribe: the mailto's subject, no body; its one answer is the last
    # mail alice gets, with the way back (UNSTOP)
    assert _send(service, now, "", ALICE, subject) == [ALICE]
    assert _stopped(service) == [ALICE]
    last = [row for row in outbox(service) if row.recipient == ALICE][-1]
    assert last.dropped_at is None and f"UNSTOP {subject.split()[1]}" in body(last)
    told = [row for row in outbox(service) if row.recipient == REFEREE][-1]
    assert told.subject == "[g1] alice asked for no more mail"
    # The fresh-eyes test of issue 43: the notice gave the command-line spelling alone, with
    # no GAME line or BECAUSE, refused if mailed as written. It gives the mail form, and the
    # command line's labelled.
    assert (
        "    GAME g1 REFEREE <your password>\n"
        "    REASON alice asked for no more mail\n"
        "    REPLACE alice <their address> 48h\n"
    ) in body(told)
    assert (
        '    pbem referee g1 \\\n        replace alice <their address> 48h --reason "..."\n'
    ) in body(told)
    # A player who lost the code can be helped: the notice names the operator's way back.
    assert '    pbem unstop alice@example.org \\\n        --reason "..."\n' in body(told)
    # the answer still waiting is not sent, nor is anything later; bob's mail goes on
    receive(service, order_mail("g1", "bob", "pw-bob", "ADD 1", sender=BOB,
                                message_id="o1@x"), now=now)  # fmt: skip
    resolve_due(service, now=now + timedelta(days=3))
    to_alice = [
        row
        for row in outbox(service)
        if row.recipient == ALICE and row.sent_at is None and row.id != last.id
    ]
    assert len(to_alice) >= 2 and all(row.last_error == STOPPED for row in to_alice)
    box = tmp_path / "sent"
    drain(service, MaildirSender(box), now=now + timedelta(days=3))
    sent = [str(message["To"]) for message in mailbox.Maildir(box, create=False)]
    assert set(sent) == {ALICE, BOB, REFEREE} and sent.count(ALICE) == 1  # the answer alone
    # a second STOP is not answered either
    assert _send(service, now, "", ALICE, subject) == []


def test_a_stop_without_its_token_stops_nothing_and_answers_that_address_alone(
    service: Service, now: datetime, tmp_path: Path
) -> None:
    new_game(service, now, referees=(REFEREE,))
    bob_token = _unsubscribe_subject(service, BOB, tmp_path)
    alice_token = _unsubscribe_subject(service, ALICE, tmp_path)
    # written under alice's From by someone else: STOP alone, or with another's token
    assert _send(service, now, "STOP", ALICE, "stop") == [ALICE]
    assert _send(service, now, "", ALICE, bob_token) == [ALICE]
    assert _stopped(service) == []
    asked = [row for row in outbox(service) if row.recipient == ALICE and row.kind == "reply"]
    assert [row.subject for row in asked] == [alice_token, alice_token]
    assert "Nothing is stopped until then" in " ".join(body(asked[0]).split())
    assert "The code in your STOP is not the one of" in body(asked[1])
    assert all(row.recipient != REFEREE for row in outbox(service))
    # alice replies to the answer, its subject kept: now she is stopped
    assert _send(service, now, "STOP\n\n> ...", ALICE, f"Re: {asked[0].subject}") == [
        ALICE
    ]  # the STOP's one answer
    assert _stopped(service) == [ALICE]


def test_thanks_for_the_answer_to_an_unstop_stops_nothing(
    service: Service, now: datetime, tmp_path: Path
) -> None:
    """Fresh-eyes test: an UNSTOP sent as a reply to the STOP's answer was answered under
    "Re: STOP <code>"; a "thanks" to that answer stopped the address again and told the
    referees again. Our answers carry no STOP subject, and a reply's subject is no STOP."""
    new_game(service, now, referees=(REFEREE,))
    subject = _unsubscribe_subject(service, ALICE, tmp_path)
    code = subject.split()[1]
    assert _send(service, now, "", ALICE, subject) == [ALICE]
    assert _send(service, now, f"UNSTOP {code}", ALICE, f"Re: {subject}") == [ALICE]
    assert _stopped(service) == []
    answer = [row for row in outbox(service) if row.recipient == ALICE][-1]
    assert "STOP" not in answer.subject.upper() and answer.subject == "Re: your mail"
    told = len([row for row in outbox(service) if row.recipient == REFEREE])
    # the thanks, to that answer or (as a mail client may keep it) under the old subject
    _send(service, now, "thanks", ALICE, f"Re: {answer.subject}")
    _send(service, now, "thanks", ALICE, f"Re: Re: {subject}")
    assert _stopped(service) == []
    assert len([row for row in outbox(service) if row.recipient == REFEREE]) == told


def test_a_stop_naming_another_address_says_only_the_senders_can_be_stopped(
    service: Service, now: datetime
) -> None:
    """Issue 42's leftovers: "STOP bob@..." from alice was answered as if her code were
    wrong. It says that a STOP stops only its sender's mail, and nothing is stopped."""
    new_game(service, now)
    assert _send(service, now, f"STOP {BOB}", ALICE, "stop") == [ALICE]
    [asked] = [row for row in outbox(service) if row.recipient == ALICE and row.kind == "reply"]
    text = " ".join(body(asked).split())
    assert text.startswith(
        f"A STOP stops mail only to the address it comes from, so it cannot stop mail to {BOB}: "
        "whoever reads that address must send STOP from it. Nothing was stopped."
    )
    assert "The code in your STOP" not in text and _stopped(service) == []


def test_a_stop_naming_another_address_tells_how_to_stop_the_senders_in_one_paragraph(
    service: Service, now: datetime
) -> None:
    """Fresh-eyes test (issue 43): the answer to "STOP ann@..." from mallory@evil.example had
    a sentence ending in a colon followed by the generic paragraph, on a line of 78 columns.
    One paragraph says how to stop the sender's own mail, every line within 72 columns."""
    sender = "mallory@evil.example"
    assert _send(service, now, "STOP ann@example.org", sender, "stop") == [sender]
    [asked] = [row for row in outbox(service) if row.recipient == sender]
    lines = body(asked).splitlines()
    assert max(len(line) for line in lines) <= 72
    assert not any(line.rstrip().endswith(":") for line in lines)
    assert (
        f"To stop all mail from this moderator to {sender} instead (the address your mail "
        "came from), reply to this mail with STOP as the first line of your reply, its "
        "subject unchanged"
    ) in " ".join(body(asked).split())
    assert "to this address, reply" not in " ".join(body(asked).split())
    assert _stopped(service) == []


def test_a_stop_line_with_its_token_and_a_waiting_join_forgotten(
    service: Service, now: datetime, tmp_path: Path
) -> None:
    new_game(service, now, game="g2", seats=SEATS[:1], signup_seats=1)
    assert _send(service, now, "JOIN g2 vic PASSWORD x", "vic@example.org", "join") == [
        "vic@example.org"
    ]
    token = _unsubscribe_subject(service, "vic@example.org", tmp_path).split()[1]
    assert _send(service, now, f"STOP {token.lower()}", "vic@example.org", "hello") == [
        "vic@example.org"
    ]
    assert _stopped(service) == ["vic@example.org"]
    with transaction(service.db) as session:
        assert session.exec(select(JoinRequest)).all() == []


def test_an_auto_submitted_stop_is_never_answered(service: Service, now: datetime) -> None:
    new_game(service, now)
    raw = mail("STOP", sender=ALICE, subject="STOP", message_id="auto@x",
               headers={"Auto-Submitted": "auto-replied"})  # fmt: skip
    receipt = receive(service, raw, now=now)
    assert receipt.status == "ignored" and receipt.replies == []
    assert _stopped(service) == []


def test_help_names_stop(service: Service, now: datetime) -> None:
    [help_all] = _send(service, now, "HELP", "zed@example.org", "help")
    assert help_all == "zed@example.org"
    assert "no more mail to your address" in body(outbox(service)[-1])
    _send(service, now, "HELP STOP", "zed@example.org", "help")
    assert "Anyone who gets mail from the moderator can stop it all" in " ".join(
        body(outbox(service)[-1]).split()
    )


def test_many_stopped_addresses_are_looked_up_one_at_a_time(
    service: Service, now: datetime, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr("pbem.games.stops._READ_WHOLE", 0)  # more stops than are read at once
    new_game(service, now)
    assert _send(service, now, "", ALICE, _unsubscribe_subject(service, ALICE, tmp_path)) == [ALICE]
    for sender in (ALICE, BOB):
        _send(service, now, "HELP", sender, "help")
    helped = {row.recipient: row.last_error for row in outbox(service) if row.kind == "reply"}
    assert helped == {ALICE: STOPPED, BOB: ""}


def test_unstop_with_the_token_brings_the_mail_back_and_a_stranger_cannot(
    service: Service, now: datetime, tmp_path: Path
) -> None:
    """The STOP's answer gives the way back, UNSTOP <code>. Under alice's From without the
    code (or with bob's) nothing changes and nothing is mailed to her; with it her mail comes
    again, she is told, and so are her seat's referees."""
    new_game(service, now, referees=(REFEREE,))
    subject = _unsubscribe_subject(service, ALICE, tmp_path)
    token, bobs = subject.split()[1], _unsubscribe_subject(service, BOB, tmp_path).split()[1]
    _send(service, now, "", ALICE, subject)
    answer = " ".join(body(outbox(service, "reply")[-1]).split())
    assert answer.startswith(
        f"No more mail from this moderator goes to {ALICE}, from any game: this is the last one."
    )
    assert "Your seats (alice in game g1) get no more reports" in answer
    assert f"UNSTOP {token}" in answer
    before = len(outbox(service))
    assert _send(service, now, "UNSTOP", ALICE, "back") == []
    assert _send(service, now, f"UNSTOP {bobs}", ALICE, "back") == []
    assert len(outbox(service)) == before and _stopped(service) == [ALICE]
    assert _send(service, now, f"UNSTOP {token.lower()}", ALICE, "back") == [ALICE]
    assert _stopped(service) == []
    back = outbox(service, "reply")[-1]
    assert back.dropped_at is None
    assert f"Mail from this moderator goes to {ALICE} again" in " ".join(body(back).split())
    told = [row for row in outbox(service) if row.recipient == REFEREE][-1]
    assert told.subject == "[g1] alice gets mail again"
    _send(service, now, "HELP", ALICE, "help")
    assert outbox(service, "reply")[-1].dropped_at is None  # her mail flows again


def test_unstop_from_an_address_not_stopped_says_so_only_with_its_code(
    service: Service, now: datetime, tmp_path: Path
) -> None:
    new_game(service, now)
    assert _send(service, now, "UNSTOP ABC", ALICE, "back") == []  # a From proves nothing
    token = _unsubscribe_subject(service, ALICE, tmp_path).split()[1]
    assert _send(service, now, f"UNSTOP {token}", ALICE, "back") == [ALICE]
    assert "was not stopped" in body(outbox(service, "reply")[-1])


def test_a_stopped_players_order_mail_is_set_aside_unanswered_and_stores_nothing(
    service: Service, now: datetime
) -> None:
    """No check reply can reach an address that sent STOP: orders stored unseen (an order
    misread, a line refused) are worse than none. The mail is set aside as a stopped
    referee's is, to replay after UNSTOP; nothing is mailed."""
    new_game(service, now)
    with transaction(service.db) as session:
        stop(work_of(session), ALICE, now)
    receipt = receive(service, order_mail("g1", "alice", "pw-alice", "ADD 1\n"), now=now)
    assert (receipt.status, receipt.replies) == ("quarantined", [])
    assert receipt.outcome.startswith("stopped: ")
    assert orders(service) == []
    assert [row.reason for row in quarantined(service)] == ["stopped"]
