"""What a check reply promises: nothing the moderator will not keep."""

from __future__ import annotations

from datetime import datetime
from email.message import EmailMessage

from pbem.games.outbox import as_message, drain
from pbem.games.service import Service
from pbem.intake.intake import receive
from tests.support.games import body, new_game, orders, outbox, quarantined
from tests.support.mails import mail, order_mail

PROMISE = "You may send new orders until the turn is resolved"


def test_the_last_seat_is_not_promised_time_it_does_not_have(
    service: Service, now: datetime
) -> None:
    new_game(service, now)  # early processing: the turn resolves once every order is in
    first = receive(service, order_mail("g1", "alice", "pw-alice", "ADD 1\n"), now=now)
    # Issue 43, point 9: it promised "until the deadline" while the next mail could resolve
    # the turn at once; it now says when the turn may resolve sooner.
    assert (
        " ".join(body(first.replies[0]).split()).find(
            "You may send new orders until the turn is resolved: at the deadline, or sooner, as "
            "soon as every seat's orders are in (a seat away or without a player is not waited "
            "for)."
        )
        > 0
    )
    last = receive(
        service, order_mail("g1", "bob", "pw-bob", "ADD 2\n", message_id="m2@x"), now=now
    )
    text = body(last.replies[0])
    assert PROMISE not in text
    assert "so it is resolved now,\nbefore the deadline. Your report follows." in text


def test_without_early_processing_the_promise_stands(service: Service, now: datetime) -> None:
    new_game(service, now, early_processing=False)
    receive(service, order_mail("g1", "alice", "pw-alice", "ADD 1\n"), now=now)
    last = receive(
        service, order_mail("g1", "bob", "pw-bob", "ADD 2\n", message_id="m2@x"), now=now
    )
    text = body(last.replies[0])
    assert "Every seat has sent orders for this turn." in text
    assert "You may send new orders until the deadline; the last mail counts, whole." in text


def _message(subject: str, text: str, message_id: str = "") -> EmailMessage:
    message = EmailMessage()
    message["From"] = "alice@example.org"
    message["To"] = "moderator@pbem.localhost"
    message["Subject"] = subject
    if message_id:
        message["Message-ID"] = f"<{message_id}>"
    message.set_content(text)
    return message


def _forwarded(inner_body: str) -> bytes:
    outer = _message("Fwd: my orders", "See below, I sent these elsewhere.\n", "fwd@x")
    outer.add_attachment(_message("my orders", inner_body))
    return outer.as_bytes()


def _attached(text: str) -> bytes:
    message = _message("orders", "Orders attached.\n", "att@x")
    message.add_attachment(text, filename="orders.txt")
    return message.as_bytes()


ORDERS = "GAME g1 SEAT alice PASSWORD pw-alice\nADD 2\nFLY\n"


def test_forwarded_orders_are_read(service: Service, now: datetime) -> None:
    new_game(service, now)
    receipt = receive(service, _forwarded(ORDERS), now=now)
    assert receipt.status == "accepted"
    text = body(receipt.replies[0])
    assert "line 2: ADD 2" in text and "line 3: unknown order FLY" in text
    assert "orders read from the forwarded message; line numbers are its lines" in text
    assert "message/rfc822" not in text  # not also noted as ignored
    assert [row.text for row in orders(service)] == ["ADD 2\nFLY"]


def test_orders_in_a_text_attachment_are_read(service: Service, now: datetime) -> None:
    new_game(service, now)
    receipt = receive(service, _attached(ORDERS), now=now)
    assert receipt.status == "accepted"
    assert "orders read from attachment orders.txt" in body(receipt.replies[0])


def test_a_template_filled_in_inside_the_quoted_report_is_read(
    service: Service, now: datetime
) -> None:
    new_game(service, now)
    text = (
        "Here are my orders, see below.\n\n"
        "On Mon, the moderator wrote:\n"
        "> Game g1, report of turn 1 for alice\n"
        ">\n"
        "> GAME g1 SEAT alice PASSWORD pw-alice\n"
        "> ADD 3\n"
        "> END\n"
    )
    receipt = receive(service, mail(text), now=now)
    assert receipt.status == "accepted"
    reply = body(receipt.replies[0])
    assert "line 7: ADD 3" in reply  # the line of the mail as sent
    assert "orders read from the quoted text" in reply


def test_a_mail_with_nothing_to_read_says_where_it_looked(service: Service, now: datetime) -> None:
    new_game(service, now)
    receipt = receive(service, _attached("my orders: add two\n"), now=now)
    assert receipt.status == "quarantined"
    reply = " ".join(body(receipt.replies[0]).split())
    assert "I looked at: the text of the mail, attachment orders.txt." in reply
    assert "== An order mail == Every mail about your seat starts with your GAME line" in reply


def test_every_line_number_in_a_reply_is_the_mails(service: Service, now: datetime) -> None:
    new_game(service, now, ruleset="tns")
    text = "TURN 1\n# my first turn\nTECH 0\n\nTECH 0\n"
    receipt = receive(service, order_mail("g1", "alice", "pw-alice", text), now=now)
    reply = body(receipt.replies[0])
    assert "line 4: TECH 0" in reply
    assert "line 6: TECH was already given on line 4" in reply


def test_a_mail_of_too_many_lines_is_refused_unread(service: Service, now: datetime) -> None:
    new_game(service, now)
    text = "".join(f"ADD {n}\n" for n in range(100_000))
    raw = order_mail("g1", "alice", "pw-alice", text)
    receipt = receive(service, raw, now=now)
    assert receipt.status == "quarantined"
    [reply] = receipt.replies
    assert len(reply.raw) < 2_000
    assert "the mail has 100,001 lines; the moderator reads mail of at most 5,000" in " ".join(
        body(reply).split()
    )
    assert orders(service) == []


def test_orders_over_a_long_quoted_thread_are_read(service: Service, now: datetime) -> None:
    """A phone's reply quotes the whole thread: 2 lines of orders over 6,000 quoted ones.
    The orders count, and the reply says the quoted text was not read."""
    new_game(service, now)
    quoted = "".join(f"> {n}: what the thread said\n" for n in range(6_000))
    raw = order_mail("g1", "alice", "pw-alice", "ADD 2\n\n" + quoted)
    receipt = receive(service, raw, now=now)
    assert receipt.status == "accepted"
    assert [row.text for row in orders(service)] == ["ADD 2"]
    text = " ".join(body(receipt.replies[0]).split())
    assert "the quoted text (the 6,000 lines that begin with '>') was not read" in text


def test_too_many_order_lines_are_refused_before_the_game_reads_them(
    service: Service, now: datetime
) -> None:
    new_game(service, now)
    receive(service, order_mail("g1", "alice", "pw-alice", "ADD 1\n", message_id="a@x"), now=now)
    text = "".join(f"ADD {n}\n" for n in range(1_001))
    receipt = receive(service, order_mail("g1", "alice", "pw-alice", text), now=now)
    assert receipt.status == "quarantined"
    assert receipt.replies[0].recipient == "alice@example.org"
    assert "the mail has 1,001 order lines; at most 1,000 are read" in body(receipt.replies[0])
    assert [row.text for row in orders(service)] == ["ADD 1"]  # the earlier orders stand


def test_a_reply_lists_a_bounded_number_of_problems(service: Service, now: datetime) -> None:
    new_game(service, now)
    text = "ADD 1\n" + "".join(f"FLY {n}\n" for n in range(900))
    receipt = receive(service, order_mail("g1", "alice", "pw-alice", text), now=now)
    reply = body(receipt.replies[0])
    assert "Rejected (900):" in reply
    assert reply.count("unknown order FLY") == 30
    assert "  ... and 870 more\n" in reply
    assert len(receipt.replies[0].raw) < 20_000


def test_mail_without_a_usable_sender_is_quarantined_with_the_reason(
    service: Service, now: datetime
) -> None:
    broken = mail("GAME g1 SEAT alice PASSWORD pw-alice\nADD 1\n", sender="alice at home")
    receipt = receive(service, broken, now=now)
    assert (receipt.status, receipt.replies) == ("quarantined", [])
    garbage = receive(service, b"\x00\x01 this is not a mail at all \xff", now=now)
    assert (garbage.status, garbage.replies) == ("quarantined", [])
    assert [(entry.reason, entry.error) for entry in quarantined(service)] == [
        (
            "no-sender",
            "the From header 'alice at home' holds no usable address, so nobody was answered",
        ),
        ("no-sender", "not a mail: no header could be read, so there is no sender to answer"),
    ]


class _Recorder:
    def __init__(self) -> None:
        self.subjects: list[str] = []

    def send(self, message: EmailMessage) -> None:
        self.subjects.append(str(message["Subject"]))


def test_replies_are_sent_before_bulk_mail(service: Service, now: datetime) -> None:
    new_game(service, now)  # queues the start mails: bulk
    receive(service, order_mail("g1", "alice", "pw-alice", "ADD 1\n", subject="t1"), now=now)
    sender = _Recorder()
    assert drain(service, sender, now=now).sent == 3
    assert sender.subjects[0] == "Re: t1"
    assert [row.priority for row in outbox(service)] == [1, 1, 0]


def test_a_reply_keeps_the_whole_thread_in_references(service: Service, now: datetime) -> None:
    new_game(service, now)
    raw = mail(
        "GAME g1 SEAT alice PASSWORD pw-alice\nADD 1\n",
        message_id="third@x",
        headers={"References": "<first@x> <second@x>", "In-Reply-To": "<second@x>"},
    )
    [reply] = receive(service, raw, now=now).replies
    message = as_message(reply.raw)
    assert message["In-Reply-To"] == "<third@x>"
    assert message["References"] == "<first@x> <second@x> <third@x>"


def test_a_reply_to_a_reply_without_references_starts_from_in_reply_to(
    service: Service, now: datetime
) -> None:
    new_game(service, now)
    raw = mail("HELP", message_id="second@x", headers={"In-Reply-To": "<first@x>"})
    [reply] = receive(service, raw, now=now).replies
    assert as_message(reply.raw)["References"] == "<first@x> <second@x>"


def test_no_promise_when_the_only_missing_seat_is_away(service: Service, now: datetime) -> None:
    """bob is away and the game does not wait for absent seats: alice's orders are the last
    the turn waits for, so it resolves now, though bob is still listed as missing."""
    new_game(service, now)
    absence = "GAME g1 SEAT bob PASSWORD pw-bob\nSET ABSENCE 2026-03-10\n"
    receive(service, mail(absence, sender="bob@example.org", message_id="away@x"), now=now)
    [reply] = receive(service, order_mail("g1", "alice", "pw-alice", "ADD 1\n"), now=now).replies
    text = body(reply)
    assert PROMISE not in text
    assert "so it is resolved now" in text
