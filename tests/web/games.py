"""Bot-played games for the web archive's tests: one game of each ruleset, its seats' orders
mailed in through the intake as players would, each turn resolved when all are in, to the end
of the game (a turn limit keeps it short)."""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlmodel import select

from engine import get_ruleset
from pbem.clock.turns import resolve_due
from pbem.games.games import pending_turn
from pbem.games.lifecycle import PressOptions, SeatSpec
from pbem.games.outbox import as_message
from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.mail.compose import text_of
from pbem.passwords import hash_password
from pbem.store import Game, Outbox, Referee, loads, transaction
from pbem.store.work import work_of
from tests.referee.support import REFEREE, REFEREE_PASSWORD
from tests.support.games import game_row, new_game, outbox
from tests.support.mails import order_mail

NAMES = ("ann", "bob", "cat")
SEATS = tuple(SeatSpec(n, f"{n}@example.org", f"pw-{n}") for n in NAMES)
# The five rulesets pbem comes with (not the tests' own, registered beside them).
RULESETS = (
    "classical",
    "culture-and-conquest",
    "medieval-micromanager",
    "temples-and-swords",
    "tribes",
)
MAX_STEPS = 60  # a guard: each game ends at its turn limit long before


def start_game(
    service: Service, now: datetime, game: str, ruleset: str, *, turns: int = 3, **spec: Any
) -> None:
    """Game `game` of `ruleset` with seats ann, bob and cat, referee ref@example.org, public
    press allowed, ending after `turns` rounds."""
    spec.setdefault("seats", SEATS)
    spec.setdefault("press", PressOptions(allowed=True))
    spec.setdefault("referees", [REFEREE])
    options = {"turn_limit": turns}
    new_game(service, now, game=game, ruleset=ruleset, seed=7, options=options, **spec)
    with transaction(service.db) as session:
        for referee in session.exec(select(Referee).where(Referee.game_id == game)):
            referee.password_hash = hash_password(REFEREE_PASSWORD, cost=4)


def play_turn(
    service: Service,
    now: datetime,
    game: str,
    *,
    press: str = "",
    seats: Sequence[SeatSpec] = SEATS,
) -> bool:
    """Every waiting seat's bot orders mailed in from its address with its password (as in
    `seats`), `press` (a PRESS block) in the first seat's mail, and the turn resolved; False
    once the game has no pending turn."""
    players = {seat.name: seat for seat in seats}
    with transaction(service.db) as session:
        row = session.get(Game, game)
        assert row is not None
        turn = pending_turn(work_of(session), row)
        if turn is None:
            return False
        number, seed, state = turn.number, row.seed, loads(turn.state_before)
    ruleset = get_ruleset(game_row(service, game).ruleset)
    for index, seat in enumerate(ruleset.seats_to_order(state)):
        text = ruleset.bot_orders(state, seat, seed)
        if index == 0 and press:
            text = f"{text.rstrip()}\n{press}"
        raw = order_mail(
            game,
            seat,
            players[seat].password,
            text,
            turn=number,
            sender=players[seat].address,
            message_id=f"{game}-{number}-{seat}@example.org",
        )
        assert receive(service, raw, now=now).status == "accepted", seat
    assert [s.turn for s in resolve_due(service, now=now) if s.game == game] == [number]
    return True


def play_to_end(service: Service, now: datetime, game: str, *, press: str = "") -> int:
    """Turns played until the game ends; how many."""
    for step in range(MAX_STEPS):
        if not play_turn(service, now, game, press=press if step == 0 else ""):
            assert game_row(service, game).status == "ended", game
            return step
    raise AssertionError(f"{game} did not end in {MAX_STEPS} turns")


def report_mails(service: Service, game: str) -> Iterable[Outbox]:
    """The turn reports of `game` as queued, oldest first."""
    subject = f"[{game}] turn "
    return [row for row in outbox(service, "report") if row.subject.startswith(subject)]


def report_of(service: Service, game: str, turn: int, address: str) -> Outbox:
    """The report mail of `turn` that went to `address` (the last, after any resend)."""
    subject = f"[{game}] turn {turn} report"
    found = [
        row
        for row in report_mails(service, game)
        if row.subject.startswith(subject) and row.recipient == address
    ]
    assert found, (game, turn, address)
    return found[-1]


def report_text(row: Outbox) -> str:
    return text_of(as_message(row.raw))


def report_json(row: Outbox) -> dict[str, Any]:
    """The report data (report-<game>-<turn>-<seat>.json) attached to a report mail, as
    stored in the outbox."""
    for part in as_message(row.raw).iter_attachments():
        if str(part.get_filename()).endswith(".json"):
            data: dict[str, Any] = json.load(io.BytesIO(part.get_content()))
            return data
    raise AssertionError(f"no report data in {row.subject}")
