"""The campaign chart: every seat's standing turn by turn, drawn with matplotlib.

One panel for each measure the ruleset gives (engine.mapdata.Standings: VP, population,
cities...), the leading one on top and tallest. Each seat keeps its colour, marker and line
style in every panel, so that seats are told apart without colour.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.mapdata import Standings
from pbem.pictures.palette import seat_colour

if TYPE_CHECKING:
    from matplotlib.axes import Axes

MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "h", "<", ">", "p")
STYLES = ("-", "--", "-.", ":")


@dataclass(frozen=True)
class History:
    """The standings after each turn, and the seats in the order the legend lists them."""

    title: str
    seats: tuple[str, ...]
    turns: tuple[int, ...]
    standings: tuple[Standings, ...]  # one for each of `turns`


def campaign_chart(history: History) -> bytes:
    """The PNG bytes of the chart; the same history always gives the same bytes."""
    # Loaded only when a chart is drawn: matplotlib takes a second or more to import.
    import matplotlib  # noqa: PLC0415

    matplotlib.use("Agg")  # no display: bytes only
    from matplotlib.figure import Figure  # noqa: PLC0415 - after use("Agg"), as above

    measures = measures_of(history.standings)
    heights = [2, *([1] * (len(measures) - 1))]
    figure = Figure(figsize=(7.2, 2.2 + 1.6 * len(measures)), dpi=100)
    axes = figure.subplots(len(measures), 1, sharex=True, gridspec_kw={"height_ratios": heights})
    panels = [axes] if len(measures) == 1 else list(axes)
    for panel, measure in zip(panels, measures, strict=True):
        _panel(panel, history, measure)
    panels[0].set_title(history.title, fontsize=11)
    panels[0].legend(loc="upper left", fontsize=8, ncols=min(4, len(history.seats)))
    panels[-1].set_xlabel("turn")
    # Fixed margins: tight_layout finds about the same at a cost that shows in a wave of
    # charts (docs/measurements.md, "What the code's choices rest on").
    inches = figure.get_figheight()
    figure.subplots_adjust(
        left=0.1, right=0.97, top=1 - 0.45 / inches, bottom=0.55 / inches, hspace=0.12
    )
    out = io.BytesIO()
    # No creation date or software version in the file: the same bytes for the same chart.
    figure.savefig(out, format="png", metadata={"Software": None})
    return out.getvalue()


def measures_of(standings: Sequence[Standings]) -> list[str]:
    """The measures the standings give, the leading one first."""
    for table in standings:
        for measures in table.values():
            return list(measures)
    return ["score"]


def _panel(panel: Axes, history: History, measure: str) -> None:
    everything = [0]
    for index, seat in enumerate(history.seats):
        values = [table.get(seat, {}).get(measure, 0) for table in history.standings]
        everything += values
        panel.plot(
            history.turns,
            values,
            label=seat,
            color=seat_colour(index),
            marker=MARKERS[index % len(MARKERS)],
            markersize=4,
            markevery=max(1, len(values) // 12),
            linestyle=STYLES[index % len(STYLES)],
            linewidth=1.6,
        )
    from matplotlib.ticker import MaxNLocator  # noqa: PLC0415 - matplotlib, as above

    panel.yaxis.set_major_locator(MaxNLocator(integer=True))
    panel.xaxis.set_major_locator(MaxNLocator(integer=True))
    # From 0 (or below, if a measure goes negative) and at least to 1, so that a measure
    # nobody has yet scores a flat line at 0, not an axis of fractions around it.
    low, high = min(everything), max(1, *everything)
    panel.set_ylim(low - 0.04 * (high - low), high + 0.06 * (high - low))
    panel.set_ylabel(measure)
    panel.grid(True, alpha=0.3)
