"""Issue 17 end to end on the real mail servers: the seed's commitment in the start mail and
a successful `pbem verify` of the finished game; a FORECAST reply; orders held for a later
turn and checked when it opens; a seat given to the bot by a referee's mail."""

from __future__ import annotations

import hashlib
import json
import re
from datetime import datetime
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import Engine
from sqlmodel import select

from pbem.cli import main
from pbem.config import Settings
from pbem.intake.poll import poll_once
from pbem.mail.compose import text_of
from pbem.passwords import hash_password
from pbem.store import Referee, transaction
from tests.servers.test_pipeline_on_real_mail import Table, moderated_game
from tests.servers.world import MailWorld

ORDERS = "GAME g1 SEAT {seat} PASSWORD pw-{seat}\n{lines}\n"


def _poll(table: Table, now: datetime) -> None:
    with table.inbox as inbox:
        poll_once(table.service, inbox, table.sender, now=now)
        assert inbox.pending() == []


def _text(message: EmailMessage) -> str:
    return str(text_of(message)).replace("\r\n", "\n")


def test_the_start_mail_commits_and_a_finished_game_verifies(
    world: MailWorld,
    db: Engine,
    settings: Settings,
    now: datetime,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    table = moderated_game(world, db, settings, now, options={"target": 3})
    start = _text(table.alice.mailbox()[0])
    [committed] = re.findall(r"^([0-9a-f]{64})$", start, flags=re.M)
    table.alice.send(table.moderator.address, ORDERS.format(seat="alice", lines="ADD 3"))
    table.bob.send(table.moderator.address, ORDERS.format(seat="bob", lines="ADD 1"))
    _poll(table, now)
    # A check reply each, the turn report and the end mail.
    end = _text(table.alice.wait_for_mail(4)[-1])
    assert "has ended after turn 1" in end
    seed = re.search(r"seed was (\d+),\nwith the salt ([0-9a-f]{32})\.", end)
    assert seed is not None
    assert hashlib.sha256(f"{seed[1]} {seed[2]}".encode()).hexdigest() == committed
    url = db.url.render_as_string(hide_password=False)
    export = tmp_path / "g1.json"
    assert main(["--db", url, "game", "export", "g1", "--out", str(export)]) == 0
    assert json.loads(export.read_text())["commitment"] == committed
    assert main(["verify", str(export)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "verified: 1 turns replayed, all equal"


def test_a_forecast_by_mail(
    world: MailWorld, db: Engine, settings: Settings, now: datetime
) -> None:
    table = moderated_game(world, db, settings, now)
    table.alice.send(table.moderator.address, ORDERS.format(seat="alice", lines="ADD 2"))
    table.alice.send(table.moderator.address, ORDERS.format(seat="alice", lines="FORECAST"))
    _poll(table, now)
    _start, check, forecast = table.alice.wait_for_mail(3)
    assert _text(check).startswith("Orders for alice in game g1, turn 1: all accepted.")
    answer = _text(forecast)
    assert answer.startswith("Forecast for alice in game g1, turn 1.\n\nA SAMPLE, not the turn")
    assert "line 2: ADD 2 - done" in answer
    assert "== Your holdings after the turn (sample) ==\nPoints: " in answer
    assert len(table.bob.mailbox()) == 1  # the start mail only: bob learns nothing


def test_orders_held_for_a_later_turn_are_checked_when_it_opens(
    world: MailWorld, db: Engine, settings: Settings, now: datetime
) -> None:
    table = moderated_game(world, db, settings, now)
    held = table.alice.send(
        table.moderator.address, ORDERS.format(seat="alice", lines="TURN 2\nADD 3")
    )
    _poll(table, now)
    _start, reply = table.alice.wait_for_mail(2)
    assert _text(reply).startswith("Orders for alice in game g1 held for turn 2.")
    table.alice.send(table.moderator.address, ORDERS.format(seat="alice", lines="ADD 1"))
    table.bob.send(table.moderator.address, ORDERS.format(seat="bob", lines="ADD 1"))
    _poll(table, now)
    # the held orders' check reply is a reply, so it may go out before the bulk report
    by_subject = {m["Subject"]: m for m in table.alice.wait_for_mail(5)[-2:]}
    assert set(by_subject) == {"[g1] turn 1 report", "[g1] turn 2: your held orders"}
    check = by_subject["[g1] turn 2: your held orders"]
    assert check["In-Reply-To"] == held
    assert _text(check).startswith("Orders for alice in game g1, turn 2: all accepted.")


def test_a_referee_gives_a_seat_to_the_bot_by_mail(
    world: MailWorld, db: Engine, settings: Settings, now: datetime
) -> None:
    referee = world.player("referee")
    table = moderated_game(world, db, settings, now, referees=[referee.address])
    with transaction(table.service.db) as session:
        row = session.exec(select(Referee)).one()
        row.password_hash = hash_password("pw-ref", cost=4)
    referee.send(table.moderator.address, "GAME g1 REFEREE pw-ref\nBOT bob BECAUSE away\n")
    _poll(table, now)
    assert "bob is played by the bot from turn 1" in _text(referee.wait_for_mail(2)[-1])
    # bob hears at once what it means for him, before any report does.
    notice = table.bob.wait_for_mail(2)[-1]
    assert notice["Subject"] == "[g1] bob is played by the bot"
    assert "has given your seat bob to the game's bot from turn 1" in " ".join(
        _text(notice).split()
    )
    table.alice.send(table.moderator.address, ORDERS.format(seat="alice", lines="ADD 1"))
    _poll(table, now)  # nobody waits for bob: the turn resolves
    bobs = _text(table.bob.wait_for_mail(3)[-1])
    assert "The bot played your seat this turn: these are its orders." in bobs
    alices = _text(table.alice.wait_for_mail(3)[-1])
    assert "bob was played by the bot this turn." in alices
