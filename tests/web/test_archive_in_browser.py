"""The web archive as a reader's browser shows it: headless Chromium (tests/web/browser.py)
opens the site written for a bot-played game of each of the five rulesets, from its files and
through `pbem web serve`. Every page's pictures load and say what they show; the standings of
every turn page are those of that turn's report data as mailed; a seat's page holds the report
its mail held; every page fits a phone's width without scrolling sideways."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pbem.games.commitment import commitment
from pbem.games.service import Service
from pbem.web.archive import desk_path, seat_path, write_site
from tests.conftest import NOW, quick_settings
from tests.support.games import game_row, orders, turns
from tests.web.browser import Browser, file_url, served
from tests.web.games import (
    NAMES,
    RULESETS,
    play_to_end,
    report_json,
    report_of,
    report_text,
    start_game,
)
from tests.web.support import REFEREE, archive_service

TURNS = 3  # each game's turn limit
TOLERANCE = 1  # CSS pixels of sideways overflow a rounding may leave


@dataclass(frozen=True)
class Site:
    service: Service
    root: Path
    played: dict[str, int]  # each game's turns played (the game's id is its ruleset's)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    folder = tmp_path_factory.mktemp("archive")
    with archive_service(folder, quick_settings()) as service:
        played = {}
        for ruleset in RULESETS:
            start_game(service, NOW, ruleset, ruleset, turns=TURNS)
            played[ruleset] = play_to_end(service, NOW, ruleset)
        yield Site(service, write_site(service), played)


def _standings(table: list[list[str]]) -> dict[str, dict[str, int]]:
    """A standings table as the browser shows it, as the report data writes standings."""
    header, *rows = table
    measures = header[1:]
    return {
        seat: {measure: int(value) for measure, value in zip(measures, values, strict=True)}
        for seat, *values in rows
    }


def _pictures_shown(chromium: Browser) -> list[dict[str, Any]]:
    """Every picture of the page, each loaded (a natural width) and described (alt text)."""
    images = chromium.images()
    for image in images:
        assert image["naturalWidth"] > 0 and image["naturalHeight"] > 0, image
        assert (image["alt"] or "").strip(), image
    return images


def _fits_a_phone(chromium: Browser, url: str) -> None:
    with chromium.phone():
        chromium.open(url)
        assert chromium.overflow() <= TOLERANCE, url
        _pictures_shown(chromium)


_PLAYED = "Your orders as played"


def _section(chromium: Browser, heading: str) -> str:
    """The text of the <pre> in the page's section under `heading` ('' for none)."""
    found = chromium.run(
        "return Array.from(document.querySelectorAll('section'))"
        ".filter(s => s.querySelector('h2').innerText === arguments[0])"
        ".map(s => (s.querySelector('pre') || {innerText: ''}).innerText);",
        heading,
    )
    assert len(found) == 1, (heading, found)
    return str(found[0])


# The line of the next turn's deadline in a mailed report, and what a seat's page says in its
# place (the deadline may have moved since: docs/web.md).
_DUE = re.compile(r"^Orders for turn (\d+) are due by .*?\.$\n?", re.MULTILINE | re.DOTALL)
_NOTED = re.compile(
    r"^The deadline of turn (\d+) is left out of this page.*?being played\.$\n?",
    re.MULTILINE | re.DOTALL,
)


def _but_the_deadline(text: str, line: re.Pattern[str]) -> tuple[list[str], list[str]]:
    """The lines of a report without its deadline line, and the turn that line names."""
    return _lines(line.sub("", text)), line.findall(text)


def _lines(text: str) -> list[str]:
    """Text as lines without trailing blanks (a <pre>'s innerText against a mail's text)."""
    return [line.rstrip() for line in text.replace("\r\n", "\n").strip("\n").split("\n")]


def test_the_index_lists_every_game(chromium: Browser, site: Site) -> None:
    index = file_url(site.root / "index.html")
    chromium.open(index)
    links = chromium.links()
    assert all(f"games/{game}/index.html" in links for game in RULESETS)
    assert chromium.run("return document.styleSheets.length;") == 1  # style.css found
    assert chromium.run("return getComputedStyle(document.body).maxWidth;") != "none"
    _fits_a_phone(chromium, index)


@pytest.mark.parametrize("game", RULESETS)
def test_a_games_overview(chromium: Browser, site: Site, game: str) -> None:
    row = game_row(site.service, game)
    last = site.played[game]
    page = file_url(site.root / "games" / game / "index.html")
    chromium.open(page)
    text = chromium.text()
    assert commitment(row.seed, row.seed_salt) in text
    assert f"seed {row.seed}, salt {row.seed_salt}" in text  # revealed: the game has ended
    links = chromium.links()
    assert all(f"turn-{number}.html" in links for number in range(1, last + 1))
    assert "chart.html" in links
    [options] = chromium.tables("table.options")
    assert ["turn_limit", str(TURNS)] in options
    data = report_json(report_of(site.service, game, last, f"{NAMES[0]}@example.org"))
    [standings] = chromium.tables("table.standings")
    assert _standings(standings) == data["standings"]
    _fits_a_phone(chromium, page)

    chart = file_url(site.root / "games" / game / "chart.html")
    chromium.open(chart)
    [picture] = _pictures_shown(chromium)
    assert picture["src"] == "chart.svg"
    _fits_a_phone(chromium, chart)


@pytest.mark.parametrize("game", RULESETS)
def test_every_turn_page(chromium: Browser, site: Site, game: str) -> None:
    """Each turn page shows the map the report data describes, loaded and described, the
    standings of every seat's report data of that turn, and that turn's public events."""
    played = [turn.number for turn in turns(site.service, game) if turn.resolved_at]
    assert played == list(range(1, site.played[game] + 1))
    for number in played:
        page = file_url(site.root / "games" / game / f"turn-{number}.html")
        chromium.open(page)
        reports = [
            report_json(report_of(site.service, game, number, f"{name}@example.org"))
            for name in NAMES
        ]
        pictures = _pictures_shown(chromium)
        if reports[0]["map"] is not None:
            [picture] = pictures
            assert picture["src"] == f"turn-{number}.png"
            assert picture["alt"] == f"Map of game {game} after turn {number}"
            assert picture["naturalWidth"] >= 200  # a map, not a placeholder
        else:
            assert pictures == []
        [standings] = chromium.tables("table.standings")
        for data in reports:
            assert _standings(standings) == data["standings"], (number, data["seat"])
        public = [event for event in reports[0]["events"] if event["public"]]
        shown = chromium.run(
            "return Array.from(document.querySelectorAll('ul.events li'), li => li.innerText);"
        )
        assert len(shown) == len(public), number
        for line, event in zip(shown, public, strict=True):
            assert line.startswith(f"[{event['phase']}] " if event["phase"] else ""), line
        _fits_a_phone(chromium, page)


def test_a_map_on_a_phone_keeps_its_labels_readable_and_links_to_itself(
    chromium: Browser, site: Site
) -> None:
    """Issue 43, point 14: on a 390 px phone the map was shrunk to the screen (its labels
    unreadable) and was not a link to the full size. It now keeps its drawn size in a frame
    that scrolls sideways, the page itself still fits, and it links to the picture."""
    page = file_url(site.root / "games" / "temples-and-swords" / "turn-1.html")
    with chromium.phone():
        chromium.open(page)
        assert chromium.overflow() <= TOLERANCE
        [shown] = chromium.run(
            "return Array.from(document.querySelectorAll('figure img'), img => ["
            "img.getBoundingClientRect().width, img.naturalWidth,"
            "img.closest('a') && img.closest('a').getAttribute('href')]);"
        )
    width, natural, link = shown
    assert natural > 390 and abs(width - natural) <= TOLERANCE  # not shrunk to the phone
    assert link == "turn-1.png"


@pytest.mark.parametrize("game", RULESETS)
def test_a_seats_pages_hold_its_reports(chromium: Browser, site: Site, game: str) -> None:
    """Each seat's page of a turn holds the text of the report mailed to it for that turn,
    and its orders as it mailed them."""
    last = site.played[game]
    mailed_orders = {
        (row.seat, row.turn): row.text for row in orders(site.service) if row.game_id == game
    }
    for name in NAMES:
        index = site.root / seat_path(site.service, game, name)
        chromium.open(file_url(index))
        links = chromium.links()
        assert all(f"turn-{number}.html" in links for number in range(1, last + 1))
        for number in range(1, last + 1):
            page = file_url(index.parent / f"turn-{number}.html")
            chromium.open(page)
            _pictures_shown(chromium)
            assert chromium.run("return document.querySelector('meta[name=robots]').content;") == (
                "noindex"
            )
            report, played = _section(chromium, "Your report"), _section(chromium, _PLAYED)
            mailed = report_text(report_of(site.service, game, number, f"{name}@example.org"))
            assert _but_the_deadline(report, _NOTED) == _but_the_deadline(mailed, _DUE), (
                name,
                number,
            )
            assert f"report of turn {number} for {name}" in " ".join(report.split())
            if (name, number) in mailed_orders:  # a seat with a turn to play this turn
                assert _lines(played) == _lines(mailed_orders[name, number]), (name, number)
        _fits_a_phone(chromium, page)


def test_the_desk(chromium: Browser, site: Site) -> None:
    desk = site.root / desk_path(site.service, REFEREE)  # the referee of every game here
    chromium.open(file_url(desk))
    links = chromium.links()
    assert all(f"game-{game}.html" in links for game in RULESETS)
    games = {row[0]: row for row in chromium.tables("table")[0][1:]}
    assert set(games) == set(RULESETS)
    assert all(games[game][2] == "ended" for game in RULESETS)
    _fits_a_phone(chromium, file_url(desk))
    for game in RULESETS:
        page = file_url(desk.parent / f"game-{game}.html")
        chromium.open(page)
        text = chromium.text()
        assert "ref@example.org" in text
        assert all(f"{name}@example.org" in text for name in NAMES)
        _fits_a_phone(chromium, page)


def test_the_site_served_over_http_is_the_same(chromium: Browser, site: Site) -> None:
    """`pbem web serve` serves the folder: the index, a turn page with its map, a seat's page
    and its picture, each as the files show it; no folder listing gives a seat's link away."""
    game = "temples-and-swords"
    seat = seat_path(site.service, game, NAMES[0]).removesuffix("index.html")
    pages = [
        "index.html",
        f"games/{game}/index.html",
        f"games/{game}/turn-2.html",
        f"{seat}turn-2.html",
    ]
    seen = {}
    for page in pages:
        chromium.open(file_url(site.root / page))
        seen[page] = (chromium.text(), [image["naturalWidth"] for image in chromium.images()])
    argv = ["web", "serve", "--dir", str(site.root)]
    with served(argv, cwd=site.root.parent) as server:
        for page in pages:
            chromium.open(server.url + page)
            assert chromium.driver.current_url == server.url + page
            shown = (chromium.text(), [image["naturalWidth"] for image in chromium.images()])
            assert shown == seen[page], page
            assert all(width > 0 for width in shown[1]), page
        chromium.open(server.url)  # the folder's address: its index.html
        assert chromium.text() == seen["index.html"][0]
        chromium.open(f"{server.url}games/{game}/seats/")
        assert re.search(r"\b404\b", chromium.text()), chromium.text()
        assert seat.split("/")[-2] not in chromium.driver.page_source
