"""`pbem game chart GAME [--out FILE]`: the campaign chart the players get every few turns and
at the end (pbem.games.attachments), drawn for a referee now."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from engine import get_ruleset
from pbem.errors import UsageError
from pbem.games.attachments import chart_png
from pbem.games.games import find_game
from pbem.games.service import Service


def add_chart_parser(
    game: argparse._SubParsersAction[argparse.ArgumentParser],
    handler: Callable[[argparse.Namespace], int],
) -> None:
    text = "draw the campaign chart: every seat's standing turn by turn, as a PNG"
    chart = game.add_parser("chart", help=text, description=text)
    chart.set_defaults(handler=handler)
    chart.add_argument("id", help="the game's id")
    chart.add_argument("--out", type=Path, help="write it here (default: chart-GAME.png)")


def run_chart(service: Service, args: argparse.Namespace) -> int:
    with service.store.transaction() as work:
        game = find_game(work, args.id)
        if game is None:
            raise UsageError(f"there is no game {args.id}")
        picture = chart_png(work, game, get_ruleset(game.ruleset))
        game_id = game.id
    if picture is None:
        raise UsageError(f"game {game_id} has no turn played yet, or its ruleset no standings")
    out = args.out or Path(f"chart-{game_id}.png")
    out.write_bytes(picture)
    print(f"the chart of game {game_id} written to {out}")
    return 0
