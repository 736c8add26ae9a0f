"""The map as a PNG picture, drawn with Pillow from a ruleset's MapView (engine.mapdata).

Pillow rather than an SVG renderer: the map is a few hundred filled polygons, lines and short
labels, which Pillow draws directly into a small palette PNG, with no renderer process or
system library to install, and the same Pillow version always gives the same bytes.

What a place shows: its terrain as the ground colour; its holder as a thick ring of the
holder's colour inside its border and the holder's letter; the reader's own places with a
second, black ring; the label the orders use; buildings as letters; units as round badges in
their seat's colour with the count. The legend under the map says all of that in words.
"""

from __future__ import annotations

import io
import math
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw

from engine.mapdata import HEX, MapView, Place
from pbem.pictures.palette import (
    INK,
    PAPER,
    font,
    length,
    seat_colour,
    terrain_colour,
    text_on,
    write,
)

HEX_RADIUS = 32  # a hex's corner to its centre, in pixels
SQUARE = 46  # a square cell's side
MARGIN = 26  # room for the rulers
RING = 5  # the holder's ring
GRID_LINE = "#7A7A7A"
Point = tuple[float, float]


@dataclass(frozen=True)
class _Colours:
    seats: dict[str, str]  # seat name -> colour
    letters: dict[str, str]  # seat name -> letter
    # Each seat's inner ring and legend "(you)" are drawn in a colour of their own, so that
    # one drawing serves every seat: the palette shows the reader's in black (see _Palette).
    rings: dict[str, str]
    you: dict[str, str]


class MapPicture:
    """One turn's map, drawn and compressed once; the copy for each seat differs from the
    others only in its palette (the reader's rings and "(you)" in black), which costs
    nothing to change. So a turn's reports cost one drawing, not one a seat."""

    def __init__(self, view: MapView) -> None:
        names = [name for name, _letter in view.seats]
        self.palette = _palette(view.terrains, len(names))
        self.colours = _Colours(
            seats=dict(zip(names, self.palette.seats, strict=True)),
            letters=dict(view.seats),
            rings=dict(zip(names, self.palette.rings, strict=True)),
            you=dict(zip(names, self.palette.you, strict=True)),
        )
        self.png_bytes = _png(self._draw(view), self.palette)

    def _draw(self, view: MapView) -> Image.Image:
        board = _HexBoard(view) if view.grid == HEX else _SquareBoard(view)
        width = max(board.width, 560)
        legend = _legend(view, self.colours, width)
        height = board.height + MARGIN // 2 + round(legend[-1].y) + LEGEND_LINE + MARGIN // 2
        image = Image.new("RGB", (width, height), PAPER)
        draw = ImageDraw.Draw(image)
        board.draw(draw, self.colours)
        _draw_legend(draw, legend, board.height + MARGIN // 2)
        return image

    def png(self, reader: str) -> bytes:
        """The picture as `reader` sees it ('' for no seat)."""
        names = list(self.colours.seats)
        index = names.index(reader) if reader in names else None
        return _with_palette(self.png_bytes, self.palette.shown(index))


def map_picture(view: MapView) -> bytes:
    """The PNG bytes of the map as `view.reader` sees it, with its legend below."""
    return MapPicture(view).png(view.reader)


def _key(index: int, green_blue: str) -> str:
    """A colour nothing else is drawn in, standing for one seat's ring or "(you)". Keys are 8
    apart: Pillow maps colours to the palette through a cache of 6 bits a channel."""
    return f"#{8 * index:02X}{green_blue}"


@cache
def _palette(terrains: tuple[str, ...], seats: int) -> _Palette:
    """The palette depends only on the terrains and the number of seats: made once for each."""
    return _Palette(terrains, seats)


class _Palette:
    """The picture's colours: what is drawn, the shades at the edges of letters (text is
    smoothed against its ground), and one entry for each seat's ring and "(you)"."""

    def __init__(self, terrains: tuple[str, ...], seats: int) -> None:
        self.seats = [seat_colour(i) for i in range(seats)]
        self.rings = [_key(i, "FF00") for i in range(seats)]
        self.you = [_key(i, "00FF") for i in range(seats)]
        grounds = [PAPER, *(terrain_colour(t, terrains) for t in terrains), *self.seats]
        drawn = list(dict.fromkeys([PAPER, INK, GRID_LINE, *grounds]))
        # Shades between, for the smoothed edges of letters; none so near a drawn colour that
        # the drawn colour could come out as the shade.
        shades: list[str] = []
        for ground in grounds:
            for ink in (INK, PAPER):
                for share in (0.2, 0.4, 0.6, 0.8):
                    shade = _blend(ground, ink, share)
                    if min(_distance(shade, other) for other in drawn + shades) >= 12:
                        shades.append(shade)
        keys = [*self.rings, *self.you]
        self.entries = [*drawn, *shades[: 256 - len(drawn) - len(keys)], *keys]
        self.quantizer = self.image()
        self.found: dict[str, str] = {}

    def image(self) -> Image.Image:
        """A palette image for Image.quantize: every pixel goes to its nearest entry."""
        image = Image.new("P", (1, 1))
        image.putpalette(_flat(self.entries + [PAPER] * (256 - len(self.entries))))
        return image

    def shown(self, reader: int | None) -> bytes:
        """The PLTE data as seat number `reader` sees it (None: no seat): rings in their
        seat's colour, the reader's in black; "(you)" only after the reader's name."""
        shown = list(self.entries)
        for index, (ring, you) in enumerate(zip(self.rings, self.you, strict=True)):
            mine = index == reader
            shown[shown.index(ring)] = INK if mine else self.mapped(self.seats[index])
            shown[shown.index(you)] = INK if mine else self.mapped(PAPER)
        return bytes(_flat(shown + [PAPER] * (256 - len(shown))))

    def mapped(self, colour: str) -> str:
        """The entry `colour` is drawn as: Pillow maps colours to a palette through a cache
        of boxes of nearby colours, so white may come out as the nearest shade of it."""
        if colour not in self.found:
            pixel = Image.new("RGB", (1, 1), colour)
            index = pixel.quantize(palette=self.quantizer, dither=Image.Dither.NONE).getpixel(
                (0, 0)
            )
            assert isinstance(index, int)
            self.found[colour] = self.entries[index] if index < len(self.entries) else PAPER
        return self.found[colour]


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _distance(one: str, other: str) -> int:
    return max(abs(a - b) for a, b in zip(_rgb(one), _rgb(other), strict=True))


def _blend(ground: str, ink: str, share: float) -> str:
    mixed = (round(g + (i - g) * share) for g, i in zip(_rgb(ground), _rgb(ink), strict=True))
    return "#" + "".join(f"{value:02X}" for value in mixed)


def _flat(colours: list[str]) -> list[int]:
    return [value for colour in colours for value in _rgb(colour)]


def _png(image: Image.Image, palette: _Palette) -> bytes:
    small = image.quantize(palette=palette.quantizer, dither=Image.Dither.NONE)
    out = io.BytesIO()
    # Level 3: much quicker than the default 6 for a few more bytes, well within a mail
    # (docs/measurements.md, "What the code's choices rest on").
    small.save(out, format="PNG", compress_level=3)
    return out.getvalue()


def _with_palette(png: bytes, plte: bytes) -> bytes:
    """The same PNG with another PLTE chunk (the image data is indices into it)."""
    at = png.index(b"PLTE") - 4
    length = int.from_bytes(png[at : at + 4], "big")
    assert len(plte) >= length, "a palette as long as the picture's"
    chunk = b"PLTE" + plte[:length]
    crc = zlib.crc32(chunk).to_bytes(4, "big")
    return png[:at] + length.to_bytes(4, "big") + chunk + crc + png[at + 12 + length :]


class _Board:
    """What both grids share: the places, and drawing what stands on a place."""

    width: int
    height: int

    def __init__(self, view: MapView) -> None:
        self.view = view

    def draw(self, draw: ImageDraw.ImageDraw, colours: _Colours) -> None:
        raise NotImplementedError

    def _contents(
        self, draw: ImageDraw.ImageDraw, place: Place, centre: Point, colours: _Colours, room: float
    ) -> None:
        """Label at the top, holder and figure in the middle, buildings and units below."""
        x, y = centre
        # A figure is the population, shown with the holder ("B3"); a word (a resource) goes
        # with the label ("F7 Wi").
        figure = place.note if place.note.isdigit() else ""
        label = place.label if figure or not place.note else f"{place.label} {place.note}"
        write(draw, (x, y - room * 0.57), label, 10)
        holder = colours.letters[place.owner] if place.owner else ""
        if holder or figure:
            middle = f"{holder}{figure}"
            write(draw, (x, y - room * 0.17), middle, 14, bold=True)
        symbols = dict(self.view.marks)
        built = "".join(symbols.get(mark, "?") for mark in place.marks)
        if len(built) > 5:  # as the text map: four and a '+'
            built = built[:4] + "+"
        if built:
            write(draw, (x, y + room * 0.23), built, 10, bold=True)
        self._troops(draw, place, (x, y + room * 0.66), colours)

    def _troops(
        self, draw: ImageDraw.ImageDraw, place: Place, at: Point, colours: _Colours
    ) -> None:
        badges = [t for t in place.troops if t.count]
        size = 8
        start = at[0] - (len(badges) - 1) * size
        for i, troops in enumerate(badges):
            cx, cy = start + 2 * size * i, at[1]
            colour = colours.seats[troops.seat]
            box = (cx - size, cy - size, cx + size, cy + size)
            shape = draw.ellipse if troops.kind == "army" else draw.rectangle
            shape(box, fill=colour, outline=INK, width=1)
            count = str(troops.count) if troops.count < 100 else "99+"
            write(draw, (cx, cy), count, 10, bold=True, fill=text_on(colour))


class _HexBoard(_Board):
    """Pointy-top hexes in odd-r rows, as the text map lays them out."""

    def __init__(self, view: MapView) -> None:
        super().__init__(view)
        self.step = math.sqrt(3) * HEX_RADIUS
        self.width = round(2 * MARGIN + self.step * (view.width + 0.5))
        self.height = round(2 * MARGIN + HEX_RADIUS * (1.5 * view.height + 0.5))

    def centre(self, col: int, row: int) -> Point:
        x = MARGIN + self.step * (col + 0.5 + 0.5 * (row % 2))
        return x, MARGIN + HEX_RADIUS * (1 + 1.5 * row)

    def corners(self, col: int, row: int, inset: float = 0) -> list[Point]:
        x, y = self.centre(col, row)
        radius = HEX_RADIUS - inset
        return [
            (x + radius * math.cos(math.radians(a)), y + radius * math.sin(math.radians(a)))
            for a in range(-90, 270, 60)
        ]

    def draw(self, draw: ImageDraw.ImageDraw, colours: _Colours) -> None:
        for place in self.view.places:
            col, row = place.cells[0]
            ground = terrain_colour(place.terrain, self.view.terrains)
            draw.polygon(self.corners(col, row), fill=ground, outline=GRID_LINE, width=1)
            if place.owner:
                ring = self.corners(col, row, inset=RING / 2 + 1)
                draw.polygon(ring, outline=colours.seats[place.owner], width=RING)
                inner = self.corners(col, row, inset=RING + 2)
                draw.polygon(inner, outline=colours.rings[place.owner], width=2)
            self._contents(draw, place, self.centre(col, row), colours, HEX_RADIUS)
        self._rulers(draw)

    def _rulers(self, draw: ImageDraw.ImageDraw) -> None:
        for col in range(self.view.width):
            x = self.centre(col, 0)[0]
            letter = column_name(col)
            write(draw, (x, MARGIN / 2), letter, 12, bold=True)
            write(draw, (x, self.height - MARGIN / 2), letter, 12, bold=True)
        for row in range(self.view.height):
            y = self.centre(0, row)[1]
            write(draw, (MARGIN / 2, y), str(row + 1), 12, bold=True)


class _SquareBoard(_Board):
    """Territories of several square cells each: each drawn as the shape its cells make."""

    def __init__(self, view: MapView) -> None:
        super().__init__(view)
        self.width = 2 * MARGIN + SQUARE * view.width
        self.height = 2 * MARGIN + SQUARE * view.height
        self.owner_of = {cell: place for place in view.places for cell in place.cells}

    def box(self, col: int, row: int) -> tuple[float, float, float, float]:
        x, y = MARGIN + SQUARE * col, MARGIN + SQUARE * row
        return x, y, x + SQUARE, y + SQUARE

    def draw(self, draw: ImageDraw.ImageDraw, colours: _Colours) -> None:
        for place in self.view.places:
            ground = terrain_colour(place.terrain, self.view.terrains)
            for col, row in place.cells:
                draw.rectangle(self.box(col, row), fill=ground)
        for place in self.view.places:
            if place.owner:
                self._ring(draw, place, colours.seats[place.owner], RING / 2 + 1, RING)
                self._ring(draw, place, colours.rings[place.owner], RING + 2, 2)
        for place in self.view.places:
            for col, row in place.cells:
                for side in _edges(self.box(col, row)):
                    self._border(draw, place, (col, row), side)
        for place in self.view.places:
            x0, y0, _x1, _y1 = self.box(*place.cells[0])
            # The label's cell is the top left of the block the territory grew from.
            centre = (x0 + SQUARE, y0 + SQUARE * 0.8)
            self._contents(draw, place, centre, colours, SQUARE * 0.8)
        self._rulers(draw)

    def _neighbour(self, cell: tuple[int, int], side: int) -> Place | None:
        dc, dr = ((0, -1), (1, 0), (0, 1), (-1, 0))[side]
        return self.owner_of.get((cell[0] + dc, cell[1] + dr))

    def _border(
        self, draw: ImageDraw.ImageDraw, place: Place, cell: tuple[int, int], side: _Side
    ) -> None:
        other = self._neighbour(cell, side.index)
        if other is place:
            return
        sea = self.view.sea
        if other is not None and place.terrain in sea and other.terrain in sea:
            draw.line(side.points, fill=GRID_LINE, width=1)  # sea to sea: a thin line
        else:
            draw.line(side.points, fill=INK, width=2)

    def _ring(
        self, draw: ImageDraw.ImageDraw, place: Place, colour: str, inset: float, width: int
    ) -> None:
        """A line along the inside of the territory's outline."""
        for col, row in place.cells:
            x0, y0, x1, y1 = self.box(col, row)
            inner = (x0 + inset, y0 + inset, x1 - inset, y1 - inset)
            for side in _edges(inner):
                if self._neighbour((col, row), side.index) is not place:
                    draw.line(
                        _stretch(side, inset, place, self, (col, row)), fill=colour, width=width
                    )

    def _rulers(self, draw: ImageDraw.ImageDraw) -> None:
        for col in range(self.view.width):
            x = MARGIN + SQUARE * (col + 0.5)
            letter = column_name(col)
            write(draw, (x, MARGIN / 2), letter, 12, bold=True)
            write(draw, (x, self.height - MARGIN / 2), letter, 12, bold=True)
        for row in range(self.view.height):
            y = MARGIN + SQUARE * (row + 0.5)
            write(draw, (MARGIN / 2, y), str(row + 1), 12, bold=True)


@dataclass(frozen=True)
class _Side:
    index: int  # 0 top, 1 right, 2 bottom, 3 left
    points: tuple[Point, Point]


def _edges(box: tuple[float, float, float, float]) -> Iterator[_Side]:
    x0, y0, x1, y1 = box
    yield _Side(0, ((x0, y0), (x1, y0)))
    yield _Side(1, ((x1, y0), (x1, y1)))
    yield _Side(2, ((x0, y1), (x1, y1)))
    yield _Side(3, ((x0, y0), (x0, y1)))


def _stretch(
    side: _Side, inset: float, place: Place, board: _SquareBoard, cell: tuple[int, int]
) -> Sequence[Point]:
    """An inset edge runs on to the cell's border where the territory goes on that way, so
    that the ring is one unbroken line along the outline."""
    (ax, ay), (bx, by) = side.points
    before, after = (3, 1) if side.index in (0, 2) else (0, 2)
    if board._neighbour(cell, before) is place:
        ax, ay = (ax - inset, ay) if side.index in (0, 2) else (ax, ay - inset)
    if board._neighbour(cell, after) is place:
        bx, by = (bx + inset, by) if side.index in (0, 2) else (bx, by + inset)
    return ((ax, ay), (bx, by))


def column_name(col: int) -> str:
    return chr(ord("A") + col)


# -- the legend ------------------------------------------------------------------------------
LEGEND_LINE = 22
YOU = " (you)"


@dataclass(frozen=True)
class _Item:
    """One thing of the legend: a swatch (fill set) with its words, or a line of text."""

    x: float
    y: float
    text: str
    fill: str = ""
    bold: bool = False
    you: str = ""  # the key colour of "(you)" after a seat's name (see _Colours)


def _legend(view: MapView, colours: _Colours, width: int) -> list[_Item]:
    """The legend laid out within `width`, from y = 0 down."""
    items: list[_Item] = []
    x, y = float(MARGIN), 0.0

    def swatch(text: str, fill: str, bold: bool, you: str = "") -> None:
        nonlocal x, y
        size = length(text + (YOU if you else ""), 12, bold) + 26
        if x + size > width - MARGIN:
            x, y = MARGIN, y + LEGEND_LINE
        items.append(_Item(x, y, text, fill, bold, you))
        x += size + 10

    for name, letter in view.seats:
        swatch(f"{letter} {name}", colours.seats[name], True, colours.you[name])
    x, y = MARGIN, y + LEGEND_LINE
    for terrain in view.terrains:
        swatch(terrain, terrain_colour(terrain, view.terrains), False)
    marks = "  ".join(f"{symbol} {word}" for word, symbol in view.marks)
    lines = [
        "Ring and letter: who holds a place (black inner ring: you); the figure beside the "
        "letter: its population or resource.",
        f"Built: {marks}." if marks else "",
        "Round badge: an army and its units; square badge: ships or a fleet.",
    ]
    for line in filter(None, lines):
        for part in _wrapped(line, width):
            y += LEGEND_LINE
            items.append(_Item(MARGIN, y, part))
    return items


def _wrapped(text: str, width: int) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        longer = f"{lines[-1]} {word}" if lines else word
        if lines and length(longer, 12) <= width - 2 * MARGIN:
            lines[-1] = longer
        else:
            lines.append(word)
    return lines


def _draw_legend(draw: ImageDraw.ImageDraw, items: list[_Item], top: float) -> None:
    for item in items:
        x, y = item.x, top + item.y
        if item.fill:
            draw.rectangle((x, y, x + 16, y + 16), fill=item.fill, outline=INK)
            x += 20
        write(draw, (x, y + 8), item.text, 12, bold=item.bold, anchor="lm")
        if item.you:
            # Unsmoothed, so that every pixel of it is the key colour the palette shows.
            draw.fontmode = "1"
            at = x + length(item.text, 12, item.bold)
            draw.text((at, y + 8), YOU, font=font(12, True), fill=item.you, anchor="lm")
            draw.fontmode = "L"
