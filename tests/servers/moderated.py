"""A Temples and Swords game moderated by `pbem serve` on the real servers: the moderator's
config file (IMAP on plain loopback, SMTP on the STARTTLS listener with AUTH, passwords read
from files), players who mail bot orders through SMTP and read their mailboxes over IMAP,
and readings of what the database holds."""

from __future__ import annotations

import contextlib
import json
import logging
import threading
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import datetime
from email.message import EmailMessage
from pathlib import Path

from sqlalchemy import Engine
from sqlmodel import col, select

from engine import get_ruleset
from pbem.config import Settings, load_settings
from pbem.daemon.loop import Daemon
from pbem.daemon.transport import open_transport
from pbem.games.games import pending_turn
from pbem.games.lifecycle import SeatSpec
from pbem.games.service import Service
from pbem.store import Game, InboundMessage, Outbox, loads, transaction
from pbem.store.work import work_of
from tests.servers.dovecot import Account
from tests.servers.world import MailWorld, Player
from tests.support.games import new_game

GAME = "g1"
SEATS = ("alice", "bob", "cy")
SEED = 7


@dataclass
class Table:
    world: MailWorld
    service: Service
    moderator: Account
    players: dict[str, Player]
    config: Path
    log: Path

    def send_orders(self) -> int:
        """Every seat mails its bot's orders for the pending turn; the turn's number."""
        return self.post(self.orders())

    def orders(self) -> tuple[int, list[tuple[str, str]]]:
        """The pending turn's number and each seat's order mail for it (read now, to be
        posted later: a test may take the database away in between)."""
        with transaction(self.service.db) as session:
            game = session.get(Game, GAME)
            assert game is not None
            turn = pending_turn(work_of(session), game)
            assert turn is not None
            state, number = loads(turn.state_before), turn.number
        ruleset = get_ruleset("temples-and-swords")
        mails = []
        for seat in ruleset.seats_to_order(state):
            orders = ruleset.bot_orders(state, seat, SEED)
            body = f"GAME {GAME} SEAT {seat} PASSWORD pw-{seat}\nTURN {number}\n{orders}END\n"
            mails.append((seat, body))
        return number, mails

    def post(self, orders: tuple[int, list[tuple[str, str]]]) -> int:
        number, mails = orders
        for seat, body in mails:
            self.players[seat].send(self.moderator.address, body, subject=f"turn {number}")
        return number

    def mail_of(self, seat: str) -> list[EmailMessage]:
        return self.players[seat].mailbox()

    def subjects(self, seat: str) -> list[str]:
        return [str(message["Subject"]) for message in self.mail_of(seat)]

    def distinct_subjects(self) -> dict[str, list[str]]:
        """Every seat's subjects, a Message-ID counted once (as a mail client shows them)."""
        return {seat: list(_by_message_id(self.mail_of(seat)).values()) for seat in SEATS}

    def wait_for_subjects(self, count: int, *, timeout: float = 10.0) -> dict[str, list[str]]:
        """Every seat's subjects, once each mailbox holds `count` mails (or the timeout)."""
        for player in self.players.values():
            player.wait_for_mail(count, timeout=timeout)
        return {seat: self.subjects(seat) for seat in SEATS}

    def passwords(self) -> list[str]:
        return [self.moderator.password, *(p.account.password for p in self.players.values())]


def seated_table(
    world: MailWorld, db: Engine, settings: Settings, now: datetime, folder: Path
) -> Table:
    """A 3-seat game (early processing, no deadline) and the moderator's config file."""
    moderator = world.account("moderator")
    players = {seat: world.player(seat) for seat in SEATS}
    service = Service(db, replace(settings, mail=replace(settings.mail, address=moderator.address)))
    seats = [SeatSpec(seat, players[seat].address, f"pw-{seat}") for seat in SEATS]
    new_game(
        service,
        now,
        game=GAME,
        ruleset="temples-and-swords",
        seats=seats,
        seed=SEED,
        deadline_policy="none",
    )
    log = folder / "pbem.log"
    config = write_config(folder, world, moderator, db, log)
    return Table(world, service, moderator, players, config, log)


def write_config(
    folder: Path,
    world: MailWorld,
    moderator: Account,
    db: Engine,
    log: Path,
    **smtp: int | str,
) -> Path:
    """The moderator's config file; `smtp` replaces or adds [smtp] settings (numbers and
    strings)."""
    secret = folder / "mailbox-password"
    secret.write_text(moderator.password + "\n")
    secret.chmod(0o600)
    url = db.url.render_as_string(hide_password=False)
    config = folder / "pbem.toml"
    smtp_settings: dict[str, int | str] = {
        "host": "127.0.0.1",
        "port": world.smtp["starttls"].port,
        "security": "starttls",
        "user": moderator.address,
        "password_file": str(secret),
        "ca_file": str(world.cert),
        "helo_name": "moderator.pbem.test",
        "timeout_seconds": 5,
        "rate_per_minute": 0,
        "backoff_first_seconds": 1,
        "backoff_max_seconds": 2,
        **smtp,
    }
    config.write_text(
        f"""\
[database]
url = "{url}"
[mail]
address = "{moderator.address}"
[service]
transport = "mail"
max_wait_seconds = 5
[imap]
host = "127.0.0.1"
port = {world.dovecot.imap_port}
security = "plain"
user = "{moderator.address}"
password_file = "{secret}"
timeout_seconds = 5
[smtp]
{_toml_lines(smtp_settings)}
[security]
password_cost = 4
[limits]
replies_per_sender = 1000
[logging]
level = "DEBUG"
file = "{log}"
"""
    )
    return config


def _toml_lines(values: dict[str, int | str]) -> str:
    return "\n".join(f"{key} = {json.dumps(value)}" for key, value in values.items())


def inbound_rows(service: Service) -> list[tuple[str, int]]:
    with transaction(service.db) as session:
        rows = session.exec(select(InboundMessage).order_by(col(InboundMessage.id)))
        return [(row.status, row.attempts) for row in rows]


def unsent(service: Service) -> int:
    with transaction(service.db) as session:
        rows = session.exec(select(Outbox.id).where(col(Outbox.sent_at).is_(None)))
        return len(list(rows))


def turn_of_game(service: Service) -> int:
    with transaction(service.db) as session:
        game = session.get(Game, GAME)
        assert game is not None
        return game.turn


@contextlib.contextmanager
def daemon_running(table: Table) -> Iterator[Daemon]:
    """`pbem serve` on the table's config in a thread of this process (so a test can watch
    the database and the mailboxes in real time); stopped, and waited for, at the end."""
    settings = load_settings(table.config)
    inbox, sender = open_transport(settings)
    daemon = Daemon(Service(table.service.db, settings), inbox, sender)
    thread = threading.Thread(target=daemon.run, name="pbem-serve")
    thread.start()
    try:
        yield daemon
    finally:
        daemon.request_stop("test")
        thread.join(timeout=60)
        assert not thread.is_alive()


@contextlib.contextmanager
def logging_restored() -> Iterator[None]:
    """`pbem serve` configures the root logger; put it back as pytest had it."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    pbem_level = logging.getLogger("pbem").level
    try:
        yield
    finally:
        for handler in root.handlers:
            if handler not in handlers:
                root.removeHandler(handler)
                handler.close()
        root.setLevel(level)
        logging.getLogger("pbem").setLevel(pbem_level)


def _by_message_id(messages: list[EmailMessage]) -> dict[str, str]:
    """Message-ID -> subject, first copy first; every copy of one Message-ID is the same mail."""
    seen: dict[str, str] = {}
    for message in messages:
        key, subject = str(message["Message-ID"]), str(message["Subject"])
        assert seen.setdefault(key, subject) == subject, key
    return seen
