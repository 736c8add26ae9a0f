"""A stored mail with its passwords masked: what the database keeps of an order mail once
it has been answered (pbem.intake.dispatch), so that whoever reads the database, or a backup
of it, does not read the seats' passwords there. Players reuse passwords.

Each password is replaced, byte for byte, by as many asterisks, wherever it stands as
written; in a text part sent base64 or quoted-printable it is replaced in the decoded text,
and the part encoded again as it came."""

from __future__ import annotations

import re
from collections.abc import Iterable
from email import encoders, message_from_bytes
from email.message import Message
from email.policy import compat32

_ENCODED = re.compile(rb"(?im)^content-transfer-encoding:[ \t]*(base64|quoted-printable)")
_ENCODERS = {"base64": encoders.encode_base64, "quoted-printable": encoders.encode_quopri}


def masked_mail(raw: bytes, passwords: Iterable[str]) -> bytes:
    """`raw` with every password in `passwords` masked."""
    words = sorted({word for word in passwords if word}, key=len, reverse=True)
    for word in words:
        raw = _masked(raw, word.encode("utf-8"))
    if words and _ENCODED.search(raw):
        try:
            raw = _masked_parts(raw, words)
        except Exception:  # noqa: BLE001 - a mail too broken to parse again: masked as written
            return raw
    return raw


def _masked_parts(raw: bytes, words: list[str]) -> bytes:
    message = message_from_bytes(raw, policy=compat32)
    changed = False
    for part in message.walk():
        encoding = str(part.get("Content-Transfer-Encoding", "")).strip().lower()
        if part.is_multipart() or part.get_content_maintype() != "text":
            continue
        if encoding in _ENCODERS:
            changed |= _mask_part(part, encoding, words)
    return message.as_bytes() if changed else raw


def _mask_part(part: Message, encoding: str, words: list[str]) -> bool:
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return False
    charset = part.get_content_charset() or "us-ascii"
    masked = payload
    for word in words:
        try:
            masked = _masked(masked, word.encode(charset))
        except (LookupError, UnicodeError):
            masked = _masked(masked, word.encode("utf-8"))
    if masked == payload:
        return False
    del part["Content-Transfer-Encoding"]
    part.set_payload(masked)
    _ENCODERS[encoding](part)
    return True


def _masked(data: bytes, word: bytes) -> bytes:
    return data.replace(word, b"*" * len(word))
