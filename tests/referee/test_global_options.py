"""The global options (--config, --db, --now) go before or after the command, `pbem referee`
included (its ARGs take the words before them), as README and docs/referee.md both say."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.games.service import Service
from tests.referee.support import referee_game
from tests.support.games import game_row

DOCS = Path(__file__).resolve().parents[2]


def test_global_options_before_or_after_a_referee_command(
    service: Service, now: datetime, capsys: pytest.CaptureFixture[str]
) -> None:
    referee_game(service, now)
    url = service.db.url.render_as_string(hide_password=False)
    after = ["referee", "g1", "pause", "--reason", "away", "--db", url, "--now", now.isoformat()]
    assert main(after) == 0
    assert game_row(service).status == "paused"
    before = ["--db", url, "--now", now.isoformat(), "referee", "g1", "resume", "--reason", "back"]
    assert main(before) == 0
    assert game_row(service).status == "running"
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("doc", ["README.md", "docs/referee.md"])
def test_the_docs_say_before_or_after(doc: str) -> None:
    text = " ".join((DOCS / doc).read_text().split())
    assert re.search(r"global options \(`--config`, `--db`, `--now`\) go before or after", text)
