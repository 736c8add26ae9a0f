"""read_mail on real mails: exact decoded fields, chosen body and notes."""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path

from pbem.mail.reading import IncomingMail, read_mail

EML = Path(__file__).parent / "eml"


def load(name: str) -> IncomingMail:
    return read_mail((EML / name).read_bytes())


def test_plain_order_mail() -> None:
    mail = load("plain_orders.eml")
    assert mail.message_id == "orders-1@example.org"
    assert mail.sender == "alice@example.org"
    assert mail.reply_to == ""
    assert mail.return_path == "alice@example.org"
    assert mail.subject == "Orders for turn 3"
    assert mail.in_reply_to == ""
    assert mail.text == (
        "GAME Temple1 SEAT Red PASSWORD s3cret\n"
        "TURN 3\n"
        "# my plan: push north\n"
        "build temple at Ur\n"
        "move 3 warriors Ur -> Kish   # attack\n"
        "END\n"
        "Alice\n"
    )
    assert mail.notes == ()
    assert mail.size == (EML / "plain_orders.eml").stat().st_size
    assert mail.too_big is False
    assert mail.headers["from"] == "Alice Example <Alice@Example.ORG>"
    assert mail.headers["date"] == "Sat, 21 Nov 2026 10:00:00 +0000"


def test_html_only_mail_is_read_as_text() -> None:
    mail = load("html_only.eml")
    assert mail.text == (
        "GAME temple1 SEAT blue PASSWORD hunter2\n"
        "move 2 warriors Kish -> Ur\n"
        "\n"
        "trade grain&wine with red\n"
        "Grüße,\n"
        "Bob"
    )
    assert mail.notes == ("read the HTML part as text",)


def test_alternative_takes_the_plain_part_silently() -> None:
    mail = load("alternative.eml")
    assert mail.text == "GAME temple1 SEAT green PASSWORD pw-green\nbuild farm at Lagash\n"
    assert mail.notes == ()


def test_reply_headers() -> None:
    mail = load("reply_top_posted.eml")
    assert mail.in_reply_to == "report-3-red@moderator.example"
    assert mail.headers["references"] == "<report-3-red@moderator.example>"
    assert mail.subject == "Re: temple1 turn 3 report"


def test_iso_8859_1_body_and_encoded_headers() -> None:
    mail = load("latin1.eml")
    assert mail.subject == "Züge für Runde 3"
    assert mail.sender == "frank@example.de"
    assert mail.headers["from"] == "Frank Müller <frank@example.de>"
    assert mail.text == "GAME temple1 SEAT orange PASSWORD grün\nmove 1 warrior Ur -> Königsberg\n"
    assert mail.notes == ()


def test_windows_1252_body() -> None:
    mail = load("windows1252.eml")
    assert mail.text == "GAME temple1 SEAT grey PASSWORD pw-grey\nsay “hello” to red – costs 5 €\n"
    assert mail.notes == ()


def test_unknown_charset_is_read_as_latin_1_with_a_note() -> None:
    mail = load("unknown_charset.eml")
    assert mail.text == "GAME temple1 SEAT white PASSWORD pw-white\nmove 1 warrior Ur -> Niné\n"
    assert mail.notes == ("charset x-unknown not known; read as latin-1",)


def test_non_text_codec_name_counts_as_unknown() -> None:
    raw = b"From: a@b.example\nContent-Type: text/plain; charset=base64\n\nabc\xe9\n"
    mail = read_mail(raw)
    assert mail.text == "abcé\n"
    assert mail.notes == ("charset base64 not known; read as latin-1",)


def test_no_charset_and_not_utf8_is_read_as_windows_1252() -> None:
    mail = read_mail(b"From: a@b.example\n\nK\xf6nig \x80\n")
    assert mail.text == "König €\n"
    assert mail.notes == ("no charset given; read as windows-1252",)


def test_us_ascii_label_with_utf8_text_reads_utf8() -> None:
    raw = "From: a@b.example\nContent-Type: text/plain; charset=us-ascii\n\nGrüße\n"
    assert read_mail(raw.encode()).text == "Grüße\n"


def test_raw_8bit_utf8_headers() -> None:
    raw = "From: Jörg <JOERG@example.org>\nSubject: Grüße\n\nhi\n".encode()
    mail = read_mail(raw)
    assert mail.subject == "Grüße"
    assert mail.sender == "joerg@example.org"
    assert mail.headers["from"] == "Jörg <JOERG@example.org>"


def test_folded_header_and_encoded_line_breaks_become_one_line() -> None:
    raw = b"Subject: one\n two\nX-Evil: =?utf-8?q?a=0D=0AB?=\n\nx\n"
    mail = read_mail(raw)
    assert mail.subject == "one two"
    assert mail.headers["x-evil"] == "a B"


def test_attachments_are_noted_and_ignored() -> None:
    mail = load("attachment.eml")
    assert mail.text == "GAME temple1 SEAT black PASSWORD pw-black\nbuild temple at Uruk\n"
    assert mail.notes == (
        "attachment report.pdf (application/pdf, 1.5 kB) ignored",
        "attachment (image/png, 68 bytes) ignored",
    )


def _mail_with_attachment(size: int) -> bytes:
    payload = base64.encodebytes(b"\x00" * size).decode()
    return (
        "From: Ivy <ivy@example.org>\nMessage-ID: <big@example.org>\n"
        'Content-Type: multipart/mixed; boundary="B"\n\n'
        "--B\nContent-Type: text/plain\n\nGAME g1 SEAT s PASSWORD p\n\n"
        '--B\nContent-Type: application/pdf\nContent-Disposition: attachment; filename="report.pdf"'
        f"\nContent-Transfer-Encoding: base64\n\n{payload}\n--B--\n"
    ).encode()


def test_ten_megabyte_attachment_within_the_limit_is_noted() -> None:
    mail = read_mail(_mail_with_attachment(10_000_000), max_bytes=20_000_000)
    assert mail.too_big is False
    assert mail.text == "GAME g1 SEAT s PASSWORD p\n"
    assert mail.notes == ("attachment report.pdf (application/pdf, 10.0 MB) ignored",)


def test_mail_over_the_limit_is_not_decoded() -> None:
    raw = _mail_with_attachment(10_000_000)
    mail = read_mail(raw)
    assert mail.too_big is True
    assert mail.text == ""
    assert mail.notes == (f"mail is {len(raw) / 1e6:.1f} MB, over the 2.0 MB limit",)
    assert mail.notes == ("mail is 13.5 MB, over the 2.0 MB limit",)
    assert mail.message_id == "big@example.org"
    assert mail.sender == "ivy@example.org"
    assert mail.size == len(raw)


def test_bounce_headers() -> None:
    mail = load("bounce.eml")
    assert mail.return_path == "null"
    assert mail.sender == "mailer-daemon@mx.example.org"
    assert mail.notes == ("attachment (message/delivery-status, 109 bytes) ignored",)
    assert mail.text.startswith("This is the mail system at host mx.example.org.\n")


def test_missing_message_id_gets_a_stable_hash_id() -> None:
    raw = (EML / "no_message_id.eml").read_bytes()
    expected = f"sha256-{hashlib.sha256(raw).hexdigest()}@pbem.invalid"
    assert read_mail(raw).message_id == expected
    assert read_mail(raw).message_id == expected
    assert read_mail(raw).text == "HELP orders\n"


def test_garbage_bytes_do_not_raise() -> None:
    raw = (EML / "garbage.eml").read_bytes()
    mail = read_mail(raw)
    assert mail.message_id == f"sha256-{hashlib.sha256(raw).hexdigest()}@pbem.invalid"
    assert mail.sender == ""
    assert mail.subject == ""
    assert mail.size == 608
    assert mail.notes == ("no charset given; read as windows-1252",)
    assert mail.text.startswith("‰PNG\n")


def test_empty_input() -> None:
    mail = read_mail(b"")
    assert mail.message_id == f"sha256-{hashlib.sha256(b'').hexdigest()}@pbem.invalid"
    assert (mail.sender, mail.subject, mail.text, mail.notes, mail.size) == ("", "", "", (), 0)


def test_crlf_line_endings_become_lf() -> None:
    raw = b"From: a@b.example\r\nMessage-ID: <x@y>\r\n\r\nGAME g1\r\nmove\r\n"
    mail = read_mail(raw)
    assert mail.text == "GAME g1\nmove\n"
    assert mail.message_id == "x@y"


def test_addresses() -> None:
    raw = (
        b'From: "Smith, Al" <Al.Smith@Example.org>\nReply-To: other@Example.org\n'
        b"Return-Path: <Bounce@Example.org>\n\nx\n"
    )
    mail = read_mail(raw)
    assert (mail.sender, mail.reply_to, mail.return_path) == (
        "al.smith@example.org",
        "other@example.org",
        "bounce@example.org",
    )


def test_unparseable_from_gives_empty_sender() -> None:
    assert read_mail(b"From: MAILER-DAEMON\n\nx\n").sender == ""
    assert read_mail(b"From: <<<>>>\n\nx\n").sender == ""


def test_html_blockquote_becomes_quoted_lines() -> None:
    raw = (
        b"Content-Type: text/html\n\n<div>GAME g1 SEAT r PASSWORD p</div><div>move a</div>"
        b"<div class=gmail_quote>On Sat, pbem wrote:<br><blockquote>GAME g1 SEAT r PASSWORD x"
        b"<br>old</blockquote></div>"
    )
    assert read_mail(raw).text == (
        "GAME g1 SEAT r PASSWORD p\nmove a\nOn Sat, pbem wrote:\n> GAME g1 SEAT r PASSWORD x\n> old"
    )


def test_empty_plain_part_falls_back_to_html() -> None:
    raw = (
        b'Content-Type: multipart/alternative; boundary="A"\n\n--A\nContent-Type: text/plain\n\n'
        b"\n--A\nContent-Type: text/html\n\n<p>HELP</p>\n--A--\n"
    )
    mail = read_mail(raw)
    assert mail.text == "HELP"
    assert mail.notes == ("read the HTML part as text",)


def test_second_text_part_and_attached_message_are_noted() -> None:
    raw = (
        b'Content-Type: multipart/mixed; boundary="M"\n\n--M\nContent-Type: text/plain\n\none\n'
        b"--M\nContent-Type: text/plain\n\ntwo\n"
        b"--M\nContent-Type: message/rfc822\n\nSubject: inner\n\ninner body\n--M--\n"
    )
    mail = read_mail(raw)
    assert mail.text == "one"
    assert mail.notes == (
        "another text part ignored (only the first one is read)",
        "the forwarded message (message/rfc822, 26 bytes) ignored",
    )


def test_text_attachment_is_not_the_body() -> None:
    raw = (
        b'Content-Type: multipart/mixed; boundary="M"\n\n'
        b'--M\nContent-Type: text/plain\nContent-Disposition: attachment; filename="orders.txt"\n\n'
        b"GAME g1\n--M--\n"
    )
    mail = read_mail(raw)
    assert mail.text == ""
    assert mail.notes == ("attachment orders.txt (text/plain, 7 bytes) ignored",)
    # Kept where the pipeline looks for orders when the body has none.
    assert mail.enclosed == (("attachment orders.txt", "GAME g1"),)


def test_headers_mapping_keeps_first_occurrence_and_items_keep_all() -> None:
    mail = read_mail(b"X-Loop: list.example\nX-Loop: pbem.example\n\nx\n")
    assert mail.headers["x-loop"] == "list.example"
    assert mail.header_items == (("x-loop", "list.example"), ("x-loop", "pbem.example"))


def test_overlong_message_id_is_replaced_by_its_hash() -> None:
    long_id = "a" * 300 + "@example.org"
    mail = read_mail(f"Message-ID: <{long_id}>\n\nx\n".encode())
    assert mail.message_id == f"sha256-{hashlib.sha256(long_id.encode()).hexdigest()}@pbem.invalid"


def test_overlong_address_is_not_an_address() -> None:
    assert read_mail(f"From: {'a' * 250}@example.org\n\nx\n".encode()).sender == ""


def test_crlf_fixture_reads_like_the_lf_one() -> None:
    raw = (EML / "plain_orders.eml").read_bytes()
    crlf = read_mail(raw.replace(b"\n", b"\r\n"))
    lf = read_mail(raw)
    assert (crlf.text, crlf.subject, crlf.message_id) == (lf.text, lf.subject, lf.message_id)


def test_multipart_without_boundary_is_read_as_text() -> None:
    mail = read_mail(b"Content-Type: multipart/mixed\n\nGAME g1 SEAT s PASSWORD p\n")
    assert mail.text == "GAME g1 SEAT s PASSWORD p\n"
    assert mail.notes == ()


def test_rfc2231_and_rfc2047_attachment_names() -> None:
    template = (
        b'Content-Type: multipart/mixed; boundary="b"\n\n--b\nContent-Type: text/plain\n\nx\n'
        b"--b\nContent-Type: application/pdf\n%s\n\nabc\n--b--\n"
    )
    rfc2231 = b"Content-Disposition: attachment; filename*=utf-8''r%C3%A9port.pdf"
    rfc2047 = b'Content-Disposition: attachment; filename="=?utf-8?q?r=C3=A9port.pdf?="'
    for header in (rfc2231, rfc2047):
        mail = read_mail(template % header)
        assert mail.notes == ("attachment réport.pdf (application/pdf, 3 bytes) ignored",)


def test_nul_characters_are_dropped_from_the_body() -> None:
    # Found by the fuzz suite: "GAME g1\0" was read as game "g1\0", which PostgreSQL refuses
    # in a text column, so the mail's transaction failed and it was quarantined as an error.
    raw = b"From: a@example.org\r\nSubject: x\r\n\r\nGAME g1\x00 SEAT a\x00\r\nADD\x00 2\r\n"
    assert read_mail(raw).text == "GAME g1 SEAT a\nADD 2\n"
