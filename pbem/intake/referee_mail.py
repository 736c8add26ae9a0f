"""Referee commands by mail. The first line is `GAME <id> REFEREE <password>`; then one
command a line, each with its reason:

    EDIT hex.C4.pop = 5 BECAUSE the flood was misapplied
    REASON bob's mails bounced all week        (the reason of the lines below it)
    DISORDER bob
    ORDERS alice BECAUSE she sent them to me   (then her order lines, up to END ORDERS)

Every command runs on its own (a refused one changes nothing and the rest go on); the reply
goes to the referee's registered address in Mailman's Results / Unprocessed / Ignored parts."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pbem.games.games import find_game
from pbem.games.stops import is_stopped
from pbem.intake.auth import no_game
from pbem.intake.command_table import find_referee_command, referee_commands
from pbem.intake.context import MailContext
from pbem.mail.envelope import Envelope
from pbem.referee.command import RefereeCommand, RefereeError, run_command
from pbem.referee.context import MailHandler, RefereeContext
from pbem.referee.roles import referee_by_password
from pbem.store import Game, MailStatus, Referee

_BECAUSE = re.compile(r"\s+because\s+", re.IGNORECASE)


@dataclass(frozen=True)
class Item:
    """One command of the mail, read with its reason (and block text) but not yet run."""

    no: int
    line: str
    name: str
    args: tuple[str, ...]
    reason: str


@dataclass
class Reply:
    results: list[tuple[str, str]]
    unprocessed: list[tuple[int, str, str]]
    help: bool = False


def handle_referee_mail(context: MailContext, envelope: Envelope, again: MailHandler) -> None:
    """`again`: how a mail is handled, for the commands that handle one again (REPLAY)."""
    found = _authenticate(context, envelope)
    if found is None:
        return
    game, referee = found
    reply = Reply([], [])
    for item in read_items(envelope.lines, reply):
        _run(context, game, referee, item, reply, again)
    done, refused = len(reply.results), len(reply.unprocessed)
    context.finish(MailStatus.ANSWERED, f"referee mail: {done} done, {refused} unprocessed")
    context.reply(
        referee.address,
        "referee_reply",
        game=game.id,
        referee=referee.address,
        results=reply.results,
        unprocessed=sorted(reply.unprocessed),  # in the order of the mail
        ignored=[(no, why) for no, why in envelope.ignored],
        help=_help() if reply.help else [],
    )


def _authenticate(context: MailContext, envelope: Envelope) -> tuple[Game, Referee] | None:
    sender = context.mail.sender
    game = find_game(context.work, envelope.game)
    if game is None:
        context.quarantine("unknown-game", no_game(context, envelope.game), reply_to=sender)
        return None
    context.inbound.game_id = game.id
    # Taken before any command: a turn being resolved elsewhere finishes first, or waits.
    context.work.games.lock_found(game)
    referee = referee_by_password(
        context.work, game.id, envelope.password, cost=context.settings.security.password_cost
    )
    if referee is None:
        context.quarantine(
            "referee-password", f"wrong referee password for game {game.id}", reply_to=sender
        )
        return None
    context.passwords.append(envelope.password)
    if game.address_check and sender != referee.address:
        context.quarantine(
            "address",
            f"referee commands for game {game.id} come only from the referee's address",
            reply_to=referee.address,
        )
        return None
    if is_stopped(context.work, referee.address):
        # No result could be mailed (the address asked for none): a command carried out
        # unseen is worse than one not carried out. Set aside, to replay after UNSTOP.
        context.set_aside("stopped", f"referee {referee.address} asked for no more mail (STOP)")
        return None
    return game, referee


def read_items(lines: Sequence[tuple[int, str]], reply: Reply) -> list[Item]:
    """The commands of the mail; lines that are none go to reply.unprocessed."""
    known, items, reason, i = referee_commands(), [], "", 0
    while i < len(lines):
        no, text = lines[i]
        i += 1
        word, _, rest = text.partition(" ")
        if word.upper() == "REASON":
            reason = rest.strip()
        elif word.upper() == "HELP":
            reply.help = True
        elif word.lower() not in known:
            reply.unprocessed.append((no, text, f"there is no referee command {word.upper()}"))
        else:
            item, i = _item(known[word.lower()], lines, i, reason, reply)
            items += [item] if item else []
    return items


def _item(
    command: RefereeCommand, lines: Sequence[tuple[int, str]], i: int, reason: str, reply: Reply
) -> tuple[Item | None, int]:
    no, text = lines[i - 1]
    head, *because = _BECAUSE.split(text, maxsplit=1)
    args = head.split()[1:]
    if _wants_block(command, args):
        block, after = _block(command, lines, i)
        if block is None:
            reply.unprocessed.append((no, text, f"no END {command.name.upper()} line after it"))
            return None, i  # the lines after it are read as commands, and answered as such
        args.append(block)
        i = after
    return Item(no, text, command.name, tuple(args), because[0] if because else reason), i


def _wants_block(command: RefereeCommand, args: list[str]) -> bool:
    """A block command takes the lines after it when its own line has only its fixed words
    (and TURN n): `ORDERS alice` yes, `ORDERS alice ADD 2` no."""
    rest = args[command.fixed :]
    if rest[:1] and rest[0].upper() == "TURN":
        rest = rest[2:]
    return command.block and not rest


def _block(
    command: RefereeCommand, lines: Sequence[tuple[int, str]], i: int
) -> tuple[str | None, int]:
    end = f"END {command.name.upper()}"
    for j in range(i, len(lines)):
        if " ".join(lines[j][1].upper().split()) == end:
            return "\n".join(text for _, text in lines[i:j]), j + 1
    return None, len(lines)


def _run(
    context: MailContext, game: Game, referee: Referee, item: Item, reply: Reply, again: MailHandler
) -> None:
    command = find_referee_command(item.name)
    if not item.reason and not command.reads:  # AUDIT changes nothing
        why = "a reason is required: end the line with BECAUSE <reason>, or put a REASON line above"
        reply.unprocessed.append((item.no, item.line, why))
        return
    origin = f"{context.mail.message_id}#{context.inbound.attempts}:{item.no}"
    ctx = RefereeContext(
        context.work, context.settings, game, referee.address, context.now, origin, again
    )
    try:
        with context.work.savepoint():  # a refused command leaves nothing behind
            result = run_command(ctx, command, item.args, item.reason)
    except RefereeError as error:
        reply.unprocessed.append((item.no, item.line, f"refused: {error}"))
        return
    reply.results.append((item.line, result))


def _help() -> list[tuple[str, str]]:
    return [(f"{c.name.upper()} {c.usage}".strip(), c.summary) for c in referee_commands().values()]
