"""What a campaign did and what its mailboxes hold, as plain data for the checker.

Everything is numbered by step: a step is what the participants do (mail, command line),
then one `pbem serve --once` pass, then every mailbox read. The mail a step's pass sent is in
the mailboxes when the pass ends (the relay hands each mail to Dovecot before it answers the
SMTP DATA), so a mail received in step k was caused by what happened up to step k."""

from __future__ import annotations

from dataclasses import dataclass, field
from email.message import EmailMessage
from functools import cached_property

from tests.campaign.reading import MailView


@dataclass(frozen=True)
class Sent:
    """A mail a participant sent to the moderator, and what the script meant by it."""

    step: int
    sender: str  # the participant's name
    message_id: str
    kind: str  # orders, typo, wrong-password, command, quoted-template, auto-reply, referee...
    answer: bool = True  # must be answered exactly once; False: must not be answered at all
    seat: str = ""  # the seat the mail names
    proves: bool = False  # it carries the seat's (or referee's) right password
    turn: int = 0  # the turn its orders are for
    counted: bool = False  # orders that count: an accepted line, or NO ORDERS
    lines: tuple[str, ...] = ()  # command lines its one answer must answer, each


@dataclass(frozen=True)
class Event:
    """Something that changed the game: a turn resolved, the clock stopped or moved, a seat
    given to another player. `turn` is the turn concerned; `cause` of a resolved turn is
    orders (all in before the deadline), deadline, forced (a referee's PROCESS or `pbem
    turn run`) or rerun."""

    step: int
    kind: str  # resolved, ended, paused, resumed, deadline, rollback, replaced
    turn: int = 0
    cause: str = ""
    seat: str = ""
    old: str = ""  # replaced: the participants
    new: str = ""
    reason: str = ""
    seats: tuple[str, ...] = ()  # resolved: the seats the turn asked for orders


@dataclass(frozen=True)
class Received:
    """A mail in a participant's mailbox, and the step it arrived in."""

    step: int
    owner: str  # the participant's name
    message: EmailMessage

    @cached_property
    def view(self) -> MailView:
        return MailView(self.message)


@dataclass(frozen=True)
class Secret:
    """Something the campaign planted that only `entitled` participants may read
    (checks_privacy.py): a unique string, found as a whole word in any case; or, with
    `within`, a name that is secret only in the mails carrying one of those strings (the
    texts and Message-IDs of an anonymous writer's thread: every other mail may name that
    seat). `told`: the campaign has it mailed to someone entitled, who must get it."""

    kind: str  # address, password, anonymous-writer, press, private-event, pending-orders
    text: str
    entitled: frozenset[str]
    within: tuple[str, ...] = ()
    told: bool = False


@dataclass(frozen=True)
class Violation:
    invariant: str
    text: str

    def __str__(self) -> str:
        return f"{self.invariant}: {self.text}"


@dataclass
class Record:
    """One campaign: one game, its participants, and everything sent, done and received."""

    game: str
    ruleset: str
    zone: str  # the zone the referee gave the game ('UTC' for none)
    addresses: dict[str, str]  # participant -> address
    referee: str  # the referee's participant name
    first_holders: dict[str, str]  # seat -> participant, at the start
    sent: list[Sent] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    mail: dict[str, list[Received]] = field(default_factory=dict)  # participant -> mailbox
    steps: int = 0
    secrets: list[Secret] = field(default_factory=list)
    pages: dict[str, bytes] = field(default_factory=dict)  # the archive's public files, read

    def all_mail(self) -> list[Received]:
        return [mail for box in self.mail.values() for mail in box]

    def holders(self, step: int) -> dict[str, str]:
        """Seat -> participant once step `step` is over (its replacements made)."""
        holders = dict(self.first_holders)
        for event in self.events:
            if event.kind == "replaced" and event.step <= step:
                holders[event.seat] = event.new
        return holders

    def held_during(self, step: int) -> dict[str, set[str]]:
        """Seat -> every participant who held it at some moment of step `step`: before its
        replacements and after them (the outgoing player's farewell goes in that step)."""
        before, after = self.holders(step - 1), self.holders(step)
        return {seat: {before[seat], after[seat]} for seat in after}

    def in_game(self, step: int) -> set[str]:
        """Who takes part in the game during step `step`: its seats' players and the
        referee."""
        return {self.referee, *(p for held in self.held_during(step).values() for p in held)}

    def by_id(self) -> dict[str, Sent]:
        return {sent.message_id: sent for sent in self.sent}

    def in_step(self, owner: str, step: int) -> list[Received]:
        return [mail for mail in self.mail.get(owner, []) if mail.step == step]
