"""LIST MINE: the games the sender plays, found by the address their seats are registered
with, each with its turn, its deadline (in UTC and the game's zone) and whether that seat's
orders are in. Answered to the sender alone: the seats listed are that address's own, so a
mail with a forged From only shows the address's owner their own games."""

from __future__ import annotations

from engine import get_ruleset
from pbem.deadlines.stored import describe
from pbem.games.games import NO_PLAYER, paused_turn, pending_turn
from pbem.intake.context import MailContext
from pbem.store import Game, GameStatus, MailStatus, Seat, SeatStatus, Turn, loads


def own_games(context: MailContext) -> None:
    sender = context.mail.sender
    if not sender:
        context.quarantine("envelope", "the mail has no address to look seats up by", reply_to="")
        return
    playing, ended = [], []
    for seat, game in context.work.games.seats_at(sender):
        if game.status == GameStatus.ENDED:
            ended.append(f"{game.id} (seat {seat.name})")
        else:
            playing.append(_line(context, game, seat))
    context.finish(MailStatus.ANSWERED, f"LIST MINE ({len(playing)} playing, {len(ended)} ended)")
    context.reply(sender, "own_games", address=sender, games=playing, ended=ended)


def _line(context: MailContext, game: Game, seat: Seat) -> str:
    """One game as the seat's player needs it: where the game is, and what is up to them."""
    head = f"{game.id} ({get_ruleset(game.ruleset).title}), seat {seat.name}:"
    if game.status == GameStatus.OPEN:
        free = game.signup_seats
        return f"{head} open to JOIN, {free} seat{'s' if free != 1 else ''} still free."
    turn = pending_turn(context.work, game) or paused_turn(context.work, game)
    if turn is None:
        return f"{head} {game.status}, turn {game.turn}."
    if game.status == GameStatus.PAUSED:
        when = "paused by a referee (no deadline until it resumes)"
    elif turn.deadline is None:
        when = "no deadline (played when every seat's orders are in)"
    else:
        when = f"orders due by {describe(turn.deadline, game.timezone)}"
    return f"{head} turn {turn.number}, {when}. {_orders(context, game, seat, turn)}."


def _orders(context: MailContext, game: Game, seat: Seat, turn: Turn) -> str:
    """Whether the seat's orders are in, or why none are asked of it."""
    if seat.status in NO_PLAYER:
        return "Your seat is in civil disorder: only a referee can give it a player again"
    if seat.status == SeatStatus.BOT:
        return "The bot plays your seat"
    if seat.name in context.work.games.stored_orders(game.id, turn.number):
        return "Your orders are in"
    if seat.name not in get_ruleset(game.ruleset).seats_to_order(loads(turn.state_before)):
        return "No orders are asked of your seat this turn"
    return "Your orders are not in yet"
