"""The clocks on the command line: the options of `pbem game new` and `pbem game pause|resume`.
pbem.cli wires them in; the defaults come from the [games] config section."""

from __future__ import annotations

import argparse
from datetime import timedelta

from pbem.clock.notices import when
from pbem.config import Settings
from pbem.deadlines.options import NMR_MODES, ClockOptions
from pbem.deadlines.policy import format_duration
from pbem.store import Game


def add_new_arguments(new: argparse.ArgumentParser) -> None:
    """The clock options of `pbem game new` (each defaults to its [games] setting)."""
    new.add_argument(
        "--timezone",
        help="the game's IANA zone, e.g. Europe/Berlin: weekly deadlines and absence dates are "
        "read, and deadlines shown, in it (default: [games] timezone; on UTC, the zone a weekly "
        "--deadline names)",
    )
    new.add_argument("--grace", help="resolve this long after the deadline, e.g. 2h")
    new.add_argument("--reminders", help="remind this long before the deadline: 24h,2h or none")
    new.add_argument("--nmr", choices=NMR_MODES, help="play a seat without orders so")
    new.add_argument("--abandon-after", type=int, metavar="N", help="misses in a row; 0: never")
    new.add_argument(
        "--wait-for-absent", action="store_true", help="turns wait for seats that are away"
    )


def options_from(args: argparse.Namespace, settings: Settings) -> ClockOptions:
    games = settings.games
    reminders = args.reminders if args.reminders is not None else ",".join(games.reminders)
    return ClockOptions(
        timezone=args.timezone or games.timezone,
        grace=args.grace or games.grace,
        reminders=reminders,
        nmr=args.nmr or games.nmr,
        abandon_after=args.abandon_after if args.abandon_after is not None else games.abandon_after,
        wait_for_absent=args.wait_for_absent or games.wait_for_absent,
    )


def describe(game: Game) -> str:
    """The clock options of `game` in one line, for `pbem game show`."""
    grace = format_duration(timedelta(seconds=game.grace_seconds))
    line = (
        f"clock: zone {game.timezone}, grace {grace}, reminders {game.reminders or 'none'}, "
        f"nmr {game.nmr}, abandon after {game.abandon_after or 'never'}, wait for absent "
        f"{'on' if game.wait_for_absent else 'off'}"
    )
    if game.paused_at is not None:
        line += f"\npaused since {when(game.paused_at)}"
    return line
