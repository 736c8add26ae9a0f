"""compose and stable_message_id: deterministic, loop-proof, plain-text replies."""

from __future__ import annotations

import email
import email.policy
import hashlib

import pytest

from pbem.mail.compose import Attachment, compose, mail_bytes, stable_message_id, text_of
from pbem.mail.hygiene import refusal_reason
from pbem.mail.reading import read_mail

ARGS = {
    "sender": "pbem moderator <pbem@moderator.example>",
    "to": "alice@example.org",
    "subject": "Re: orders",
    "body": "Accepted:\n  line 4: build temple at Ur\n",
    "message_id": "<abc@moderator.example>",
    "loop_token": "pbem.moderator.example",
}


def test_exact_bytes_of_an_ascii_reply() -> None:
    msg = compose(**ARGS, in_reply_to="orders-1@example.org")
    assert bytes(msg) == (
        b"From: pbem moderator <pbem@moderator.example>\n"
        b"To: alice@example.org\n"
        b"Subject: Re: orders\n"
        b"Message-ID: <abc@moderator.example>\n"
        b"In-Reply-To: <orders-1@example.org>\n"
        b"References: <orders-1@example.org>\n"
        b"Auto-Submitted: auto-replied\n"
        b"X-Loop: pbem.moderator.example\n"
        b'Content-Type: text/plain; charset="utf-8"\n'
        b"Content-Transfer-Encoding: 7bit\n"
        b"MIME-Version: 1.0\n"
        b"\n"
        b"Accepted:\n  line 4: build temple at Ur\n"
    )


def test_same_inputs_same_bytes() -> None:
    args = {**ARGS, "subject": "Züge für Runde 3", "body": "Grüße €\n"}
    assert bytes(compose(**args)) == bytes(compose(**args))


def test_non_ascii_is_quoted_printable_and_reads_back() -> None:
    msg = compose(**{**ARGS, "subject": "Züge für Runde 3", "body": "Grüße €\r\nzwei\n"})
    assert msg["Content-Transfer-Encoding"] == "quoted-printable"
    assert "Date" not in msg
    mail = read_mail(bytes(msg))
    assert mail.subject == "Züge für Runde 3"
    assert mail.text == "Grüße €\nzwei\n"
    assert mail.message_id == "abc@moderator.example"


def test_report_is_auto_generated_and_refused_by_our_own_hygiene() -> None:
    msg = compose(**ARGS, auto="auto-generated")
    assert msg["Auto-Submitted"] == "auto-generated"
    assert "In-Reply-To" not in msg
    mail = read_mail(bytes(msg))
    reason = refusal_reason(mail, our_addresses=(), loop_token="pbem.moderator.example")
    assert reason == "Auto-Submitted: auto-generated"


def test_no_precedence_header() -> None:
    assert "Precedence" not in compose(**ARGS)


def test_bad_auto_value() -> None:
    with pytest.raises(ValueError, match="auto must be one of"):
        compose(**ARGS, auto="no")


def test_header_injection_is_flattened() -> None:
    msg = compose(**{**ARGS, "subject": "Re: a\r\nBcc: victim@example.org"})
    assert msg["Subject"] == "Re: a Bcc: victim@example.org"
    assert msg["Bcc"] is None


def test_message_id_brackets_added() -> None:
    assert compose(**{**ARGS, "message_id": "x@y"})["Message-ID"] == "<x@y>"


def test_long_lines_are_quoted_printable() -> None:
    msg = compose(**{**ARGS, "body": "x" * 1200})
    assert msg["Content-Transfer-Encoding"] == "quoted-printable"
    assert read_mail(bytes(msg)).text == "x" * 1200 + "\n"


def test_parses_back_with_the_stdlib() -> None:
    msg = compose(**ARGS)
    parsed = email.message_from_bytes(bytes(msg), policy=email.policy.default)
    assert parsed["To"] == "alice@example.org"
    assert parsed.get_content() == "Accepted:\n  line 4: build temple at Ur\n"


def test_stable_message_id() -> None:
    first = stable_message_id("g1", "turn-3", "red", domain="moderator.example")
    assert first == stable_message_id("g1", "turn-3", "red", domain="moderator.example")
    assert first.startswith("<") and first.endswith("@moderator.example>")
    assert len(first) == len("<@moderator.example>") + 32
    assert first != stable_message_id("g1", "turn-3", "blue", domain="moderator.example")
    assert stable_message_id("ab", "c", domain="d") != stable_message_id("a", "bc", domain="d")
    assert stable_message_id(domain="d") == "<e3b0c44298fc1c149afbf4c8996fb924@d>"
    # Each part is hashed as "<utf-8 length>:<utf-8 bytes>".
    digest = hashlib.sha256(b"2:g16:turn-33:red").hexdigest()[:32]
    assert first == f"<{digest}@moderator.example>"


def test_attachments_make_a_multipart_mail_the_text_first_and_read_back_whole() -> None:
    picture, data = bytes(range(256)) * 40, b'{"turn":3}\n'
    files = (Attachment("map-g1-3-ann.png", "image/png", picture),)
    files += (Attachment("report-g1-3-ann.json", "application/json", data),)
    args = {**ARGS, "body": "Grüße: the report, line one\n" * 3}
    raw = mail_bytes(**args, attachments=files)
    assert raw == mail_bytes(**args, attachments=files)  # the boundary is not random
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, email.message.EmailMessage)
    assert message.get_content_type() == "multipart/mixed"
    assert message["Auto-Submitted"] == "auto-replied" and message["X-Loop"]
    first = next(iter(message.iter_parts()))
    assert first.get_content_type() == "text/plain"  # a client that shows one part shows it
    assert text_of(message) == args["body"]
    attached = {
        p.get_filename(): (p.get_content_type(), p.get_content())
        for p in message.iter_attachments()
    }
    assert attached == {
        "map-g1-3-ann.png": ("image/png", picture),
        "report-g1-3-ann.json": ("application/json", data),
    }
    assert not message.defects and all(not part.defects for part in message.walk())
