"""The campaign's history as text: every seat's standings turn by turn (the numbers the
campaign chart draws, pbem.games.attachments.history), one table a measure, for the HISTORY
mail command.

A mail stays readable: at most PAGE rows of turns a mail (the reply says which turns to ask
for next), and no line past 72 columns: seats that do not fit beside each other go on into
a second block of the same rows, each block with the turn column."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pbem.pictures.chart import History, measures_of

WIDTH = 72
PAGE = 20  # rows of turns a mail
GAP = "  "  # between columns
START = "start"  # the row of the standings before the first turn


@dataclass(frozen=True)
class Page:
    """The rows of a history a mail shows, by their index in History.turns."""

    rows: range
    earlier: int | None  # the turn HISTORY <turn> starts the page before at; None: none
    later: int | None  # the turn the next page starts at; None: this is the last


def page(history: History, first: int | None) -> Page:
    """The PAGE rows from turn `first` on (the start, for turn 1 or before); without `first`,
    the last PAGE rows."""
    numbers = history.turns
    if first is None:
        start = max(0, len(numbers) - PAGE)
    else:
        start = 0 if first <= 1 else next(i for i, n in enumerate(numbers) if n >= first)
    rows = range(start, min(len(numbers), start + PAGE))
    earlier = max(1, numbers[max(0, start - PAGE)]) if start > 0 else None
    later = numbers[rows.stop] if rows.stop < len(numbers) else None
    return Page(rows, earlier, later)


def label(history: History, row: int) -> str:
    return START if row == 0 else str(history.turns[row])


def tables(history: History, rows: range) -> str:
    """One table a measure, the leading measure first: a row a turn, a column a seat."""
    blocks: list[str] = []
    for measure in _measures(history):
        blocks += ["", f"== {measure} =="] if blocks else [f"== {measure} =="]
        blocks += _measure_table(history, rows, measure)
    return "\n".join(blocks)


def _measures(history: History) -> list[str]:
    """The measures of the ruleset's standings, in its order (the leading one first), as the
    chart draws them; none when no table has a seat."""
    return measures_of(history.standings) if any(history.standings) else []


def _measure_table(history: History, rows: range, measure: str) -> list[str]:
    cells = {seat: [_cell(history, row, seat, measure) for row in rows] for seat in history.seats}
    widths = {seat: max(len(seat), *map(len, cells[seat])) for seat in history.seats}
    first = max(len("turn"), *(len(label(history, row)) for row in rows))
    lines: list[str] = []
    for group in _groups(history.seats, widths, first):
        if lines:
            lines.append("")  # the seats that did not fit beside the others
        lines.append(_line("turn", first, [(seat, widths[seat]) for seat in group]))
        for index, row in enumerate(rows):
            columns = [(cells[seat][index], widths[seat]) for seat in group]
            lines.append(_line(label(history, row), first, columns))
    return lines


def _cell(history: History, row: int, seat: str, measure: str) -> str:
    value = history.standings[row].get(seat, {}).get(measure)
    return "-" if value is None else str(value)


def _groups(seats: Sequence[str], widths: dict[str, int], first: int) -> list[list[str]]:
    """The seats in blocks that fit WIDTH beside the turn column; a seat name never shares
    a line it would push past WIDTH."""
    groups: list[list[str]] = [[]]
    used = first
    for seat in seats:
        need = len(GAP) + widths[seat]
        if groups[-1] and used + need > WIDTH:
            groups.append([])
            used = first
        groups[-1].append(seat)
        used += need
    return groups


def _line(head: str, first: int, columns: Sequence[tuple[str, int]]) -> str:
    return head.ljust(first) + "".join(GAP + text.rjust(width) for text, width in columns)
