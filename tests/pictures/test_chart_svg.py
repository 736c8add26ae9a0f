"""The campaign chart as SVG (the web archive's): well-formed, a line for each seat through
every turn in every panel, each seat's name in the legend (escaped), higher values drawn
higher, the same text for the same history."""

from __future__ import annotations

import subprocess
import sys
from xml.etree import ElementTree

from engine.mapdata import Standings
from pbem.pictures.chart import History
from pbem.pictures.chart_svg import _ticks, campaign_svg

SVG = "{http://www.w3.org/2000/svg}"


def _history(seats: tuple[str, ...], turns: int) -> History:
    standings: list[Standings] = [
        {seat: {"VP": turn * (index + 1), "cities": index} for index, seat in enumerate(seats)}
        for turn in range(turns + 1)
    ]
    return History("g1: a <test> & more", seats, tuple(range(turns + 1)), tuple(standings))


def _lines(svg: ElementTree.Element) -> list[list[tuple[float, float]]]:
    found = []
    for line in svg.iter(f"{SVG}polyline"):
        points = [tuple(map(float, p.split(","))) for p in line.get("points", "").split()]
        found.append(points)
    return found


def test_every_seat_has_a_line_through_every_turn_in_every_panel() -> None:
    seats = ("ann", "bob", 'c<a>t&"')
    text = campaign_svg(_history(seats, 30))
    svg = ElementTree.fromstring(text)
    labels = [node.text for node in svg.iter(f"{SVG}text")]
    assert set(seats) <= set(labels)  # the odd name escaped, and read back whole
    assert "g1: a <test> & more" in labels and {"VP", "cities", "turn"} <= set(labels)
    lines = _lines(svg)
    legend, plotted = lines[: len(seats)], lines[len(seats) :]
    assert all(len(points) == 2 for points in legend)
    assert len(plotted) == 2 * len(seats) and all(len(points) == 31 for points in plotted)
    vp = plotted[: len(seats)]
    last_heights = [points[-1][1] for points in vp]  # y grows downwards
    assert last_heights == sorted(last_heights, reverse=True)  # bob above ann, cat above bob
    assert campaign_svg(_history(seats, 30)) == text


def test_the_ticks_are_whole_numbers_and_few() -> None:
    assert _ticks(0, 4) == [0, 1, 2, 3, 4]
    assert _ticks(0, 23) == [0, 5, 10, 15, 20]
    assert _ticks(0, 250) == [0, 50, 100, 150, 200, 250]
    assert _ticks(-3, 253) == [0, 100, 200]
    assert _ticks(1, 1) == [1]
    assert all(len(_ticks(0, top)) <= 6 for top in range(0, 2000, 7))


def test_the_web_archives_pictures_do_not_import_matplotlib() -> None:
    """The map's font is found without importing matplotlib, and the SVG chart draws without
    it: the import took a second of a process's first archive write."""
    script = (
        "import sys\n"
        "from pbem.pictures.palette import font\n"
        "from pbem.pictures.chart_svg import campaign_svg\n"
        "from pbem.pictures.chart import History\n"
        "font(12, bold=True).getlength('ann')\n"
        "campaign_svg(History('g1', ('ann',), (0, 1), ({'ann': {'VP': 0}}, {'ann': {'VP': 1}})))\n"
        "print('matplotlib' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.strip() == "False"
