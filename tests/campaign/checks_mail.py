"""Invariants of who gets which mail: every mail answered exactly once (or never, where it must
not be), in one answer that answers each of its commands; and no mail to anyone but the
sender of what it answers, or the player of the seat it is about."""

from __future__ import annotations

from collections import defaultdict

from tests.campaign.record import Received, Record, Sent, Violation


def answered_once(record: Record) -> list[Violation]:
    """Each mail a participant sent is answered by exactly one mail (one Message-ID; SMTP
    may deliver a mail twice, a mail client shows it once), in its thread (In-Reply-To). An
    out-of-office reply is never answered: that is how mail loops start. A mail of several
    commands gets one answer that answers each of them."""
    answers = _answers(record)
    found = []
    for sent in record.sent:
        got = answers.get(sent.message_id, {})
        what = f"{sent.sender}'s {sent.kind} mail of step {sent.step} ({sent.message_id})"
        if not sent.answer:
            if got:
                found.append(f"{what} must not be answered; it was, by {_subjects(got)}")
            continue
        if len(got) != 1:
            found.append(f"{what} was answered {len(got)} times, not once: {_subjects(got)}")
            continue
        [answer] = got.values()
        missing = [line for line in sent.lines if line.upper() not in answer.view.text.upper()]
        if missing:
            found.append(
                f"{what}: its answer {answer.view.subject!r} says nothing of {', '.join(missing)}"
            )
    return [Violation("answered-once", text) for text in found]


def addressed_right(record: Record) -> list[Violation]:
    """Every mail goes to one of: the sender of the mail it answers (or the player of the
    seat that mail proved, whose answers go to the seat's address); the player of the seat
    it is about, at that moment (a report, a refused mail for the seat); someone in the game
    (a notice to every seat, the referee's mail). Never to another person: after a
    replacement, the old player's refused mail is answered to the old player alone."""
    sent = record.by_id()
    found = []
    for mail in record.all_mail():
        address = record.addresses[mail.owner]
        what = f"{mail.owner}'s mail {mail.view.subject!r} (step {mail.step})"
        if mail.view.to != address.lower():
            found.append(f"{what} is addressed to {mail.view.to}, not to {address}")
        if mail.view.in_reply_to:
            found += _answer_addressed(record, sent.get(mail.view.in_reply_to), mail, what)
            continue
        seat = mail.view.seat_named
        during = record.held_during(mail.step)
        if seat and seat in during and mail.owner not in during[seat] | {record.referee}:
            holders = " or ".join(sorted(during[seat]))
            found.append(f"{what} is about seat {seat}, which {holders} plays, not them")
        elif f"[{record.game}]" not in mail.view.subject:
            found.append(f"{what} answers no mail and is about no game")
        elif mail.owner not in record.in_game(mail.step):
            found.append(f"{what}: they are not in game {record.game}")
    return [Violation("addressed-right", text) for text in found]


def _answer_addressed(record: Record, parent: Sent | None, mail: Received, what: str) -> list[str]:
    if parent is None:
        return [f"{what} answers {mail.view.in_reply_to}, which no participant sent"]
    if mail.owner == parent.sender:
        return []
    holders = record.held_during(mail.step).get(parent.seat, set())
    if parent.proves and mail.owner in holders:
        return []  # answers about a proved seat go to its registered address
    return [
        f"{what} answers {parent.sender}'s {parent.kind} mail of step {parent.step}, "
        f"but went to {mail.owner}"
    ]


def _answers(record: Record) -> dict[str, dict[str, Received]]:
    """Mail id -> the distinct answers to it (by Message-ID)."""
    answers: dict[str, dict[str, Received]] = defaultdict(dict)
    for mail in record.all_mail():
        if mail.view.in_reply_to:
            answers[mail.view.in_reply_to].setdefault(mail.view.message_id, mail)
    return answers


def _subjects(answers: dict[str, Received]) -> str:
    return ", ".join(f"{m.owner}: {m.view.subject!r}" for m in answers.values()) or "nothing"
