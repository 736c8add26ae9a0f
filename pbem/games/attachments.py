"""What goes with a report besides its text: the map picture, the campaign chart every few
turns and at the end, and the report's data as JSON (pbem.games.report_data).

The game's options (pictures, report_data, chart_every) and each seat's SET PICTURES and SET
DATA say which. The map is drawn once a turn for all its reports (pbem.pictures.MapPicture);
the chart once for all the mails that carry it.
"""

from __future__ import annotations

from typing import Any

from engine import Ruleset, get_ruleset
from pbem.games.report_data import as_bytes, map_of, report_data
from pbem.games.resolved import ResolvedTurn
from pbem.mail.compose import Attachment
from pbem.pictures import MapPicture, campaign_chart
from pbem.pictures.chart import History
from pbem.store import Game, Seat, Turn, loads
from pbem.store.work import Work

PNG = "image/png"
JSON = "application/json"


def report_attachments(work: Work, view: ResolvedTurn, seat: Seat) -> tuple[Attachment, ...]:
    game, number = view.game, view.turn.number
    found: list[Attachment] = []
    if game.pictures and seat.pictures:
        picture = map_picture(view)
        if picture is not None:
            name = f"map-{game.id}-{number}-{seat.name}.png"
            found.append(Attachment(name, PNG, picture.png(seat.name)))
        if game.chart_every and number % game.chart_every == 0:
            found += _chart(work, view)
    if game.report_data and seat.report_data:
        data = as_bytes(report_data(view, seat.name))
        found.append(Attachment(f"report-{game.id}-{number}-{seat.name}.json", JSON, data))
    return tuple(found)


class StartPictures:
    """The map of the game's start for every seat's start mail, drawn once."""

    def __init__(self, game: Game, state: dict[str, Any]) -> None:
        self.game = game
        view = get_ruleset(game.ruleset).map_view(state, "") if game.pictures else None
        self.drawn = MapPicture(view) if view is not None else None

    def for_seat(self, seat: Seat) -> tuple[Attachment, ...]:
        if self.drawn is None or not seat.pictures:
            return ()
        name = f"map-{self.game.id}-start-{seat.name}.png"
        return (Attachment(name, PNG, self.drawn.png(seat.name)),)


class EndPictures:
    """The final map (drawn once, each reader's copy by its palette) and the chart of the
    whole game, for every game-end mail."""

    def __init__(self, work: Work, game: Game, turn: Turn) -> None:
        self.game, self.number = game, turn.number
        self.drawn: MapPicture | None = None
        self.chart: bytes | None = None
        if not game.pictures:
            return
        ruleset = get_ruleset(game.ruleset)
        view = ruleset.map_view(loads(turn.state_after or turn.state_before), "")
        self.drawn = MapPicture(view) if view is not None else None
        self.chart = chart_png(work, game, ruleset)

    def for_reader(self, reader: str, *, pictures: bool) -> tuple[Attachment, ...]:
        """What `reader` ('' for a referee: the view of no seat) gets, if they take pictures."""
        if not pictures:
            return ()
        found = []
        if self.drawn is not None:
            name = f"map-{self.game.id}-final{'-' + reader if reader else ''}.png"
            found.append(Attachment(name, PNG, self.drawn.png(reader)))
        if self.chart is not None:
            found.append(Attachment(f"chart-{self.game.id}-{self.number}.png", PNG, self.chart))
        return tuple(found)


def map_picture(view: ResolvedTurn) -> MapPicture | None:
    """The turn's map, drawn once for every report of the turn and page of the archive."""
    if "map" not in view.drawn:
        mapped = map_of(view)
        view.drawn["map"] = MapPicture(mapped) if mapped is not None else None
    picture: MapPicture | None = view.drawn["map"]
    return picture


def _chart(work: Work, view: ResolvedTurn) -> tuple[Attachment, ...]:
    """The campaign chart, drawn once for all the turn's reports; none for a ruleset that
    gives no standings."""
    if "chart" not in view.drawn:
        view.drawn["chart"] = chart_png(work, view.game, view.ruleset)
    drawn: bytes | None = view.drawn["chart"]
    name = f"chart-{view.game.id}-{view.turn.number}.png"
    return (Attachment(name, PNG, drawn),) if drawn else ()


def history(work: Work, game: Game, ruleset: Ruleset) -> History | None:
    """Every seat's standing at the start and after each resolved turn."""
    turns = work.games.played_turns(game.id)
    if not turns:
        return None
    start = ruleset.standings(loads(turns[0].state_before))
    if not start:
        return None
    after = [ruleset.standings(loads(turn.state_after or "{}")) for turn in turns]
    return History(
        title=f"{game.id}: {ruleset.title}",
        seats=tuple(start),
        turns=(turns[0].number - 1, *(turn.number for turn in turns)),
        standings=(start, *after),
    )


def chart_png(work: Work, game: Game, ruleset: Ruleset) -> bytes | None:
    found = history(work, game, ruleset)
    return campaign_chart(found) if found is not None else None
