"""Hypothesis strategies for hostile mail: MIME structure, headers, charsets, transfer
encodings, sizes and order text. Mails are built as bytes by hand, not with the email
package, so that they can be broken in the ways real mail is broken (a boundary that never
comes, base64 that is not, a charset nobody knows, eight-bit bytes in a header)."""

from __future__ import annotations

import base64
import quopri

from hypothesis import strategies as st

# The games the fuzz suite creates (tests/fuzz/test_intake_fuzz.py): the counting test
# ruleset and a real one, so that both the envelope and a real order parser see the text.
SEATS = {
    "alice@example.org": ("g1", "alice", "pw-alice"),
    "bob@example.org": ("g1", "bob", "pw-bob"),
    "carol@example.org": ("g2", "carol", "pw-carol"),
    "dave@example.org": ("g2", "dave", "pw-dave"),
}
MODERATOR = "moderator@pbem.localhost"
# Stands for a Message-ID part no other mail has: the runner numbers the mails in its place
# (tests/fuzz/intake_run.py), since hypothesis, drawing ids itself, repeats the simplest ones.
UNIQUE = "@@unique@@"

CHARSETS = [
    "utf-8",
    "iso-8859-1",
    "windows-1252",
    "shift_jis",
    "utf-16",
    "utf-7",
    "koi8-r",
    "x-unknown-charset",
    "",
    "us-ascii",
    "gb2312",
    'UTF-8"; x="',
]
ENCODINGS = ["7bit", "8bit", "base64", "quoted-printable", "binary", "x-uuencode", "bogus"]

ORDER_WORDS = [
    "GAME",
    "SEAT",
    "PASSWORD",
    "TURN",
    "END",
    "REFEREE",
    "JOIN",
    "HELP",
    "LIST",
    "STATUS",
    "FORECAST",
    "SET",
    "PASSWORD",
    "ADD",
    "ATTACK",
    "MOVE",
    "BUILD",
    "RECRUIT",
    "ADVANCE",
    "NONE",
    "C4",
    "g1",
    "g2",
    "alice",
    "bob",
    "carol",
    "pw-alice",
    "pw-carol",
    "wrong",
    "2",
    "-1",
    "99999999999999999999",
    "ä",
    "ß",
    "\u202e",
    "\u00a0",
    "\t",
    "#",
    ">",
    "--",
    ":",
    ",",
    "wrote:",
    "\U0001f600",
]


@st.composite
def order_text(draw: st.DrawFn) -> str:
    """Text that is nearly an order mail: a GAME line (right, wrong or mangled), order lines,
    prose, quotes of earlier mails, signatures."""
    lines: list[str] = []
    if draw(st.booleans()):
        address = draw(st.sampled_from(sorted(SEATS)))
        game, seat, password = SEATS[address]
        password = draw(st.sampled_from([password, "wrong", password.upper(), ""]))
        lines.append(
            draw(
                st.sampled_from(
                    [
                        "GAME {g} SEAT {s} PASSWORD {p}",
                        "game: {g}\nseat: {s}\npassword: {p}",
                        "GAME {g} {s} {p}",
                        "GAME {g}",
                    ]
                )
            ).format(g=game, s=seat, p=password)
        )
    words = st.lists(st.sampled_from(ORDER_WORDS), max_size=8).map(" ".join)
    # Lines that count as orders (pbem.games.counted): an order of the counting game, and
    # NO ORDERS, which every game takes; random words alone are seldom an accepted order.
    counted = st.sampled_from(["ADD 2", "NO ORDERS", "no orders."])
    lines += draw(st.lists(st.one_of(words, st.text(max_size=60), counted), max_size=30))
    if draw(st.booleans()):
        quoted = draw(st.lists(words, max_size=10))
        lines += ["On Mon, someone wrote:", *("> " + line for line in quoted)]
    if draw(st.booleans()):
        lines += ["-- ", "Sent from my phone"]
    text = "\n".join(lines)
    repeat = draw(st.sampled_from([1, 1, 1, 2, 50, 2000]))  # now and then a giant mail
    return text * repeat


def _encode(text: str, charset: str, encoding: str, broken: bool) -> bytes:
    try:
        data = text.encode(charset or "ascii", errors="replace")
    except LookupError:
        data = text.encode("utf-8")
    if broken:
        return data[: len(data) // 2] + b"\xff\xfe=?=\x00" + data[len(data) // 2 :]
    if encoding == "base64":
        return base64.encodebytes(data)
    if encoding == "quoted-printable":
        return quopri.encodestring(data)
    return data


@st.composite
def leaf(draw: st.DrawFn, text: str) -> bytes:
    """One non-multipart part carrying `text` in some content type, charset and encoding."""
    kind = draw(
        st.sampled_from(
            [
                "text/plain",
                "text/plain",
                "text/html",
                "text/enriched",
                "application/octet-stream",
                "image/png",
                "text/calendar",
            ]
        )
    )
    charset = draw(st.sampled_from(CHARSETS))
    encoding = draw(st.sampled_from(ENCODINGS))
    if kind == "text/html":
        text = draw(
            st.sampled_from(
                [
                    "<html><body><p>{}</p></body></html>",
                    "<div>{}</div>",
                    "<script>{}</script>",
                    "<p>{}<br><br>&nbsp;&#x3c;&#",
                ]
            )
        )
        text = text.format(text.replace("\n", "<br>"))
    body = _encode(text, charset, encoding, draw(st.booleans()) and draw(st.booleans()))
    head = f'Content-Type: {kind}; charset="{charset}"\r\n'
    head += f"Content-Transfer-Encoding: {encoding}\r\n"
    if draw(st.booleans()):
        name = draw(st.sampled_from(["orders.txt", "=?utf-8?b?w6Q=?=.txt", 'a"b.txt', ""]))
        head += f'Content-Disposition: attachment; filename="{name}"\r\n'
    return head.encode("utf-8", "surrogateescape") + b"\r\n" + body


@st.composite
def mime_body(draw: st.DrawFn, text: str, depth: int = 0) -> bytes:
    """A leaf, or a multipart (mixed, alternative, a forwarded message) of parts, sometimes
    with its closing boundary missing or a boundary that never appears."""
    if depth >= 3 or draw(st.integers(0, 2)) == 0:
        return draw(leaf(text))
    subtype = draw(st.sampled_from(["mixed", "alternative", "related", "digest", "rfc822"]))
    if subtype == "rfc822":
        inner = draw(headers_block(text)) + draw(mime_body(text, depth + 1))
        return b"Content-Type: message/rfc822\r\n\r\n" + inner
    boundary = draw(st.sampled_from(["b1", "==b2==", "", "a" * 80, 'b"3']))
    parts = draw(st.lists(mime_body(text, depth + 1), min_size=0, max_size=4))
    used = boundary if draw(st.integers(0, 4)) else "other"
    body = b"".join(b"--" + used.encode() + b"\r\n" + part + b"\r\n" for part in parts)
    if draw(st.booleans()):
        body += b"--" + used.encode() + b"--\r\n"
    head = f'Content-Type: multipart/{subtype}; boundary="{boundary}"\r\n'.encode()
    return head + b"\r\npreamble\r\n" + body


@st.composite
def sender(draw: st.DrawFn) -> str:
    return draw(
        st.one_of(
            st.sampled_from(sorted(SEATS)),
            st.sampled_from(sorted(SEATS)).map(lambda a: f"=?utf-8?q?J=C3=B6rg?= <{a}>"),
            st.from_regex(r"[a-z0-9.+-]{1,20}@[a-z]{1,10}\.example", fullmatch=True),
            st.sampled_from(
                [
                    "",
                    "<>",
                    "nobody",
                    "a@",
                    "@b",
                    "<<a@b>>",
                    "MAILER-DAEMON@x.org",
                    "postmaster@example.org",
                    MODERATOR,
                    '"a@b" <c@d.example>',
                    "x" * 2000 + "@example.org",
                    "undisclosed-recipients:;",
                    "alice@example.org, bob@example.org",
                ]
            ),
            st.text(max_size=40),
        )
    )


@st.composite
def headers_block(draw: st.DrawFn, text: str) -> bytes:
    """The header fields of a mail (or of a forwarded one): From, Subject, Message-ID and the
    loop markers, each sometimes missing, repeated, folded badly or eight-bit."""
    fields = []
    if draw(st.integers(0, 9)):
        fields.append(("From", draw(sender())))
    if draw(st.integers(0, 4)):
        # A small pool of ids, so that redeliveries of one Message-ID happen too.
        number = UNIQUE if draw(st.integers(0, 5)) else str(draw(st.integers(0, 5)))
        fields.append(
            (
                "Message-ID",
                draw(
                    st.sampled_from(
                        [f"<f{number}@fuzz.example>", f"f{number}", "<>", "<a@b> <c@d>"]
                    )
                ),
            )
        )
    subject = draw(
        st.one_of(
            st.just("orders"),
            st.text(max_size=100),
            st.just("=?utf-8?b?invalid?="),
            st.just("Re: " * 40 + "x"),
        )
    )
    fields.append(("Subject", subject))
    extra = st.sampled_from(
        [
            ("Auto-Submitted", "auto-replied"),
            ("Auto-Submitted", "no"),
            ("Precedence", "bulk"),
            ("Precedence", "junk"),
            ("List-Id", "<l.example>"),
            ("X-Loop", "pbem.localhost"),
            ("Reply-To", "mallory@evil.example"),
            ("In-Reply-To", "<nothing@here>"),
            ("References", "<" * 500),
            ("Return-Path", "<>"),
            ("X-Long", "y" * 5000),
            ("Content-Type", "text/plain; charset=utf-8"),
            ("MIME-Version", "1.0"),
            ("Date", "yesterday"),
        ]
    )
    fields += draw(st.lists(extra, max_size=4))
    out = b""
    for name, value in fields:
        out += name.encode() + b": " + value.encode("utf-8", "surrogateescape") + b"\r\n"
    if draw(st.integers(0, 9)) == 0:
        out += b"Subject: \xff\xfe raw eight-bit\r\n"
    return out


@st.composite
def plain_mail(draw: st.DrawFn, text: str) -> bytes:
    """A well-formed mail from a seat's address: only its text is hostile."""
    address = draw(st.sampled_from(sorted(SEATS)))
    head = (
        f"From: {address}\r\nTo: {MODERATOR}\r\nSubject: orders\r\n"
        f"Message-ID: <{UNIQUE}@fuzz.example>\r\nMIME-Version: 1.0\r\n"
        "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
    )
    game, seat, password = SEATS[address]
    envelope = f"GAME {game} SEAT {seat} PASSWORD {password}\n" if draw(st.booleans()) else ""
    return head.encode() + (envelope + text).encode("utf-8", "surrogateescape")


@st.composite
def hostile_mail(draw: st.DrawFn) -> bytes:
    """A whole raw mail: headers, then a MIME body carrying (nearly) order text; now and then
    plain random bytes instead."""
    shape = draw(st.integers(0, 19))
    if shape == 0:
        return draw(st.binary(max_size=3000))
    text = draw(order_text())
    if shape < 8:
        return draw(plain_mail(text))
    mail = draw(headers_block(text)) + b"MIME-Version: 1.0\r\n" + draw(mime_body(text))
    if draw(st.integers(0, 9)) == 0:
        mail = mail.replace(b"\r\n", b"\n")  # bare newlines, as some clients send
    return mail
