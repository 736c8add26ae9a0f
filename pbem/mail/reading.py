"""Reading one inbound mail into an IncomingMail. read_mail never raises.

Whatever arrives (garbage bytes, broken MIME, lying charsets, HTML-only mail, attachments,
giant mails) we keep what can be read and collect notes the reply should mention.

Every mail costs work linear in its size, whatever it holds. The email package is not so on
its own (a Content-Type of 50,000 parameters, 100,000 encoded words in a Subject, 400,000
empty MIME parts each take seconds, some growing with the square of the size), so it is
given bounded input: caps before parsing, not another parser, as its reading of broken MIME
is what the rest of pbem is tested against. The header is read up to MAX_HEADER bytes,
every header value up to MAX_VALUE characters (pbem.mail._bounded), and a mail of more than
MAX_LINES lines, MAX_PARTS parts or MAX_FIELDS header fields is refused unread like a mail
over the size limit (`too_big`). The Subject is kept to MAX_SUBJECT characters: replies
quote it.
"""

from __future__ import annotations

import email
import email.message
import email.utils
import hashlib
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from pbem.mail._bounded import MAX_FIELDS, TooMany, bounded_parse, cut
from pbem.mail._decode import decode_text, header_raw, header_text, printable
from pbem.mail._html import MAX_TAGS, HtmlText, html_text
from pbem.mail.addresses import is_address

_MAX_ID = 255  # longer Message-IDs are replaced by their hash
_MAX_FORWARDS = 2  # forwarded messages read inside one another
_ANGLE_ID = re.compile(r"<([^<>\s]+)>")
# Detached signatures are part of signing, not something the player sent us to read.
_SILENT_TYPES = frozenset({"application/pgp-signature", "application/pkcs7-signature"})
MAX_HEADER = 100_000  # bytes of the mail's header read (Postfix's header_size_limit)
MAX_LINES = 200_000  # lines of a mail; 2 MB of base64 attachments is 27,000
MAX_SUBJECT = 200  # characters of the Subject kept: it is quoted in replies
MAX_NOTES = 20  # notes about ignored parts kept; then one for the rest
_DEEP = 100  # elements nested; real mail nests a few dozen deep


@dataclass(frozen=True)
class IncomingMail:
    """What the pipeline needs from one inbound mail, decoded and normalised."""

    # Without <>. A mail without one gets "sha256-<hex of raw>@pbem.invalid"; one longer than
    # 255 characters is replaced by "sha256-<hex of the id>@pbem.invalid".
    message_id: str
    # The bare lower-cased From address; '' if none, not one (pbem.mail.addresses) or more than
    # one. Taken from the header as it came, before its encoded words are decoded: see _sender.
    sender: str
    reply_to: str  # bare lower-cased Reply-To address or ''
    return_path: str  # bare Return-Path address, 'null' for '<>', '' if absent
    subject: str  # decoded, one line, '' if none
    in_reply_to: str  # first id of In-Reply-To, without <>, '' if none
    text: str  # the readable body, '\n' line endings, '' when there is none (or too big)
    notes: tuple[str, ...]  # what the reply should mention (ignored attachments, guesses)
    # Lower-cased name -> decoded value of its first occurrence. A plain dict, typed read-only,
    # so that dataclasses.asdict, pickle and json work on an IncomingMail.
    headers: Mapping[str, str]
    size: int  # len(raw)
    # Over max_bytes, or over a cap of the reading (MAX_HEADER, MAX_LINES, MAX_PARTS,
    # MAX_FIELDS): the body was not read at all, and notes[0] says why.
    too_big: bool = False
    header_items: tuple[tuple[str, str], ...] = field(default=())  # every header, in order
    # (what, text) of each forwarded message (message/rfc822) and text/plain attachment, in
    # order: where orders are looked for when the body has none. "the forwarded message",
    # "attachment orders.txt".
    enclosed: tuple[tuple[str, str], ...] = field(default=())
    # How many addresses the From header(s) name: a mail with several is from nobody we answer.
    from_count: int = 0
    # Why the body was read only in part ('' when it was read whole): an HTML body past
    # MAX_TAGS. A mail whose part read has nothing in it is refused for this, not for that.
    cut_short: str = ""
    # Orders read from the quoted text (pbem.intake.finding): the mail's own lines above the
    # quote that a GAME line would have made order lines, (mail line, text) each. Not read;
    # the check reply says so of those that read as orders.
    above_quote: tuple[tuple[int, str], ...] = field(default=())


def read_mail(raw: bytes, *, max_bytes: int = 2_000_000) -> IncomingMail:
    """Read a raw RFC 5322 message. Never raises: returns whatever could be read."""
    try:
        return _read(raw, max_bytes)
    except Exception as exc:  # noqa: BLE001 - read_mail never raises; this is its last guard
        return IncomingMail(
            message_id=_hash_id(raw),
            sender="",
            reply_to="",
            return_path="",
            subject="",
            in_reply_to="",
            text="",
            notes=(f"the mail could not be read ({type(exc).__name__})",),
            headers={},
            size=len(raw),
        )


def _read(raw: bytes, max_bytes: int) -> IncomingMail:
    head_end = _head_end(raw)
    refused = _refusal(raw, head_end, max_bytes)
    msg = None
    if refused is None:
        try:
            msg = bounded_parse(raw)
        except TooMany as many:
            refused = f"the mail has more than {many.limit:,} {many.what}, the most pbem reads"
    if msg is None:
        # A mail refused unread is not parsed beyond its header block (at most MAX_HEADER
        # bytes of it): no part is decoded at all.
        msg = _header_only(raw, head_end)
    items = tuple((str(name).lower(), header_text(value)) for name, value in msg.raw_items())
    froms = _from_addresses(msg)
    headers: dict[str, str] = {}
    for name, value in items:
        headers.setdefault(name, value)
    notes: tuple[str, ...]
    enclosed: tuple[tuple[str, str], ...] = ()
    cut_short = ""
    if refused is not None:
        text, notes = "", (refused,)
    else:
        text, notes, enclosed, cut_short = _body(msg)
    return IncomingMail(
        message_id=_message_id(headers.get("message-id", ""), raw),
        sender=_address(froms[0]) if len(froms) == 1 else "",
        reply_to=_address(headers.get("reply-to", "")),
        return_path=_return_path(headers),
        subject=cut(headers.get("subject", ""), MAX_SUBJECT),
        in_reply_to=_first_id(headers.get("in-reply-to", "")),
        text=text,
        notes=notes,
        headers=headers,
        size=len(raw),
        too_big=refused is not None,
        header_items=items,
        enclosed=enclosed,
        from_count=len(froms),
        cut_short=cut_short,
    )


def _from_addresses(msg: email.message.Message) -> list[str]:
    """Every address the mail's From headers name, read from the headers as they came: an
    encoded word is a display name, never an address (`=?utf-8?q?victim=40example=2Eorg?=
    <mal@evil.example>` is from mal@evil.example), and `From: a@x.org, b@y.org` names two
    senders, which RFC 5322 allows only with a Sender header; pbem answers neither."""
    raws = [header_raw(value) for name, value in msg.raw_items() if str(name).lower() == "from"]
    found = email.utils.getaddresses(raws)
    return [address for _, address in found if address.strip()]


def _refusal(raw: bytes, head_end: int, max_bytes: int) -> str | None:
    """Why the mail is refused unread for its size, before any parsing; None if it is not."""
    if len(raw) > max_bytes:
        return f"mail is {_size(len(raw))}, over the {_size(max_bytes)} limit"
    if head_end > MAX_HEADER:
        return f"the mail's header is {_size(head_end)}, over the {_size(MAX_HEADER)} limit"
    # The parser reads line by line in Python: a line costs it about a microsecond.
    lines = raw.count(b"\n") + raw.count(b"\r") - raw.count(b"\r\n")
    if lines > MAX_LINES:
        return f"the mail has {lines:,} lines, over the {MAX_LINES:,} pbem reads"
    return None


def _head_end(raw: bytes) -> int:
    """Where the header block ends (the body's blank line), or len(raw) if it never does."""
    ends = [i for i in (raw.find(b"\n\n"), raw.find(b"\r\n\r\n")) if i >= 0]
    return min(ends) if ends else len(raw)


def _header_only(raw: bytes, head_end: int) -> email.message.Message:
    """The header block alone, parsed: its first MAX_FIELDS lines within MAX_HEADER bytes."""
    block = raw[: min(head_end, MAX_HEADER)]
    if head_end > MAX_HEADER:
        block = block[: block.rfind(b"\n") + 1]
    lines = block.rstrip(b"\r\n").split(b"\n", MAX_FIELDS)[:MAX_FIELDS]
    return bounded_parse(b"\n".join(lines) + b"\n\n")


def _hash_id(raw: bytes) -> str:
    return f"sha256-{hashlib.sha256(raw).hexdigest()}@pbem.invalid"


def _first_id(value: str) -> str:
    match = _ANGLE_ID.search(value)
    if match:
        return match.group(1)
    words = value.strip("<> \t").split()
    return words[0] if words else ""


def _message_id(value: str, raw: bytes) -> str:
    found = _first_id(value)
    if len(found) > _MAX_ID:
        # Still unique and stable, and it fits any column the store gives it.
        return f"sha256-{hashlib.sha256(found.encode('utf-8', 'replace')).hexdigest()}@pbem.invalid"
    return found or _hash_id(raw)


def _address(value: str) -> str:
    """The bare address, lower-cased, or '' unless it is one address (pbem.mail.addresses)."""
    addr = email.utils.parseaddr(value)[1].strip().lower()
    return addr if is_address(addr) else ""


def _return_path(headers: Mapping[str, str]) -> str:
    if "return-path" not in headers:
        return ""
    value = headers["return-path"].strip()
    if value in ("", "<>") or value.replace(" ", "") == "<>":
        return "null"
    return _address(value) or value.strip("<>").strip().lower()


def _size(n: int) -> str:
    if n >= 1_000_000:
        return f"{n / 1_000_000:.1f} MB"
    if n >= 1_000:
        return f"{n / 1_000:.1f} kB"
    return f"{n} bytes"


def _leaves(part: email.message.Message) -> Iterator[email.message.Message]:
    """Leaf parts in order; an attached message (message/rfc822) counts as one leaf."""
    if part.is_multipart() and part.get_content_maintype() == "multipart":
        for sub in part.get_payload():
            if isinstance(sub, email.message.Message):
                yield from _leaves(sub)
    else:
        yield part


def _content_type(part: email.message.Message) -> str:
    """The part's type; a multipart the parser could not split (no boundary) is read as text."""
    ctype = part.get_content_type()
    if part.get_content_maintype() == "multipart" and not part.is_multipart():
        return "text/plain"
    return ctype


def _is_attachment(part: email.message.Message) -> bool:
    disposition = str(part.get("content-disposition", "")).split(";")[0].strip().lower()
    return disposition == "attachment" or bool(_filename(part))


def _filename(part: email.message.Message) -> str:
    try:
        return printable(header_text(part.get_filename() or ""), 80)
    except Exception:  # noqa: BLE001 - a broken filename header must not stop the read
        return ""


def _body(
    msg: email.message.Message, depth: int = 0
) -> tuple[str, tuple[str, ...], tuple[tuple[str, str], ...], str]:
    """Pick the readable body, keep the texts orders may be enclosed in (forwarded, attached),
    and note every other part we leave unread; and why the body was read only in part."""
    leaves = list(_leaves(msg))
    plain = _first(leaves, "text/plain")
    html = _first(leaves, "text/html")
    notes: list[str] = []
    text = _part_text(plain, notes) if plain is not None else ""
    chosen = plain
    cut_short = ""
    if not text.strip() and html is not None:
        # Some clients send an empty text/plain beside the real HTML body.
        notes = ["read the HTML part as text"]
        read = html_text(_part_text(html, notes))
        if read.cut:
            cut_short = _html_cut(read)
            notes.append(f"the HTML part was not read whole: {cut_short}")
        text, chosen = read.text, html
    enclosed: list[tuple[str, str]] = []
    for part in leaves:
        found = _enclosed(part, chosen, depth)
        if found is not None:
            enclosed.append(found)
            # Noted all the same: the pipeline drops the note if it reads the orders there.
            notes.append(
                f"{found[0]} ({_content_type(part)}, {_size(_payload_size(part))}) ignored"
            )
            continue
        note = _ignored_note(part, chosen, plain, html)
        if note:
            notes.append(note)
    return _lines(text), _few(notes), tuple(enclosed), cut_short


def _html_cut(read: HtmlText) -> str:
    """Why an HTML body was read only in part, and how deep it nested where the reading
    stopped: 50,000 nested <div> reach the cap before the text inside them."""
    nested = f" (it nests {read.depth:,} elements deep)" if read.depth > _DEEP else ""
    return f"the moderator reads HTML up to its {MAX_TAGS:,}th tag, and yours has more{nested}"


def _few(notes: list[str]) -> tuple[str, ...]:
    """The notes a reply lists: each attachment has one, and a mail may have hundreds."""
    if len(notes) <= MAX_NOTES:
        return tuple(notes)
    return (*notes[: MAX_NOTES - 1], f"and {len(notes) - MAX_NOTES + 1} more parts ignored")


def _enclosed(
    part: email.message.Message, chosen: email.message.Message | None, depth: int
) -> tuple[str, str] | None:
    """(what, text) of a forwarded message (its body) or a text/plain attachment, else None.
    `depth` bounds the recursion through messages forwarded inside one another."""
    ctype = _content_type(part)
    if ctype == "message/rfc822" and depth < _MAX_FORWARDS:
        inner = part.get_payload()
        first = inner[0] if isinstance(inner, list) and inner else None
        if isinstance(first, email.message.Message):
            text, _, _, _ = _body(first, depth + 1)
            return "the forwarded message", text
    if ctype == "text/plain" and part is not chosen and _is_attachment(part):
        name = _filename(part)
        return (f"attachment {name}" if name else "the attached text"), _lines(_part_text(part, []))
    return None


def _first(leaves: list[email.message.Message], ctype: str) -> email.message.Message | None:
    for part in leaves:
        if _content_type(part) == ctype and not _is_attachment(part):
            return part
    return None


def _part_text(part: email.message.Message, notes: list[str]) -> str:
    payload = part.get_payload(decode=True)
    data = payload if isinstance(payload, bytes) else b""
    charset = _charset(part)
    text, note = decode_text(data, charset)
    if note:
        notes.append(note)
    return text


def _charset(part: email.message.Message) -> str | None:
    try:
        return part.get_content_charset()
    except Exception:  # noqa: BLE001 - a broken charset parameter must not stop the read
        return None


def _ignored_note(
    part: email.message.Message,
    chosen: email.message.Message | None,
    plain: email.message.Message | None,
    html: email.message.Message | None,
) -> str | None:
    if part is chosen or _content_type(part) in _SILENT_TYPES:
        return None
    if part is html or part is plain:
        return None  # the unchosen alternative of the body: same content, nothing to report
    ctype = _content_type(part)
    if ctype == "text/plain" and not _is_attachment(part):
        return "another text part ignored (only the first one is read)"
    name = _filename(part)
    size = _size(_payload_size(part))
    what = f"attachment {name}" if name else "attachment"
    return f"{what} ({ctype}, {size}) ignored"


def _payload_size(part: email.message.Message) -> int:
    try:
        payload = part.get_payload(decode=True)
        if isinstance(payload, bytes):
            return len(payload)
        # An attached message (message/rfc822) holds one message object: measure that.
        inner = part.get_payload()
        if not isinstance(inner, list):
            return 0
        sizes = [len(sub.as_bytes()) for sub in inner if isinstance(sub, email.message.Message)]
        return sum(sizes)
    except Exception:  # noqa: BLE001 - only a size for a note; a broken part must not stop it
        return 0


def _lines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")
