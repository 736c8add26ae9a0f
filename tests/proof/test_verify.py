"""Dice anyone can verify: the start mail commits to the secret seed, the end mail reveals it,
and `pbem verify` replays an exported game from it, finding a tampered die, order or state
and naming its turn; a game rolled back and rerun by a referee verifies too."""

from __future__ import annotations

import copy
import hashlib
import json
import re
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from pbem.cli import main
from pbem.games.lifecycle import SeatSpec
from pbem.games.service import Service
from pbem.proof.verify import verify
from tests.referee.support import Channel, referee_game
from tests.referee.test_rollback import _play  # bot orders mailed in, turn by turn
from tests.support.games import body, game_row, outbox

SEATS = tuple(SeatSpec(n, f"{n}@example.org", f"pw-{n}") for n in ("ann", "bob", "cat"))
TNS = {"ruleset": "temples-and-swords", "seats": SEATS, "seed": 41}


def _export(service: Service, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    url = service.db.url.render_as_string(hide_password=False)
    path = tmp_path / "g1.json"
    assert main(["--db", url, "game", "export", "g1", "--out", str(path)]) == 0
    capsys.readouterr()
    return path


def _verify_cli(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["verify", str(path)])
    return code, capsys.readouterr().out


def _finished(service: Service, now: datetime, **extra: Any) -> None:
    referee_game(service, now, **TNS, options={"turn_limit": 3}, **extra)
    _play(service, now, 3)
    assert game_row(service).status == "ended"


def test_the_start_mail_commits_to_the_seed_and_the_end_mail_reveals_it(
    service: Service, now: datetime
) -> None:
    _finished(service, now)
    start = body(outbox(service, "report")[0])
    [committed] = re.findall(r"^([0-9a-f]{64})$", start, flags=re.M)
    end = body(outbox(service, "game-end")[0])
    seed = re.search(r"seed was (\d+),\nwith the salt ([0-9a-f]{32})\.", end)
    assert seed is not None, end
    text = f"{seed[1]} {seed[2]}".encode()
    assert int(seed[1]) == 41
    assert hashlib.sha256(text).hexdigest() == committed
    assert committed in end
    assert all(len(line) <= 72 for line in start.splitlines() + end.splitlines())


def test_a_finished_game_exports_and_verifies(
    service: Service, now: datetime, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _finished(service, now)
    path = _export(service, tmp_path, capsys)
    document = json.loads(path.read_text())
    assert document["seed"] == 41 and len(document["turns"]) == 3
    assert "@" not in path.read_text()  # no address, and no password hash either
    assert "password" not in path.read_text()
    assert {p["by"] for p in document["turns"][0]["played"].values()} == {"orders"}
    code, out = _verify_cli(path, capsys)
    assert (code, out.splitlines()[-1]) == (0, "verified: 3 turns replayed, all equal")


def _tampered(document: dict[str, Any], change: Any) -> str:
    copied = copy.deepcopy(document)
    change(copied)
    verdict = verify(copied)
    assert not verdict.ok
    return verdict.difference


def _with_dice(document: dict[str, Any], number: int) -> tuple[int, dict[str, Any]]:
    events = document["turns"][number - 1]["record"]["events"]
    index = next(i for i, e in enumerate(events) if e["dice"])
    return index, events[index]


def test_a_tampered_die_order_or_state_is_found_and_its_turn_named(
    service: Service, now: datetime, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _finished(service, now)
    document = json.loads(_export(service, tmp_path, capsys).read_text())
    assert verify(document).ok
    index, event = _with_dice(document, 2)

    def die(doc: dict[str, Any]) -> None:
        dice = doc["turns"][1]["record"]["events"][index]["dice"]
        dice[0] = dice[0] % 6 + 1

    found = _tampered(document, die)
    assert found.startswith(f"turn 2: event {index + 1} ({event['code']}) differs: ")
    assert "its dice" in found

    def order(doc: dict[str, Any]) -> None:
        doc["turns"][0]["played"]["bob"]["text"] = ""

    assert _tampered(document, order).startswith("turn 1: ")

    def state(doc: dict[str, Any]) -> None:
        doc["turns"][2]["state_before"]["round"] += 1

    assert _tampered(document, state).startswith("turn 3: its starting state is not what")

    def start(doc: dict[str, Any]) -> None:
        doc["turns"][0]["state_before"]["seats"][0]["gold"] += 1

    assert _tampered(document, start).startswith(
        "turn 1: its starting state is not a new game of these seats and options"
    )

    def seed(doc: dict[str, Any]) -> None:
        doc["seed"] += 1

    assert "commitment" in _tampered(document, seed)
    # The command line says so too, and fails.
    path = tmp_path / "bad.json"
    bad = copy.deepcopy(document)
    die(bad)
    path.write_text(json.dumps(bad))
    code, out = _verify_cli(path, capsys)
    assert code == 1 and out.splitlines()[-1].startswith("NOT verified: turn 2: event")


def test_a_running_game_keeps_its_seed_secret(
    service: Service, now: datetime, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    referee_game(service, now, **TNS)
    _play(service, now, 1)
    path = _export(service, tmp_path, capsys)
    document = json.loads(path.read_text())
    assert document["seed"] is None and document["salt"] is None
    code, out = _verify_cli(path, capsys)
    assert code == 1 and "the seed is not revealed" in out


def test_a_game_rolled_back_edited_and_rerun_verifies_branch_and_all(
    service: Service, now: datetime, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    referee_game(service, now, **TNS, options={"turn_limit": 4})
    _play(service, now, 3)
    via = Channel("cli", service, now, capsys)
    via.run("rollback", "2", reason="bob's orders were misread")
    via.run("edit", "seat.ann.gold", "=", "12", reason="a correction")
    via.run("rerun", reason="play on")
    _play(service, now, 1)
    assert game_row(service).status == "ended"
    document = json.loads(_export(service, tmp_path, capsys).read_text())
    assert [b["branch"] for b in document["branches"]] == [1]
    assert document["edits"] == {"2": [{"path": "seat.ann.gold", "value": "12"}]}
    verdict = verify(document)
    assert verdict.ok, verdict.text()
    assert verdict.turns == 4 + 2  # four live turns, two resolved turns of the branch

    def branch_die(doc: dict[str, Any]) -> None:
        events = doc["branches"][0]["turns"][0]["record"]["events"]
        event = next(e for e in events if e["dice"])
        event["dice"][0] = event["dice"][0] % 6 + 1

    assert _tampered(document, branch_die).startswith("branch 1, turn 2: event")

    def drop_edit(doc: dict[str, Any]) -> None:
        doc["edits"] = {}

    assert _tampered(document, drop_edit).startswith("turn 2: its starting state")
