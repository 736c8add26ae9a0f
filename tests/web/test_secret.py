"""The site secret (issue 42): one secret, read the same way by every process, on real files.
A daemon that read it once and kept it in memory went on making the old links after the file
was deleted and `pbem web build` made a new one: the links flipped at every write. And a
secret other users may read is said and made private."""

from __future__ import annotations

import logging
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.config import WebSettings, load_settings
from pbem.games.service import Service
from pbem.games.site_links import site_secret
from pbem.web.archive import seat_path, write_site
from tests.web.support import game_on_the_command_line


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A game made on the command line, its configuration in `tmp_path`."""
    monkeypatch.chdir(tmp_path)
    for name in ("PBEM_CONFIG", "PBEM_WEB__FOLDER", "PBEM_WEB__SECRET_FILE"):
        monkeypatch.delenv(name, raising=False)
    game_on_the_command_line(tmp_path, "tns")  # a ruleset of the package: web build runs apart
    yield tmp_path


def seat_folders(site: Path) -> set[str]:
    return {path.name for path in (site / "games" / "g1" / "seats").iterdir()}


def test_a_secret_made_again_by_another_process_is_the_one_the_daemon_uses(
    folder: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The daemon (this process) has used the secret; it is deleted; `pbem web build` in a
    process of its own makes another and writes the site with it. The daemon's next link and
    its next write are the new ones, and it says the links changed: no seat's folder flips
    back."""
    daemon = Service.from_settings(load_settings(folder / "pbem.toml"))
    before = seat_path(daemon, "g1", "a")
    assert (folder / "site" / before).exists()
    (folder / "secret").unlink()
    command = [sys.executable, "-m", "pbem", "--config", "pbem.toml", "web", "build"]
    subprocess.run(command, cwd=folder, check=True, capture_output=True)
    built = seat_folders(folder / "site")
    with caplog.at_level(logging.WARNING, logger="pbem.games.site_links"):
        after = seat_path(daemon, "g1", "a")
    assert "is another: every seat's and the desk's link changes" in caplog.text
    assert after != before and (folder / "site" / after).exists()
    write_site(daemon)  # the daemon's own write after its next turn
    assert seat_folders(folder / "site") == built


def test_processes_that_find_no_secret_at_once_make_one(tmp_path: Path) -> None:
    """Four processes, started together on a folder with no secret: one makes it, whole,
    and every one of them reads that one (none a half-written file)."""
    path = tmp_path / "state" / "secret"
    script = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from pbem.config import WebSettings\n"
        "from pbem.games.site_links import site_secret\n"
        "go = Path(sys.argv[2])\n"
        "while not go.exists(): time.sleep(0.001)\n"
        "print(site_secret(WebSettings(secret_file=sys.argv[1])).hex())\n"
    )
    go = tmp_path / "go"
    racers = [
        subprocess.Popen([sys.executable, "-c", script, str(path), str(go)], stdout=subprocess.PIPE)
        for _ in range(4)
    ]
    go.touch()
    seen = {racer.communicate(timeout=60)[0].decode().strip() for racer in racers}
    assert [racer.returncode for racer in racers] == [0] * 4
    assert seen == {site_secret(WebSettings(secret_file=str(path))).hex()}
    assert [entry.name for entry in path.parent.iterdir()] == ["secret"]  # no draft left


def test_a_secret_others_may_read_is_made_private_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "secret"
    path.write_text("ab" * 32 + "\n")
    path.chmod(0o644)  # as an operator's copy under umask 022 leaves it
    web = WebSettings(secret_file=str(path))
    with caplog.at_level(logging.WARNING, logger="pbem.games.site_links"):
        secret = site_secret(web)
    assert path.stat().st_mode & 0o777 == 0o600
    assert any("readable by other users" in record.getMessage() for record in caplog.records)
    assert site_secret(web) == secret  # the same secret: the links stay


def test_a_secret_made_under_umask_022_is_private(tmp_path: Path) -> None:
    """A real process with the umask of a shell: the secret it makes is its user's alone."""
    path = tmp_path / "deep" / "secret"
    script = (
        "import os, sys\n"
        "os.umask(0o022)\n"
        "from pbem.config import WebSettings\n"
        "from pbem.games.site_links import site_secret\n"
        "site_secret(WebSettings(secret_file=sys.argv[1]))\n"
    )
    subprocess.run([sys.executable, "-c", script, str(path)], check=True)
    assert path.stat().st_mode & 0o777 == 0o600
