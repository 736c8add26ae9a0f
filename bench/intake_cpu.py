"""CPU a mail of intake and its check reply, in process, on the maildir transport.

For --games games of 6 seats with a check key (the production setting for a busy server,
docs/operations.md "The check key"), the seats' order mails go through `take_in` and the
check replies through `drain`; then the same orders are mailed again, as to a daemon that has
seen every seat. Prints CPU milliseconds and SQL statements a mail, each part apart, for both
rounds; --profile writes a cProfile of the first intake to that file and of the second to
that file with ".again" added (read them with pstats).
The machines here vary by a fifth from one minute to the next: compare two commits by runs
taken in turns (one of each, again and again), not by one run each.

    .venv/bin/python bench/intake_cpu.py [--games 100] [--backend sqlite] [--profile FILE]
"""

from __future__ import annotations

import argparse
import cProfile
import os
import sys
import tempfile
import time
from contextlib import nullcontext
from dataclasses import dataclass, replace
from pathlib import Path

from sqlalchemy import event

_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.append(str(_HERE.parent))  # for bench/pipeline.py, as bench.pipeline

from bench.pipeline import (  # noqa: E402
    BARE,
    NOW,
    _create_games,
    _deliver_orders,
    database,
    game_arguments,
)
from pbem.config import MaildirSettings, SecuritySettings, Settings  # noqa: E402
from pbem.games.outbox import drain  # noqa: E402
from pbem.games.service import Service  # noqa: E402
from pbem.intake.poll import take_in  # noqa: E402
from pbem.mail.maildir import MaildirInbox, MaildirSender  # noqa: E402
from pbem.store import make_engine, upgrade  # noqa: E402

KEY_ENV = "PBEM_BENCH_CHECK_KEY"


def main() -> int:
    args = _arguments()
    os.environ[KEY_ENV] = "bench-check-key-" + "k" * 32
    for backend in args.backend:
        runs: list[list[Figures]] = [[], []]
        for _ in range(args.repeat):
            with tempfile.TemporaryDirectory() as folder, database(backend, Path(folder)) as url:
                for kept, figures in zip(runs, _bench(url, Path(folder), args), strict=True):
                    kept.append(figures)
        _print(f"{backend}, first mails", runs[0])
        _print(f"{backend}, again", runs[1])
    return 0


def _arguments() -> argparse.Namespace:
    # With the check key no password is checked by scrypt: its cost (--cost) only slows the
    # set-up.
    parser = game_arguments(__doc__)
    parser.add_argument("--repeat", type=int, default=3, help="runs; the least CPU is told")
    parser.add_argument("--backend", nargs="+", default=["sqlite"])
    parser.add_argument("--profile", default="", help="write a cProfile of intake here")
    return parser.parse_args()


@dataclass(frozen=True)
class Figures:
    """One run's cost a mail: CPU milliseconds and statements, intake and reply apart."""

    intake_ms: float
    intake_statements: float
    reply_ms: float
    reply_statements: float

    @property
    def total_ms(self) -> float:
        return self.intake_ms + self.reply_ms


def _bench(url: str, folder: Path, args: argparse.Namespace) -> tuple[Figures, Figures]:
    """The seats' first order mails (as a daemon just started takes them in), then the same
    orders mailed again (as a daemon that has seen every seat does)."""
    settings = replace(
        Settings(),
        maildir=MaildirSettings(inbox=str(folder / "in"), outbox=str(folder / "out")),
        security=SecuritySettings(password_cost=args.cost, check_key_env=KEY_ENV),
    )
    service = Service(make_engine(url), settings)
    upgrade(service.db)
    inbox, sender = MaildirInbox(folder / "in"), MaildirSender(folder / "out")
    _create_games(service, args, BARE)
    drain(service, sender, now=NOW)
    statements = [0]

    @event.listens_for(service.db, "before_cursor_execute")
    def _count(*_: object) -> None:
        statements[0] += 1

    first = _round(service, inbox, sender, statements, "", args.profile)
    again_profile = f"{args.profile}.again" if args.profile else ""
    again = _round(service, inbox, sender, statements, "-again", again_profile)
    service.db.dispose()
    return first, again


def _round(
    service: Service,
    inbox: MaildirInbox,
    sender: MaildirSender,
    statements: list[int],
    tag: str,
    profile: str,
) -> Figures:
    count = _deliver_orders(service, inbox, tag)
    profiler = cProfile.Profile() if profile else None
    began, before = time.process_time(), statements[0]
    with profiler or nullcontext():
        statuses = take_in(service, inbox, now=NOW)
    intake, intake_statements = time.process_time() - began, statements[0] - before
    if profiler:
        profiler.dump_stats(profile)
    began, before = time.process_time(), statements[0]
    replies = drain(service, sender, now=NOW, limit=count).sent
    reply, reply_statements = time.process_time() - began, statements[0] - before
    assert statuses == {"accepted": count} and replies == count, (statuses, replies)
    return Figures(
        1000 * intake / count, intake_statements / count, 1000 * reply / count,
        reply_statements / count,
    )  # fmt: skip


def _print(backend: str, runs: list[Figures]) -> None:
    best = min(runs, key=lambda run: run.total_ms)
    every = ", ".join(f"{run.total_ms:.2f}" for run in runs)
    print(
        f"{backend:<20} a mail, the least of {len(runs)} runs ({every} ms): "
        f"intake {best.intake_ms:.2f} ms CPU, {best.intake_statements:.1f} statements; "
        f"check reply sent {best.reply_ms:.2f} ms CPU, {best.reply_statements:.1f} statements; "
        f"in all {best.total_ms:.2f} ms CPU"
    )


if __name__ == "__main__":
    sys.exit(main())
