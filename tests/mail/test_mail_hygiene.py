"""refusal_reason: mail we must never answer (docs/architecture.md, "No mail loops")."""

from __future__ import annotations

from pathlib import Path

from pbem.mail.hygiene import refusal_reason
from pbem.mail.reading import read_mail

EML = Path(__file__).parent / "eml"
OURS = ("pbem@moderator.example", "Referee@Moderator.example")
LOOP = "pbem.moderator.example"


def reason_for_file(name: str) -> str | None:
    mail = read_mail((EML / name).read_bytes())
    return refusal_reason(mail, our_addresses=OURS, loop_token=LOOP)


def reason(headers: str, sender: str = "Player <player@example.org>") -> str | None:
    raw = f"From: {sender}\n{headers}\nSubject: x\n\nHELP\n".encode()
    return refusal_reason(read_mail(raw), our_addresses=OURS, loop_token=LOOP)


def test_player_mails_are_answered() -> None:
    for name in ("plain_orders.eml", "html_only.eml", "reply_top_posted.eml", "latin1.eml"):
        assert reason_for_file(name) is None, name


def test_auto_reply_fixture() -> None:
    assert reason_for_file("auto_reply.eml") == "Auto-Submitted: auto-replied"


def test_bounce_fixture() -> None:
    assert reason_for_file("bounce.eml") == "null return path (a bounce)"


def test_bulk_fixture() -> None:
    assert reason_for_file("precedence_bulk.eml") == "Precedence: bulk"


def test_list_fixture() -> None:
    assert reason_for_file("list_mail.eml") == "mailing list mail (list-id)"


def test_garbage_fixture_has_no_sender() -> None:
    assert reason_for_file("garbage.eml") == "no usable sender address"


def test_auto_submitted_values() -> None:
    assert reason("Auto-Submitted: no") is None
    assert reason("Auto-Submitted: No ; comment") is None
    assert reason("Auto-Submitted: auto-generated") == "Auto-Submitted: auto-generated"
    assert reason("Auto-Submitted: Auto-Replied; owner=x") == "Auto-Submitted: auto-replied"
    assert reason("Auto-Submitted: ") == "Auto-Submitted: (empty)"


def test_return_path_null() -> None:
    assert reason("Return-Path: <>") == "null return path (a bounce)"
    assert reason("Return-Path: < >") == "null return path (a bounce)"
    assert reason("Return-Path: <player@example.org>") is None


def test_robot_senders() -> None:
    assert (
        reason("", "MAILER-DAEMON@mx.example") == "sender mailer-daemon@mx.example is a mail robot"
    )
    assert reason("", "postmaster@example.org") == "sender postmaster@example.org is a mail robot"
    assert reason("", "owner-players@l.example") == "sender owner-players@l.example is a mail robot"
    assert reason("", "players-request@l.example") == (
        "sender players-request@l.example is a mail robot"
    )
    assert reason("", "noreply@shop.example") == "sender noreply@shop.example is a mail robot"
    assert reason("", "") == "no usable sender address"
    assert reason("", "undisclosed") == "no usable sender address"


def test_precedence() -> None:
    assert reason("Precedence: junk") == "Precedence: junk"
    assert reason("Precedence: LIST") == "Precedence: list"
    assert reason("Precedence: first-class") is None


def test_list_headers() -> None:
    assert (
        reason("List-Unsubscribe: <mailto:x@l.example>") == "mailing list mail (list-unsubscribe)"
    )
    assert reason("List-Post: <mailto:x@l.example>") == "mailing list mail (list-post)"


def test_our_loop_token_in_any_x_loop() -> None:
    assert reason("X-Loop: pbem.moderator.example") == "our own X-Loop: this mail came from us"
    assert reason("X-Loop: list.example\nX-Loop: PBEM.moderator.example") == (
        "our own X-Loop: this mail came from us"
    )
    assert reason("X-Loop: someone.else.example") is None


def test_our_own_address() -> None:
    assert (
        reason("", "pbem@moderator.example") == "sent from our own address pbem@moderator.example"
    )
    assert reason("", "referee@moderator.example") == (
        "sent from our own address referee@moderator.example"
    )
    assert reason("Return-Path: <pbem@moderator.example>") == (
        "sent from our own address pbem@moderator.example"
    )


def test_auto_reply_headers() -> None:
    assert reason("X-Autoreply: yes") == "auto-reply header x-autoreply"
    assert reason("X-Autorespond: vacation") == "auto-reply header x-autorespond"
    assert reason("X-Failed-Recipients: a@b.example") == "auto-reply header x-failed-recipients"


def test_delivery_report_content_type() -> None:
    assert reason("Content-Type: multipart/report; report-type=disposition-notification") == (
        "a delivery or disposition report (multipart/report)"
    )


def test_subject_alone_is_not_a_reason() -> None:
    raw = b"From: p@example.org\nSubject: Out of Office: Auto: orders\n\nGAME g1\n"
    assert refusal_reason(read_mail(raw), our_addresses=OURS, loop_token=LOOP) is None
