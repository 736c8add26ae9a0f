"""mail_bytes writes its headers and text itself (the email package's header classes cost a
few milliseconds a mail): byte for byte what the email package writes from the same fields,
for any fields, which is what these properties check against the package itself."""

from __future__ import annotations

import email.policy
from email import message_from_bytes
from email.message import EmailMessage

from hypothesis import example, given, settings
from hypothesis import strategies as st

from pbem.mail.compose import mail_bytes

# Any text, plain ASCII, and the shapes the fast path takes: Message-IDs (and near misses),
# printable words, addresses with and without display names that need quoting.
_ANY = st.text(st.characters(blacklist_categories=("Cs",)), max_size=90)
_ASCII = st.text(st.characters(max_codepoint=127), max_size=90)
_IDS = st.from_regex(r'<[a-z0-9.!("]{1,20}@[a-z0-9.\[\]]{1,15}>', fullmatch=True)
_WORDS = st.lists(st.from_regex(r"[!-~]{1,12}", fullmatch=True), max_size=10).map(" ".join)
_ADDRESSES = st.sampled_from(
    ["alice@example.org", "pbem <m@x.org>", '"A, B" <a@b.c>', "A.B <a@b>", "Zoë <z@x.org>"]
)
# Bare addresses, which are written without the package, and near misses (quoted, spaced,
# encoded-word, non-ASCII, long enough to fold).
_BARE = st.from_regex(
    r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~\-\"\\ é]{1,70}@[A-Za-z0-9.\[\]=?_ -]{1,15}", fullmatch=True
)
_FIELD = st.one_of(_ANY, _ASCII, _IDS, _WORDS, _ADDRESSES, _BARE)


def _as_the_email_package_writes(
    sender: str, to: str, subject: str, body: str, message_id: str, in_reply_to: str,
    references: tuple[str, ...], loop_token: str, auto: str,
) -> bytes:  # fmt: skip
    """The oracle: the same fields set on an EmailMessage, flattened as mail_bytes does."""
    one_line = " ".join
    message = EmailMessage(policy=email.policy.default)
    message["From"] = one_line(sender.split())
    message["To"] = one_line(to.split())
    message["Subject"] = one_line(subject.split())
    message["Message-ID"] = f"<{one_line(message_id.split()).strip('<>')}>"
    if in_reply_to.strip():
        message["In-Reply-To"] = f"<{one_line(in_reply_to.split()).strip('<>')}>"
        chain = [*references, in_reply_to][-20:]
        message["References"] = " ".join(f"<{one_line(r.split()).strip('<>')}>" for r in chain)
    message["Auto-Submitted"] = auto
    message["X-Loop"] = one_line(loop_token.split())
    text = body.replace("\r\n", "\n").replace("\r", "\n")
    plain = body.isascii() and all(len(line) <= 998 for line in text.split("\n"))
    message.set_content(text, charset="utf-8", cte="7bit" if plain else "quoted-printable")
    return _with_wide_ids(message)


def _with_wide_ids(message: EmailMessage) -> bytes:
    """The message's bytes, its message-id headers written with lines up to RFC 5322's 998
    characters, as mail_bytes writes them (each header is folded on its own)."""
    raw = message.as_bytes()
    wide = email.policy.default.clone(max_line_length=998)
    for name in ("Message-ID", "In-Reply-To", "References"):
        if name in message:
            value = str(message[name])
            raw = raw.replace(_alone(name, value, email.policy.default), _alone(name, value, wide))
    return raw


def _alone(name: str, value: str, policy: email.policy.EmailPolicy) -> bytes:
    header = EmailMessage(policy=policy)
    header[name] = value
    return header.as_bytes().removesuffix(b"\n")


@settings(max_examples=400, deadline=None)
@given(
    sender=_FIELD, to=_FIELD, subject=_FIELD, body=st.one_of(_ANY, _ASCII), message_id=_FIELD,
    in_reply_to=_FIELD, references=st.lists(st.one_of(_FIELD, _IDS), max_size=25).map(tuple),
    loop_token=_FIELD, auto=st.sampled_from(["auto-replied", "auto-generated"]),
)  # fmt: skip
def test_the_bytes_are_the_email_packages(**fields: object) -> None:
    try:
        expected = _as_the_email_package_writes(**fields)  # type: ignore[arg-type]
    except Exception:  # the package's parser breaks on some ("<>", "<0@[>")
        return  # fields the package cannot write at all: nothing to compare with
    assert mail_bytes(**fields) == expected  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(to=_BARE)
@example(to="x" * 75 + "@b.c")  # folded onto a line of its own
@example(to="=?utf-8?q?x?=@b.c")  # an encoded word, decoded by the package
@example(to="a@=?utf-8?q?x?=")
def test_a_players_bare_address_is_written_as_the_package_writes_it(to: str) -> None:
    fields = {
        "sender": "pbem <m@x.org>", "to": to, "subject": "s", "body": "ok\n",
        "message_id": "<a@b>", "in_reply_to": "", "references": (), "loop_token": "t",
        "auto": "auto-replied",
    }  # fmt: skip
    try:
        expected = _as_the_email_package_writes(**fields)  # type: ignore[arg-type]
    except Exception:
        return  # as above: nothing to compare with
    assert mail_bytes(**fields) == expected  # type: ignore[arg-type]


def test_a_long_or_foreign_header_is_folded_and_encoded_as_the_package_does() -> None:
    fields = {
        "sender": "pbem <m@x.org>", "to": "Zoë Ærø <z@x.org>",
        "subject": "Re: " + "orders " * 20, "body": "ok\n", "message_id": "<a@b>",
        "in_reply_to": "<p@q>", "references": tuple(f"<id{n}@players.example>" for n in range(9)),
        "loop_token": "t", "auto": "auto-replied",
    }  # fmt: skip
    raw = mail_bytes(**fields)  # type: ignore[arg-type]
    assert raw == _as_the_email_package_writes(**fields)  # type: ignore[arg-type]
    assert b"\n " in raw.split(b"\n\n")[0]  # folded
    assert b"=?utf-8?" in raw  # the name encoded


def test_a_long_message_id_is_threaded_as_it_stands() -> None:
    """Issue 36 (found by its campaign's operator): a mail without a Message-ID is known by
    "sha256-<64 hex>@pbem.invalid"; the reply's In-Reply-To and References carried it as an
    RFC 2047 encoded word, which no mail client threads by."""
    long_id = "sha256-" + "0123456789abcdef" * 4 + "@pbem.invalid"
    older = "older@example.org"
    raw = mail_bytes(
        sender="pbem@example.org",
        to="ann@example.org",
        subject="Re: orders",
        body="answer\n",
        message_id="reply-1@example.org",
        in_reply_to=long_id,
        references=(older,),
        loop_token="t",
    )
    head = raw.split(b"\n\n", 1)[0].decode("ascii")
    assert "=?" not in head
    assert f"In-Reply-To: <{long_id}>\n" in head
    assert f"References: <{older}> <{long_id}>\n" in head
    message = message_from_bytes(raw, policy=email.policy.default)
    assert str(message["In-Reply-To"]) == f"<{long_id}>"
    assert max(len(line) for line in head.splitlines()) <= 998
