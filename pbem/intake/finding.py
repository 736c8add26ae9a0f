"""Where in a mail its orders (or command) are. The body first; where the body has no GAME
line and no command, the first of these that has one: the body's quoted lines (a template
filled in inside the quoted report, read with the mail's line numbers), a forwarded message,
a text attachment. A first line that starts with a command word but reads as a sentence
("Orders attached.") is not taken for the command."""

from __future__ import annotations

import re
from dataclasses import replace

from pbem.mail.envelope import Envelope, own_lines, parse_envelope, unquoted
from pbem.mail.reading import IncomingMail

QUOTED = "the quoted text"
# A quoted line, with its line break: '>' after nothing but blanks.
_QUOTED_LINE = re.compile(r"^[^\S\n]*>[^\n]*(?:\n|\Z)", re.MULTILINE)


def find_envelope(mail: IncomingMail, max_lines: int) -> tuple[Envelope, IncomingMail]:
    """The envelope of the mail body; where the body has no GAME line and no command, of the
    first text that has one: the body's quoted lines (a template filled in inside the quoted
    report), a forwarded message, a text attachment. And the mail to read from then on: that
    text, with a note saying where the orders were found (the mail as it is, if the body)."""
    envelope = parse_envelope(mail.text)
    if _readable(envelope):
        return envelope, mail
    if _prose(envelope):
        envelope = Envelope()  # "Orders attached." is a sentence, not the ORDERS command
    for what, text in _candidates(mail):
        if line_count(text) > max_lines:
            continue  # not read: the reply says where orders were looked for
        found = parse_envelope(text)
        if _readable(found):
            lines = "" if what == QUOTED else "; line numbers are its lines"
            note = f"orders read from {what}{lines}"
            kept = tuple(n for n in mail.notes if not n.startswith(f"{what} ("))
            above = own_lines(mail.text) if what == QUOTED else ()
            return found, replace(mail, text=text, notes=(*kept, note), above_quote=above)
    return envelope, mail


def line_count(text: str) -> int:
    return text.count("\n") + (0 if text.endswith("\n") else 1) if text else 0


def within_lines(mail: IncomingMail, max_lines: int) -> IncomingMail:
    """The mail as it is read: one of more than `max_lines` lines without its quoted lines
    (those that begin with '>'), with a note saying so, when that leaves few enough. A mail
    client quotes a whole thread under a two-line answer; leaving it out is one pass of a
    regular expression over the text, and its lines are never read then (nor orders in
    them: the note tells)."""
    if line_count(mail.text) <= max_lines:
        return mail
    own, dropped = _QUOTED_LINE.subn("", mail.text)
    if line_count(own) > max_lines:
        return mail
    note = (
        f"the quoted text (the {dropped:,} lines that begin with '>') was not read: with it "
        f"the mail is over {max_lines:,} lines; line numbers count the other lines"
    )
    return replace(mail, text=own, notes=(*mail.notes, note))


def quoted_lines(text: str) -> int:
    """How many of the text's lines are quoted (begin with '>')."""
    return len(_QUOTED_LINE.findall(text))


def _readable(envelope: Envelope) -> bool:
    if envelope.game or envelope.referee:
        return True
    return bool(envelope.command) and not _prose(envelope)


def _prose(envelope: Envelope) -> bool:
    """A first line that starts with a command word but reads as a sentence ("Orders
    attached.", "History of my empire:"): the words after the command are none it takes."""
    args = envelope.command_args
    takes = {
        "ORDERS": not args,
        "CHART": not args,
        "SET": args[:1] == ("absence",),
        "REPORT": not envelope.problem,  # a turn number, or START
        "HISTORY": not args or (len(args) == 1 and args[0].isdigit()),
        "LIST": args in ((), ("mine",)),
    }
    return not takes.get(envelope.command, True)


def _candidates(mail: IncomingMail) -> list[tuple[str, str]]:
    quoted = unquoted(mail.text)
    found = [(QUOTED, quoted)] if quoted else []
    return [*found, *mail.enclosed]


def looked_at(mail: IncomingMail) -> list[str]:
    """Where orders were looked for in a mail that has none: for the answer."""
    places = ["the text of the mail"]
    if unquoted(mail.text):
        places.append(QUOTED)
    return [*places, *(what for what, _ in mail.enclosed)]
