"""Referee commands by mail. The first line is `GAME <id> REFEREE <password>`; then one
command a line, each with its reason:

    EDIT hex.C4.pop = 5 BECAUSE the flood was misapplied
    REASON bob's mails bounced all week        (the reason of the lines below it)
    DISORDER bob
    ORDERS alice BECAUSE she sent them to me   (then her order lines, up to END ORDERS)

Every command runs on its own (a refused one changes nothing and the rest go on); the reply
goes to the referee's registered address in Mailman's Results / Unprocessed / Ignored parts.
What the mail may do and what it is answered is decided by pbem.intake.referee_check; this
reads the facts for it and does what it decided, in the mail's one transaction."""

from __future__ import annotations

from pbem.games.games import find_game
from pbem.games.stops import is_stopped
from pbem.intake.auth import no_game
from pbem.intake.command_table import find_referee_command, referee_commands
from pbem.intake.context import MailContext
from pbem.intake.referee_check import Item, Seen, Unprocessed, admit, plan, unreasoned
from pbem.mail.envelope import Envelope
from pbem.referee.command import RefereeError, run_command
from pbem.referee.context import MailHandler, RefereeContext
from pbem.referee.roles import referee_by_password
from pbem.store import Game, MailStatus


def handle_referee_mail(context: MailContext, envelope: Envelope, again: MailHandler) -> None:
    """`again`: how a mail is handled, for the commands that handle one again (REPLAY)."""
    game, seen = _read(context, envelope)
    refused = admit(seen, context.mail.sender)
    if refused is not None:
        if refused.reply_to:
            context.quarantine(refused.reason, refused.error, reply_to=refused.reply_to)
        else:  # nobody to answer (STOP)
            context.set_aside(refused.reason, refused.error)
        return
    assert game is not None
    known = referee_commands()
    read = plan(envelope.lines, known)
    results: list[tuple[str, str]] = []
    unprocessed: list[Unprocessed] = list(read.unprocessed)
    for item in read.items:
        _run(context, game, seen.referee, item, again, results, unprocessed)
    usage = [(f"{c.name.upper()} {c.usage}".strip(), c.summary) for c in known.values()]
    done = f"referee mail: {len(results)} done, {len(unprocessed)} unprocessed"
    context.finish(MailStatus.ANSWERED, done)
    context.reply(
        seen.referee,
        "referee_reply",
        game=game.id,
        referee=seen.referee,
        results=results,
        unprocessed=sorted(unprocessed),  # in the order of the mail
        ignored=list(envelope.ignored),
        help=usage if read.help else [],
    )


def _read(context: MailContext, envelope: Envelope) -> tuple[Game | None, Seen]:
    """The game (locked before any command: a turn being resolved elsewhere finishes first,
    or waits), the referee whose password the mail gives, and whether their address asked
    for no more mail: as far as each is found."""
    game = find_game(context.work, envelope.game, lock=True)
    if game is None:
        return None, Seen("", no_game(context, envelope.game))
    context.inbound.game_id = game.id
    cost = context.settings.security.password_cost
    referee = referee_by_password(context.work, game.id, envelope.password, cost=cost)
    if referee is None:
        return game, Seen(game.id, "")
    context.passwords.append(envelope.password)
    stopped = is_stopped(context.work, referee.address)
    return game, Seen(game.id, "", referee.address, game.address_check, stopped)


def _run(
    context: MailContext,
    game: Game,
    referee: str,
    item: Item,
    again: MailHandler,
    results: list[tuple[str, str]],
    unprocessed: list[Unprocessed],
) -> None:
    """The item run in a savepoint (a refused command leaves nothing behind): its line and
    what it did to `results`, or its line and why not to `unprocessed`."""
    command = find_referee_command(item.name)
    missing = unreasoned(item, command)
    if missing is not None:
        unprocessed.append(missing)
        return
    origin = f"{context.mail.message_id}#{context.inbound.attempts}:{item.no}"
    ctx = RefereeContext(context.work, context.settings, game, referee, context.now, origin, again)
    try:
        with context.work.savepoint():
            results.append((item.line, run_command(ctx, command, item.args, item.reason)))
    except RefereeError as error:
        unprocessed.append((item.no, item.line, f"refused: {error}"))
