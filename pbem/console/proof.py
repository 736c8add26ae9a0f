"""`pbem game export GAME [--out FILE]`, `pbem verify EXPORT.json`, and what `pbem game new` and
`game show` say of a game's dice: its commitment, and its seed only once the game has ended
or when asked (`--show-seed`, with a warning while it runs)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from pbem.errors import UsageError
from pbem.games.commitment import commitment
from pbem.games.service import Service
from pbem.proof.export import export_game
from pbem.proof.verify import verify
from pbem.store import Game


def add_export_parser(
    game: argparse._SubParsersAction[argparse.ArgumentParser],
    handler: Callable[[argparse.Namespace], int],
) -> None:
    text = "the whole game as one JSON document (the seed only once it has ended)"
    export = game.add_parser("export", help=text, description=text)
    export.set_defaults(handler=handler)
    export.add_argument("id")
    export.add_argument("--out", type=Path, help="write it here (default: standard output)")


def add_verify_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    text = "replay an exported game from its revealed seed and check every state and die"
    check = sub.add_parser("verify", help=text, description=text)
    check.set_defaults(handler=run_verify)
    check.add_argument("export", type=Path, metavar="EXPORT.json")


SHOW_SEED = "--show-seed"


def add_show_seed(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        SHOW_SEED,
        action="store_true",
        help="print the seed and salt also while the game runs (whoever knows them knows "
        "every die to come: keep them from its players)",
    )


def dice_line(game: Game, *, show_seed: bool) -> str:
    """The game's dice commitment; the seed and salt once it has ended (the end mail
    reveals them), or when asked, with a warning on standard error while it has not."""
    line = f"dice: commitment {commitment(game.seed, game.seed_salt)}"
    ended = bool(game.result)  # a game ends with its result (pbem.clock.turns)
    if not (ended or show_seed):
        return f"{line}; the seed is secret until the game ends ({SHOW_SEED} shows it)"
    if not ended:
        print(
            f"warning: game {game.id} has not ended: whoever knows its seed knows every die "
            "to come; keep it from its players",
            file=sys.stderr,
        )
    return f"{line}; seed {game.seed}, salt {game.seed_salt}"


def run_export(service: Service, args: argparse.Namespace) -> int:
    with service.store.transaction() as work:
        document = export_game(work, args.id)
    text = json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    if args.out:
        args.out.write_text(text, encoding="utf-8")
        print(f"game {document['game']} exported to {args.out}")
    else:
        sys.stdout.write(text)
    return 0


def run_verify(args: argparse.Namespace) -> int:
    """0 when every turn replays equal, 1 when one differs (named)."""
    try:
        document = json.loads(args.export.read_text(encoding="utf-8"))
    except ValueError as error:  # not UTF-8, or not JSON; a missing file is pbem.cli.main's
        raise UsageError(f"{args.export} is not JSON: {error}") from None
    if not isinstance(document, dict):
        raise UsageError(f"{args.export} is not a game export")
    verdict = verify(document)
    print(verdict.text())
    return 0 if verdict.ok else 1
