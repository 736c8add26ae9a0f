"""`pbem referee GAME COMMAND [ARGS...] --reason "..." [--as ADDRESS]`: the same commands as
referee mail, run in one transaction."""

from __future__ import annotations

import argparse
import uuid
from collections.abc import Callable
from datetime import datetime

from pbem.games.service import Service
from pbem.intake.command_table import find_referee_command, referee_commands
from pbem.intake.dispatch import handle_stored
from pbem.referee.command import RefereeError, run_command
from pbem.referee.context import RefereeContext
from pbem.referee.roles import is_referee


def add_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    handler: Callable[[argparse.Namespace], int],
) -> None:
    listing = "\n".join(
        f"  {c.name} {c.usage}".rstrip() + f"\n      {c.summary}"
        for c in referee_commands().values()
    )
    parser = sub.add_parser(
        "referee",
        help="referee commands: correct, roll back, rerun, replace, pause... (docs/referee.md)",
        description="Run a referee command on a game. Every use is audited with its reason, "
        "but audit's: it reads the audit log and changes nothing.",
        epilog=f"commands:\n{listing}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.set_defaults(handler=handler)
    parser.add_argument("game")
    parser.add_argument("name", metavar="COMMAND", choices=sorted(referee_commands()))
    parser.add_argument("args", nargs="*", metavar="ARG")
    # Not required here: `audit` needs none; every other command refuses to run without one.
    parser.add_argument(
        "--reason", default="", help="why: kept in the audit log, told to players (not for audit)"
    )
    parser.add_argument("--as", dest="actor", metavar="ADDRESS", help="the referee acting")


def run(service: Service, args: argparse.Namespace, now: datetime) -> str:
    with service.store.transaction() as work:
        game = work.games.game_named(args.game)
        if game is None:
            raise RefereeError(f"there is no game {args.game}")
        if args.actor and not is_referee(work, game.id, args.actor):
            raise RefereeError(f"{args.actor} is not a referee of game {game.id}")
        actor = args.actor.lower() if args.actor else "cli"
        # Each use is a new action: the Message-IDs of the mail it sends must be new too.
        origin = f"cli-{uuid.uuid4().hex}"
        ctx = RefereeContext(work, service.settings, game, actor, now, origin, handle_stored)
        command = find_referee_command(args.name)
        return run_command(ctx, command, args.args, args.reason)
