"""`pbem demo`: a bot game of Temples and Swords played to its end through the real pipeline,
the same for the same seed."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.cli import main


def _demo(capsys: pytest.CaptureFixture[str], folder: Path, seed: int = 7) -> str:
    args = ["demo", "--ruleset", "temples-and-swords", "--seats", "3", "--seed", str(seed)]
    assert main([*args, "--dir", str(folder)]) == 0
    return capsys.readouterr().out.replace(str(folder), "DIR")


def test_the_demo_plays_to_the_end_the_same_way_each_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = _demo(capsys, tmp_path / "one")
    assert _demo(capsys, tmp_path / "two") == first
    lines = first.splitlines()
    assert lines[0] == "demo: Temples and Swords v1.1, 3 bot seats (alice, bruno, chen), seed 7"
    assert lines[1].startswith("turn   1: 3 order mails, 3 accepted; resolved, ")
    assert "game over" in first and "\nwinner: " in first
    assert lines[-2] == "database: DIR/pbem.db"
    # The game's web archive (pbem.web), and the page to open.
    assert lines[-1] == "web archive: open DIR/web/index.html (or: pbem web serve --dir DIR/web)"
    assert (tmp_path / "one" / "web" / "games" / "demo" / "turn-1.html").exists()
    inbox = list((tmp_path / "one" / "inbox" / "cur").iterdir())
    outbox = list((tmp_path / "one" / "outbox" / "new").iterdir())
    turns = sum(1 for line in lines if line.startswith("turn "))
    assert f"turns played: {turns}" in lines
    assert len(inbox) == 3 * turns  # every bot order mail went through the inbox
    # start mails, check replies, reports, and the game-end mails
    assert len(outbox) == 3 + 3 * turns + 3 * turns + 3
    assert f"{len(outbox)} mails out in DIR/outbox" in first
    # The winner's end-of-game pictures, for a newcomer to open: real PNGs.
    [shown] = [line for line in lines if line.startswith("pictures of ")]
    [winner] = [line.split()[1] for line in lines if line.startswith("winner: ")]
    pictures = sorted((tmp_path / "one").glob("*.png"))
    names = [picture.name for picture in pictures]
    assert names == [f"chart-demo-{turns}.png", f"map-demo-final-{winner}.png"]
    for picture in pictures:
        assert picture.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
        assert f"DIR/{picture.name}" in shown


def test_the_demo_wipes_only_its_own_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    assert main(["demo", "--dir", str(tmp_path)]) == 2
    assert "not a demo folder" in capsys.readouterr().err
    assert (tmp_path / "notes.txt").read_text() == "mine"
