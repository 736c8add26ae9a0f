"""What a recorded mail is, decided from the mail alone: no database, no session, no clock.
The intake's top, built as the engine is: the mail and the settings' values in, a Decision
out (its kind, why, the refusal to answer if any, what to read on); pbem.intake.dispatch
enacts it. One fact only the database knows comes between the two looks: whether a mail
that is read is a reply to relayed press (pbem.intake.press.relay_reply).

    look   ignored (loop hygiene), no sender, too big, too long, STOP, or read on
    read   press, a mail command, an envelope that cannot be read, referee mail, no GAME
           line (or HTML cut short before one), order mail"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from enum import StrEnum

from engine.order_lines import PLEASANTRIES
from engine.words import normal
from pbem.intake.finding import (
    find_envelope,
    line_count,
    looked_at,
    quoted_lines,
    within_lines,
)
from pbem.intake.press_blocks import Block, cut_press
from pbem.mail.commands import PLAYER_WORDS
from pbem.mail.envelope import GREETING_WORDS, Envelope, parse_envelope
from pbem.mail.hygiene import NO_SENDER, refusal_reason
from pbem.mail.reading import IncomingMail

HELP_HINT = "Send a mail with the single word HELP for the commands and the order-mail form."
# A subject that names a STOP: "STOP", "STOP <token>", and a reply's "Re: STOP <token>".
# A reply's is read only under a STOP line the body writes (pbem.intake.stop): by its
# subject alone a reply is no STOP, or thanking for the answer to an UNSTOP, under the
# subject it kept, would stop the address again.
STOP_SUBJECT = re.compile(r"^(?:(?:re|aw|sv|fwd?)\s*:\s*)*stop\b\s*(\S*)\s*$", re.IGNORECASE)
# A subject that asks to stop by itself: what the List-Unsubscribe mailto: sends.
_STOP_ALONE = re.compile(r"^stop\b\s*(\S*)\s*$", re.IGNORECASE)


class Kind(StrEnum):
    IGNORED = "ignored"  # never answered: that is how mail loops start
    NO_SENDER = "no-sender"  # set aside unanswered: nobody to answer
    TOO_BIG = "too-big"  # refused unread
    TOO_LONG = "too-long"  # refused unread
    STOP = "stop"  # its subject asks for no more mail
    READ = "read"  # read on: a reply to relayed press, else read() tells
    PRESS = "press"  # press alone
    PRESS_COMMANDS = "press-commands"  # commands and press: one answer
    PRESS_ORDERS = "press-orders"  # orders (or FORECAST and orders) and press: one answer
    COMMAND = "command"  # a mail of commands
    ENVELOPE = "envelope"  # a GAME line that cannot be read: refused
    REFEREE = "referee"  # referee commands
    CUT_SHORT = "cut-short"  # HTML read in part, no GAME line in the part read: refused
    NO_GAME = "no-game"  # no GAME line and no command: set aside, answered with short help
    ORDERS = "orders"  # an order mail


@dataclass(frozen=True)
class Rules:
    """The settings' values the decision reads."""

    our_addresses: tuple[str, ...]
    loop_token: str
    max_lines: int  # [limits] max_mail_lines


@dataclass(frozen=True)
class Help:
    """What the short help for a mail without a GAME line names (pbem.intake.help)."""

    unknown: str  # the word of a one-word line: a mistyped command
    looked: tuple[str, ...]  # where orders were looked for
    late: str  # a command line that stood below the line that stopped the reading
    stray: str  # that line, when a greeting passed over stood before it


@dataclass(frozen=True)
class Decision:
    kind: Kind
    mail: IncomingMail  # as read on: press cut out, the text its orders were found in
    # IGNORED: why. A refusal or a mail set aside: the quarantine's reason code.
    reason: str = ""
    error: str = ""  # a refusal or a mail set aside: why, in words
    reply_to: str = ""  # who the refusal is told to; '' for nobody
    hint: str = ""
    envelope: Envelope = field(default_factory=Envelope)
    blocks: tuple[Block, ...] = ()
    token: str = ""  # STOP: the token its subject gives
    help: Help | None = None  # NO_GAME: what its answer names


def look(mail: IncomingMail, rules: Rules) -> Decision:
    """What the mail is before a line of it is read for orders or commands."""
    reason = refusal_reason(mail, our_addresses=rules.our_addresses, loop_token=rules.loop_token)
    if reason == NO_SENDER:  # nobody to answer, but an operator should see it
        return Decision(Kind.NO_SENDER, mail, reason="no-sender", error=_no_sender(mail))
    if reason:
        return Decision(Kind.IGNORED, mail, reason=reason)
    if mail.too_big:
        note = mail.notes[0] if mail.notes else "the mail is too big"
        return Decision(Kind.TOO_BIG, mail, reason="too-big", error=note, reply_to=mail.sender)
    mail = within_lines(mail, rules.max_lines)
    if line_count(mail.text) > rules.max_lines:
        return _too_long(mail, rules.max_lines)
    token = stop_in_subject(mail)
    if token is not None:
        return Decision(Kind.STOP, mail, token=token)
    return Decision(Kind.READ, mail)


def _too_long(mail: IncomingMail, max_lines: int) -> Decision:
    """The refusal of a mail of too many lines even without its quoted ones."""
    count, quoted = line_count(mail.text), quoted_lines(mail.text)
    of_them = f" ({quoted:,} of them quoted, beginning with '>')" if quoted else ""
    error = (
        f"the mail has {count:,} lines{of_them}; the moderator reads mail of at most "
        f"{max_lines:,} lines, quoted lines not counted. Nothing in it was read or stored."
    )
    hint = (
        "Delete the text your mail program quoted or pasted below your own, and send your "
        "orders alone, one a line, under your GAME line."
    )
    return Decision(Kind.TOO_LONG, mail, "too-long", error, mail.sender, hint)


def stop_in_subject(mail: IncomingMail) -> str | None:
    """The token of a mail whose subject is STOP [token] (as the List-Unsubscribe mailto:
    sends it, with no body), not a reply's, and whose body holds no GAME line or command
    ('' without one); None for any other mail."""
    found = _STOP_ALONE.match(mail.subject.strip())
    if found is None:
        return None
    envelope = parse_envelope(mail.text)
    if envelope.game or envelope.command:  # a mail of orders or commands under that subject
        return None
    return found.group(1)


def read(mail: IncomingMail, rules: Rules) -> Decision:
    """What a mail that is read is: press is cut out first, so that it is never read as
    orders; then its GAME line or command, where it is (pbem.intake.finding)."""
    blocks, rest = cut_press(mail.text)
    if blocks:
        mail = replace(mail, text=rest)
    envelope, mail = find_envelope(mail, rules.max_lines)
    if blocks:
        return _with_press(mail, envelope, tuple(blocks))
    if envelope.command:
        return Decision(Kind.COMMAND, mail, envelope=envelope)
    if envelope.problem:
        problem = envelope.problem
        return Decision(Kind.ENVELOPE, mail, "envelope", problem, mail.sender, HELP_HINT, envelope)
    if envelope.referee:
        return Decision(Kind.REFEREE, mail, envelope=envelope)
    if not envelope.game:
        return _no_game_line(mail, envelope)
    return Decision(Kind.ORDERS, mail, envelope=envelope)


def _with_press(mail: IncomingMail, envelope: Envelope, blocks: tuple[Block, ...]) -> Decision:
    """A mail with press: its commands, or its orders, and the press get one answer; press
    alone gets its confirmation. Press goes under a GAME line that can be read."""
    if not envelope.game or envelope.referee or envelope.problem:
        problem = envelope.problem or "PRESS goes under your GAME line, with your password"
        return Decision(Kind.ENVELOPE, mail, "envelope", problem, mail.sender, HELP_HINT, envelope)
    if envelope.command and envelope.command != "FORECAST":
        kind = Kind.PRESS_COMMANDS
    elif envelope.lines or envelope.command:
        kind = Kind.PRESS_ORDERS
    else:
        kind = Kind.PRESS
    return Decision(kind, mail, envelope=envelope, blocks=blocks)


def _no_game_line(mail: IncomingMail, envelope: Envelope) -> Decision:
    """Neither a GAME line nor a known command: set aside and answered with short help,
    saying where we looked, and naming the line that stopped the reading (not a greeting
    passed over before it) and a command that stood too late to be read. A mail read only
    in part (HTML past the tag cap) may hold a GAME line further on: its answer says it
    could not be read, never that it has none."""
    if mail.cut_short:
        error = (
            f"The HTML of your mail could not be read whole: {mail.cut_short}. No GAME line or "
            "mail command came before the point where the reading stopped, so nothing in it "
            "was read or stored."
        )
        hint = (
            "Send your mail as plain text (your mail program's plain-text setting), with your "
            "GAME line first."
        )
        return Decision(Kind.CUT_SHORT, mail, "too-big", error, mail.sender, hint, envelope)
    said, greeted = _said(mail.text)
    word = _one_word(said[0][1]) if said else ""
    late = next((f"line {no} ({text})" for no, text in said[1:] if _is_command(text)), "")
    # The line to name, when a greeting passed over stood before it.
    stray = f'line {said[0][0]}, "{said[0][1][:60]}"' if said and greeted and not word else ""
    error = f"no GAME line and no command ({word or stray or 'empty'})"
    found = Help(word, tuple(looked_at(mail)), late, stray)
    return Decision(Kind.NO_GAME, mail, "envelope", error, envelope=envelope, help=found)


def _no_sender(mail: IncomingMail) -> str:
    """Why the mail has no sender we could answer, for the quarantine list."""
    if not mail.headers:
        return "not a mail: no header could be read, so there is no sender to answer"
    # Every From header's text: a mail of two From headers is refused for the two of them.
    given = ", ".join(value.strip() for name, value in mail.header_items if name == "from")
    if mail.from_count > 1:
        return (
            f"the From header names {mail.from_count} addresses ({given[:200]!r}); a mail from "
            "several senders is answered to none of them"
        )
    if not given:
        return "the mail has no From header, so there is no sender to answer"
    return f"the From header {given[:200]!r} holds no usable address, so nobody was answered"


def _said(text: str) -> tuple[list[tuple[int, str]], bool]:
    """(line number, text) of the mail's unquoted lines, from the first that is no greeting
    ("Hello,", "Hi all"): the greeting was passed over, and is not what the reply names;
    and whether there was one."""
    lines = [
        (no, line.strip())
        for no, line in enumerate(text.splitlines(), 1)
        if line.strip() and not line.lstrip().startswith(">")
    ]
    start = next((i for i, (_, line) in enumerate(lines) if not _greeting(line)), len(lines))
    return lines[start:], start > 0


def _greeting(line: str) -> bool:
    words = line.split()
    return normal(words[0]) in PLEASANTRIES and len(words) <= GREETING_WORDS


def _one_word(line: str) -> str:
    """The word of a one-word line (a mistyped command); '' for prose."""
    words = line.split()
    return words[0].upper()[:40] if len(words) == 1 else ""


def _is_command(line: str) -> bool:
    return line.split(maxsplit=1)[0].upper().rstrip(":") in PLAYER_WORDS
