"""A file a command is given that cannot be read or written is one line naming it and why,
and exit 2, as every error a person can act on; not a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.cli import main
from tests.pipeline.test_cli import NOW, _new_game, workdir

__all__ = ["workdir"]  # the fixture, shared with test_cli


def one_line(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["--config", "pbem.toml", "--now", NOW, *args]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "Traceback" not in error, error
    return error


def test_check_of_a_missing_file(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _new_game(capsys)
    assert one_line(capsys, "check", "order-mail.eml") == (
        "pbem: order-mail.eml: No such file or directory\n"
    )
    (workdir / "mails").mkdir()
    assert one_line(capsys, "check", "mails") == "pbem: mails: Is a directory\n"


def test_export_into_a_missing_folder(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _new_game(capsys)
    assert one_line(capsys, "game", "export", "g1", "--out", "exports/g1.json") == (
        "pbem: exports/g1.json: No such file or directory\n"
    )


def test_verify_of_a_missing_file(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert one_line(capsys, "verify", "g1.json") == "pbem: g1.json: No such file or directory\n"
    (workdir / "g1.json").write_text("not json")
    assert one_line(capsys, "verify", "g1.json").startswith("pbem: g1.json is not JSON: ")
