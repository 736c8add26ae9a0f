"""An order mail, decided from the rows already read: the turn its orders go to or why they
are refused (open_turn); for the pending turn, what to store as the seat's orders, how the
mail ends, and its check reply (check_orders). No session, no write: the game, the seat, the
turn, the game's seats and the orders in for the turn come in as read (pbem.intake.orders
reads them under the game's lock and applies the outcome)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from engine import Ruleset, get_ruleset
from engine.ruleset import State
from pbem.clock.due import facts_from, seats_asked
from pbem.deadlines.stored import describe
from pbem.games.checks import check_lines, shown, verdict_of
from pbem.games.counted import PASS_LINE, counting, judge, unchanged_template, until_when
from pbem.games.games import away_unawaited, still_waiting, taking_orders
from pbem.mail.envelope import Envelope
from pbem.store import Game, GameStatus, MailStatus, Seat, Turn, loads

ADVANCE_TURNS = 3  # how many turns beyond the pending one orders may be sent for (advance.py)


@dataclass(frozen=True)
class Refused:
    """Why the mail's orders are refused, nothing stored: a quarantine reason and its error."""

    reason: str
    error: str


def open_turn(
    game: Game, current: Turn | None, envelope: Envelope, max_lines: int
) -> Turn | Refused:
    """The turn the mail's orders go to (the game's current turn, `current`, if it takes
    orders), or why none: the game takes none, the orders are for another turn (and not
    one that may be held ahead), or they are too many (`max_lines`: [limits]
    max_order_lines)."""
    turn = taking_orders(game, current)
    if turn is None:
        why = "has not begun" if game.status == GameStatus.OPEN else f"is {game.status}"
        return Refused("no-turn", f"game {game.id} {why}: it takes no orders")
    if envelope.turn is not None and envelope.turn != turn.number and not held(envelope, turn):
        return Refused(
            "stale",
            f"these orders are for turn {envelope.turn}, but the "
            f"pending turn is {turn.number}{_too_far(envelope, turn)}; nothing was stored",
        )
    count = len(envelope.lines)
    if count > max_lines:
        return Refused(
            "too-long",
            f"the mail has {count:,} order lines; at most {max_lines:,} are read. "
            "Nothing was stored: your earlier orders for this turn, if any, stand.",
        )
    return turn


def held(envelope: Envelope, pending: Turn) -> bool:
    """Whether the mail's orders are for a later turn that may be held (advance.py)."""
    return envelope.turn is not None and 0 < envelope.turn - pending.number <= ADVANCE_TURNS


def _too_far(envelope: Envelope, pending: Turn) -> str:
    """What the refusal of orders for a turn beyond the limit adds."""
    if envelope.turn is None or envelope.turn <= pending.number:
        return ""
    return f" (orders are held at most {ADVANCE_TURNS} turns ahead)"


@dataclass(frozen=True)
class Turned:
    """What the mail's orders come to."""

    # The text and its mail line numbers to store as the seat's orders for the turn, replacing
    # any earlier (version: its mail's number this turn); None: nothing is stored.
    text: str | None
    line_map: tuple[int, ...]
    version: int
    status: MailStatus
    outcome: str
    # Will the turn be resolved at once, every order it waits for being in? Then the reply
    # must not invite changes, and the clocks have work.
    resolves_now: bool
    reply: dict[str, Any]  # the check reply's values (mail_templates/check_reply.txt)


@dataclass(frozen=True)
class Sent:
    """The mail's orders, and what else the check reply tells."""

    lines: Sequence[tuple[int, str]]  # (mail line, text) of each order line
    envelope: Envelope
    notes: Sequence[str]  # what reading the mail noted (pbem.mail.reading)
    now: datetime
    max_problems_shown: int
    # Orders read from the quoted text: the mail's own lines above it, not read (finding)
    above_quote: Sequence[tuple[int, str]] = ()


def check_orders(
    game: Game, seat: Seat, turn: Turn, seats: Sequence[Seat], have: Mapping[str, int], sent: Sent
) -> Turned:
    """The mail's orders judged against the turn's state (engine), counted or not
    (pbem.games.counted), and the check reply. `have`: each seat's orders in for the turn,
    as its mail's number this turn (OrderSet.version)."""
    ruleset, state = get_ruleset(game.ruleset), loads(turn.state_before)
    judged = judge(ruleset, state, seat.name, sent.lines)
    earlier = have.get(seat.name, 0)
    version = earlier + 1 if judged.counted else 0
    in_now = frozenset(have) | ({seat.name} if version else frozenset())
    check = check_lines(judged.lines, judged.parsed, sent.envelope, judged.refused())
    check["ignored"] = sorted(check["ignored"] + judged.ignored())
    counts = f"{len(check['accepted'])} accepted, {len(check['rejected'])} rejected"
    # A mail that does not count is answered, not accepted: nothing of it was stored.
    status, done = (
        (MailStatus.ACCEPTED, "stored") if version else (MailStatus.ANSWERED, "not counted")
    )
    expected = list(seats_asked(game.ruleset, turn.state_before))  # remembered by digest
    facts = facts_from(game, turn, seats, in_now, sent.now)
    # The clock's own test, so that the reply says what will happen (a seat away is not
    # waited for, unless the game waits for absent seats). A paused game's turn waits for
    # the game to resume.
    resolves_now = game.status == GameStatus.RUNNING and facts.all_in()
    reply = {
        "game": game.id,
        "seat": seat.name,
        "turn": turn.number,
        "verdict": PASS_LINE if judged.passes else verdict_of(check),
        **counting(judged, version, earlier),
        "unchanged_template": judged.counted
        and unchanged_template(ruleset, state, seat.name, sent.lines),
        "notes": list(sent.notes),
        "unread_above": _unread_above(ruleset, state, seat.name, sent.above_quote, turn.number),
        "deadline": describe(turn.deadline, game.timezone),
        "paused": game.status == GameStatus.PAUSED,
        "waiting": still_waiting(expected, in_now, seats, game, sent.now),
        "away": away_unawaited(expected, in_now, seats, game, sent.now),
        "resolves_now": resolves_now,
        "until": until_when(game),
        **shown(check, sent.max_problems_shown),
    }
    kept = judged.stored_lines()
    return Turned(
        text="\n".join(line for _, line in kept) if version else None,
        line_map=tuple(number for number, _ in kept) if version else (),
        version=version,
        status=status,
        outcome=f"orders {done} for {seat.name}, turn {turn.number}: {counts}",
        resolves_now=resolves_now,
        reply=reply,
    )


def _unread_above(
    ruleset: Ruleset, state: State, seat: str, above: Sequence[tuple[int, str]], turn: int
) -> str:
    """The warning on the lines above a quoted order mail that read as orders: as documented,
    a mail without a GAME line of its own is read from the quote, so a new order typed above
    it (a phone's reply) is lost. The reply opens with it, where a phone shows it, since the
    quoted (old) orders were stored in its place."""
    if not above:
        return ""
    parsed = ruleset.parse_orders(state, seat, "\n".join(text for _, text in above))
    read = [above[number - 1] for number, _ in parsed.understood()]
    if not read:
        return ""
    shown = "; ".join(text for _, text in read)
    numbers = ", ".join(str(number) for number, _ in read)
    if len(read) == 1:
        which, them = f"Line {numbers} ({shown}) reads as an order", "it"
    else:
        which, them = f"Lines {numbers} ({shown}) read as orders", "them"
    return (
        "WARNING: the lines you wrote above the quoted text were NOT read. "
        f"{which}, but this mail has no GAME line of its own, so only the quoted order "
        f"mail was read: the quoted orders were stored as your orders for "
        f"turn {turn}, as listed below. To send {them} instead, write your GAME line above "
        f"{them}, with all your orders, and send the mail again."
    )
