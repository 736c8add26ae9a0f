"""Outgoing mail: plain text, loop-proof headers, and the same bytes for the same inputs.

No Date header here: the sender adds it at send time, so that a message stored in the outbox
table is reproducible byte for byte (design.md: same inputs, same outputs).
"""

from __future__ import annotations

import base64
import email.policy
import hashlib
import re
from dataclasses import dataclass
from email import message_from_bytes
from email.message import EmailMessage, MIMEPart
from typing import Any, cast

_ANGLE_ID = re.compile(r"<([^<>\s]+)>")
_AUTO_VALUES = frozenset({"auto-replied", "auto-generated"})
_MAX_LINE = 998  # RFC 5322 hard limit; longer lines need an encoding
_MAX_REFERENCES = 20  # a long thread keeps its newest ids: clients thread on the last ones


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
    return cast(EmailMessage, message_from_bytes(raw, policy=email.policy.default))


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
    msg = EmailMessage(policy=email.policy.default)
    msg["From"] = _one_line(sender)
    msg["To"] = _one_line(to)
    msg["Subject"] = _one_line(subject)
    msg["Message-ID"] = _bracketed(message_id)
    if in_reply_to.strip():
        msg["In-Reply-To"] = _bracketed(in_reply_to)
        chain = [*references, in_reply_to][-_MAX_REFERENCES:]
        msg["References"] = " ".join(_bracketed(ref) for ref in chain)
    msg["Auto-Submitted"] = auto
    msg["X-Loop"] = _one_line(loop_token)
    if not attachments:
        msg.set_content(_text(body), charset="utf-8", cte=_transfer_encoding(body))
        return msg.as_bytes()
    # The boundary is made from the message, not at random: the same mail, the same bytes.
    boundary = f"=_pbem_{hashlib.sha256(message_id.encode()).hexdigest()[:24]}"
    msg["MIME-Version"] = "1.0"
    msg["Content-Type"] = f'multipart/mixed; boundary="{boundary}"'
    return _mixed(msg, body, attachments, boundary)


def _mixed(
    msg: EmailMessage, body: str, attachments: tuple[Attachment, ...], boundary: str
) -> bytes:
    """The multipart body written out directly: the email package's generator takes several
    milliseconds over a few hundred lines of base64, once for every report of every seat."""
    head = msg.as_bytes().split(b"\n\n", 1)[0]
    text = MIMEPart(policy=email.policy.default)
    text.set_content(_text(body), charset="utf-8", cte=_transfer_encoding(body))
    parts = [text.as_bytes()]
    for item in attachments:
        name = item.filename.replace("\\", "").replace('"', "")
        parts.append(
            f"Content-Type: {item.content_type}\n"
            "Content-Transfer-Encoding: base64\n"
            f'Content-Disposition: attachment; filename="{name}"\n\n'.encode()
            + base64.encodebytes(item.data)
        )
    line = f"--{boundary}\n".encode()
    return (
        head
        + b"\n\n"
        + b"".join(line + part + b"\n" for part in parts)
        + f"--{boundary}--\n".encode()
    )


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
