"""What pbem writes is private whatever the umask (issue 42): run by hand from a shell with umask
022, the database, the maildir folders (the inbox holds the players' passwords, the outbox
the passwords and seat links mailed to them) and the site secret are the user's alone, and the
web archive's seat and desk folders cannot be listed by another user; the public pages stay
readable for a web server. Real commands in processes of their own, on real files."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

CONFIG = '[security]\npassword_cost = 4\n\n[web]\nfolder = "site"\n'
SEATS = "--seat a=a@example.org --seat b=b@example.org"


def shell(folder: Path, argv: str) -> subprocess.CompletedProcess[str]:
    """`pbem --config pbem.toml <argv>` under umask 022, as a shell runs it."""
    command = f"umask 022; exec {shlex.quote(sys.executable)} -m pbem --config pbem.toml {argv}"
    environment = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    return subprocess.run(
        ["sh", "-c", command],
        check=False,
        cwd=folder,
        env=environment,
        capture_output=True,
        text=True,
    )


def mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A game made, its start mailed and its site built: once for the module (four Pythons)."""
    made = tmp_path_factory.mktemp("private")
    (made / "pbem.toml").write_text(CONFIG)
    for argv in ("init", f"game new g1 --ruleset tns {SEATS}", "serve --once", "web build"):
        done = shell(made, argv)
        assert done.returncode == 0, done.stdout + done.stderr
    return made


def test_what_holds_secrets_is_private_under_umask_022(folder: Path) -> None:
    database = [folder / name for name in ("pbem.db", "pbem.db-wal", "pbem.db-shm")]
    assert {path.name: mode(path) for path in database if path.exists()} == {
        path.name: 0o600 for path in database if path.exists()
    }
    assert mode(folder / "pbem.db") == 0o600
    assert mode(folder / "pbem.db.serve-lock") == 0o600  # serve --once held it: 644 before
    assert mode(folder / "web-secret") == 0o600
    for box in ("inbox", "outbox"):
        assert mode(folder / "var" / "mail" / box) == 0o700, box
    mailed = list((folder / "var" / "mail" / "outbox" / "new").iterdir())
    assert mailed and {mode(path) for path in mailed} == {0o600}  # the start mails


def test_other_users_cannot_list_the_seats_or_the_desk(folder: Path) -> None:
    site = folder / "site"
    for unlisted in (site / "games" / "g1" / "seats", site / "desk"):
        assert mode(unlisted) == 0o711, unlisted  # passed through to a known link, not read
    # The public pages, and a seat's page to whoever has its link, stay readable (umask 022).
    assert mode(site / "index.html") & 0o004 and mode(site / "games" / "g1") & 0o005 == 0o005
    seat = next((site / "games" / "g1" / "seats").iterdir())
    assert mode(seat / "index.html") & 0o004


def test_a_database_every_user_may_read_is_said(folder: Path) -> None:
    (folder / "pbem.db").chmod(0o644)  # as an older pbem left it under umask 022
    try:
        done = shell(folder, "game list")
    finally:
        (folder / "pbem.db").chmod(0o600)
    assert done.returncode == 0
    assert "the database" in done.stderr and "is open to other users (mode 644)" in done.stderr
