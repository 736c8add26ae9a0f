"""A mail's one answer (pbem.intake.answer) held while the mail is handled, then sent: the
mail's status and outcome, and to each address a reply alone where it is all there is to
say to it, else one mail of Results / Unprocessed / Ignored."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from pbem.intake.answer import Answer, Held, Part, Refusal, summary
from pbem.intake.context import MailContext
from pbem.store import MailStatus


@contextmanager
def answering(context: MailContext) -> Iterator[Answer]:
    """Hold the replies the mail's handling queues for its one answer (send_answer)."""
    answer = context.answer = Answer()
    try:
        yield answer
    finally:
        context.answer = None


def send_answer(context: MailContext, answer: Answer, ignored: Sequence[tuple[int, str]]) -> None:
    """The mail's status and outcome, then its answer: a reply alone where it is all there
    is to say to its address, else one mail an address."""
    _finish(context, answer.parts, answer.quiet)
    subject = context.mail.subject or "(no subject)"
    for number, (to, mail) in enumerate(answer.mails(context.mail.sender).items()):
        if len(mail.entries) == 1 and not mail.unprocessed:
            _send_entry(context, mail.entries[0][1])
        else:  # the lines reading left out go with the first address's answer
            body = mail.body(context.settings.mail.name, subject, ignored if number == 0 else ())
            context.reply_text(to, body, mail.attachments())


def _finish(context: MailContext, parts: list[Part], quiet: list[Part]) -> None:
    """Set aside if nothing was done (with the first refusal's reason), ignored if all it
    asked was passed over in silence, else answered (or accepted, orders being stored); the
    outcome says what became of each part, the quiet ones too."""
    refused = [part.refusal for part in parts if part.refusal is not None]
    outcome = summary([part.outcome for part in [*parts, *quiet] if part.outcome])
    if refused and len(refused) == len(parts):
        context.set_aside(refused[0].reason, summary([r.error for r in refused]))
    elif not parts and quiet and all(part.status == MailStatus.IGNORED for part in quiet):
        context.finish(MailStatus.IGNORED, "")  # an UNSTOP without its code, say
    else:
        accepted = any(part.status == MailStatus.ACCEPTED for part in parts)
        context.finish(MailStatus.ACCEPTED if accepted else MailStatus.ANSWERED, "")
    context.inbound.outcome = outcome


def _send_entry(context: MailContext, entry: Held | Refusal) -> None:
    if isinstance(entry, Held):
        context.reply_text(entry.to, entry.body, entry.attachments)
        return
    context.reply(
        entry.to,
        "refusal",
        subject=context.mail.subject or "(no subject)",
        reason=entry.error,
        details=list(entry.details),
        hint=entry.hint,
    )
