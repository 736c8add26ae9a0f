"""`pbem game export GAME [--out FILE]` and `pbem verify EXPORT.json`."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from pbem.errors import UsageError
from pbem.games.service import Service
from pbem.proof.export import export_game
from pbem.proof.verify import verify
from pbem.store import transaction


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


def run_export(service: Service, args: argparse.Namespace) -> int:
    with transaction(service.db) as session:
        document = export_game(session, args.id)
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
