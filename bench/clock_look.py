"""The clocks' look benchmark: prints its figures; not a test.

The daemon reads every running game's clock at each look (pbem.clock.due.running_facts: the
pass's due turns, then the schedule's wakeups), every few seconds while mail streams in. For
N games of 6 seats on SQLite and PostgreSQL this prints the seconds a look takes, against the
same read of whole ORM entities (how it was read before 2026-11-27), measured in the same run.

Usage: python bench/clock_look.py [--games 1000] [--backend sqlite postgresql] [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from functools import partial
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.append(str(_HERE.parent))  # for bench/pipeline.py's games and databases

from sqlalchemy import and_  # noqa: E402
from sqlmodel import Session, col, select  # noqa: E402

from bench.pipeline import BARE, NOW, _create_games, database  # noqa: E402
from pbem.clock.due import running_facts, wakeup  # noqa: E402
from pbem.config import SecuritySettings, Settings  # noqa: E402
from pbem.games.service import Service  # noqa: E402
from pbem.store import Game, OrderSet, Seat, Turn, make_engine, reading, upgrade  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seats", type=int, default=6)
    parser.add_argument("--ruleset", default="temples-and-swords")
    parser.add_argument("--backend", nargs="+", default=["sqlite", "postgresql"])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    args.cost = 4  # the passwords are not checked here
    for backend in args.backend:
        with tempfile.TemporaryDirectory() as folder, database(backend, Path(folder)) as url:
            settings = replace(Settings(), security=SecuritySettings(password_cost=4))
            service = Service(make_engine(url), settings)
            upgrade(service.db)
            _create_games(service, args, BARE)
            look = _median(partial(_look, service, NOW), args.repeat)
            entities = _median(partial(_entities, service), args.repeat)
            print(
                f"{backend:<10} {args.games} games: a look {look:.3f} s; the entities alone "
                f"{entities:.3f} s; the look costs {look / entities:.2f} of the entities' read"
            )
            service.db.dispose()
    return 0


def _look(service: Service, now: datetime) -> int:
    """What a daemon's look reads: the due turns, then every game's next wakeup."""
    with service.store.reading() as work:
        due = [facts.game.id for facts in running_facts(work, now) if facts.is_due()]
    with service.store.reading() as work:
        moments = [wakeup(facts) for facts in running_facts(work, now)]
    return len(due) + len(moments)


def _entities(service: Service) -> int:
    """The same rows read as ORM entities, twice, as the look did before: the baseline."""
    count = 0
    for _ in range(2):
        with reading(service.db) as session:
            count += _entity_rows(session)
    return count


def _entity_rows(session: Session) -> int:
    running = Game.status == "running"
    games = session.exec(select(Game).where(running)).all()
    pending = and_(col(Turn.game_id) == col(Game.id), col(Turn.number) == col(Game.turn))
    turns = session.exec(select(Turn).join(Game, pending).where(running)).all()
    seats = session.exec(select(Seat).join(Game).where(running)).all()
    this_turn = and_(col(OrderSet.game_id) == col(Game.id), col(OrderSet.turn) == col(Game.turn))
    orders = session.exec(select(OrderSet.game_id, OrderSet.seat).join(Game, this_turn)).all()
    return len(games) + len(turns) + len(seats) + len(orders)


def _median(run: Callable[[], int], repeat: int) -> float:
    run()  # warm: the first read fills the caches
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


if __name__ == "__main__":
    sys.exit(main())
