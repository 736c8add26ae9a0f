"""A game's life: created (open to sign-up or started at once), started (first turn, a start
mail to every seat). Resolution and the end of the game are in turns.py."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from engine import Ruleset, get_ruleset
from pbem.config import Settings
from pbem.deadlines.options import ClockOptions
from pbem.deadlines.stored import canonical
from pbem.errors import PbemError
from pbem.games.attachments import StartPictures
from pbem.games.audit import audit, joined_seats
from pbem.games.commitment import SEED_DIGITS, new_salt
from pbem.games.games import add_seat, open_turn
from pbem.games.outbox import queue
from pbem.games.reports import start_letter
from pbem.mail.addresses import AddressError, checked_address
from pbem.store import Game, GameStatus, Referee, Turn, dumps, loads, utc
from pbem.store.work import Work

# What RESIGN does to a seat (pbem.intake.resign).
RESIGN_CHOICES = ("replace", "disorder", "bot")


# The longest seat name: long enough for a nation or a house, short enough that every mail
# line naming a seat stays within 72 columns and the rulesets' Standing tables show it whole
# (docs/operations.md). Game ids are the operator's to keep short.
SEAT_NAME_MAX = 12


def seat_name_problem(name: str) -> str:
    """Why `name` cannot be a seat's name, or '' (for a new game and for JOIN alike)."""
    if not name.isalnum():
        return "a seat name is letters and digits only"
    if len(name) > SEAT_NAME_MAX:
        return f"a seat name is at most {SEAT_NAME_MAX} characters, not {len(name)}"
    return ""


class GameError(PbemError, ValueError):
    """A game that cannot be created or changed as asked; the message says why."""


@dataclass(frozen=True)
class SeatSpec:
    name: str
    address: str
    password: str


@dataclass(frozen=True)
class PressOptions:
    """The game's press (pbem.intake.press): allowed at all; anonymous press allowed; the
    referees copied on private press; press after the game has ended."""

    allowed: bool = True
    grey: bool = False
    to_referees: bool = False
    after_end: bool = False


@dataclass(frozen=True)
class ReportOptions:
    """What goes with the reports (pbem.games.attachments): the map picture and the campaign
    chart; the report's data as JSON; a chart every `chart_every` turns (0: only at the end)."""

    pictures: bool = True
    data: bool = True
    chart_every: int = 10


@dataclass(frozen=True)
class GameSpec:
    id: str
    ruleset: str
    seats: Sequence[SeatSpec]
    seed: int
    seed_salt: str = ""  # hashed with the seed for the start mail's commitment; '': random
    options: dict[str, Any] = field(default_factory=dict)
    deadline_policy: str = "interval:48h"
    early_processing: bool = True
    address_check: bool = False
    signup_seats: int = 0  # > 0: open to JOIN until this many more seats are taken
    referees: Sequence[str] = ()  # no password yet: see pbem.referee.roles.give_passwords
    announce_referee_actions: bool = True  # reports tell what a referee changed, and why
    clock: ClockOptions = field(default_factory=ClockOptions)  # timezone, grace, reminders...
    resign: str = "replace"  # what RESIGN does to a seat: one of RESIGN_CHOICES
    press: PressOptions = field(default_factory=PressOptions)
    reports: ReportOptions = field(default_factory=ReportOptions)


def seat_count(taken: int, open_seats: int) -> str:
    """A game's seats in a few words: "1 seat", "3 seats", or with seats open to JOIN
    "1 taken, 2 open" (an open game's were "0 seats")."""
    if not open_seats:
        return f"{taken} seat{'s' if taken != 1 else ''}"
    return f"{taken} taken, {open_seats} open"


def create_game(work: Work, settings: Settings, spec: GameSpec, *, now: datetime) -> Game:
    """Store a new game; start it at once unless it waits for sign-ups."""
    ruleset = get_ruleset(spec.ruleset)
    _check(work, spec, ruleset)
    game = Game(
        id=spec.id.lower(),
        ruleset=ruleset.id,
        options=dumps(ruleset.resolve_options(spec.options)),
        seed=spec.seed,
        seed_salt=spec.seed_salt or new_salt(),
        status=GameStatus.OPEN if spec.signup_seats else GameStatus.RUNNING,
        deadline_policy=spec.deadline_policy,
        early_processing=spec.early_processing,
        address_check=spec.address_check,
        signup_seats=spec.signup_seats,
        created_at=utc(now),
        announce_referee_actions=spec.announce_referee_actions,
        resign=spec.resign,
        press=spec.press.allowed,
        grey_press=spec.press.grey,
        press_to_referees=spec.press.to_referees,
        press_after_end=spec.press.after_end,
        pictures=spec.reports.pictures,
        report_data=spec.reports.data,
        chart_every=spec.reports.chart_every,
    )
    spec.clock.apply(game)
    work.games.add(game)
    work.flush()
    for seat in spec.seats:
        add_seat(work, game, seat.name.lower(), seat.address, seat.password, settings.security)
    for address in spec.referees:
        work.games.add(Referee(game_id=game.id, address=address.lower()))
    # Written now: give_passwords reads them back, and the unit of work does not autoflush. Only
    # starting the game flushed them, so a game open to JOIN had referees without passwords.
    work.flush()
    seats = seat_count(len(spec.seats), spec.signup_seats)
    audit(work, now, "cli", "game-created", game.id, f"{ruleset.id}, {seats}")
    if not spec.signup_seats:
        start_game(work, settings, game, now=now)
    return game


def _check(work: Work, spec: GameSpec, ruleset: Ruleset) -> None:
    if not spec.id or not spec.id.replace("-", "").replace("_", "").isalnum():
        raise GameError(f"a game id is letters, digits, - and _, not {spec.id!r}")
    if work.games.game_named(spec.id) is not None:
        raise GameError(f"there is already a game {spec.id}")
    if len(str(spec.seed)) > SEED_DIGITS:
        raise GameError(f"a seed has at most {SEED_DIGITS} digits, not {len(str(spec.seed))}")
    names = [seat.name.lower() for seat in spec.seats]
    if len(set(names)) != len(names):
        raise GameError("two seats have the same name")
    problem = next(filter(None, map(seat_name_problem, names)), "")
    if problem:
        raise GameError(problem)
    for seat in spec.seats:
        _check_address(f"seat {seat.name.lower()}", seat.address)
    for referee in spec.referees:
        _check_address("referee", referee)
    total = len(spec.seats) + spec.signup_seats
    if not ruleset.min_seats <= total <= ruleset.max_seats:
        raise GameError(f"{ruleset.id} takes {ruleset.min_seats} to {ruleset.max_seats} seats")
    canonical(spec.deadline_policy, spec.clock.timezone)  # raises on a bad policy
    if spec.resign not in RESIGN_CHOICES:
        raise GameError(f"resign is one of {', '.join(RESIGN_CHOICES)}, not {spec.resign!r}")


def _check_address(whose: str, address: str) -> None:
    # Before the game is stored: a referee's password would be mailed to it at once.
    try:
        checked_address(address)
    except AddressError as error:
        raise GameError(f"{whose}: {error}") from None


def start_game(work: Work, settings: Settings, game: Game, *, now: datetime) -> Turn:
    """The first turn from the ruleset's new game, and a start mail to every seat."""
    seats = work.games.seats_of(game.id)
    names = [seat.name for seat in seats]
    state = get_ruleset(game.ruleset).new_game(names, loads(game.options), game.seed)
    game.status = GameStatus.RUNNING
    turn = open_turn(work, game, state, now=now)
    pictures = StartPictures(game, state)
    joined = joined_seats(work, game.id)
    for seat in seats:
        chose = (seat.name, seat.address.lower()) in joined
        letter = start_letter(
            settings, game, seat, turn, pictures.for_seat(seat), chose_password=chose
        )
        queue(work, settings, letter, now=now)
    audit(work, now, "pipeline", "game-started", game.id, ", ".join(names))
    return turn
