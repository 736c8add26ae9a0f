"""What must hold after every step of the conversation machine, whatever came before.

Each check reads the step (tests/machine/world.py: who mailed what, what the moderator queued,
the database before and after) and the record of the whole conversation so far, and raises a
`Violation` naming itself. tests/machine/test_planted_bugs.py shows each one failing on a bug
planted for it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from tests.machine.world import REFEREE, Facts, Mail, Step


class Violation(AssertionError):
    """An invariant that did not hold; `name` says which."""

    def __init__(self, name: str, detail: str) -> None:
        super().__init__(f"{name}: {detail}")
        self.name = name


@dataclass
class Secret:
    """A string planted in the game, and the addresses allowed to read it."""

    text: str
    allowed: frozenset[str]
    what: str


@dataclass
class Anonymous:
    """Anonymous press: its planted text, and the writer nobody but the referee may learn."""

    text: str
    writer: str  # the seat
    writer_address: str


@dataclass
class Record:
    """The conversation so far, as the invariants need it."""

    answered: set[str] = field(default_factory=set)  # Message-IDs answered
    secrets: list[Secret] = field(default_factory=list)
    anonymous: list[Anonymous] = field(default_factory=list)
    passwords: set[str] = field(default_factory=set)  # never mailed once given
    press_answers: dict[str, str] = field(default_factory=dict)  # Message-ID -> writer seat
    promised: dict[int, set[str]] = field(default_factory=dict)  # turn -> seats told "until"


# -- each mail answered once, only to its sender ----------------------------------------


def answered_once(step: Step, record: Record) -> None:
    """Every mail gets exactly one answer, to the address that sent it (our senders always
    mail from the address they are registered with), and never a second one later."""
    for mail in step.queued:
        # Held advance orders are checked when their turn opens, in a mail that names the
        # first one (In-Reply-To) but is no second answer: its subject is its own.
        again = mail.subject.startswith("Re:") and mail.in_reply_to in record.answered
        if again:
            raise Violation("answered-once", f"{mail.in_reply_to} answered again: {mail.subject}")
    if step.sent is None:
        return
    answers = [mail for mail in step.queued if mail.in_reply_to == step.message_id]
    if len(answers) != 1:
        raise Violation(
            "answered-once", f"{step.action} by {step.actor} got {len(answers)} answers"
        )
    if answers[0].recipient != step.sent.address:
        raise Violation(
            "only-to-sender",
            f"the answer to {step.actor}'s {step.action} went to {answers[0].recipient}",
        )
    record.answered.add(step.message_id)


def known_recipients(step: Step, record: Record) -> None:
    """Mail goes only to a seat's registered address, the referee, or back to a sender."""
    allowed = {*step.before.addresses.values(), *step.after.addresses.values(), REFEREE}
    if step.sent is not None:
        allowed.add(step.sent.address)
    for mail in step.queued:
        if mail.recipient not in allowed:
            raise Violation("known-recipients", f"{mail.subject!r} went to {mail.recipient}")


# -- no secret to anyone not entitled -----------------------------------------------------


def secrets_kept(step: Step, record: Record) -> None:
    for mail in step.queued:
        seen = mail.everything
        for password in record.passwords:
            if password in seen:
                raise Violation("secrets", f"a password in {mail.subject!r} to {mail.recipient}")
        for secret in record.secrets:
            if secret.text in seen and mail.recipient not in secret.allowed:
                raise Violation("secrets", f"{secret.what} in {mail.subject!r} to {mail.recipient}")
        for press in record.anonymous:
            if press.text in seen and mail.recipient not in (press.writer_address, REFEREE):
                _unnamed(mail, press.writer, "anonymous press")
        writer = record.press_answers.get(mail.in_reply_to)
        if writer is not None and mail.recipient != REFEREE:
            _unnamed(mail, writer, "the answer to anonymous press")


def _unnamed(mail: Mail, writer: str, what: str) -> None:
    if re.search(rf"\b{re.escape(writer)}\b", mail.text):
        raise Violation("secrets", f"{what} names its writer {writer} to {mail.recipient}")


# -- every fact a mail states is true of the database ------------------------------------

_ORDERS_FOR = re.compile(r"^Orders for (\S+) in game \S+, turn (\d+)", re.MULTILINE)
# A list of seats runs on over lines indented by four (pbem.templates.wrap).
_STILL = re.compile(r"^Still to send orders: (.+(?:\n    .+)*)$", re.MULTILINE)
_IN_FROM = re.compile(r"^Orders in from: (.+(?:\n    .+)*)$", re.MULTILINE)
_DEADLINE = re.compile(r"^Deadline: (\d{4}-\d\d-\d\d \d\d:\d\d) UTC", re.MULTILINE)
_STATUS = re.compile(r"^Turn (\d+), orders due by (\d{4}-\d\d-\d\d \d\d:\d\d) UTC", re.MULTILINE)
# A seat whose own orders a turn never plays, whatever is on file for it (docs/referee.md,
# "disorder SEAT", "bot SEAT"): nobody plays it, or the bot does.
NOT_ITS_OWN = ("disorder", "ejected", "bot")
_NOT_YET = re.compile(r"^No orders yet from: ([^.]+)\.", re.MULTILINE)
_AWAY = re.compile(r"^Away, not waited for: ([^.]+)\.", re.MULTILINE)
_NOT_PLAYED = re.compile(r"^Orders on file not played: ([^.]+)\.", re.MULTILINE)
_PREVIEW = re.compile(r"^Preview of turn (\d+) of game", re.MULTILINE)
_REPORT_SUBJECT = re.compile(r"\] turn (\d+) report")
# A promise of time: the check reply's, and the notice of a moved deadline's.
_PROMISES = ("You may send new orders until the deadline", "You may change them until the deadline")
_ORDERS_IN = re.compile(r"^Your orders for turn (\d+) are in\.", re.MULTILINE)


def facts_true(step: Step, record: Record) -> None:
    """What a mail says of the turn (its number, deadline, who is still to send, whose
    orders are in) is what the database says once the step is done."""
    after = step.after
    for mail in step.queued:
        turn = _turn_of(mail)
        if turn is None or turn != after.turn or after.status not in ("running", "paused"):
            _reports_resolved(mail, after)
            continue
        _same(mail, _STILL, _names(after.waiting), "still to send")
        if _PREVIEW.search(mail.text):
            _preview_true(mail, after)
        else:
            # STATUS: the orders the turn will play, as PREVIEW's "Orders in from".
            own = tuple(
                s
                for s in after.have_orders
                if s in after.asked and after.seats[s] not in NOT_ITS_OWN
            )
            _same(mail, _IN_FROM, _names(own), "orders in from")
        if after.deadline is not None:
            _same(mail, _DEADLINE, _minute(after.deadline), "deadline")
        _reports_resolved(mail, after)


def _preview_true(mail: Mail, after: Facts) -> None:
    """PREVIEW says whose orders the turn plays (orders on file, asked, of a seat whose own
    orders are played), whose orders are on file but not played, and who has none yet."""
    played = [
        s for s in after.have_orders if s in after.asked and after.seats[s] not in NOT_ITS_OWN
    ]
    not_played = [s for s in after.have_orders if s not in played]
    none = [s for s in after.asked if s not in after.have_orders]
    # Away (SET ABSENCE) with a player and not waited for: named apart, as STATUS names them.
    away = [
        s
        for s in none
        if s in after.absent and after.seats[s] == "active" and s not in after.waiting
    ]
    not_yet = [s for s in none if s not in away]
    for pattern, truth, what in (
        (_IN_FROM, played, "orders in from"),
        (_NOT_PLAYED, not_played, "orders on file not played"),
        (_NOT_YET, not_yet, "no orders yet from"),
        (_AWAY, away, "away, not waited for"),
    ):
        found = pattern.search(mail.text)
        said = _canonical(" ".join(found.group(1).split())) if found else "nobody"
        if said != _names(tuple(truth)):
            raise Violation(
                "facts",
                f"a preview says {what} {said!r}; the database says {_names(tuple(truth))!r}",
            )


def _turn_of(mail: Mail) -> int | None:
    if found := _ORDERS_FOR.search(mail.text):
        return int(found.group(2))
    if found := (_STATUS.search(mail.text) or _PREVIEW.search(mail.text)):
        return int(found.group(1))
    return None


def _same(mail: Mail, pattern: re.Pattern[str], truth: str, what: str) -> None:
    found = pattern.search(mail.text)
    if found and _canonical(" ".join(found.group(1).split())) != _canonical(truth):
        raise Violation(
            "facts",
            f"{mail.subject!r} to {mail.recipient} says {what} {found.group(1)!r}; "
            f"the database says {truth!r}",
        )


def _reports_resolved(mail: Mail, after: Facts) -> None:
    found = _REPORT_SUBJECT.search(mail.subject)
    if found and int(found.group(1)) > after.resolved:
        raise Violation(
            "facts", f"a report of turn {found.group(1)} with {after.resolved} turns resolved"
        )


def _names(seats: tuple[str, ...]) -> str:
    return ", ".join(sorted(seats)) or "nobody"


def _canonical(text: str) -> str:
    text = "nobody" if text.strip(" .") in ("nobody", "nobody yet") else text
    words = [w.strip(" .") for w in re.split(r",|\band\b", text) if w.strip(" .")]
    return ", ".join(sorted(words))


def _minute(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M")


# -- a turn resolves only when the players were told it may ------------------------------


def resolved_as_told(step: Step, record: Record) -> None:
    """A turn resolves by its deadline, by the referee's word, or (early processing) when the
    last seat it waited for sends orders; and nobody was promised more time than that."""
    before, after = step.before, step.after
    for mail in step.queued:
        found = _ORDERS_IN.search(mail.text)
        turn = int(found.group(1)) if found else _turn_of(mail)
        flat = " ".join(mail.text.split())
        promises = any(promise in flat for promise in _PROMISES)
        if turn is not None and promises and not _says_sooner(mail.text):
            record.promised.setdefault(turn, set()).add(mail.recipient)
    if after.resolved <= before.resolved or before.status != "running":
        return
    by_deadline = before.deadline is not None and step.now >= before.deadline
    by_referee = step.actor == "referee"
    # A seat away is not waited for where the game says so (the answer to SET ABSENCE
    # tells whether it is): pbem's `waiting` still names it.
    waited_for = set(before.waiting) - set(before.absent)
    by_last_orders = before.early and step.sent is not None and waited_for <= {step.actor}
    if not (by_deadline or by_referee or by_last_orders):
        raise Violation(
            "resolved-as-told",
            f"turn {before.turn} resolved at {step.actor}'s {step.action}, before its deadline, "
            f"while it waited for {_names(before.waiting)}",
        )
    promised = record.promised.get(before.turn, set())
    if not by_deadline and not by_referee and promised:
        raise Violation(
            "resolved-as-told",
            f"turn {before.turn} resolved before its deadline; {sorted(promised)} had been "
            f"told they may send new orders until the deadline",
        )


def _says_sooner(text: str) -> bool:
    flat = " ".join(text.split()).lower()
    return any(word in flat for word in ("sooner", "as soon as", "earlier", "once every"))


# -- nothing failed behind the mail -----------------------------------------------------


def nothing_failed(step: Step, record: Record) -> None:
    """No work failed in the step: a turn whose resolution raises is rolled back, logged and
    tried again at every pass, so the game never goes on, and no mail says so."""
    if step.errors:
        raise Violation("nothing-failed", f"at {step.actor}'s {step.action}: {step.errors[0]}")


Invariant = Callable[[Step, Record], None]
INVARIANTS: tuple[Invariant, ...] = (
    answered_once,
    known_recipients,
    secrets_kept,
    facts_true,
    resolved_as_told,
    nothing_failed,
)
