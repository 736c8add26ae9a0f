"""The map picture and the campaign chart: real PNGs, small enough for mail, the same bytes for
the same game, and each seat's copy showing that seat's holdings as its own."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from engine import Ruleset, get_ruleset
from pbem.pictures import MapPicture, campaign_chart, map_picture
from pbem.pictures.chart import History
from pbem.pictures.palette import INK, PAPER
from tests.engine.contract.games import NAMES, case_id, played
from tests.engine.contract.test_map_data import MAPPED

MAIL_BOUND = 200_000  # bytes: "well under" this for an 8-seat map


def _view_state(ruleset: Ruleset, options: dict[str, Any], seats: int) -> dict[str, Any]:
    return played(ruleset, options, 5, seats=seats, max_turns=8)[-1].resolution.state


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _colours(png: bytes) -> set[tuple[int, int, int]]:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return {colour for _count, colour in image.getcolors(maxcolors=1 << 16) or []}


@pytest.mark.parametrize(("ruleset", "options", "seats"), MAPPED, ids=case_id)
def test_the_map_picture_is_a_small_png_the_same_every_time(
    ruleset: Ruleset, options: dict[str, Any], seats: int
) -> None:
    view = ruleset.map_view(_view_state(ruleset, options, seats), NAMES[0])
    assert view is not None
    png = map_picture(view)
    image = Image.open(io.BytesIO(png))
    image.load()  # decodes the whole picture: a broken PNG raises here
    assert image.format == "PNG"
    assert 500 <= image.width <= 1100, "wide enough to read, narrow enough for a phone to zoom"
    assert len(png) < MAIL_BOUND / 2
    assert map_picture(view) == png


@pytest.mark.parametrize(("ruleset", "options", "seats"), MAPPED[:6], ids=case_id)
def test_each_seat_sees_its_own_places_ringed_in_black(
    ruleset: Ruleset, options: dict[str, Any], seats: int
) -> None:
    view = ruleset.map_view(_view_state(ruleset, options, seats), "")
    assert view is not None
    drawn = MapPicture(view)
    owners = {place.owner for place in view.places if place.owner}
    for seat in owners:
        mine = drawn.png(seat)
        palette = Image.open(io.BytesIO(mine)).getpalette() or []
        entries = drawn.palette.entries
        ring = entries.index(drawn.colours.rings[seat])
        assert tuple(palette[3 * ring : 3 * ring + 3]) == _rgb(INK)
        you = entries.index(drawn.colours.you[seat])
        assert tuple(palette[3 * you : 3 * you + 3]) == _rgb(INK)
        for other in owners - {seat}:
            theirs = entries.index(drawn.colours.rings[other])
            assert tuple(palette[3 * theirs : 3 * theirs + 3]) == _rgb(drawn.colours.seats[other])
            their_you = entries.index(drawn.colours.you[other])
            assert tuple(palette[3 * their_you : 3 * their_you + 3]) == _rgb(PAPER)
    # The keys are drawn: every seat's ring shows in the pictures (none lost to quantizing).
    nobody = _colours(drawn.png(""))
    assert {_rgb(drawn.colours.seats[seat]) for seat in owners} <= nobody
    assert not {_rgb(key) for key in drawn.colours.rings.values()} & nobody


def test_the_seat_view_differs_from_the_view_of_no_seat_only_in_its_palette() -> None:
    ruleset, options, seats = MAPPED[0]
    view = ruleset.map_view(_view_state(ruleset, options, seats), "")
    assert view is not None
    drawn = MapPicture(view)
    seat, nobody = (
        Image.open(io.BytesIO(drawn.png(NAMES[0]))),
        Image.open(io.BytesIO(drawn.png(""))),
    )
    assert seat.tobytes() == nobody.tobytes()  # the same palette indices, pixel for pixel
    assert seat.getpalette() != nobody.getpalette()


@pytest.mark.parametrize("seats", [2, 8])
def test_the_campaign_chart_plots_every_seat_and_is_the_same_every_time(seats: int) -> None:
    ruleset = get_ruleset("tribes")
    game = played(ruleset, {}, 5, seats=seats, max_turns=12)
    history = History(
        title="g1: Tribes",
        seats=tuple(NAMES[:seats]),
        turns=tuple(turn.number for turn in game),
        standings=tuple(ruleset.standings(turn.resolution.state) for turn in game),
    )
    png = campaign_chart(history)
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.size == (720, 220 + 160 * 3)  # a panel for each of the three measures
    assert len(png) < MAIL_BOUND
    assert campaign_chart(history) == png
