"""Press: seats writing to each other through the moderator, by seat name, never learning each
other's addresses. In an order mail (or alone after the GAME line), one block or more:

    PRESS TO bob, cy            (or PRESS TO ALL; add ANONYMOUS where the game allows it)
    Shall we share the river?
    END PRESS                   (or END)

A block is cut out of the mail before its orders are read (its lines left blank, so that
line numbers stay the mail's), so press is never taken for orders; each part is answered. The
sender gets a confirmation naming who received it. A relayed mail says who wrote it (or that
it is anonymous) and has the moderator as Reply-To: a plain Reply from the recipient's
registered address comes back here and goes on to the writer, the quoted text left out. An
anonymous writer stays unnamed to the seats they wrote to, along the whole thread: a reply's
confirmation says "the anonymous writer", and the writer's own replies in it are relayed
anonymously too; only the game's referees (their copies, the audit) learn who wrote. Such a
reply reaches the writer whatever the writer mutes (they opened the thread), and its answer
is the same whoever wrote and whatever their state: a mute or an empty seat that turned it
away would tell the replier, by press to each seat by name, which seat wrote. What
makes such a reply good is its In-Reply-To (or References): the relayed mail's Message-ID,
unguessable, kept in the `press` table; without a password, since a person answering in their
mail client writes none. A mail that only claims a seat's address cannot use it: it must
answer a relayed mail that went to that very address.

The game's options (press, grey_press, press_to_referees, press_after_end) and each seat's
mutes (SET PRESS OFF [FROM seat], SET PRESS ON [FROM seat]) decide who gets what. Relayed
mail counts against the writer's reply limit, and auto-replies are never relayed (the loop
guards run before any of this)."""

from __future__ import annotations

import re
from datetime import timedelta

from pbem.games.audit import audit
from pbem.games.games import find_seat
from pbem.games.outbox import Letter, queue
from pbem.intake.context import MailContext
from pbem.intake.press_blocks import Block
from pbem.mail.compose import stable_message_id
from pbem.store import Game, GameStatus, MailStatus, OutboxKind, Press, Seat, utc
from pbem.templates import render

_QUOTE_START = re.compile(r"(wrote:\s*$)|(^-+\s*original message\s*-+$)", re.I)
PRESS_FORM = "PRESS TO <seat>[,<seat>...] | ALL [ANONYMOUS], the text, then END PRESS"


UNNAMED = "the anonymous writer"  # who a reply to anonymous press went to, as its writer sees it


def relay_blocks(context: MailContext, game: Game, seat: Seat, blocks: list[Block]) -> str:
    """Relay each block from `seat`; the sender's confirmation, one for all; the outcome."""
    results = [_relay(context, game, seat, block) for block in blocks]
    context.reply(seat.address, "press_sent", game=game.id, results=results)
    return "PRESS: " + "; ".join(results)


def relay_reply(context: MailContext) -> bool:
    """A plain reply to a relayed press mail, from the address it went to: relayed back to the
    writer. False when the mail is no such reply (then it is handled as any other)."""
    found = _answered(context)
    if found is None:
        return False  # not from the address it went to: no relay, read as any mail
    original, game, replier, writer = found
    context.inbound.game_id, context.inbound.seat = game.id, replier.name
    # The writer's name is kept from the replier if the press answered was anonymous; the
    # replier's own name, if they once wrote to the writer anonymously (their answer in a
    # thread they began unnamed, whatever their mail client quotes of it).
    unnamed = _wrote_anonymously(context, game, replier, writer)
    block = Block(0, (writer.name,), unnamed, _reply_text(context.mail.text), original.anonymous)
    outcome = relay_blocks(context, game, replier, [block])
    context.finish(MailStatus.ANSWERED, f"reply to press: {outcome}")
    return True


def _answered(context: MailContext) -> tuple[Press, Game, Seat, Seat] | None:
    """The relayed press this mail answers, its game, the replier and the writer: the one
    of the mail's In-Reply-To and References that went to the mail's sender."""
    wanted = _replied_ids(context)
    if not wanted:
        return None
    sender = context.mail.sender.lower()
    for original in context.work.games.press_by_message_ids(wanted):
        game = context.work.games.game_named(original.game_id)
        replier = find_seat(context.work, original.game_id, original.recipient)
        writer = find_seat(context.work, original.game_id, original.sender)
        if game and replier and writer and replier.address.lower() == sender:
            return original, game, replier, writer
    return None


def _wrote_anonymously(context: MailContext, game: Game, seat: Seat, to: Seat) -> bool:
    return context.work.games.wrote_anonymously(game.id, seat.name, to.name)


def set_press(context: MailContext, seat: Seat, args: tuple[str, ...]) -> str | None:
    """SET PRESS ON|OFF [FROM <seat>]: the new mute list's description, or None if malformed."""
    if len(args) not in (2, 4) or args[1] not in ("on", "off"):
        return None
    muted = {name for name in seat.press_muted.split(",") if name}
    if len(args) == 2:
        muted = {"*"} if args[1] == "off" else set()
    elif args[2] != "from" or find_seat(context.work, seat.game_id, args[3]) is None:
        return None
    elif args[1] == "off":
        muted.add(args[3])
    else:
        muted.discard(args[3])
    seat.press_muted = ",".join(sorted(muted))
    context.work.games.add(seat)
    if "*" in muted:
        return "no press reaches you"
    return f"press from {', '.join(sorted(muted))} is muted" if muted else "all press reaches you"


def _relay(context: MailContext, game: Game, seat: Seat, block: Block) -> str:
    refusal = _refused(context, game, block)
    if refusal:
        return f"{block.place}: not sent: {refusal}"
    others = [s for s in context.work.games.seats_of(game.id) if s.name != seat.name]
    names = {s.name for s in others}
    wanted = others if block.to == ("all",) else [s for s in others if s.name in block.to]
    unknown = sorted(set(block.to) - names - {"all", seat.name})
    if unknown:
        shown = ", ".join(sorted(names))
        return f"{block.place}: not sent: no seat {', '.join(unknown)} (the others: {shown})"
    got, skipped = [], []
    for target in wanted:
        # A reply to anonymous press reaches its writer whatever they mute: they opened the
        # thread, and "not taking press" there would tell the replier which seat wrote it.
        muted = not block.to_unnamed and _mutes(target, seat.name, block.anonymous)
        if not target.address or muted:
            skipped.append(target.name)
            continue
        _send(context, game, seat, target, block)
        got.append(target.name)
    if game.press_to_referees and block.to != ("all",) and got:
        _copy_referees(context, game, seat, got, block)
    unnamed = " (anonymous)" if block.anonymous else ""
    audit(context.work, context.now, seat.address, "press", game.id,
          f"{seat.name} -> {', '.join(got) or 'nobody'}{unnamed}")  # fmt: skip
    if block.to_unnamed:  # the one recipient, the anonymous writer: never named to the sender
        # The same words whether their seat still has an address or not (who left the game is
        # no secret, so "not taking press" would name them).
        return f"{block.place}: sent to {UNNAMED}"
    sent = f"{block.place}: sent to {', '.join(got) or 'nobody'}"
    return sent + (f" (not to {', '.join(skipped)}: not taking press)" if skipped else "")


def _refused(context: MailContext, game: Game, block: Block) -> str:
    if not game.press:
        return f"game {game.id} allows no press"
    if game.status == GameStatus.ENDED and not game.press_after_end:
        return f"game {game.id} has ended"
    if block.anonymous and not game.grey_press:
        return f"game {game.id} allows no anonymous press"
    if not block.to or not block.text.strip():
        return f"write {PRESS_FORM}"
    if _sent_lately(context, game) >= context.settings.limits.replies_per_sender:
        return "you have sent as much press as the moderator relays in an hour; try later"
    return ""


def _sent_lately(context: MailContext, game: Game) -> int:
    since = utc(context.now) - timedelta(minutes=context.settings.limits.reply_window_minutes)
    return context.work.games.press_sent_since(game.id, context.inbound.seat or "", since)


def _mutes(target: Seat, sender: str, anonymous: bool) -> bool:
    """Does `target` take no press from `sender`? A mute by name holds for named press only:
    were anonymous press held back by it too, muting a seat and watching the anonymous press
    stop would tell who writes it."""
    muted = {name for name in target.press_muted.split(",") if name}
    return "*" in muted or (sender in muted and not anonymous)


def _send(context: MailContext, game: Game, seat: Seat, target: Seat, block: Block) -> None:
    settings = context.settings
    message_id = stable_message_id(
        "press", context.mail.message_id, str(block.line), target.name, domain=settings.mail.domain
    )
    who = "anonymous press" if block.anonymous else f"press from {seat.name}"
    body = render(
        "press",
        moderator=settings.mail.name,
        game=game.id,
        writer="" if block.anonymous else seat.name,
        to=", ".join(block.to),
        text=block.text,
    )
    letter = Letter(OutboxKind.PRESS, target.address, f"[{game.id}] {who}", body, message_id,
                    game_id=game.id)  # fmt: skip
    queue(context.work, settings, letter, now=context.now)
    context.work.games.add(
        Press(
            game_id=game.id,
            message_id=message_id,
            sender=seat.name,
            recipient=target.name,
            anonymous=block.anonymous,
            created_at=utc(context.now),
        )
    )


def _copy_referees(
    context: MailContext, game: Game, seat: Seat, got: list[str], block: Block
) -> None:
    context.to_referees(
        game.id,
        f"[{game.id}] press {seat.name} to {', '.join(got)}",
        "press_copy",
        purpose=f"press-copy-{block.line}",
        game=game.id,
        writer=seat.name,
        to=", ".join(got),
        anonymous=block.anonymous,
        text=block.text,
    )


def _replied_ids(context: MailContext) -> list[str]:
    headers = context.mail.headers
    found = re.findall(r"<([^<>\s]+)>", f"{headers.get('in-reply-to', '')} "
                                        f"{headers.get('references', '')}")  # fmt: skip
    return [f"<{found_id}>" for found_id in dict.fromkeys(found)]  # stored as sent: <...>


def _reply_text(text: str) -> str:
    """What the replier wrote, above or below the quoted mail: no quoted line, no "... wrote:"
    line, nothing after a signature or an Outlook-style original message."""
    kept = []
    for line in text.split("\n"):
        if line.rstrip() == "--" or re.match(r"^-+\s*original message\s*-+$", line.strip(), re.I):
            break
        if not line.startswith(">") and not _QUOTE_START.search(line):
            kept.append(line)
    return "\n".join(kept).strip("\n")
