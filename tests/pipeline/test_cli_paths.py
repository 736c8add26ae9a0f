"""Relative paths of the configuration are read from the configuration file's folder (issue 43):
an operator who runs `pbem game new` in one folder and `pbem web build` in another gets one
database, one site secret and one set of seat links, not one a folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.config import load_settings

NOW = "2026-03-01T12:00:00+00:00"
CONFIG = """[security]
password_cost = 4

[database]
url = "sqlite:///state/pbem.db"

[web]
folder = "site"
secret_file = "state/web-secret"
"""


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A configuration in home/etc/, and three other folders to run commands in."""
    for name in ("PBEM_CONFIG", "PBEM_WEB__FOLDER", "PBEM_WEB__SECRET_FILE"):
        monkeypatch.delenv(name, raising=False)
    for folder in ("etc", "etc/state", "one", "two", "three"):
        (tmp_path / folder).mkdir()
    (tmp_path / "etc" / "pbem.toml").write_text(CONFIG)
    yield tmp_path


def run_in(folder: Path, monkeypatch: pytest.MonkeyPatch, *argv: str) -> None:
    monkeypatch.chdir(folder)
    config = str(folder.parent / "etc" / "pbem.toml")
    assert main(["--config", config, "--now", NOW, *argv]) == 0


def test_commands_from_three_folders_share_one_secret_and_one_site(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seats = ["--seat", "a=a@example.org:pw-a-12", "--seat", "b=b@example.org:pw-b-12"]
    run_in(home / "one", monkeypatch, "init")
    run_in(home / "two", monkeypatch, "game", "new", "g1", "--ruleset", "counting", *seats)
    run_in(home / "three", monkeypatch, "web", "build")
    printed = capsys.readouterr().out
    assert f"open {home}/etc/site/index.html" in printed
    assert [path.relative_to(home) for path in home.rglob("*web-secret*")] == [
        Path("etc/state/web-secret")
    ]
    assert [path.relative_to(home) for path in home.rglob("*.db")] == [Path("etc/state/pbem.db")]
    # The seats' folders `game new` wrote (from two/) are the ones `web build` keeps (three/).
    seats_folder = home / "etc" / "site" / "games" / "g1" / "seats"
    written = sorted(path.name for path in seats_folder.iterdir())
    assert len(written) == 2
    run_in(home / "one", monkeypatch, "web", "build")
    assert sorted(path.name for path in seats_folder.iterdir()) == written


def test_every_relative_path_of_a_file_is_read_from_its_folder(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file's, the environment's and the built-in defaults' alike; absolute paths, empty
    ones and URLs of other databases as they are; without a file, the working folder's."""
    monkeypatch.setenv("PBEM_MAILDIR__INBOX", "mail/in")
    monkeypatch.setenv("PBEM_SECURITY__CHECK_KEY_FILE", "/etc/pbem/check-key")
    etc = home / "etc"
    settings = load_settings(etc / "pbem.toml")
    assert settings.database.url == f"sqlite:///{etc}/state/pbem.db"
    assert settings.web.folder == f"{etc}/site"
    assert settings.web.secret_file == f"{etc}/state/web-secret"
    assert settings.maildir.inbox == f"{etc}/mail/in"
    assert settings.maildir.outbox == f"{etc}/var/mail/outbox"  # the default
    assert settings.security.check_key_file == "/etc/pbem/check-key"
    assert settings.logging.file == "" and settings.imap.ca_file == ""
    (etc / "pg.toml").write_text('[database]\nurl = "postgresql+psycopg://pbem@db/pbem"\n')
    assert load_settings(etc / "pg.toml").database.url == "postgresql+psycopg://pbem@db/pbem"
    monkeypatch.chdir(home / "one")
    assert load_settings(Path("../etc/pbem.toml")).web.folder == f"{etc}/site"
    monkeypatch.delenv("PBEM_MAILDIR__INBOX")
    assert load_settings().maildir.inbox == "var/mail/inbox"  # no file: the working folder's


def test_serve_stops_at_start_when_the_site_secret_cannot_be_made(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A configuration whose secret lands where the daemon may not write it (a folder that
    is a file here; after an upgrade, a relative path now read from /etc/pbem): one line at
    the start, not a failure at the first report that carries a link."""
    run_in(home / "one", monkeypatch, "init")
    (home / "etc" / "taken").write_text("a file, not a folder")
    config = home / "etc" / "pbem.toml"
    config.write_text(CONFIG.replace("state/web-secret", "taken/web-secret"))
    assert main(["--config", str(config), "serve", "--once"]) == 2
    said = capsys.readouterr().err
    assert said.startswith(f"pbem: [web] secret_file {home}/etc/taken/web-secret: cannot make")
