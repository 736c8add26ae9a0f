"""Password check benchmark: prints its figures; not a test.

The cost of checking a seat's password at the production scrypt cost (2^14) the first time,
and again once the process has verified it (pbem.passwords: an HMAC), with the intake rate
each would allow on one core if the check were all a mail cost.

Usage: python bench/passwords.py [--cost 14] [--checks 200]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from pbem.passwords import hash_password, verify_password  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cost", type=int, default=14)
    parser.add_argument("--checks", type=int, default=200)
    args = parser.parse_args()
    seats = [(f"pw-seat-{n}", hash_password(f"pw-seat-{n}", cost=args.cost)) for n in range(20)]
    first = [_timed(password, stored) for password, stored in seats]
    again = [_timed(*seats[n % len(seats)]) for n in range(args.checks)]
    wrong = [_timed("a guess", stored) for _password, stored in seats[:5]]
    for label, times in (("first check", first), ("checked again", again), ("wrong guess", wrong)):
        median = statistics.median(times)
        print(f"{label:<14} median {median * 1000:8.3f} ms  = {1 / median:>10,.0f} checks/s")
    print(
        f"a check made again is {statistics.median(first) / statistics.median(again):,.0f}x cheaper"
    )
    return 0


def _timed(password: str, stored: str) -> float:
    started = time.perf_counter()
    verify_password(password, stored)
    return time.perf_counter() - started


if __name__ == "__main__":
    sys.exit(main())
