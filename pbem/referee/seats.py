"""Seats and referees: replace a seat's player, eject one, put a seat into civil disorder,
promote another referee."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from functools import partial

from pbem.deadlines.stored import describe
from pbem.games.paused import paused_line
from pbem.games.reports import position_facts
from pbem.games.seat_passwords import give_password, take_password
from pbem.games.stops import is_stopped
from pbem.mail.addresses import AddressError, checked_address
from pbem.passwords import new_password
from pbem.referee import welcomes
from pbem.referee.clock import duration, move_deadline
from pbem.referee.command import RefereeError
from pbem.referee.context import RefereeContext
from pbem.referee.mails import address_body, farewell_body, password_body
from pbem.referee.roles import add_referee, is_referee
from pbem.referee.seat_news import DISORDER_MEANS, SeatNews, tell_seat
from pbem.referee.words import exactly, need
from pbem.store import GameStatus, Seat, SeatStatus, utc

DEFAULT_GRACE = "48h"
SHOWN_TO = timedelta(minutes=1)  # a deadline is shown to the minute (pbem.deadlines.stored)
REPLACE_USAGE = "replace SEAT ADDRESS [GRACE]"


def replace(ctx: RefereeContext, args: Sequence[str], reason: str) -> str:
    need(args, 2, REPLACE_USAGE)
    if len(args) > 3:
        raise RefereeError(f"too many arguments; write: {REPLACE_USAGE}")
    seat = ctx.seat(args[0])
    address = _mailable(ctx, _address(args[1]), f"{seat.name}'s password")
    grace = duration(args[2] if len(args) > 2 else DEFAULT_GRACE)
    before: dict[str, object] = {"address": seat.address, "status": seat.status}
    if seat.address.lower() != address:  # the same person again needs no farewell
        _farewell(ctx, seat, reason, replaced=True)
        # Nor are the orders they gave before another's: a new player's standing orders
        # (nmr = standing) are their own, from the pending turn on.
        seat.player_from = ctx.pending_turn().number
    password = new_password()
    seat.address = address
    give_password(seat, password, ctx.settings.security)
    seat.status = SeatStatus.ACTIVE
    seat.missed = 0  # the new player starts with no missed turns (pbem/clock/nmr.py)
    ctx.work.games.add(seat)
    cleared = _clear_orders(ctx, seat.name)
    if cleared:  # the audit keeps what was deleted
        before["orders"] = cleared
    # The new player hears the deadline in the mail that gives them the seat, not in a notice
    # of a change to a deadline they never had.
    deadline = _extend(ctx, grace, f"a new player takes {seat.name}: {reason}", seat.name)
    welcome = partial(_welcome, ctx, seat, password, list(cleared))
    letter, row = ctx.send(address, f"you now play {seat.name}", welcome())
    welcomes.remember(ctx.work, letter, row, seat.name, welcome)  # true when it is sent
    # The note goes in the turn's reports, read later: it names the turn its deadline is of.
    # While paused no deadline stands: it is set at the resume (pbem.clock.control).
    paused = ctx.game.status == GameStatus.PAUSED
    when = "set when play resumes" if paused else f"now {deadline}"
    ctx.change(
        f"{seat.name} has a new player; the deadline of turn {ctx.game.turn} is {when}",
        before,
        {"address": address, "status": SeatStatus.ACTIVE, "deadline": deadline},
    )
    dropped = f"; the orders on file for {_turns(list(cleared))} were cleared" if cleared else ""
    due = "deadline set when play resumes" if paused else f"deadline {deadline}"
    return f"{seat.name} is now played by {address}; password mailed; {due}{dropped}"


def _clear_orders(ctx: RefereeContext, seat: str) -> dict[int, str]:
    """The orders on file for the seat, for the pending turn and held for later ones, are
    its former player's (or were stored for them): a new player did not write them, would
    play them unawares, and the turn would not wait for their own (the grace promised).
    They are deleted; their texts are returned by turn (docs/referee.md, replace)."""
    rows = [
        row
        for row in ctx.work.branches.live_orders_from(ctx.game.id, ctx.game.turn)
        if row.seat == seat
    ]
    for row in rows:
        ctx.work.games.remove(row)
    ctx.work.flush()
    return {row.turn: row.text for row in sorted(rows, key=lambda row: row.turn)}


def _turns(numbers: Sequence[int]) -> str:
    """'turn 3' or 'turns 3, 4'."""
    return ("turn " if len(numbers) == 1 else "turns ") + ", ".join(map(str, numbers))


def _address(text: str) -> str:
    try:
        return checked_address(text)
    except AddressError as error:
        raise RefereeError(str(error)) from None


def _mailable(ctx: RefereeContext, address: str, what: str) -> str:
    """`address`, unless it asked for no more mail (STOP, pbem.games.stops): then the command
    is refused before it changes anything, for `what` it would mail there would be dropped,
    never sent, and a result saying "mailed" would be false."""
    if is_stopped(ctx.work, address):
        raise RefereeError(
            f"{address} asked for no more mail from this moderator (STOP): {what} cannot be "
            "mailed to it, so nothing was changed; ask the player for another address, or to "
            "send UNSTOP with the code their STOP's answer gave them"
        )
    return address


def _extend(ctx: RefereeContext, grace: timedelta, reason: str, newcomer: str) -> str:
    """The new player has at least the grace period from the moment they take the seat: a
    pending deadline sooner than that moves to it (never sooner), and every seat but the
    `newcomer`'s is told of the new deadline. While paused the clock stands still: the time
    left at the resume is made at least the grace."""
    turn = ctx.pending_turn()
    if turn.deadline is None:
        return describe(None, ctx.game.timezone)
    old = utc(turn.deadline)
    left = ctx.game.paused_left
    if ctx.game.status == GameStatus.PAUSED and left is not None:
        wanted = old + grace - timedelta(seconds=left)  # the time left then is the grace
    else:
        wanted = utc(ctx.now) + grace
    # Deadlines are shown to the minute: a move of seconds would be announced to every seat
    # as a change they cannot see, so the grace is kept to within a minute.
    if wanted - old >= SHOWN_TO:
        move_deadline(ctx, turn, wanted, reason, untold=(newcomer,))
    return describe(turn.deadline, ctx.game.timezone)


def _farewell(ctx: RefereeContext, seat: Seat, reason: str, *, replaced: bool) -> None:
    """Tell the outgoing player once, at the address the seat had, that it is no longer
    theirs: their mail with the old password is refused from now on."""
    if not seat.address:
        return
    ctx.send(
        seat.address,
        f"you no longer play {seat.name}",
        farewell_body(ctx.settings, ctx.game, seat.name, reason, replaced=replaced),
    )


def _welcome(ctx: RefereeContext, seat: Seat, password: str, cleared: Sequence[int]) -> str:
    """The seat's new player gets its position and order template at once: they have had
    none of its reports. The deadline as it is now, and the former player's orders that were
    `cleared` (by turn): the seat plays only what the new player sends."""
    turn = ctx.pending_turn()
    deadline = describe(turn.deadline, ctx.game.timezone)
    position = position_facts(ctx.game, seat.name, turn)
    # Stored by a referee after the replace, in the same mail (the welcome is written again).
    on_file = ctx.work.games.stored_orders(ctx.game.id, turn.number).get(seat.name)
    return password_body(
        ctx.settings,
        ctx.game,
        password,
        position,
        seat=seat.name,
        turn=turn.number,
        deadline=deadline,
        # While paused no deadline stands: the welcome says when it will (written again at
        # a PAUSE or RESUME later in the same mail, pbem.referee.welcomes).
        paused=paused_line(ctx.game, turn.number) if ctx.game.status == GameStatus.PAUSED else "",
        cleared=_turns(cleared) if cleared else "",
        on_file=on_file.text if on_file else "",
        no_orders=on_file is not None and not on_file.text,
    )


def eject(ctx: RefereeContext, args: Sequence[str], reason: str) -> str:
    exactly(args, 1, "eject SEAT")
    seat = ctx.seat(args[0])
    if seat.status == SeatStatus.EJECTED:
        raise RefereeError(f"the player of {seat.name} was ejected already")
    before = {"address": seat.address, "status": seat.status}
    _farewell(ctx, seat, reason, replaced=False)
    seat.address = ""
    seat.status = SeatStatus.EJECTED
    take_password(seat)
    ctx.work.games.add(seat)
    ctx.change(
        f"the player of {seat.name} was ejected; the seat plays in civil disorder (no orders) "
        "until a new player takes it",
        before,
        {"address": "", "status": SeatStatus.EJECTED},
    )
    return f"{seat.name} ejected: no player, no orders, no mail until replaced"


def disorder(ctx: RefereeContext, args: Sequence[str], reason: str) -> str:
    exactly(args, 1, "disorder SEAT")
    seat = ctx.seat(args[0])
    if seat.status != SeatStatus.ACTIVE:
        raise RefereeError(f"{seat.name} is {seat.status} already")
    seat.status = SeatStatus.DISORDER
    ctx.work.games.add(seat)
    ctx.change(
        f"{seat.name} is in civil disorder: it plays with no orders (standing orders only) "
        "until a new player takes it",
        SeatStatus.ACTIVE,
        SeatStatus.DISORDER,
    )
    subject = f"{seat.name} is in civil disorder"
    did = f"has put your seat {seat.name} in civil disorder from turn {ctx.game.turn}"
    told = tell_seat(ctx, seat, SeatNews(subject, subject, did, DISORDER_MEANS), reason)
    return f"{seat.name} is in civil disorder until replaced; {told}{ctx.unsent()}"


def promote(ctx: RefereeContext, args: Sequence[str], reason: str) -> str:
    exactly(args, 1, "promote ADDRESS")
    address = _mailable(ctx, _address(args[0]), "a referee's password")
    if is_referee(ctx.work, ctx.game.id, address):
        raise RefereeError(f"{address} is a referee of game {ctx.game.id} already")
    add_referee(ctx.work, ctx.settings, ctx.game, address, now=ctx.now, salt=ctx.origin)
    ctx.change(f"{address} is now a referee too", None, address)
    return f"{address} is a referee of game {ctx.game.id}; their password is mailed to them"


def address(ctx: RefereeContext, args: Sequence[str], reason: str) -> str:
    exactly(args, 2, "address SEAT ADDRESS")
    seat = ctx.seat(args[0])
    new = _mailable(ctx, _address(args[1]), f"{seat.name}'s mail")
    old = seat.address
    if new == old.lower():
        raise RefereeError(f"{seat.name}'s mail goes to {new} already")
    seat.address, seat.pending_address, seat.pending_code, seat.pending_since = new, "", "", None
    ctx.work.games.add(seat)
    body = address_body(ctx.settings, ctx.game, seat.name, new)
    for to in dict.fromkeys(a for a in (new, old) if a):  # the old address too: no surprise
        ctx.send(to, f"mail of {seat.name} now goes to a new address", body)
    # Not told to the other players: an address is the seat's own business.
    ctx.change(f"{seat.name}'s mail goes to a new address", old, new, public=False)
    return f"{seat.name}'s mail now goes to {new}"
