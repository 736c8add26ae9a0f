"""One answer to a mail that does several things (commands, press, orders with press). While
it is handled, the replies and refusals of its parts are held here; at its end each address
gets one mail, in the parts Mailman answers its commands with (as referee mail is answered):

    Results:      each line carried out, as it was understood, and what it did
    Unprocessed:  each line not carried out, and why (refused, or no command at all)
    Ignored:      what reading the mail left out (quoted text, a signature...)

A mail of one part and no other line gets that part's reply alone, as it always did. The mail
is set aside (quarantined, for a referee to replay) only when nothing in it was done, so that
a replay can do nothing twice; then with its first refusal's reason."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from pbem.mail.compose import Attachment
from pbem.passwords import masked
from pbem.store import InboundMessage, MailStatus
from pbem.templates import render

NOT_A_COMMAND = (
    "not a command. A mail of commands is read for commands only: orders go in a mail of "
    "their own, and nobody reads other text sent here (write to your referee)."
)
# Under a GAME line the line may well be an order: say that none was stored, and how to send.
NOT_AN_ORDER_HERE = (
    "not a command, so not read. A mail that starts with a command (after its GAME line) is "
    "read for commands only, and no orders were stored from it. Send orders in a mail of "
    "their own: your GAME line, then the orders."
)
NOT_A_COMMAND_AGAIN = "not a command either: not read."
_SIGNATURE = "\n-- \n"


@dataclass(frozen=True)
class Held:
    """A reply a part queued, held for the answer."""

    to: str
    body: str
    attachments: tuple[Attachment, ...] = ()


@dataclass(frozen=True)
class Refusal:
    """Why a part was refused, as MailContext.quarantine was told."""

    reason: str
    error: str
    to: str  # '' when the part is set aside unanswered (MailContext.set_aside)
    details: tuple[str, ...] = ()
    hint: str = ""


@dataclass
class Part:
    """One thing the mail asked for: a command line, its press, its orders."""

    line: int  # the mail's line number it begins on
    shown: str  # that line as understood, its passwords masked
    replies: list[Held] = field(default_factory=list)
    refusal: Refusal | None = None
    status: MailStatus | None = None  # the mail's, once the part ended (Answer.end)
    outcome: str = ""

    def label(self) -> str:
        return f"line {self.line}: {self.shown}" if self.line else self.shown


@dataclass
class AddressMail:
    """What one address is answered: each part's reply or refusal, in the mail's order."""

    entries: list[tuple[Part, Held | Refusal]] = field(default_factory=list)
    unprocessed: list[tuple[int, str, str]] = field(default_factory=list)  # lines of no part

    def body(self, moderator: str, subject: str, ignored: Sequence[tuple[int, str]]) -> str:
        results = [
            (part.label(), entry.body.split(_SIGNATURE)[0].rstrip())
            for part, entry in self.entries
            if isinstance(entry, Held)
        ]
        refused = [
            (part.line, part.label(), "\n".join((f"refused: {entry.error}", *entry.details)))
            for part, entry in self.entries
            if isinstance(entry, Refusal)
        ]
        return render(
            "answer",
            moderator=moderator,
            subject=subject,
            results=results,
            unprocessed=sorted(refused + self.unprocessed),  # in the order of the mail
            ignored=list(ignored),
        )

    def attachments(self) -> tuple[Attachment, ...]:
        held = [entry for _, entry in self.entries if isinstance(entry, Held)]
        return tuple(attachment for entry in held for attachment in entry.attachments)


class Answer:
    def __init__(self) -> None:
        self.parts: list[Part] = []
        # parts that answered nothing but said what they did (a second STOP, an UNSTOP
        # without its code): for the mail's status and outcome, the log's line
        self.quiet: list[Part] = []
        # lines that are no part: (number, label, why)
        self.unprocessed: list[tuple[int, str, str]] = []
        self._open: Part | None = None

    def begin(self, line: int, text: str) -> None:
        self._open = Part(line, shown(text))
        self.parts.append(self._open)

    def end(self, inbound: InboundMessage) -> None:
        """Close the open part with the status and outcome its handling left on the mail; a
        part that answered nothing (a GAME line that proved its seat) is no part."""
        part, self._open = self._current(), None
        part.status, part.outcome = inbound.status, inbound.outcome
        if not part.replies and part.refusal is None:
            self.parts.remove(part)
            if part.outcome:
                self.quiet.append(part)

    def hold(self, reply: Held) -> None:
        self._current().replies.append(reply)

    def refuse(self, refusal: Refusal) -> None:
        self._current().refusal = refusal

    def not_a_command(self, line: int, text: str, *, under_game: bool = False) -> None:
        """A line that is no command: why, in full at the first such line only."""
        first = not any(why in (NOT_A_COMMAND, NOT_AN_ORDER_HERE) for *_, why in self.unprocessed)
        why = (NOT_AN_ORDER_HERE if under_game else NOT_A_COMMAND) if first else NOT_A_COMMAND_AGAIN
        self.unprocessed.append((line, f"line {line}: {text}", why))

    def too_many(self, line: int, left: int, most: int) -> None:
        """The `left` lines from `line` on are not run: one line of the answer for them all."""
        label = f"line {line} and the {left - 1} after it" if left > 1 else f"line {line}"
        reason = f"not run: a mail runs at most {most} commands; send the rest in another mail"
        self.unprocessed.append((line, label, reason))

    def mails(self, sender: str) -> dict[str, AddressMail]:
        """Each address's share, the first part's address first: it gets the lines that were
        no part too (the sender's, if no part answered anybody)."""
        mails: dict[str, AddressMail] = {}
        for part in self.parts:
            entries: list[Held | Refusal] = [*part.replies]
            entries += [part.refusal] if part.refusal is not None else []
            for entry in entries:
                if entry.to:  # a part set aside unanswered is nobody's mail
                    mails.setdefault(entry.to, AddressMail()).entries.append((part, entry))
        if self.unprocessed:
            first = next(iter(mails), sender)
            mails.setdefault(first, AddressMail()).unprocessed += self.unprocessed
        return mails

    def _current(self) -> Part:
        if self._open is None:  # a reply outside any part: the mail's as a whole
            self.begin(0, "your mail")
        assert self._open is not None
        return self._open


def summary(texts: Sequence[str], most: int = 8) -> str:
    """The texts, each once (with how many lines said it) and the first `most` only: a mail of
    thousands of refused lines is logged and stored in one short line, not one a line."""
    counts = Counter(texts)
    shown = [f"{text} ({n} lines)" if n > 1 else text for text, n in list(counts.items())[:most]]
    rest = len(counts) - most
    return "; ".join(shown + ([f"and {rest} more"] if rest > 0 else []))


def shown(text: str) -> str:
    """A command line as an answer may echo it: each password masked (the word after
    PASSWORD, and JOIN's last word when it is written without PASSWORD)."""
    words = text.split()
    hidden = {i + 1 for i, word in enumerate(words) if word.upper().rstrip(":") == "PASSWORD"}
    if words[:1] and words[0].upper() in ("JOIN", "SIGNUP") and len(words) == 4 and not hidden:
        hidden.add(3)
    return " ".join(masked(w) if i in hidden else w for i, w in enumerate(words))
