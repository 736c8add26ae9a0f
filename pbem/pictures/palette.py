"""Colours and the font the pictures share.

Seats take the Okabe-Ito colours, which stay distinct for the common kinds of colour blindness,
and every seat's colour comes with its letter (and, on the chart, its own marker and line
style), so that no reader has to tell seats apart by colour alone.
"""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

# Okabe & Ito (2008), without black, which the borders and text use; then two more for 9-12
# seats, told apart by their letters.
SEAT_COLOURS = (
    "#E69F00",  # orange
    "#56B4E9",  # sky blue
    "#009E73",  # bluish green
    "#F0E442",  # yellow
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#CC79A7",  # reddish purple
    "#999999",  # grey
    "#8C564B",  # brown
    "#332288",  # indigo
    "#117733",  # dark green
    "#882255",  # wine
)

# Pale grounds, so that the seats' colours and the black text stand out on them.
TERRAIN_COLOURS = {
    "grassland": "#DCEBC4",
    "desert": "#F3E6C4",
    "land": "#EDE8DA",
    "sea": "#C9DFF2",
    "wood": "#C4DBB4",
    "stone": "#DADADA",
    "ore": "#E3D3D6",
    "game": "#E9F0C0",  # Tribes' hunting grounds, its food sites
}
OTHER_TERRAINS = ("#E6E0F0", "#F0E0E6", "#E0F0EC")  # a terrain a ruleset adds later
INK = "#222222"
PAPER = "#FFFFFF"


def seat_colour(index: int) -> str:
    return SEAT_COLOURS[index % len(SEAT_COLOURS)]


def terrain_colour(terrain: str, terrains: tuple[str, ...]) -> str:
    if terrain in TERRAIN_COLOURS:
        return TERRAIN_COLOURS[terrain]
    return OTHER_TERRAINS[terrains.index(terrain) % len(OTHER_TERRAINS)]


def text_on(colour: str) -> str:
    """Black or white, whichever reads better on `colour`."""
    red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return INK if 0.299 * red + 0.587 * green + 0.114 * blue > 140 else PAPER


def _font_file(bold: bool) -> Path:
    # DejaVu Sans as matplotlib ships it: the same file on every machine with the same
    # matplotlib, so the same pictures, whatever fonts the system has. Found without
    # importing matplotlib (matplotlib.get_data_path() is its package's mpl-data): the
    # import took a second of a process's first map, which the web archive draws without it.
    spec = importlib.util.find_spec("matplotlib")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("matplotlib, whose DejaVu Sans the pictures use")
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return Path(spec.submodule_search_locations[0]) / "mpl-data" / "fonts" / "ttf" / name


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(_font_file(bold)), size)


@cache
def length(text: str, size: int, bold: bool = False) -> float:
    """How wide `text` is drawn, in pixels (the legend lays itself out by it)."""
    return float(font(size, bold).getlength(text))


def write(
    draw: ImageDraw.ImageDraw,
    at: tuple[float, float],
    text: str,
    size: int,
    *,
    bold: bool = False,
    fill: str = INK,
    anchor: str = "mm",
) -> None:
    """Text as ImageDraw.text draws it, from a cache of the letters already drawn: a map has
    the same few hundred labels turn after turn, and drawing them again was most of its cost."""
    mask, left, top = _lettering(text, size, bold, anchor)
    draw.bitmap((round(at[0]) + left, round(at[1]) + top), mask, fill=fill)


@cache
def _lettering(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    left, top, right, bottom = (int(v) for v in font(size, bold).getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)))
    ImageDraw.Draw(mask).text((-left, -top), text, fill=255, font=font(size, bold), anchor=anchor)
    return mask, left, top
