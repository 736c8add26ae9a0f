"""How `pbem serve` starts: on a database that is there (one rule for every command: only
`pbem init` makes one), and, when that database does not answer yet (a boot where PostgreSQL
comes up later), waiting for it as the daemon does for an outage, a log line a try."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.daemon import start
from pbem.games.service import Service
from tests.servers.dovecot import free_port
from tests.support.waiting import wait_until

# The configuration file's folder, where its relative paths are read (pbem.config.anchored).
NO_DATABASE = (
    "pbem: there is no database at {}/pbem.db: run `pbem init` there first, or give the right "
    "one (--config, --db or [database] url)\n"
)


@pytest.mark.parametrize("once", [["--once"], []])
def test_serve_in_an_empty_folder_says_run_init(
    workdir: Path, capsys: pytest.CaptureFixture[str], once: list[str]
) -> None:
    assert main(["serve", *once, "--config", "pbem.toml"]) == 2
    # as `pbem game list` there says
    assert capsys.readouterr().err == NO_DATABASE.format(workdir)
    assert not (workdir / "pbem.db").exists()  # no empty database left behind
    assert not (workdir / "var").exists()  # nor a maildir


def _unreachable(workdir: Path) -> str:
    """A config whose PostgreSQL does not answer: nothing listens on the port."""
    url = f"postgresql+psycopg://pbem@127.0.0.1:{free_port()}/pbem"
    (workdir / "down.toml").write_text(f'[database]\nurl = "{url}"\n')
    return "down.toml"


def test_serve_once_with_the_database_away_fails_the_pass_in_one_line(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--once", "--config", _unreachable(workdir)]) == 1  # cron sees it
    out, err = capsys.readouterr()
    assert out.startswith("database unreachable: ") and out.count("\n") == 1, out
    assert "Traceback" not in err


def test_serve_waits_for_a_database_that_is_not_up_yet(workdir: Path) -> None:
    command = [sys.executable, "-m", "pbem", "serve", "--config", _unreachable(workdir)]
    log = workdir / "serve.err"
    with log.open("wb") as err:
        daemon = subprocess.Popen(command, cwd=workdir, stderr=err)
        try:
            # Tries after 1 s, then 2 s, ... ([service] max_wait_seconds at most): a line each.
            wait_until(lambda: log.read_text().count("database unreachable") >= 3, timeout=30)
            assert daemon.poll() is None  # still waiting, not gone with a traceback
            started = time.monotonic()
            daemon.send_signal(signal.SIGTERM)
            assert daemon.wait(10) == 0  # a stop while it waits is a clean stop
            assert time.monotonic() - started < 5
        finally:
            if daemon.poll() is None:
                daemon.kill()
                daemon.wait(10)
    text = log.read_text()
    tries = [line for line in text.splitlines() if "database unreachable" in line]
    assert len(tries) >= 3 and "Traceback" not in text, text
    assert "trying again in 1s" in tries[0] and "trying again in 2s" in tries[1], tries
    assert "SIGTERM: stopping" in text


def test_a_stop_asked_while_the_daemon_starts_stops_it(
    workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGTERM (systemd stopping a daemon it just started) that comes while the database is
    reached is a stop, exit 0: it was noted and then forgotten once the database answered, so
    the daemon served on (the three-daemon kill test caught it: a daemon never stopped)."""
    assert main(["init"]) == 0
    real = start.unreachable

    def answers_after_a_stop(service: Service) -> str:
        os.kill(os.getpid(), signal.SIGTERM)  # handled before the next bytecode: noted
        return real(service)

    monkeypatch.setattr(start, "unreachable", answers_after_a_stop)
    # With the stop lost, only this second SIGTERM, to the daemon's own handler, ends it.
    backstop = threading.Timer(8, os.kill, (os.getpid(), signal.SIGTERM))
    backstop.start()
    began = time.monotonic()
    try:
        assert main(["serve"]) == 0
    finally:
        backstop.cancel()
    assert time.monotonic() - began < 5
