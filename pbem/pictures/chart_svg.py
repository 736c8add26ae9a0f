"""The campaign chart as SVG text, for the web archive: the same panels as the PNG.

The web archive draws a game's chart again after every turn. matplotlib took three quarters
of that write (about 0.4 s a chart, docs/operations.md "The web archive at 1,000 games"); this
writes the same picture as a few polylines and labels, in well under a millisecond, and the
browser draws it crisp at any size (a phone's width included). The mails keep the PNG
(pbem.pictures.chart): a mail reader shows an attached PNG everywhere, an attached SVG not.

One panel for each measure of the standings, the leading one on top and tallest; each seat
keeps its colour, marker and line style in every panel, so that seats are told apart without
colour (the legend shows all three).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from pbem.pictures.chart import History, measures_of
from pbem.pictures.palette import INK, PAPER, seat_colour

WIDTH = 720
LEFT, RIGHT = 64, 16  # room for the tick labels and the measure's name
TITLE = 28
LEGEND_ROW = 18
LEGEND_COLUMNS = 4
PANEL = 130  # the height of a small panel; the first is twice that
GAP = 14
BOTTOM = 44  # the turn labels and "turn"
MOST_TICKS = 6
DASHES = ("", "7 3", "9 3 2 3", "2 2")
# Each marker as a path around (0, 0), about 8 units across.
MARKERS = (
    "M-4 0a4 4 0 1 0 8 0a4 4 0 1 0-8 0Z",  # circle
    "M-3.5-3.5h7v7h-7Z",  # square
    "M0-4.5L4 3.5H-4Z",  # triangle
    "M0-4.5L4.5 0L0 4.5L-4.5 0Z",  # diamond
    "M0 4.5L4-3.5H-4Z",  # triangle down
    "M-4-2.5L-2.5-4L0-1.5L2.5-4L4-2.5L1.5 0L4 2.5L2.5 4L0 1.5L-2.5 4L-4 2.5L-1.5 0Z",  # cross
)


def campaign_svg(history: History) -> str:
    """The chart as an SVG document; the same history always gives the same text."""
    measures = measures_of(history.standings)
    legend = LEGEND_ROW * math.ceil(len(history.seats) / LEGEND_COLUMNS)
    heights = [2 * PANEL, *([PANEL] * (len(measures) - 1))]
    height = TITLE + legend + sum(heights) + GAP * (len(measures) - 1) + BOTTOM
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH}" height="{height}" font-family="sans-serif" font-size="12">',
        f"<title>{escape(history.title)}</title>",
        f'<rect width="{WIDTH}" height="{height}" fill="{PAPER}"/>',
        "<defs>",
        *(f'<path id="m{n}" d="{path}"/>' for n, path in enumerate(MARKERS)),
        "</defs>",
        f'<text x="{WIDTH / 2:g}" y="19" text-anchor="middle" font-size="15" '
        f'fill="{INK}">{escape(history.title)}</text>',
        *_legend(history.seats, TITLE),
    ]
    top = TITLE + legend
    for number, (measure, panel) in enumerate(zip(measures, heights, strict=True)):
        last = number == len(measures) - 1
        parts += _panel(history, measure, top, panel, labels=last)
        top += panel + GAP
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _legend(seats: Sequence[str], top: int) -> list[str]:
    column = (WIDTH - LEFT - RIGHT) / LEGEND_COLUMNS
    parts = []
    for index, seat in enumerate(seats):
        x = LEFT + column * (index % LEGEND_COLUMNS)
        y = top + LEGEND_ROW * (index // LEGEND_COLUMNS) + 10
        parts += [
            f'<polyline {_stroke(index)} points="{x:g},{y:g} {x + 28:g},{y:g}"/>',
            _marker(index, x + 14, y),
            f'<text x="{x + 34:g}" y="{y + 4:g}" fill="{INK}">{escape(seat)}</text>',
        ]
    return parts


def _panel(history: History, measure: str, top: int, height: int, *, labels: bool) -> list[str]:
    series = [
        [table.get(seat, {}).get(measure, 0) for table in history.standings]
        for seat in history.seats
    ]
    everything = [0, *(value for values in series for value in values)]
    low, high = min(everything), max(1, *everything)
    # As the PNG: from 0 (or below) and at least to 1, a little room above and below.
    bottom_value, top_value = low - 0.04 * (high - low), high + 0.06 * (high - low)
    first, final = history.turns[0], history.turns[-1]
    span = max(1, final - first)
    right = WIDTH - RIGHT

    def x_of(turn: float) -> float:
        return LEFT + (right - LEFT) * (turn - first) / span

    def y_of(value: float) -> float:
        return top + height - height * (value - bottom_value) / (top_value - bottom_value)

    parts = [
        f'<rect x="{LEFT}" y="{top}" width="{right - LEFT}" height="{height}" '
        f'fill="none" stroke="{INK}" stroke-width="0.8"/>'
    ]
    for tick in _ticks(low, high):
        y = y_of(tick)
        parts += [
            f'<line x1="{LEFT}" y1="{y:.1f}" x2="{right}" y2="{y:.1f}" '
            f'stroke="{INK}" stroke-opacity="0.15"/>',
            f'<text x="{LEFT - 5}" y="{y + 4:.1f}" text-anchor="end" fill="{INK}">{tick}</text>',
        ]
    for tick in _ticks(first, final):
        x = x_of(tick)
        parts.append(
            f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{top + height}" '
            f'stroke="{INK}" stroke-opacity="0.15"/>'
        )
        if labels:
            parts.append(
                f'<text x="{x:.1f}" y="{top + height + 16}" text-anchor="middle" '
                f'fill="{INK}">{tick}</text>'
            )
    middle = top + height / 2
    parts.append(
        f'<text x="16" y="{middle:g}" text-anchor="middle" fill="{INK}" '
        f'transform="rotate(-90 16 {middle:g})">{escape(measure)}</text>'
    )
    if labels:
        parts.append(
            f'<text x="{(LEFT + right) / 2:g}" y="{top + height + 34}" text-anchor="middle" '
            f'fill="{INK}">turn</text>'
        )
    every = max(1, len(history.turns) // 12)
    for index, values in enumerate(series):
        points = [
            (x_of(turn), y_of(value)) for turn, value in zip(history.turns, values, strict=True)
        ]
        line = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        parts.append(f'<polyline {_stroke(index)} points="{line}"/>')
        parts += [_marker(index, x, y) for x, y in points[::every]]
    return parts


def _stroke(index: int) -> str:
    dashes = DASHES[index % len(DASHES)]
    dashed = f' stroke-dasharray="{dashes}"' if dashes else ""
    return f'fill="none" stroke="{seat_colour(index)}" stroke-width="1.8"{dashed}'


def _marker(index: int, x: float, y: float) -> str:
    return (
        f'<use href="#m{index % len(MARKERS)}" x="{x:.1f}" y="{y:.1f}" '
        f'fill="{seat_colour(index)}" stroke="{INK}" stroke-width="0.5"/>'
    )


def _ticks(low: float, high: float) -> list[int]:
    """Whole numbers from low to high, at most MOST_TICKS of them, a step of 1, 2 or 5 times
    a power of ten."""
    span = max(1.0, high - low)
    step = 1
    while span / step > MOST_TICKS - 1:
        step = _next_step(step)
    start = math.ceil(low / step) * step
    return list(range(start, math.floor(high) + 1, step))


def _next_step(step: int) -> int:
    """1, 2, 5, 10, 20, 50..."""
    return step * 5 // 2 if str(step)[0] == "2" else step * 2
