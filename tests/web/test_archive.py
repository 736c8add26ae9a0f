"""The archive of played bot games, one of each ruleset: every turn's page with its map and
the standings every seat's report data gives, the chart, the overview, each seat's pages, the
desk; every page with its pictures under 300 kB; nothing private on the public pages."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import datetime
from email.message import EmailMessage
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from sqlalchemy import event
from sqlmodel import select

from engine import get_ruleset
from pbem.config import Settings
from pbem.games.commitment import commitment
from pbem.games.outbox import as_message
from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.store import Game, Outbox, transaction
from pbem.web import archive
from pbem.web.archive import desk_path, seat_path, write_game, write_site
from tests.support.mails import order_mail
from tests.web.support import (
    PASSWORDS,
    REFEREE,
    RULESETS,
    SEATS,
    archive_service,
    play,
    referee,
    start,
)

PAGE_LIMIT = 300_000  # bytes: a page with its pictures
SVG = "{http://www.w3.org/2000/svg}"
TURNS = 3


@pytest.fixture
def service(tmp_path: Path, settings: Settings) -> Iterator[Service]:
    with archive_service(tmp_path, settings) as made:
        yield made


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return tmp_path / "web"


def _report_data(service: Service, seat: str, number: int) -> dict[str, object]:
    with transaction(service.db) as session:
        rows = session.exec(select(Outbox).where(Outbox.kind == "report")).all()
    for row in rows:
        if row.recipient == f"{seat}@example.org" and f"turn {number} report" in row.subject:
            message: EmailMessage = as_message(row.raw)
            for part in message.iter_attachments():
                if str(part.get_filename()).endswith(".json"):
                    found: dict[str, object] = json.loads(part.get_content())
                    return found
    raise AssertionError(f"no report data of turn {number} for {seat}")


def _standings(html: str) -> dict[str, dict[str, int]]:
    """The standings table of a page, as the report's JSON writes them."""
    table = html.split('<table class="standings">', 1)[1].split("</table>", 1)[0]
    found: dict[str, dict[str, int]] = {}
    for seat, row in re.findall(r'<tr data-seat="([^"]+)">(.*?)</tr>', table):
        cells = re.findall(r'<td data-measure="([^"]+)">(-?\d+)</td>', row)
        found[seat] = {measure: int(value) for measure, value in cells}
    return found


def _standings_once(html: str) -> None:
    """Issue 43, point 14: the game and turn pages showed the standings twice, the table
    and again the reports' summary table, each in an order of its own. Each seat once."""
    section = html.split("<h2>Standings", 1)[1].split("</section>", 1)[0]
    words = re.sub(r"<[^>]+>", " ", section).split()
    assert [words.count(seat.name) for seat in SEATS] == [1] * len(SEATS)


def _page_weight(page: Path) -> int:
    """The page and the pictures it shows."""
    html = page.read_text()
    pictures = re.findall(r'<img src="([^"]+)"', html)
    return page.stat().st_size + sum((page.parent / src).stat().st_size for src in pictures)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_archive_of_a_played_game(
    service: Service, now: datetime, site: Path, ruleset: str
) -> None:
    start(service, now, ruleset, turn_limit=TURNS, referees=[REFEREE])
    play(service, now, TURNS + 1)
    with transaction(service.db) as session:
        game = session.get(Game, "g1")
        assert game is not None and game.status == "ended"  # the turn limit ended it
        seed, salt = game.seed, game.seed_salt
    assert write_site(service, site) == site
    for number in range(1, TURNS + 1):
        page = site / "games" / "g1" / f"turn-{number}.html"
        html = page.read_text()
        assert '<meta name="viewport"' in html and "<script" not in html
        report = _report_data(service, "alice", number)
        if report["map"] is not None:  # a ruleset with a map (and these options)
            assert (site / "games" / "g1" / f"turn-{number}.png").exists()
            assert f'alt="Map of game g1 after turn {number}"' in html
        else:
            assert "<img" not in html
        assert _standings(html) == report["standings"], number
        _standings_once(html)
        assert _page_weight(page) < PAGE_LIMIT
        for seat in SEATS:  # nothing private on the public pages
            assert seat.address not in html and seat.password not in html

    overview = (site / "games" / "g1" / "index.html").read_text()
    _standings_once(overview)
    assert commitment(seed, salt) in overview
    assert f'seed <code class="hash">{seed}</code>' in overview  # revealed: the game is over
    assert all(f'href="turn-{n}.html"' in overview for n in range(1, TURNS + 1))
    chart = (site / "games" / "g1" / "chart.html").read_text()
    assert 'alt="Campaign chart of game g1' in chart
    assert _page_weight(site / "games" / "g1" / "chart.html") < PAGE_LIMIT
    assert 'href="games/g1/index.html"' in (site / "index.html").read_text()
    assert (site / "style.css").exists()

    for seat in SEATS:
        pages = site / seat_path(service, "g1", seat.name)
        assert pages.name == "index.html" and pages.exists()
        assert '<meta name="robots" content="noindex">' in pages.read_text()
        first = (pages.parent / "turn-1.html").read_text()
        assert f"report of turn 1 for {seat.name}" in first
        assert "Your orders as played" in first
        assert PASSWORDS[seat.name] not in first
        assert _page_weight(pages.parent / "turn-1.html") < PAGE_LIMIT
    desk = site / desk_path(service, REFEREE)
    assert '<meta name="robots" content="noindex">' in desk.read_text()
    assert (desk.parent / "game-g1.html").exists()
    for page in site.rglob("*.html"):
        assert _page_weight(page) < PAGE_LIMIT, page


def test_no_pending_orders_are_shown(service: Service, now: datetime, site: Path) -> None:
    """Orders sent for the turn not yet played are on no page, the seat's own included."""
    start(service, now, "temples-and-swords", referees=[REFEREE])
    now = play(service, now, 1)
    with transaction(service.db) as session:
        game = session.get(Game, "g1")
        assert game is not None and game.turn == 2

    secret_line = "TECH 1"
    receive(
        service,
        order_mail("g1", "alice", PASSWORDS["alice"], secret_line, message_id="p@example.org"),
        now=now,
    )
    write_site(service, site)
    assert not (site / "games" / "g1" / "turn-2.html").exists()
    seat_pages = (site / seat_path(service, "g1", "alice")).parent
    assert not (seat_pages / "turn-2.html").exists()
    desk = (site / desk_path(service, REFEREE)).read_text()
    assert "<td>alice</td><td>bob, cy</td>" in desk  # whose orders are in, and whose not
    assert secret_line not in desk


def test_the_chart_is_svg_and_an_old_png_chart_goes(
    service: Service, now: datetime, site: Path
) -> None:
    """The chart page shows an SVG chart drawn without matplotlib (a turn's write draws the
    chart again, and matplotlib's PNG was three quarters of its cost): a line for each seat
    through every turn played, in every panel; the PNG of an archive written before is gone
    after the next turn's write."""
    start(service, now, "tribes", referees=[REFEREE])
    now = play(service, now, 1)
    folder = write_site(service, site) / "games" / "g1"
    (folder / "chart.png").write_bytes(b"an old chart")
    play(service, now, 1)
    write_game(service, "g1")
    assert not (folder / "chart.png").exists()
    assert '<img src="chart.svg"' in (folder / "chart.html").read_text()
    svg = ElementTree.parse(folder / "chart.svg").getroot()
    lines = [line for line in svg.iter(f"{SVG}polyline") if len(line.get("points", "").split()) > 2]
    assert len(lines) == len(SEATS) * 3  # tribes: fame, population, military
    assert {len(line.get("points", "").split()) for line in lines} == {3}  # the start, 2 turns
    labels = {text.text for text in svg.iter(f"{SVG}text")}
    assert {seat.name for seat in SEATS} <= labels and "turn" in labels


def test_a_turns_public_summary_is_worked_out_once_for_all_its_pages(
    service: Service, now: datetime, site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The turn's page and every seat's page of it show the same public summary: one call,
    not one a seat."""
    start(service, now, "temples-and-swords", referees=[REFEREE])
    now = play(service, now, 1)
    write_site(service, site)
    play(service, now, 1)
    ruleset = get_ruleset("temples-and-swords")
    calls: list[int] = []
    summary = ruleset.public_summary

    def counted(state: dict[str, Any]) -> str:
        calls.append(1)
        return summary(state)

    monkeypatch.setattr(ruleset, "public_summary", counted)
    write_game(service, "g1", site)
    assert (site / "games" / "g1" / "turn-2.html").exists()
    # The turn's pages; the turn before only gains its link (it was one more call).
    assert len(calls) == 1


def test_one_games_write_reads_no_other_game_whole(
    service: Service, now: datetime, site: Path
) -> None:
    """After one game's turn the index lists every game from a column query, and the desk
    reads the games of the desks it draws: a big site's other games are not read whole."""
    start(service, now, "tribes", referees=[REFEREE])
    for other in ("g2", "g3"):
        start(service, now, "classical", game=other)
    now = play(service, now, 1)
    write_site(service, site)
    loaded: list[str] = []

    def seen(game: Game, _context: object) -> None:
        loaded.append(game.id)

    event.listen(Game, "load", seen)
    try:
        write_game(service, "g1", site)
    finally:
        event.remove(Game, "load", seen)
    assert set(loaded) == {"g1"}
    index = (site / "index.html").read_text()
    assert all(f'href="games/{game}/index.html"' in index for game in ("g1", "g2", "g3"))


def test_after_one_games_turn_the_index_draws_that_games_row_alone(
    service: Service, now: datetime, tmp_path: Path, site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 45, point 4: the index's thousand rows were drawn again after every game's turn
    (a fifth of the write at 1,000 games). Only the changed row is; the page is the same."""
    start(service, now, "tribes", referees=[REFEREE])
    for other in ("g2", "g3"):
        start(service, now, "classical", game=other)
    now = play(service, now, 1)
    write_site(service, site)
    play(service, now, 1)
    drawn: list[str] = []
    row_html = archive._row_html

    def counted(row: Any) -> str:
        drawn.append(row.id)
        return row_html(row)

    monkeypatch.setattr(archive, "_row_html", counted)
    write_game(service, "g1", site)
    assert drawn == ["g1"]
    archive._rows_drawn.clear()  # a process that drew none: every row drawn
    whole = write_site(service, tmp_path / "whole")
    assert sorted(drawn) == ["g1", "g1", "g2", "g3"]
    assert (site / "index.html").read_bytes() == (whole / "index.html").read_bytes()
    assert (
        '<a href="games/g1/index.html">g1</a></th><td>Tribes: a fragment completed</td>'
        "<td>running</td><td>3</td><td>3</td></tr>\n<tr>" in (site / "index.html").read_text()
    )


def test_a_seats_archived_report_states_no_deadline_it_was_not_sent(
    service: Service, now: datetime, site: Path
) -> None:
    """The fresh-eyes test of issue 43: a seat's turn-1 page said "Orders for turn 2 are due
    by X" with X the deadline turn 2 had when the page was written, not the one mailed (a
    moved deadline, or after a rollback's rerun the deadline of turn 3). The archived report
    leaves that line out and says where the deadline now is; the mail keeps it."""
    start(service, now, "temples-and-swords", referees=[REFEREE])
    now = play(service, now, 1)
    with transaction(service.db) as session:
        mailed = session.exec(
            select(Outbox).where(Outbox.recipient == "alice@example.org", Outbox.kind == "report")
        ).all()[-1]
    text = as_message(mailed.raw).get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert "Orders for turn 2 are due by" in text
    referee(service, now, "deadline", "extend", "6h")
    write_site(service, site)
    page = ((site / seat_path(service, "g1", "alice")).parent / "turn-1.html").read_text()
    assert "are due by" not in page
    assert "The deadline of turn 2 is left out of this page" in " ".join(page.split())
    # A forced turn, rolled back and rerun: the rerun opens turn 2 and 3 at one moment.
    referee(service, now, "process")
    referee(service, now, "rollback", "1")
    referee(service, now, "rerun")
    write_site(service, site / "fresh")
    pages = (site / "fresh" / seat_path(service, "g1", "alice")).parent
    for number in (1, 2):
        assert "are due by" not in (pages / f"turn-{number}.html").read_text()
