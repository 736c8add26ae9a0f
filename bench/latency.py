"""Order-mail latency through the daemon on real mail servers.

Starts a private Dovecot and the aiosmtpd relay (the helpers of tests/servers), a 2-seat
Temples and Swords game and `pbem serve` in a process of its own, waiting with IMAP IDLE.
A player then mails order mails one at a time; for each, the time from handing it to the
SMTP server to the check reply being stored in the player's mailbox. Prints the median and
the 95th percentile (the target is under 2 s at p95). Not a test.

    .venv/bin/python bench/latency.py [--mails 200] [--cost 14] [--db URL]
"""

from __future__ import annotations

import argparse
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

# bench/engine.py is named like the `engine` package; run as a script, this folder comes first
# on sys.path and would shadow the package. The repository root brings in the test helpers.
_HERE = Path(__file__).resolve().parent
REPO = _HERE.parent
sys.path[:] = [str(REPO), *(p for p in sys.path if Path(p or ".").resolve() != _HERE)]

from engine import get_ruleset  # noqa: E402
from pbem.config import SecuritySettings, Settings  # noqa: E402
from pbem.games.lifecycle import GameSpec, SeatSpec, create_game  # noqa: E402
from pbem.store import loads, make_engine, transaction, upgrade  # noqa: E402
from pbem.store.models import Turn  # noqa: E402
from pbem.store.work import work_of  # noqa: E402
from tests.servers.dovecot import Account  # noqa: E402
from tests.servers.world import MailWorld, Player, running_world, serve_config  # noqa: E402

NOW = datetime.now(UTC)


@dataclass
class Bench:
    world: MailWorld
    moderator: Account
    player: Player
    folder: Path


def main() -> int:
    args = _arguments()
    with running_world() as world:
        folder = Path(tempfile.mkdtemp(prefix="pbem-latency-"))
        bench = Bench(world, world.account("moderator"), world.player("alice"), folder)
        bob = world.account("bob")  # a real mailbox: his start mail must not bounce
        url = args.db or f"sqlite:///{folder / 'pbem.db'}"
        orders = _new_game(bench, bob, url, args.cost)
        config = serve_config(world, folder, bench.moderator, url, cost=args.cost)
        daemon = subprocess.Popen(
            [sys.executable, "-m", "pbem.cli", "serve", "--config", str(config)], cwd=REPO
        )
        try:
            _wait_for_replies(bench, 1, timeout=30)  # the start mail: the daemon is up
            latencies = _measure(bench, orders, args.mails)
        finally:
            daemon.send_signal(signal.SIGTERM)
            code = daemon.wait(timeout=30)
        _report(bench, latencies, url, args.cost, code)
    return 0


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mails", type=int, default=200)
    parser.add_argument("--cost", type=int, default=14, help="scrypt cost (log2 n); config: 14")
    parser.add_argument("--db", help="database URL (default: a new SQLite file)")
    return parser.parse_args()


def _new_game(bench: Bench, bob: Account, url: str, cost: int) -> str:
    """A game whose second seat never orders, so every mail of alice's replaces her orders
    and gets a check reply; the order mail's text."""
    engine = make_engine(url)
    upgrade(engine)
    settings = Settings(security=SecuritySettings(password_cost=cost))
    seats = [
        SeatSpec("alice", bench.player.address, "pw-alice"),
        SeatSpec("bob", bob.address, "pw"),
    ]
    spec = GameSpec("g1", "temples-and-swords", seats, seed=7, deadline_policy="none")
    with transaction(engine) as session:
        create_game(work_of(session), settings, spec, now=NOW)
        turn = session.get(Turn, 1)
        assert turn is not None
        state = loads(turn.state_before)
    engine.dispose()
    orders = get_ruleset("temples-and-swords").bot_orders(state, "alice", 7)
    return f"GAME g1 SEAT alice PASSWORD pw-alice\nTURN 1\n{orders}END\n"


def _measure(bench: Bench, orders: str, count: int) -> list[float]:
    latencies = []
    for n in range(count):
        started = time.perf_counter()
        bench.player.send(bench.moderator.address, orders, subject=f"orders {n}")
        _wait_for_replies(bench, n + 2, timeout=30)
        latencies.append(time.perf_counter() - started)
    return latencies


def _wait_for_replies(bench: Bench, count: int, *, timeout: float) -> None:
    """Until the relay has stored `count` mails in the player's mailbox (Dovecot said so)."""
    deadline = time.monotonic() + timeout
    while bench.world.relay.delivered_to(bench.player.address) < count:
        if time.monotonic() > deadline:
            raise TimeoutError(f"no mail {count} for the player after {timeout}s")
        time.sleep(0.002)


def _report(bench: Bench, latencies: list[float], url: str, cost: int, code: int) -> None:
    log = (bench.folder / "pbem.log").read_text()
    waiting = "IDLE" if "connected, folder INBOX, IDLE" in log else "polling"
    mailbox = len(bench.player.mailbox())
    p95 = statistics.quantiles(latencies, n=100, method="inclusive")[94]
    print(f"order mail -> check reply, {len(latencies)} mails, one at a time")
    print(f"  daemon: pbem serve, IMAP {waiting}, SMTP STARTTLS with AUTH, {url.split(':', 1)[0]}")
    print(f"  scrypt cost 2^{cost}; player's mailbox holds {mailbox} mails; exit code {code}")
    print(f"  median {statistics.median(latencies) * 1000:7.1f} ms")
    print(f"  p95    {p95 * 1000:7.1f} ms   (target < 2000 ms)")
    print(f"  min    {min(latencies) * 1000:7.1f} ms, max {max(latencies) * 1000:7.1f} ms")


if __name__ == "__main__":
    sys.exit(main())
