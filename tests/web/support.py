"""Bot games played through the pipeline (order mails in, turns resolved), for the web
archive's tests."""

from __future__ import annotations

import argparse
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

from engine import get_ruleset
from pbem.cli import main
from pbem.clock.turns import resolve_due
from pbem.config import Settings, WebSettings
from pbem.console.referee import run as run_referee
from pbem.games.games import pending_turn
from pbem.games.lifecycle import SeatSpec
from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.store import Game, loads, transaction
from pbem.store.changes import unwatch
from pbem.store.work import work_of
from tests.support.databases import migrated_engine
from tests.support.games import new_game
from tests.support.mails import order_mail

SEATS = (
    SeatSpec("alice", "alice@example.org", "pw-alice-1"),
    SeatSpec("bob", "bob@example.org", "pw-bob-22"),
    SeatSpec("cy", "cy@example.org", "pw-cy-333"),
)
PASSWORDS = {seat.name: seat.password for seat in SEATS}
REFEREE = "ref@example.org"
RULESETS = (
    "temples-and-swords",
    "culture-and-conquest",
    "classical",
    "tribes",
    "medieval-micromanager",
)


def web_settings(settings: Settings, folder: Path, **changes: object) -> Settings:
    """`settings` with the archive written into `folder`, its secret beside it."""
    web = WebSettings(folder=str(folder / "web"), secret_file=str(folder / "web-secret"))
    return replace(settings, web=replace(web, **changes))  # type: ignore[arg-type]


@contextmanager
def archive_service(folder: Path, settings: Settings) -> Iterator[Service]:
    """A service on a SQLite database of its own in `folder`, its archive in `folder`/web:
    what these tests check is the pages, not the database (the pipeline's own tests run on
    both)."""
    engine = migrated_engine(f"sqlite:///{folder / 'pbem.db'}")
    try:
        yield Service(engine, web_settings(settings, folder))
    finally:
        unwatch(engine)
        engine.dispose()


def start(
    service: Service,
    now: datetime,
    ruleset: str,
    *,
    turn_limit: int = 0,
    game: str = "g1",
    referees: Sequence[str] = (),
) -> None:
    options = {"turn_limit": turn_limit} if turn_limit else {}
    new_game(
        service, now, game=game, ruleset=ruleset, seats=SEATS, options=options,
        referees=list(referees),
    )  # fmt: skip


def play_turn(service: Service, now: datetime, game: str = "g1") -> bool:
    """Every seat that orders mails the bot's orders, and the turn resolves; False when the
    game has no pending turn (it is over)."""
    with transaction(service.db) as session:
        row = session.get(Game, game)
        assert row is not None
        turn = pending_turn(work_of(session), row)
        if turn is None:
            return False
        ruleset, state, number = get_ruleset(row.ruleset), loads(turn.state_before), turn.number
    for seat in ruleset.seats_to_order(state):
        text = ruleset.bot_orders(state, seat, 1)
        mail = order_mail(
            game,
            seat,
            PASSWORDS[seat],
            text,
            message_id=f"{game}-t{number}-{seat}-{uuid.uuid4().hex}@example.org",
            sender=f"{seat}@example.org",
        )
        receive(service, mail, now=now)
    resolve_due(service, now=now)
    return True


def play(service: Service, now: datetime, turns: int, game: str = "g1") -> datetime:
    """Up to `turns` turns, an hour apart; the time after them."""
    for _ in range(turns):
        if not play_turn(service, now, game):
            break
        now += timedelta(hours=1)
    return now


def referee(service: Service, now: datetime, name: str, *args: str, game: str = "g1") -> str:
    """A referee command, as `pbem referee` runs it."""
    namespace = argparse.Namespace(
        game=game, name=name, args=list(args), reason="a test", actor=None
    )
    return run_referee(service, namespace, now)


def game_on_the_command_line(folder: Path, ruleset: str) -> None:
    """`pbem init` and `pbem game new g1` (seats a and b) run in `folder` (the current one)
    on its pbem.toml, which writes the site into `site/` with the secret `secret`."""
    (folder / "pbem.toml").write_text(
        '[security]\npassword_cost = 4\n\n[web]\nfolder = "site"\nsecret_file = "secret"\n'
    )
    seats = ["--seat", "a=a@example.org:pw-a-12", "--seat", "b=b@example.org:pw-b-12"]
    for argv in (["init"], ["game", "new", "g1", "--ruleset", ruleset, *seats]):
        assert main(["--config", "pbem.toml", "--now", "2026-03-01T12:00:00+00:00", *argv]) == 0
