"""The game-end mail carries the final map and the chart of the whole game, and `pbem game
chart` draws the same chart for a referee, byte for byte."""

from __future__ import annotations

import io
from datetime import datetime
from pathlib import Path

import pytest
from PIL import Image

from pbem.cli import main
from pbem.games.outbox import as_message
from pbem.games.service import Service
from tests.proof.test_verify import _finished
from tests.referee.support import REFEREE
from tests.support.games import outbox


def _files(service: Service, kind: str) -> dict[str, dict[str, bytes]]:
    """Each recipient's attachments of the mails of that kind."""
    found: dict[str, dict[str, bytes]] = {}
    for row in outbox(service, kind):
        message = as_message(row.raw)
        parts = {str(p.get_filename()): p.get_content() for p in message.iter_attachments()}
        found.setdefault(row.recipient, {}).update(parts)
    return found


def test_the_end_mail_carries_the_final_map_and_the_whole_games_chart(
    service: Service, now: datetime, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _finished(service, now)  # three turns of Temples and Swords, ann, bob and cat
    ends = _files(service, "game-end")
    assert set(ends["ann@example.org"]) == {"map-g1-final-ann.png", "chart-g1-3.png"}
    assert set(ends[REFEREE]) == {"map-g1-final.png", "chart-g1-3.png"}  # the view of no seat
    chart = ends["ann@example.org"]["chart-g1-3.png"]
    assert all(files["chart-g1-3.png"] == chart for files in ends.values())
    picture = Image.open(io.BytesIO(chart))
    picture.load()
    assert picture.size == (720, 220 + 160 * 3)

    url = service.db.url.render_as_string(hide_password=False)
    out = tmp_path / "g1.png"
    assert main(["--db", url, "game", "chart", "g1", "--out", str(out)]) == 0
    assert out.read_bytes() == chart  # the same chart, drawn again from what is stored
    assert main(["--db", url, "game", "chart", "nosuch"]) == 2
    assert "there is no game nosuch" in capsys.readouterr().err
