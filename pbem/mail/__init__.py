"""The mail layer: read inbound mail, parse the order-mail envelope, refuse what must not be
answered, compose replies, the transports (Maildir, IMAP, SMTP) and what a sender promises
(delivery), and the words a player's command may begin with.

A foundation: it imports nothing of pbem outside itself. Nothing here knows
a rule of any game.
"""

from pbem.mail.compose import compose, stable_message_id
from pbem.mail.envelope import Envelope, parse_envelope
from pbem.mail.hygiene import refusal_reason
from pbem.mail.maildir import InboxItem, MaildirInbox, MaildirSender
from pbem.mail.reading import IncomingMail, read_mail

__all__ = [
    "Envelope",
    "InboxItem",
    "IncomingMail",
    "MaildirInbox",
    "MaildirSender",
    "compose",
    "parse_envelope",
    "read_mail",
    "refusal_reason",
    "stable_message_id",
]
