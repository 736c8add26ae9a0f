"""Hostile mail at volume: 10,000 generated mails (tests/fuzz/strategies.py: broken MIME,
headers, charsets, encodings, giant and random mails, nearly-right order text) through intake,
on SQLite and PostgreSQL. Prints mails a second, what became of them, and fails (exit 1) on a
crash or an inconsistent database, the checks of tests/fuzz/test_intake_fuzz.py.

    .venv/bin/python bench/fuzz.py [--mails 10000] [--backend sqlite postgresql]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import traceback
from datetime import UTC, datetime
from pathlib import Path

from hypothesis import HealthCheck, given, settings

# Run as a script, this folder comes first on sys.path; the project root must instead.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from pbem.games.service import Service  # noqa: E402
from tests.conftest import quick_settings  # noqa: E402
from tests.fuzz.intake_run import Tally, check_consistent, seat_games  # noqa: E402
from tests.fuzz.strategies import hostile_mail  # noqa: E402
from tests.support.databases import migrated_engine, postgres_database  # noqa: E402

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mails", type=int, default=10_000)
    parser.add_argument("--backend", nargs="+", default=["sqlite", "postgresql"])
    args = parser.parse_args()
    failed = False
    for backend in args.backend:
        failed |= not _bench(backend, args.mails)
    return 1 if failed else 0


def _bench(backend: str, mails: int) -> bool:
    with tempfile.TemporaryDirectory() as folder:
        if backend == "sqlite":
            return _run(backend, f"sqlite:///{folder}/fuzz.db", mails)
        with postgres_database() as url:
            return _run(backend, url, mails)


def _run(backend: str, url: str, mails: int) -> bool:
    engine = migrated_engine(url)
    service = Service(engine, quick_settings())
    seat_games(service, NOW)
    tally = Tally()

    @settings(
        max_examples=mails,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(hostile_mail())
    def one_mail(raw: bytes) -> None:
        tally.push(service, raw, NOW)

    started = time.perf_counter()
    try:
        one_mail()
        check_consistent(service, tally)
        ok = True
    except Exception:  # noqa: BLE001 - a fuzzer counts every failure, whatever it is
        traceback.print_exc()
        ok = False
    seconds = time.perf_counter() - started
    engine.dispose()
    print(f"{backend}: {tally.mails:,} mails in {seconds:.1f} s ({tally.mails / seconds:.0f}/s)")
    print(f"  outcomes: {dict(sorted(tally.statuses.items()))}")
    print(f"  quarantine reasons: {dict(sorted(tally.reasons.items()))}")
    print(f"  {'no crash, database consistent' if ok else 'FAILED'}")
    return ok


if __name__ == "__main__":
    sys.exit(main())
