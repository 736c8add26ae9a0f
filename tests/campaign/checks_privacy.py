"""Invariants of what each person may know (issue 42): the secrets the campaign planted (each
participant's address, each seat's and the referee's password, the writer of anonymous
press, press to one seat, a seat's private event, orders not yet played) reach nobody they do
not belong to, in any mail (every header, the text, every attachment) or on any public page
of the game's web archive; and the ones the campaign has told reach someone they belong to,
so that a check looking in the wrong place fails instead of passing."""

from __future__ import annotations

import re
from functools import cache

from tests.campaign.record import Record, Secret, Violation


def secrets_kept(record: Record) -> list[Violation]:
    """No mail carries a secret to a participant it does not belong to (a command's answer
    is a mail too); no public page of the archive carries one at all."""
    found = []
    for mail in record.all_mail():
        content = mail.view.content
        for secret in record.secrets:
            if mail.owner not in secret.entitled and _carries(content, secret):
                found.append(
                    f"{mail.owner}'s mail {mail.view.subject!r} (step {mail.step}) carries "
                    f"the {secret.kind} {secret.text!r}, which only "
                    f"{', '.join(sorted(secret.entitled))} may know"
                )
    for path, data in sorted(record.pages.items()):
        text = data.decode("utf-8", "replace")
        found += [
            f"the public page {path} carries the {secret.kind} {secret.text!r}"
            for secret in record.secrets
            if _carries(text, secret)
        ]
    return [Violation("secret-kept", text) for text in found]


def secrets_told(record: Record) -> list[Violation]:
    """Each secret the campaign had mailed to someone entitled is in one of their mails."""
    found = []
    for secret in (secret for secret in record.secrets if secret.told):
        mailboxes = [record.mail.get(owner, []) for owner in sorted(secret.entitled)]
        if not any(_carries(m.view.content, secret) for box in mailboxes for m in box):
            found.append(f"the {secret.kind} {secret.text!r} reached none of its owners")
    return [Violation("secret-told", text) for text in found]


def _carries(content: str, secret: Secret) -> bool:
    if secret.within and not any(mark in content for mark in secret.within):
        return False
    return _pattern(secret.text).search(content) is not None


@cache
def _pattern(text: str) -> re.Pattern[str]:
    """The text as a whole word: 'bob' is not in 'bobby', an address not in a longer one."""
    return re.compile(rf"(?<![\w-]){re.escape(text)}(?![\w-])", re.IGNORECASE)
