"""Long campaigns by real mail: each game played to its end (or its turn limit) through
`pbem serve --once`, as tests/servers/test_campaign_on_real_mail.py plays short ones.

Starts a private Dovecot and the aiosmtpd relay (the helpers of tests/servers). For each
ruleset, the campaign of tests/campaign/script.py: bot players mailing their orders and the
common mistakes, a referee who pauses, resumes, extends, rolls back, forces a turn and
replaces a seat, then ordinary turns until the game ends. The invariant checker then reads
every mail of every mailbox. Prints, per game, the mails sent and received, the turns played,
the violations by kind and the wall time; with --show, each violation's text. Exits 1 if any
game has a violation. Not a test.

    .venv/bin/python bench/campaign.py [--ruleset tns ...] [--turns 30] [--seconds 600] [--show]

It stops by itself: a game ends at its turn limit (--turns rounds) at the latest, the ordinary
turns stop after --seconds of a game's wall time, and every step is one bounded pass.
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

# Run as a script, this folder comes first on sys.path, and bench/engine.py would shadow the
# `engine` package; the repository root brings in the test helpers.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent), *(p for p in sys.path if Path(p or ".").resolve() != _HERE)]

from engine import get_ruleset  # noqa: E402
from tests.campaign.checker import by_kind, check  # noqa: E402
from tests.campaign.record import Record, Violation  # noqa: E402
from tests.campaign.script import SETUPS, play_campaign  # noqa: E402
from tests.servers.world import running_world  # noqa: E402


def main() -> int:
    args = _arguments()
    rulesets = [get_ruleset(name).id for name in args.ruleset] or list(SETUPS)
    failed = False
    with running_world() as world:
        for ruleset in rulesets:
            folder = Path(tempfile.mkdtemp(prefix=f"pbem-campaign-{SETUPS[ruleset].game}-"))
            started = time.monotonic()
            record, table = play_campaign(
                world, folder, ruleset, turns=args.turns, seconds=args.seconds
            )
            violations = check(record)
            uncollected = table.complete()
            _report(record, time.monotonic() - started, violations, uncollected, folder)
            if args.show:
                for violation in violations:
                    print(f"    {violation}")
            logging.getLogger().handlers.clear()  # `serve` logs to the game's own folder
            failed = failed or bool(violations) or bool(uncollected)
    return 1 if failed else 0


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", action="append", default=[], help="id or alias; repeat")
    parser.add_argument("--turns", type=int, default=30, help="the games' turn limit (rounds)")
    parser.add_argument("--seconds", type=float, default=600, help="a game's ordinary turns")
    parser.add_argument("--show", action="store_true", help="print every violation")
    return parser.parse_args()


def _report(
    record: Record, wall: float, violations: list[Violation], uncollected: list[str], folder: Path
) -> None:
    played = [event for event in record.events if event.kind == "resolved"]
    ended = next((event for event in record.events if event.kind == "ended"), None)
    by_player = sum(1 for sent in record.sent if sent.sender != record.referee)
    print(
        f"{record.ruleset} (game {record.game}, zone {record.zone}): {wall:.1f} s, "
        f"{record.steps} steps; folder {folder}"
    )
    print(
        f"  mails sent: {len(record.sent)} ({by_player} by players, "
        f"{len(record.sent) - by_player} by the referee); "
        f"received: {len(record.all_mail())}"
    )
    causes = ", ".join(
        f"{n} {cause}" for cause, n in sorted(Counter(e.cause for e in played).items())
    )
    last = max((event.turn for event in played), default=0)
    end = f"ended after turn {ended.turn}" if ended else "not ended (stopped by the bounds)"
    print(f"  turns: {len(played)} played, to turn {last} ({causes}); {end}")
    kinds = ", ".join(f"{kind} {n}" for kind, n in sorted(by_kind(violations).items()))
    print(f"  violations: {len(violations)} ({kinds or 'none'})")
    if uncollected:
        print(f"  mail the checker did not read, in: {', '.join(uncollected)}")


if __name__ == "__main__":
    sys.exit(main())
