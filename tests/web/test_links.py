"""The seats' links and the archive following the game: a new password, a new player or a
new address is a new link and the old folder goes; the daemon's writes after each turn and
each notice are incremental and never fail the change; `[web] enabled = false` writes
nothing; with `[web] base_url` the report mail carries the seat's link."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import pytest
from sqlmodel import select

from pbem.config import Settings
from pbem.games import reports
from pbem.games.resolved import ResolvedTurn
from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.store import Referee, Seat, transaction
from pbem.web import archive
from pbem.web.archive import archive_on_change, desk_path, seat_path, write_game, write_site
from tests.support.games import body, new_game, outbox, turns
from tests.support.mails import mail
from tests.web.support import (
    PASSWORDS,
    REFEREE,
    SEATS,
    archive_service,
    play,
    referee,
    start,
    web_settings,
)


@pytest.fixture
def service(tmp_path: Path, settings: Settings) -> Iterator[Service]:
    with archive_service(tmp_path, settings) as made:
        yield made


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return tmp_path / "web"


def _seat_folder(service: Service, site: Path, seat: str) -> Path:
    found = seat_path(service, "g1", seat)
    assert found.startswith("games/g1/seats/") and found.endswith("/index.html")
    return (site / found).parent


def test_a_new_password_is_a_new_link_and_the_old_folder_goes(
    service: Service, now: datetime, site: Path
) -> None:
    start(service, now, "temples-and-swords")
    archive_on_change(service)  # as `pbem serve` runs: the archive follows the game
    now = play(service, now, 1)
    old = _seat_folder(service, site, "alice")
    assert (old / "turn-1.html").exists()
    text = f"GAME g1 SEAT alice PASSWORD {PASSWORDS['alice']}\nSET PASSWORD brand-new-7\n"
    receive(service, mail(text, message_id="set@example.org"), now=now)
    new = _seat_folder(service, site, "alice")
    assert new != old and not old.exists()
    assert (new / "turn-1.html").exists()  # the new folder has every turn already
    assert _seat_folder(service, site, "bob").exists()  # the other seats keep theirs


def test_a_new_player_is_a_new_link(service: Service, now: datetime, site: Path) -> None:
    start(service, now, "tribes")
    archive_on_change(service)
    now = play(service, now, 1)
    old = _seat_folder(service, site, "bob")
    referee(service, now, "replace", "bob", "dora@example.org")
    new = _seat_folder(service, site, "bob")
    assert new != old and not old.exists() and (new / "index.html").exists()


def test_a_seat_nobody_holds_has_no_pages(service: Service, now: datetime, site: Path) -> None:
    start(service, now, "temples-and-swords")
    now = play(service, now, 1)
    write_site(service, site)
    old = _seat_folder(service, site, "cy")
    text = f"GAME g1 SEAT cy PASSWORD {PASSWORDS['cy']}\nRESIGN\n"
    receive(service, mail(text, sender="cy@example.org", message_id="r@example.org"), now=now)
    write_game(service, "g1", site)
    assert seat_path(service, "g1", "cy") == "" and not old.exists()


def test_turn_pages_once_written_are_not_drawn_again_unless_played_again(
    service: Service, now: datetime, site: Path
) -> None:
    start(service, now, "classical")
    archive_on_change(service)
    now = play(service, now, 2)
    page = site / "games" / "g1" / "turn-1.html"
    seat_page = _seat_folder(service, site, "alice") / "turn-1.html"
    written = {path: path.stat().st_mtime_ns for path in (page, seat_page)}
    for path in written:  # a page drawn again would be written back as it was made
        path.write_text(path.read_text() + "<!-- kept -->")
    now = play(service, now, 1)
    assert (site / "games" / "g1" / "turn-3.html").exists()
    assert page.read_text().endswith("<!-- kept -->")
    assert seat_page.read_text().endswith("<!-- kept -->")
    referee(service, now, "rollback", "2")  # turn 2 is pending again: its pages go
    assert not (site / "games" / "g1" / "turn-2.html").exists()
    assert not (site / "games" / "g1" / "turn-3.html").exists()
    # Turn 1 stands: its page is written again only for its links (no turn 2 to go to now).
    assert 'rel="next"' not in page.read_text()
    referee(service, now, "rerun")  # turns 2 and 3 played again, from their stored orders
    assert (site / "games" / "g1" / "turn-2.html").exists()
    assert (site / "games" / "g1" / "turn-3.html").exists()
    write_site(service, site)  # the whole site: every page drawn again
    assert not page.read_text().endswith("<!-- kept -->")


def test_a_turn_page_links_to_the_turn_resolved_after_it(
    service: Service, now: datetime, site: Path
) -> None:
    """Issue 43, point 2: a turn's pages were written once, before the next turn existed, and
    never got their "next turn" link; only `pbem web build` mended them."""
    start(service, now, "classical")
    archive_on_change(service)
    now = play(service, now, 1)
    page = site / "games" / "g1" / "turn-1.html"
    seat_page = _seat_folder(service, site, "alice") / "turn-1.html"
    picture = site / "games" / "g1" / "turn-1.png"
    drawn = picture.stat().st_mtime_ns
    assert 'rel="next"' not in page.read_text()
    play(service, now, 1)
    for html in (page.read_text(), seat_page.read_text()):
        assert '<a href="turn-2.html" rel="next">turn 2 &rarr;</a>' in html
        assert 'src="turn-1.png"' in html
    assert picture.stat().st_mtime_ns == drawn  # the links only: the map is not drawn again
    referee(service, now, "rollback", "2")  # turn 2 is pending again: the link goes
    assert 'rel="next"' not in page.read_text()
    assert 'rel="next"' not in seat_page.read_text()


def test_the_archive_off_writes_nothing(
    service: Service, now: datetime, tmp_path: Path, site: Path
) -> None:
    service = replace(service, settings=web_settings(service.settings, tmp_path, enabled=False))
    start(service, now, "temples-and-swords")
    archive_on_change(service)
    play(service, now, 2)
    assert write_site(service) == site
    write_game(service, "g1")
    assert not site.exists() and not (tmp_path / "web-secret").exists()
    assert "Your pages" not in body(outbox(service, "report")[-1])


def test_a_report_carries_the_seats_link_with_a_base_url(
    service: Service, now: datetime, tmp_path: Path
) -> None:
    settings = web_settings(service.settings, tmp_path, base_url="https://pbem.example.org/a/")
    service = replace(service, settings=settings)
    start(service, now, "temples-and-swords")
    play(service, now, 1)
    folder = seat_path(service, "g1", "alice").removesuffix("index.html")
    reports = [row for row in outbox(service, "report") if "turn 1 report" in row.subject]
    alice = next(row for row in reports if row.recipient == "alice@example.org")
    assert f"Your pages: https://pbem.example.org/a/{folder}\n" in body(alice)
    bob = next(row for row in reports if row.recipient == "bob@example.org")
    assert folder not in body(bob)


def test_no_link_line_without_a_base_url(service: Service, now: datetime) -> None:
    start(service, now, "temples-and-swords")
    play(service, now, 1)
    assert "Your pages" not in body(outbox(service, "report")[-1])


def test_a_failed_write_is_logged_and_the_turn_stands(
    service: Service, now: datetime, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "web").write_text("a file where the folder should be")
    start(service, now, "temples-and-swords")
    archive_on_change(service)
    with caplog.at_level(logging.ERROR):
        play(service, now, 1)
    assert turns(service)[0].resolved_at is not None
    assert len(outbox(service, "report")) >= 6  # the start mails and the turn's reports
    assert "web archive: game g1 not written" in caplog.text


def test_a_referee_of_no_game_left_has_no_desk(service: Service, now: datetime, site: Path) -> None:
    """A desk is its referee's: a game made with a referee makes theirs, and once they referee
    no game of the site (the game deleted) their desk's folder goes at the next write."""
    start(service, now, "temples-and-swords")
    new_game(service, now, game="g2", ruleset="tribes", seats=SEATS, referees=["r@example.org"])
    write_site(service, site)
    desk = (site / desk_path(service, "r@example.org")).parent
    assert (desk / "game-g2.html").exists() and not (desk / "game-g1.html").exists()
    with transaction(service.db) as session:
        for row in session.exec(select(Referee).where(Referee.game_id == "g2")):
            session.delete(row)
    write_site(service, site)
    assert not desk.exists() and not list((site / "desk").iterdir())


def test_a_new_address_is_a_new_link(service: Service, now: datetime, site: Path) -> None:
    start(service, now, "temples-and-swords")
    archive_on_change(service)
    now = play(service, now, 1)
    old = _seat_folder(service, site, "alice")
    new_address = "alice@new.example.org"
    text = f"GAME g1 SEAT alice PASSWORD {PASSWORDS['alice']}\nSET ADDRESS {new_address}\n"
    receive(service, mail(text, message_id="a@example.org"), now=now)
    assert _seat_folder(service, site, "alice") == old  # nothing changes before CONFIRM
    asked = [row for row in outbox(service) if row.recipient == new_address][-1]
    code = body(asked).split("CONFIRM ", 1)[1].split()[0]
    receive(service, mail(f"CONFIRM {code}", sender=new_address, message_id="c@x"), now=now)
    new = _seat_folder(service, site, "alice")
    assert new != old and not old.exists() and (new / "turn-1.html").exists()


def test_a_relinked_turn_gets_its_links_alone_and_the_pages_are_the_whole_sites(
    service: Service, now: datetime, tmp_path: Path, site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 45, point 4: after a turn the turn before it only gains its "next" link, so its
    pages are not drawn again (its reports were: a text map a seat); and the archive written
    turn by turn is, byte for byte, the site written whole."""
    start(service, now, "temples-and-swords", referees=[REFEREE])
    archive_on_change(service)
    now = play(service, now, 2)
    drawn: list[int] = []
    body = reports.report_body

    def counted(settings: Settings, view: ResolvedTurn, seat: Seat, **how: bool) -> str:
        drawn.append(view.turn.number)
        return body(settings, view, seat, **how)

    monkeypatch.setattr(archive, "report_body", counted)
    play(service, now, 1)
    assert drawn == [3, 3, 3]  # turn 3's seats; turn 2's pages only linked to it
    monkeypatch.undo()
    whole = write_site(service, tmp_path / "whole")
    written = sorted(path.relative_to(site) for path in site.rglob("*") if path.is_file())
    assert written == sorted(p.relative_to(whole) for p in whole.rglob("*") if p.is_file())
    for path in written:
        assert (site / path).read_bytes() == (whole / path).read_bytes(), path
