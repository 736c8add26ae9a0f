"""Turning bytes and header values of unknown quality into text. Nothing here raises.

Mail arrives with wrong or unknown charset labels, raw 8-bit headers and broken encoded-words;
we read what can be read and say what we guessed (the notes go into the reply).
"""

from __future__ import annotations

import re
from email.header import decode_header

# Labels that lie in practice (WHATWG does the same): "iso-8859-1" mail is written with
# windows-1252 (smart quotes, euro sign), and "us-ascii" mail often carries UTF-8.
_AS_CP1252 = frozenset({"iso-8859-1", "iso8859-1", "iso_8859-1", "latin-1", "latin1", "l1"})
_AS_UNDECLARED = frozenset({"us-ascii", "ascii", "ansi_x3.4-1968"})
_FOLD = re.compile(r"\r?\n(?=[ \t])")
_CONTROLS = re.compile(r"[\x00-\x1f\x7f]+")


def printable(value: str, limit: int = 40) -> str:
    """A short, single-line form of an untrusted value, safe to put into a note."""
    return _CONTROLS.sub(" ", value)[:limit].strip()


def decode_text(data: bytes, charset: str | None) -> tuple[str, str | None]:
    """Decode a body with its declared charset; returns (text, note about a fallback or None).
    NUL characters are dropped: they mean nothing in a text mail, and PostgreSQL refuses them
    in a text column (a game name read as "g1\\0" failed the mail's transaction)."""
    text, note = _decode(data, charset)
    return text.replace("\x00", ""), note


def _decode(data: bytes, charset: str | None) -> tuple[str, str | None]:
    label = (charset or "").strip().lower()
    if not label or label in _AS_UNDECLARED:
        return _guess(data, label)
    if label in _AS_CP1252:
        label = "cp1252"
    try:
        return data.decode(label, "replace"), None
    except (LookupError, UnicodeError, ValueError, TypeError):
        # Unknown names and non-text codecs ("base64", "zlib") both end up here.
        note = f"charset {printable(label)} not known; read as latin-1"
        return data.decode("latin-1"), note


def _guess(data: bytes, label: str) -> tuple[str, str | None]:
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError:
        said = f"charset {label} does not fit the text" if label else "no charset given"
        return data.decode("cp1252", "replace"), f"{said}; read as windows-1252"


def header_text(value: object) -> str:
    """Decode one header value (RFC 2047 words, raw 8-bit bytes, folding) to one clean line."""
    try:
        text = _unsurrogate(str(value))
        text = _FOLD.sub("", text)
        return _CONTROLS.sub(" ", _decode_words(text)).strip()
    except Exception:  # noqa: BLE001 - a header must never stop us reading the mail
        return _CONTROLS.sub(" ", str(value).encode("utf-8", "replace").decode("utf-8")).strip()


def header_raw(value: object) -> str:
    """One header value unfolded and its raw 8-bit bytes read, but its RFC 2047 words left
    encoded: what an address is taken from. Decoded first, a display name written
    `=?utf-8?q?victim=40example=2Eorg?=` would read as an address of its own."""
    try:
        return _CONTROLS.sub(" ", _FOLD.sub("", _unsurrogate(str(value)))).strip()
    except Exception:  # noqa: BLE001 - a header must never stop us reading the mail
        return ""


def _unsurrogate(text: str) -> str:
    """The parser keeps raw 8-bit header bytes as surrogates; most such headers are UTF-8."""
    try:
        data = text.encode("ascii", "surrogateescape")
    except UnicodeEncodeError:
        return text  # real non-ASCII characters: already text
    return decode_text(data, None)[0]


def _decode_words(text: str) -> str:
    parts = decode_header(text)
    return "".join(_part_text(chunk, charset) for chunk, charset in parts)


def _part_text(chunk: bytes | str, charset: str | None) -> str:
    if isinstance(chunk, str):
        return chunk
    return decode_text(chunk, charset or "utf-8")[0]
