"""Outgoing mail: plain text, loop-proof headers, and the same bytes for the same inputs.

No Date header here: the sender adds it at send time, so that a message stored in the outbox
table is reproducible byte for byte (docs/architecture.md: same inputs, same outputs).
"""

from __future__ import annotations

import base64
import email.policy
import functools
import hashlib
import re
from dataclasses import dataclass
from email import message_from_bytes
from email.message import EmailMessage, MIMEPart
from email.policy import EmailPolicy
from typing import Any

_ANGLE_ID = re.compile(r"<([^<>\s]+)>")
_AUTO_VALUES = frozenset({"auto-replied", "auto-generated"})
_MAX_LINE = 998  # RFC 5322 hard limit; longer lines need an encoding
_MAX_REFERENCES = 20  # a long thread keeps its newest ids: clients thread on the last ones
_FOLD_AT = 78  # the email package folds a header line longer than this
# A value the email package writes as it stands: printable ASCII words, one space apart.
_STANDS = re.compile(r"[\x21-\x7e]+(?: [\x21-\x7e]+)*")
# And Message-IDs it writes as they stand: <dot-atom@dot-atom>, one space apart.
_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
_IDS = re.compile(rf"<{_ATOM}@{_ATOM}>(?: <{_ATOM}@{_ATOM}>)*")
# And an address that is a bare addr-spec, dot-atom@dot-atom: a player's, nearly always.
_BARE_ADDRESS = re.compile(rf"{_ATOM}@{_ATOM}")
_ID_HEADERS = frozenset({"Message-ID", "In-Reply-To", "References"})
_POLICY = email.policy.default
# Message ids are written with lines up to RFC 5322's 998 characters: at 78 the package takes
# In-Reply-To and References for free text and writes an id longer than a line (a mail
# without a Message-ID is known by an 86-character one) as an encoded word, which no mail
# client threads by.
_ID_POLICY = email.policy.default.clone(max_line_length=998)
_ADDRESS_HEADERS = frozenset({"From", "To"})
_TEXT_HEAD = b'Content-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: 7bit\n'


@dataclass(frozen=True)
class Attachment:
    """A file that goes with a mail: a map picture, a chart, the report's data."""

    filename: str
    content_type: str  # "image/png", "application/json"
    data: bytes


def compose(**fields: Any) -> EmailMessage:
    """The message mail_bytes writes from the same arguments, as an EmailMessage (to read it
    back)."""
    raw = mail_bytes(**fields)
    return message_from_bytes(raw, policy=email.policy.default)


def mail_bytes(
    *,
    sender: str,
    to: str,
    subject: str,
    body: str,
    message_id: str,
    in_reply_to: str = "",
    references: tuple[str, ...] = (),
    loop_token: str,
    auto: str = "auto-replied",
    attachments: tuple[Attachment, ...] = (),
) -> bytes:
    """A plain-text UTF-8 message marked Auto-Submitted and with our X-Loop. A reply's
    References is the parent's thread (`references`) followed by the parent itself. With
    attachments it is multipart/mixed, the text first, so that a client that shows only the
    first part still shows the whole report."""
    if auto not in _AUTO_VALUES:
        raise ValueError(f"auto must be one of {sorted(_AUTO_VALUES)}, not {auto!r}")
    fields = [
        ("From", _one_line(sender)),
        ("To", _one_line(to)),
        ("Subject", _one_line(subject)),
        ("Message-ID", _bracketed(message_id)),
    ]
    if in_reply_to.strip():
        chain = [*references, in_reply_to][-_MAX_REFERENCES:]
        fields.append(("In-Reply-To", _bracketed(in_reply_to)))
        fields.append(("References", " ".join(_bracketed(ref) for ref in chain)))
    fields += [("Auto-Submitted", auto), ("X-Loop", _one_line(loop_token))]
    if not attachments:
        return _head(fields) + _text_part(body)
    # The boundary is made from the message, not at random: the same mail, the same bytes.
    boundary = f"=_pbem_{hashlib.sha256(message_id.encode()).hexdigest()[:24]}"
    fields.append(("MIME-Version", "1.0"))
    fields.append(("Content-Type", f'multipart/mixed; boundary="{boundary}"'))
    return _head(fields) + b"\n" + _mixed(body, attachments, boundary)


def _head(fields: list[tuple[str, str]]) -> bytes:
    """The header lines, each as the email package writes it (folded, encoded): written
    directly when it stands as it is, which is nearly always; the package's header classes
    cost a few milliseconds a mail, and a deadline wave writes thousands of mails."""
    return b"".join(_header_line(name, value) for name, value in fields)


def _header_line(name: str, value: str) -> bytes:
    line = f"{name}: {value}"
    if name in _ADDRESS_HEADERS:
        if len(line) <= _FOLD_AT and _BARE_ADDRESS.fullmatch(value) and "=?" not in value:
            return line.encode("ascii") + b"\n"
        return _rendered(name, value)  # parsed and written again: quoting, encoded words
    stands = _IDS if name in _ID_HEADERS else _STANDS
    if len(line) <= _FOLD_AT and stands.fullmatch(value) and "=?" not in value:
        return line.encode("ascii") + b"\n"
    return _rendered_once(name, value, _ID_POLICY if name in _ID_HEADERS else _POLICY)


@functools.lru_cache(maxsize=8192)
def _rendered(name: str, value: str) -> bytes:
    """An address header as the email package writes it: one sender, a few thousand
    players, each written many times."""
    return _rendered_once(name, value)


def _rendered_once(name: str, value: str, policy: EmailPolicy[EmailMessage] = _POLICY) -> bytes:
    message = EmailMessage(policy=policy)
    message[name] = value
    return message.as_bytes().removesuffix(b"\n")


def _text_part(body: str, *, top: bool = True) -> bytes:
    """The text's MIME headers, a blank line and the text, as set_content writes them (the
    message's own MIME-Version among them when the text is the whole message, `top`)."""
    text = _text(body)
    if _transfer_encoding(body) == "7bit":
        head = _TEXT_HEAD + (b"MIME-Version: 1.0\n" if top else b"")
        return head + b"\n" + text.encode("ascii") + (b"" if text.endswith("\n") else b"\n")
    policy = email.policy.default
    part = EmailMessage(policy=policy) if top else MIMEPart(policy=policy)
    part.set_content(text, charset="utf-8", cte="quoted-printable")
    return part.as_bytes()


def _mixed(body: str, attachments: tuple[Attachment, ...], boundary: str) -> bytes:
    """The multipart body written out directly: the email package's generator takes several
    milliseconds over a few hundred lines of base64, once for every report of every seat."""
    parts = [_text_part(body, top=False)]
    for item in attachments:
        name = item.filename.replace("\\", "").replace('"', "")
        parts.append(
            f"Content-Type: {item.content_type}\n"
            "Content-Transfer-Encoding: base64\n"
            f'Content-Disposition: attachment; filename="{name}"\n\n'.encode()
            + base64.encodebytes(item.data)
        )
    line = f"--{boundary}\n".encode()
    return b"".join(line + part + b"\n" for part in parts) + f"--{boundary}--\n".encode()


def text_of(message: EmailMessage) -> str:
    """The text of a mail we composed, with or without attachments."""
    body = message.get_body(preferencelist=("plain",))
    return str(body.get_content()) if body is not None else ""


def stable_message_id(*parts: str, domain: str) -> str:
    """'<32 hex digits@domain>' from the parts; the same parts always give the same id."""
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8", "surrogatepass")
        # Length-prefixed, so ("ab", "c") and ("a", "bc") differ.
        digest.update(f"{len(data)}:".encode() + data)
    return f"<{digest.hexdigest()[:32]}@{domain}>"


def _one_line(value: str) -> str:
    # A decoded subject may hide CR/LF in an encoded-word; never let it split our headers.
    return " ".join(value.split())


def _bracketed(message_id: str) -> str:
    return f"<{_one_line(message_id).strip('<>')}>"


def _text(body: str) -> str:
    return body.replace("\r\n", "\n").replace("\r", "\n")


def _transfer_encoding(body: str) -> str:
    """7bit when a person can read the raw mail as it is; quoted-printable otherwise."""
    lines = _text(body).split("\n")
    if body.isascii() and all(len(line) <= _MAX_LINE for line in lines):
        return "7bit"
    return "quoted-printable"


def thread_of(references: str, in_reply_to: str) -> tuple[str, ...]:
    """The ids of a mail's thread, oldest first, from its References header (or, without
    one, its In-Reply-To), as RFC 5322 3.6.4 says a reply builds its own References."""
    found = _ANGLE_ID.findall(references or in_reply_to)
    return tuple(found[-_MAX_REFERENCES:])
