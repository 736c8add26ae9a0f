"""Property tests: the mail layer never raises on whatever arrives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.mail.envelope import parse_envelope
from pbem.mail.hygiene import refusal_reason
from pbem.mail.reading import read_mail

HEADERS = st.sampled_from(
    [
        b"From: ", b"Subject: =?", b"Content-Type: multipart/mixed; boundary=", b"--",
        b"Content-Type: text/html; charset=", b"Content-Transfer-Encoding: base64\n",
        b"Content-Transfer-Encoding: quoted-printable\n", b"Message-ID: <", b"\n\n", b"\r\n",
        b"Return-Path: <>\n", b"=?utf-8?b?", b"?=", b"<br>", b"<script>", b"&#", b"filename*=",
        b"Content-Disposition: attachment; filename=", b"x-unknown", b"utf-7", b"base64",
    ]
)  # fmt: skip
MAIL_BYTES = st.lists(st.one_of(st.binary(max_size=40), HEADERS), max_size=40).map(b"".join)
ENVELOPE_WORDS = st.sampled_from(
    ["GAME", "game:", "SEAT", "PASSWORD", "REFEREE", "TURN", "END", "--", ">", "#", "JOIN",
     "HELP", "REPORT", "STATUS", "ORDERS", "signup", "\n", "\r\n", " ", "\t", "\u00a0", '"',
     "wrote:", "-----Original Message-----", "9" * 20, "g1", "x"]
)  # fmt: skip
ENVELOPE_TEXT = st.one_of(st.text(), st.lists(ENVELOPE_WORDS, max_size=60).map(" ".join))


@settings(max_examples=300, deadline=None)
@given(MAIL_BYTES)
def test_read_mail_never_raises(raw: bytes) -> None:
    mail = read_mail(raw, max_bytes=500)
    assert mail.size == len(raw)
    assert mail.message_id
    assert "\r" not in mail.text
    reason = refusal_reason(mail, our_addresses=("a@b.example",), loop_token="b.example")
    assert reason is None or reason
    parse_envelope(mail.text)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000))
def test_read_mail_never_raises_on_random_bytes(raw: bytes) -> None:
    assert read_mail(raw).size == len(raw)


@settings(max_examples=500, deadline=None)
@given(ENVELOPE_TEXT)
def test_parse_envelope_never_raises(text: str) -> None:
    env = parse_envelope(text)
    line_count = len(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
    assert all(1 <= no <= line_count for no, _ in env.lines + env.ignored)
    assert not (env.problem and env.password)  # a problem mail can never authenticate
    assert env.game == env.game.lower()
    assert env.seat == env.seat.lower()
