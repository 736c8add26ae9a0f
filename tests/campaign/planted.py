"""The secrets a campaign plants for the privacy invariants (checks_privacy.py), each a
unique string in one private place, with who may read it: every participant's address (the
participant and the referee), each seat's password (its player alone) and the referee's,
press from one seat to one other, an anonymous writer's whole thread (the writer's name is
secret in every mail of it), a comment in a seat's orders (while others ask what they may
of the game), a private event in a seat's report, an outsider's address. The referee may
know every secret of the game."""

from __future__ import annotations

import uuid
from collections.abc import Iterable

from tests.campaign.players import Bot
from tests.campaign.record import Record, Secret
from tests.campaign.referee import Referee
from tests.campaign.table import Table


def planted(kind: str) -> str:
    # Lower case, letters, digits and hyphens: found as one word wherever it is shown.
    return f"planted-{kind}-{uuid.uuid4().hex[:12]}"


def owners(record: Record, *names: str) -> frozenset[str]:
    return frozenset((*names, record.referee))


def identities(record: Record, bots: Iterable[Bot], referee: Referee) -> None:
    """Each player's address and password, the referee's: known when the game is made."""
    for bot in bots:
        player(record, bot)
    record.secrets.append(Secret("address", referee.address, frozenset({referee.name})))
    record.secrets.append(
        Secret("password", referee.password, frozenset({referee.name}), told=True)
    )


def player(record: Record, bot: Bot, *, told: bool = False) -> None:
    """A player's address (theirs and the referee's) and password (theirs alone; `told`:
    mailed to them, as a newcomer's is)."""
    record.secrets.append(Secret("address", bot.address, owners(record, bot.name)))
    record.secrets.append(Secret("password", bot.password, frozenset({bot.name}), told=told))


def press(table: Table, writer: Bot, to: Bot, *, anonymous: bool = False) -> str:
    """Press from `writer`'s seat to `to`'s alone: its text, for the two and the referee."""
    text = planted("press")
    writer.press(to.seat, text, anonymous=anonymous)
    _told(table.record, "press", text, writer, to)
    return text


def anonymous_thread(table: Table, writer: Bot, to: Bot, other: Bot) -> None:
    """`writer` sends anonymous press to `to` (and `other` private press to `writer`);
    `to` answers it with a plain reply; `writer` answers that. Three steps. In every mail of
    the thread (each carries one of its texts, or answers `to`'s reply) the writer's seat
    name is secret from all but the writer and the referee."""
    first = press(table, writer, to, anonymous=True)
    press(table, other, writer)
    table.serve()
    answer = planted("press-reply")
    reply = to.reply_to_press(to.last("anonymous press"), answer)
    _told(table.record, "press", answer, writer, to)
    table.serve()
    again = planted("press-reply")
    writer.reply_to_press(writer.last(f"press from {to.seat}"), again)
    _told(table.record, "press", again, writer, to)
    table.serve()
    within = (first, again, reply)
    table.record.secrets.append(
        Secret("anonymous writer", writer.seat, owners(table.record, writer.name), within)
    )


def pending_orders(table: Table, bot: Bot, others: Iterable[Bot]) -> None:
    """`bot`'s orders, a line planted in them once stored, for the seat's player and the
    referee; then `bot` asks for them back, and each of `others` asks what a player may ask
    of the game while they are pending (the answers must not carry them). Two steps."""
    bot.orders()
    table.serve()
    note = planted("orders")
    table.plant_orders(bot.seat, note)
    _told(table.record, "pending orders", note, bot)
    bot.command("ORDERS")
    for other in others:
        other.command("STATUS", "FORECAST", "HISTORY", "LIST MINE")
    table.serve()


def outsider(table: Table, stranger: Bot) -> None:
    """Somebody with no seat asks what anyone may ask; their own address is theirs alone."""
    stranger.command(f"STATUS {table.game}", "LIST", "HELP", game_line=False)
    table.record.secrets.append(Secret("address", stranger.address, frozenset({stranger.name})))


def private_event(table: Table, bot: Bot) -> None:
    """A private event of `bot`'s seat in the newest played turn, before `bot` asks for its
    report again: theirs (and the referee's) alone."""
    text = planted("event")
    table.plant_event(bot.seat, text)
    _told(table.record, "private event", text, bot)


def _told(record: Record, kind: str, text: str, *bots: Bot) -> None:
    names = (bot.name for bot in bots)
    record.secrets.append(Secret(kind, text, owners(record, *names), told=True))
