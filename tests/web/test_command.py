"""`pbem web build` and `pbem web serve` on the command line, and the archive following a
change made on it (a referee command), in-process on a SQLite file in a temporary folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.cli import main

NOW = "2026-03-01T12:00:00+00:00"
SEATS = ("--seat", "a=a@example.org:pw-a-12", "--seat", "b=b@example.org:pw-b-12")


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    # The folders of the config file, not the ones the test run's environment gives.
    monkeypatch.delenv("PBEM_WEB__FOLDER", raising=False)
    monkeypatch.delenv("PBEM_WEB__SECRET_FILE", raising=False)
    (tmp_path / "pbem.toml").write_text(
        '[security]\npassword_cost = 4\n\n[web]\nfolder = "site"\nsecret_file = "secret"\n'
    )
    yield tmp_path


def pbem(capsys: pytest.CaptureFixture[str], *args: str, code: int = 0) -> str:
    assert main(["--config", "pbem.toml", "--now", NOW, *args]) == code
    captured = capsys.readouterr()
    return captured.out + captured.err


def test_init_makes_the_secret_and_build_writes_the_site(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pbem(capsys, "init")
    assert (workdir / "secret").stat().st_mode & 0o077 == 0  # the operator's alone
    pbem(
        capsys,
        "game",
        "new",
        "g1",
        "--ruleset",
        "tns",
        "--seat",
        "ann=ann@example.org:pw-ann-1",
        "--seat",
        "bob=bob@example.org:pw-bob-1",
        "--referee",
        "ref@example.org",
    )
    printed = pbem(capsys, "web", "build")
    assert f"open {workdir}/site/index.html\n" in printed  # the config's folder (its paths)
    # Issue 43, point 14: minutes at 1,000 games with no sign of progress (told on stderr).
    assert "web build: 1/1 games (100%), " in printed
    assert (workdir / "site" / "games" / "g1" / "index.html").exists()
    desk = printed.split("the desk of ref@example.org (keep it to them): ", 1)[1].splitlines()[0]
    assert desk.startswith(f"{workdir}/site/desk/") and Path(desk).exists()
    elsewhere = pbem(capsys, "web", "build", "--out", "other")
    assert "open other/index.html\n" in elsewhere and (workdir / "other" / "style.css").exists()


def test_build_names_links_where_the_site_has_a_base_url(
    workdir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fresh-eyes tester's find: with `[web] base_url` set, `pbem web build` still printed
    the desk's file on this machine, which a referee elsewhere cannot open: the links then,
    as the mails give them; files again for a folder of --out."""
    monkeypatch.setenv("PBEM_WEB__BASE_URL", "https://games.example.org/pbem/")
    pbem(capsys, "init")
    pbem(capsys, "game", "new", "g1", "--ruleset", "counting", *SEATS, "--referee", "r@x.org")
    printed = pbem(capsys, "web", "build")
    assert "open https://games.example.org/pbem/\n" in printed
    desk = printed.split("the desk of r@x.org (keep it to them): ", 1)[1].splitlines()[0]
    assert desk.startswith("https://games.example.org/pbem/desk/") and desk.endswith("/")
    assert str(workdir) not in desk
    elsewhere = pbem(capsys, "web", "build", "--out", "other")
    assert "open other/index.html\n" in elsewhere


def test_a_referee_command_on_the_command_line_rewrites_the_game(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pbem(capsys, "init")
    pbem(capsys, "game", "new", "g1", "--ruleset", "counting", *SEATS)
    overview = workdir / "site" / "games" / "g1" / "index.html"
    pbem(capsys, "game", "pause", "g1")  # the players are told: the archive follows
    assert "<strong>paused</strong>" in overview.read_text()
    pbem(capsys, "game", "resume", "g1")
    assert "<strong>running</strong>" in overview.read_text()


def test_the_archive_off(
    workdir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PBEM_WEB__ENABLED", "false")
    pbem(capsys, "init")
    pbem(capsys, "game", "new", "g1", "--ruleset", "counting", *SEATS)
    assert "the web archive is off" in pbem(capsys, "web", "build", code=1)
    assert not (workdir / "site").exists() and not (workdir / "secret").exists()


def test_serve_needs_an_archive(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert f"no web archive in {workdir}/site:" in pbem(capsys, "web", "serve", code=2)
