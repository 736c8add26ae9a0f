"""The campaign's table: the moderator (`pbem serve --once` on a config of its own, SQLite),
the game made on the command line as a referee makes it, the clock the campaign moves by hand,
the participants' mailboxes, and the record of it all. A step is whatever the participants
do, then one pass of the moderator, then every mailbox read."""

from __future__ import annotations

import contextlib
import io
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from engine import get_ruleset
from pbem.cli import main
from pbem.games.games import last_resolved_turn, stored_orders, turn_of
from pbem.store import Game, dumps, loads, transaction, utc
from tests.campaign.mailboxes import Mailbox
from tests.campaign.record import Event, Record, Sent
from tests.servers.dovecot import Account
from tests.servers.moderated import write_config
from tests.servers.world import MailWorld
from tests.support.databases import migrated_engine

# A Monday morning: the first weekly deadline falls the same day.
START = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)
STEP = timedelta(minutes=2)  # the clock between two steps: far from any deadline
_RESOLVED = re.compile(r"resolved (\S+) turn (\d+)( - game over)?")


@dataclass(frozen=True)
class Position:
    """The game as the bots' brain reads it from the database: the turn that takes orders
    (the pending one, or the one a paused game resumes with), its state and deadline."""

    status: str
    number: int
    state: dict[str, Any]
    deadline: datetime | None
    asked: tuple[str, ...]  # the seats the ruleset asks for orders


class Table:
    def __init__(self, world: MailWorld, folder: Path, record: Record) -> None:
        self.world, self.folder, self.record = world, folder, record
        self.moderator = world.account("moderator")
        self.db = migrated_engine(f"sqlite:///{folder / 'pbem.db'}")
        self.config = write_config(folder, world, self.moderator, self.db, folder / "pbem.log")
        self.now = START
        self.step = 1
        self.mailboxes: dict[str, Mailbox] = {}
        self.outputs: list[str] = []  # every command line's output, for a failing run

    @property
    def game(self) -> str:
        return self.record.game

    def join(self, name: str, account: Account) -> None:
        """A participant's mailbox, read from now on."""
        self.mailboxes[name] = Mailbox(self.world, account, name)
        self.record.addresses[name] = account.address
        self.record.mail[name] = self.mailboxes[name].received

    def log(self, sent: Sent) -> None:
        self.record.sent.append(sent)

    def event(self, kind: str, **facts: Any) -> None:
        self.record.events.append(Event(self.step, kind, **facts))

    def cli(self, *argv: str) -> str:
        """A `pbem` command at the table's clock; its output (it must succeed)."""
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = main(["--config", str(self.config), "--now", self.now.isoformat(), *argv])
        self.outputs.append(f"$ pbem {' '.join(argv)}\n{out.getvalue()}")
        assert code == 0, self.outputs[-1]
        return out.getvalue()

    def forced(self, output: str, before: Position) -> None:
        """A turn the command line just resolved by a referee's hand."""
        for number in re.findall(r"turn (\d+) resolved|resolved \S+ turn (\d+)", output):
            turn = int(next(n for n in number if n))
            self.event("resolved", turn=turn, cause="forced", seats=before.asked)
            if "game over" in output:
                self.event("ended", turn=turn)

    def plant_event(self, seat: str, text: str) -> None:
        """A private event of `seat`'s with `text`, in the newest played turn's stored record
        (what its report, asked for again, is drawn from)."""
        with transaction(self.db) as session:
            turn = last_resolved_turn(session, self.game)
            assert turn is not None and turn.record, "no turn played yet"
            record = loads(turn.record)
            event = {"also": [], "code": "planted", "dice": [], "phase": "", "public": False}
            record["events"].append({**event, "seat": seat, "text": text})
            turn.record = dumps(record)

    def plant_orders(self, seat: str, text: str) -> None:
        """A comment line with `text` at the end of the orders stored for `seat`'s pending
        turn (a mail's comments are not stored: the line is written here)."""
        with transaction(self.db) as session:
            game = session.get(Game, self.game)
            assert game is not None
            row = stored_orders(session, game.id, game.turn)[seat]
            row.text += f"\n# {text}"

    def position(self) -> Position:
        with transaction(self.db) as session:
            game = session.get(Game, self.game)
            assert game is not None
            turn = turn_of(session, game.id, game.turn)
            assert turn is not None
            state = loads(turn.state_before)
            deadline = utc(turn.deadline) if turn.deadline is not None else None
            status, number = game.status, turn.number
        asked = tuple(get_ruleset(self.record.ruleset).seats_to_order(state))
        return Position(status, number, state, deadline, asked)

    def serve(self, *, to_deadline: bool = False) -> list[str]:
        """The moderator's pass, which ends the step; `to_deadline` moves the clock to a
        minute past the pending deadline first (and so resolves the turn by it)."""
        before = self.position()
        if to_deadline:
            assert before.deadline is not None, "the game has no deadline"
            self.now = max(self.now, before.deadline + timedelta(minutes=1))
        lines = self.cli("serve", "--once").splitlines()
        for game, turn, over in (m.groups() for line in lines if (m := _RESOLVED.match(line))):
            if game == self.game:
                by_deadline = before.deadline is not None and self.now >= before.deadline
                cause = "deadline" if by_deadline else "orders"
                self.event("resolved", turn=int(turn), cause=cause, seats=before.asked)
                if over:
                    self.event("ended", turn=int(turn))
        for mailbox in self.mailboxes.values():
            mailbox.collect(self.step)
        self.record.steps = self.step
        self.step += 1
        self.now += STEP
        return lines

    def complete(self) -> list[str]:
        """The participants whose mailbox holds mail the campaign did not collect."""
        return [name for name, box in self.mailboxes.items() if not box.complete()]
