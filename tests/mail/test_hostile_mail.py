"""Every mail costs bounded work, linear in its size, whatever it holds (issue 42): the
families that held intake for minutes or hours, each read well within a generous time,
and what a reply quotes of a mail cut short. bench/hostile_mail.py has the figures."""

from __future__ import annotations

import time

import pytest

from pbem.mail._bounded import MAX_PARAMETERS, bounded_parse
from pbem.mail._html import MAX_QUOTE, html_text
from pbem.mail.compose import MAX_REPLY_BODY, MAX_REPLY_LINE, bounded_reply
from pbem.mail.reading import MAX_NOTES, MAX_SUBJECT, IncomingMail, read_mail

# The old reading took 6.5 s on 20 kB of `<a ` and grew with the square of the size: at
# 200 kB, minutes. Now such a mail takes a few hundredths of a second; the bound is generous
# for a busy machine.
SECONDS = 2.0


def _read(raw: bytes) -> tuple[IncomingMail, float]:
    # This thread's CPU alone: under pytest-xdist a worker also runs the mail servers'
    # threads of other tests, whose CPU the process's time would count.
    began = time.thread_time()
    mail = read_mail(raw)
    return mail, time.thread_time() - began


def _html(body: bytes) -> bytes:
    return (
        b"From: a@example.org\nSubject: x\nContent-Type: text/html; charset=utf-8\n\n"
        b"<p>GAME g1 SEAT a PASSWORD p</p>" + body
    )


# `<![CDATA[` and `<!x` repeated, linear on html.parser too, are in bench/hostile_mail.py.
@pytest.mark.parametrize("unit", [b"<a ", b"<!--", b"<?", b"</", b"<a b='"])
def test_unclosed_html_is_read_in_linear_time(unit: bytes) -> None:
    mail, seconds = _read(_html(unit * (200_000 // len(unit))))
    assert seconds < SECONDS
    assert mail.text.startswith("GAME g1 SEAT a PASSWORD p")


def test_html_of_too_many_tags_is_read_up_to_a_cap() -> None:
    mail, seconds = _read(_html(b"<br>x" * 300_000))
    assert mail.notes[-1] == (
        "the HTML part was not read whole: the moderator reads HTML up to its 50,000th tag, "
        "and yours has more"
    )
    assert mail.cut_short.endswith("and yours has more")
    assert seconds < SECONDS


def test_a_deep_quote_is_quoted_at_most_some_levels_deep() -> None:
    """2,000 nested blockquotes, each with a line: the old prefix grew a level each, and the
    text with the square of the depth."""
    text = html_text("<blockquote>x" * 2000).text
    assert max(len(line) for line in text.splitlines()) == 2 * MAX_QUOTE + 1
    assert all(line.startswith("> ") for line in text.splitlines()[1:])


def _headers(head: bytes, body: bytes = b"GAME g1 SEAT a PASSWORD p\n") -> bytes:
    return b"From: a@example.org\nMessage-ID: <h@example.org>\n" + head + b"\n" + body


def test_a_long_subject_is_cut() -> None:
    mail, seconds = _read(_headers(b"Subject: " + b"A " * 45_000 + b"\n"))
    assert seconds < SECONDS
    assert len(mail.subject) == MAX_SUBJECT
    assert mail.subject.endswith("A…")
    assert mail.sender == "a@example.org"
    assert mail.text == "GAME g1 SEAT a PASSWORD p\n"


def test_encoded_words_in_a_subject_cost_little() -> None:
    """90 kB of encoded words: each header value is cut before it is decoded."""
    mail, seconds = _read(_headers(b"Subject: " + b"=?utf-8?q?a?= " * 6400 + b"\n"))
    assert seconds < SECONDS / 4
    assert len(mail.subject) == MAX_SUBJECT


def test_a_header_over_the_limit_is_refused_unread() -> None:
    """1.5 MB of header fields, under the size limit: the mail is refused like one over it,
    its header read only as far as 100 kB."""
    raw = _headers(b"Subject: big\n" + b"X-A: b\n" * 200_000)
    mail, seconds = _read(raw)
    assert seconds < SECONDS
    assert mail.too_big
    assert mail.notes == ("the mail's header is 1.4 MB, over the 100.0 kB limit",)
    assert (mail.sender, mail.subject, mail.text) == ("a@example.org", "big", "")


def test_a_giant_header_over_the_size_limit_is_read_only_so_far() -> None:
    raw = _headers(b"Subject: " + b"=?utf-8?q?a?= " * 400_000 + b"\n")
    mail, seconds = _read(raw)
    assert seconds < SECONDS
    assert mail.too_big
    assert len(mail.header_items) == 2  # From and Message-ID: the Subject is past 100 kB


def test_content_type_parameters_cost_little() -> None:
    """A part's Content-Type of 250,000 parameters (1 MB): the email package took time
    growing with the square of their number; the value is cut first."""
    part = b"--B\nContent-Type: text/plain" + b";a=b" * 250_000 + b"\n\nGAME g1\n--B--\n"
    raw = _headers(b'Content-Type: multipart/mixed; boundary="B"\n', part)
    mail, seconds = _read(raw)
    assert seconds < SECONDS
    assert mail.text == "GAME g1"


def test_many_parts_of_many_parameters_cost_little() -> None:
    """160 parts, each a Content-Type of 3,000 parameters (12 kB, under the value's cap):
    the package parses them again at each question, at a cost of their number times their
    length; 2.3 s for 1.4 MB of them before their number was cut, now a tenth of a second."""
    part = b"--B\nContent-Type: text/plain" + b";a=b" * 3000 + b"\n\nx\n"
    raw = _headers(b"Content-Type: multipart/mixed; boundary=B\n", b"--B\n\nGAME g1\n" + part * 160)
    mail, seconds = _read(raw)
    assert seconds < SECONDS / 2
    assert mail.text == "GAME g1"
    assert len(bounded_parse(raw).get_payload()[1].get_params()) == MAX_PARAMETERS + 1


def test_a_mail_of_too_many_parts_is_refused_unread() -> None:
    raw = _headers(b'Content-Type: multipart/mixed; boundary="B"\n', b"--B\n\n" * 40_000)
    mail, seconds = _read(raw)
    assert seconds < SECONDS
    assert mail.too_big
    assert mail.notes == ("the mail has more than 500 MIME parts, the most pbem reads",)


def test_deep_nesting_is_refused_unread() -> None:
    opening = b"".join(
        b"--%d\nContent-Type: multipart/mixed; boundary=%d\n\n" % (i, i + 1) for i in range(3000)
    )
    raw = _headers(b"Content-Type: multipart/mixed; boundary=0\n", opening)
    mail, seconds = _read(raw)
    assert seconds < SECONDS
    assert mail.notes == ("the mail has more than 500 MIME parts, the most pbem reads",)


def test_a_mail_of_too_many_lines_is_refused_unread() -> None:
    mail, seconds = _read(_headers(b"", b"GAME g1\n" + b"\n" * 300_000))
    assert seconds < SECONDS
    assert mail.too_big
    assert mail.notes == ("the mail has 300,004 lines, over the 200,000 pbem reads",)


def test_the_notes_of_many_attachments_are_few() -> None:
    attachment = b'--B\nContent-Disposition: attachment; filename="f.bin"\n\nxx\n'
    raw = _headers(
        b'Content-Type: multipart/mixed; boundary="B"\n',
        b"--B\n\nGAME g1\n" + attachment * 300 + b"--B--\n",
    )
    mail = read_mail(raw)
    assert len(mail.notes) == MAX_NOTES
    assert mail.notes[-1] == f"and {300 - MAX_NOTES + 1} more parts ignored"


def test_a_reply_cuts_long_lines_and_stays_small() -> None:
    body = bounded_reply("Your mail:\n" + ("> " + "x" * 5000 + "\n") * 500 + "Deadline: soon")
    lines = body.splitlines()
    assert max(len(line) for line in lines) == MAX_REPLY_LINE
    assert lines[1].endswith("x…")
    assert len(body.encode()) < MAX_REPLY_BODY + 100
    assert lines[-1].startswith("[... ")
    assert lines[-1].endswith(" more lines of this answer left out]")


def test_a_reply_that_fits_is_unchanged() -> None:
    body = "Orders for alice:\n  ADD 1\n\nDeadline: soon"
    assert bounded_reply(body) == body
