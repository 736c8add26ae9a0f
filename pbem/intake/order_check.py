"""An order mail for the pending turn, decided from the rows already read: what to store as
the seat's orders, how the mail ends, and its check reply. No session, no write: the game,
the seat, the turn, the game's seats and the orders in for the turn come in as read
(pbem.intake.orders reads them under the game's lock and applies the outcome)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from engine import get_ruleset
from pbem.clock.due import facts_from, seats_asked
from pbem.deadlines.stored import describe
from pbem.games.checks import check_lines, shown, verdict_of
from pbem.games.counted import PASS_LINE, counting, judge, unchanged_template, until_when
from pbem.games.games import away_unawaited, still_waiting
from pbem.mail.envelope import Envelope
from pbem.store import Game, GameStatus, MailStatus, Seat, Turn, loads


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
