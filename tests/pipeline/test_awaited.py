"""Whom a turn waits for is decided once (pbem.games.games.still_waiting), for the clock and
for every place that tells it: the check replies, STATUS, `game show` and the referee's desk.
Issue 43's fresh-eyes test: a seat away (SET ABSENCE) was listed as "still to send" in all
four while the turn, not waiting for absent seats, did not wait for it."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import pytest
from sqlmodel import select

from pbem.cli import main
from pbem.deadlines.options import ClockOptions
from pbem.games.lifecycle import SeatSpec
from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.store import Seat, transaction
from pbem.web.archive import desk_path, write_site
from tests.support.games import body, new_game
from tests.support.mails import mail, order_mail
from tests.web.support import web_settings

SEATS = tuple(SeatSpec(name, f"{name}@example.org", f"pw-{name}") for name in ("al", "bo", "cy"))
REFEREE = "ref@example.org"
# Beyond the real clock too: the desk is drawn at the time it is written.
FAR = date(2099, 1, 1)


def _game(service: Service, now: datetime, *, wait_for_absent: bool = False) -> None:
    clock = ClockOptions(wait_for_absent=wait_for_absent)
    new_game(service, now, seats=SEATS, referees=[REFEREE], clock=clock)
    with transaction(service.db) as session:
        cy = session.exec(select(Seat).where(Seat.name == "cy")).one()
        cy.absent_until = FAR  # SET ABSENCE, as a store of it


def _check_reply(service: Service, now: datetime) -> str:
    raw = order_mail("g1", "al", "pw-al", "ADD 1\n", sender="al@example.org", message_id="a@x")
    return body(receive(service, raw, now=now).replies[0])


def _status(service: Service, now: datetime) -> str:
    raw = mail("STATUS g1", message_id="s@x", sender="x@example.net")
    return body(receive(service, raw, now=now).replies[0])


def _game_show(service: Service, now: datetime, capsys: pytest.CaptureFixture[str]) -> str:
    url = service.db.url.render_as_string(hide_password=False)
    assert main(["--db", url, "--now", now.isoformat(), "game", "show", "g1"]) == 0
    return capsys.readouterr().out


def _desk(service: Service, tmp_path: Path) -> str:
    web = Service(service.db, web_settings(service.settings, tmp_path))
    site = write_site(web)
    return (site / desk_path(web, REFEREE)).read_text()


def test_a_seat_away_is_awaited_nowhere_when_the_turn_does_not_wait_for_it(
    service: Service, now: datetime, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _game(service, now)
    assert "Still to send orders: bo\nAway, not waited for: cy\n" in _check_reply(service, now)
    status = _status(service, now)
    assert "Still to send orders: bo\nAway: cy until 2099-01-01 (not waited for)\n" in status
    shown = _game_show(service, now, capsys)
    assert "waiting for: bo; away, not waited for: cy\n" in shown
    assert "<td>al</td><td>bo</td><td>-</td></tr>" in _desk(service, tmp_path)  # in al, awaiting bo


def test_the_last_awaited_seat_is_told_the_turn_does_not_wait_for_the_seat_away(
    service: Service, now: datetime
) -> None:
    _game(service, now)
    receive(service, order_mail("g1", "bo", "pw-bo", "ADD 1\n", sender="bo@example.org"), now=now)
    told = " ".join(_check_reply(service, now).split())
    assert (
        "Every seat the turn waits for has sent orders, so it is resolved now, before the "
        "deadline: it does not wait for cy, away. Your report follows."
    ) in told
    assert "Still to send" not in told


def test_a_game_that_waits_for_absent_seats_lists_them_as_awaited(
    service: Service, now: datetime, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _game(service, now, wait_for_absent=True)
    assert "Still to send orders: bo, cy\n\n" in _check_reply(service, now)
    assert "Still to send orders: bo, cy\nAway: cy until 2099-01-01\n" in _status(service, now)
    assert "waiting for: bo, cy\n" in _game_show(service, now, capsys)
    assert "<td>al</td><td>bo, cy</td><td>-</td></tr>" in _desk(service, tmp_path)
