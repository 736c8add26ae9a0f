"""HELP by mail, drawn from the players' handbook (docs/players.md) and the game's order
reference (docs/orders/<ruleset>.md), so that the mail and the documentation say the same:

    HELP                  the handbook's order-mail and command parts (and, with a GAME
                          line, a summary of the game's orders)
    HELP ORDERS [ruleset] the game's whole order reference
    HELP RULES [ruleset]  the game's rules
    HELP <topic>          one part: an order of the game ("MOVE"), or of the handbook
                          ("DEADLINES", "ABSENCE", "REFEREE"...)

Help shows nothing private, so it answers whoever asked."""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine import Ruleset, all_rulesets, get_ruleset
from engine.registry import UnknownRuleset
from pbem.games.games import find_game
from pbem.handbook import (
    HANDBOOK,
    document,
    find,
    find_topic,
    help_text,
    mail_text,
    rules_text,
    topics,
)
from pbem.intake.context import MailContext
from pbem.mail.envelope import Envelope
from pbem.store import MailStatus

_DOC_PATH = re.compile(r"(?:\.\./|docs/)(orders|rules)/[\w.-]+\.md")


def send_help(context: MailContext, envelope: Envelope) -> None:
    """The HELP command, with or without a topic."""
    args = envelope.command_args
    whole = args[:1] in (("orders",), ("rules",))
    ruleset = _ruleset(context, envelope, args[1:] if whole else ())
    if not args:
        context.finish(MailStatus.ANSWERED, "HELP")
        help_reply(context, envelope)
        return
    topic = args[0]
    context.finish(MailStatus.ANSWERED, f"HELP {topic.upper()}"[:200])
    if whole:
        _reference(context, ruleset, topic)
        return
    documents = [document(HANDBOOK), *([_reference_of(ruleset)] if ruleset else [])]
    section = find_topic(topic) or find(documents, topic)
    if section is None:
        context.reply(
            context.mail.sender, "help_topic", topic=topic.upper(), text="", topics=topics()
        )
        return
    context.reply(
        context.mail.sender,
        "help_topic",
        topic=topic.upper(),
        text=mail_text(section.markdown),
        topics=[],
    )


def help_reply(
    context: MailContext,
    envelope: Envelope,
    *,
    unknown: str = "",
    looked: Sequence[str] = (),
    late: str = "",
    stray: str = "",
) -> None:
    """HELP in full, or its short form after an unknown command or a mail with nothing to
    read (`looked`: where orders were looked for; `late`: a command line below the line that
    stopped the reading, which was not read; `stray`: that line); with the game's orders."""
    ruleset = _ruleset(context, envelope, ())
    context.reply(
        context.mail.sender,
        "help",
        unknown=unknown,
        looked=list(looked),
        late=late,
        stray=stray,
        short=bool(unknown or looked),
        handbook=help_text(),
        title=ruleset.title if ruleset else "",
        order_help=_mailable(ruleset.order_help()) if ruleset else "",
        topics=topics(),
    )


def _mailable(text: str) -> str:
    """Text for a mail: a player cannot open a repository file (docs/orders/<id>.md), but
    can ask for the same text by mail (HELP ORDERS)."""
    return _DOC_PATH.sub(lambda found: f"the mail HELP {found.group(1).upper()}", text)


def _reference(context: MailContext, ruleset: Ruleset | None, kind: str) -> None:
    """The whole order reference (`kind` "orders") or rules ("rules") of the game, or of
    the ruleset named after the word."""
    text = document(f"{kind}/{ruleset.id}.md") if ruleset else ""
    mailed = (mail_text(text) if kind == "orders" else rules_text(text)) if text else ""
    context.reply(
        context.mail.sender,
        "help_orders",
        kind=kind.upper(),
        what="order reference" if kind == "orders" else "rules",
        title=ruleset.title if ruleset else "",
        text=_mailable(mailed),
        rulesets=[r.id for r in all_rulesets()],
    )


def _reference_of(ruleset: Ruleset) -> str:
    return document(f"orders/{ruleset.id}.md")


def _ruleset(context: MailContext, envelope: Envelope, named: Sequence[str]) -> Ruleset | None:
    """The ruleset of the mail's game, or the one named (HELP ORDERS tns); None if neither."""
    if named:
        try:
            return get_ruleset(named[0])
        except UnknownRuleset:
            return None
    game = find_game(context.work, envelope.game) if envelope.game else None
    return get_ruleset(game.ruleset) if game else None
