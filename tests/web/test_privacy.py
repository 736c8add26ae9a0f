"""Nothing private reaches the archive's public pages. A game of each ruleset is played with
a unique string planted in every private place: each player's address and password, a
private part of a seat's report, the orders of the turn not yet played, private press, a
quarantined mail, a referee's address and the reason a referee gave for an action. The site
is written; no planted string is in any public file (the index, the style sheet, every game's
pages, pictures, chart and manifest: every byte of them, and the text chunks of every PNG),
nor is any seat's or the desk's secret token. The strings that belong on a seat's pages or on
the desk are found there, so that a test that looks in the wrong place fails."""

from __future__ import annotations

import argparse
import json
import uuid
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

import pytest
from PIL import Image
from PIL.PngImagePlugin import PngInfo
from sqlmodel import select

from engine import get_ruleset
from pbem.console.referee import run as run_referee
from pbem.games.lifecycle import PressOptions, SeatSpec
from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.store import OrderSet, Seat, Turn, dumps, loads, transaction
from pbem.web.archive import desk_path, seat_path, write_site
from tests.conftest import NOW, quick_settings
from tests.support.games import game_row, quarantined, turns
from tests.support.mails import mail, order_mail
from tests.web.games import RULESETS, play_turn, start_game
from tests.web.support import archive_service

GAME = "g1"
NAMES = ("ann", "bob", "cat")


@dataclass
class Planted:
    """Unique strings, each in one private place, and where each may be shown."""

    strings: dict[str, str] = field(default_factory=dict)

    def new(self, kind: str) -> str:
        # Lower case, letters, digits and hyphens: an address's local part keeps it as it is.
        made = f"planted-{kind}-{uuid.uuid4().hex[:12]}"
        self.strings[kind] = made
        return made


def _played_game(service: Service, ruleset: str, planted: Planted) -> None:
    """Two turns played, then every private thing the site's writer could read planted."""
    seats = tuple(
        SeatSpec(
            name,
            f"{planted.new(f'address-{name}')}@example.org",
            planted.new(f"password-{name}"),
        )
        for name in NAMES
    )
    referee = f"{planted.new('referee')}@example.org"
    start_game(
        service,
        NOW,
        GAME,
        ruleset,
        turns=20,
        seats=seats,
        referees=[referee],
        press=PressOptions(allowed=True),
        announce_referee_actions=False,  # the reason stays on the desk, not in the reports
    )
    passwords = {seat.name: seat.password for seat in seats}
    addresses = {seat.name: seat.address for seat in seats}
    for _ in range(2):
        assert play_turn(service, NOW, GAME, seats=seats)
    _plant_private_report(service, planted)
    _plant_pending_orders(service, planted, passwords, addresses)
    _plant_press(service, planted, passwords, addresses)
    _plant_quarantine(service, planted)
    _plant_audit_reason(service, planted, referee)


def _plant_private_report(service: Service, planted: Planted) -> None:
    """A private event of ann's in turn 1's stored record (its report's private part)."""
    text = planted.new("report-ann")
    with transaction(service.db) as session:
        turn = session.exec(select(Turn).where(Turn.game_id == GAME, Turn.number == 1)).one()
        record = loads(turn.record or "{}")
        mine = [  # ann's alone: not news, not shared with another seat (a trade's)
            e for e in record["events"] if e["seat"] == "ann" and not e["public"] and not e["also"]
        ]
        if mine:
            mine[0]["text"] = f"{mine[0]['text']} {text}"
        else:
            event = {"also": [], "code": "planted", "dice": [], "phase": "", "public": False}
            record["events"].append({**event, "seat": "ann", "text": text})
        turn.record = dumps(record)


def _plant_pending_orders(
    service: Service, planted: Planted, passwords: dict[str, str], addresses: dict[str, str]
) -> None:
    """ann's orders for turn 3, not yet played: mailed in, then a line of them planted."""
    with transaction(service.db) as session:
        turn = session.exec(select(Turn).where(Turn.game_id == GAME, Turn.number == 3)).one()
        state = loads(turn.state_before)
    ruleset = get_ruleset(game_row(service, GAME).ruleset)
    text = ruleset.bot_orders(state, "ann", 7)
    raw = order_mail(
        GAME, "ann", passwords["ann"], text, sender=addresses["ann"], message_id="ann3@x"
    )
    assert receive(service, raw, now=NOW).status == "accepted"
    with transaction(service.db) as session:
        row = session.exec(select(OrderSet).where(OrderSet.turn == 3)).one()
        row.text += f"\n{planted.new('pending-orders')}"


def _plant_press(
    service: Service, planted: Planted, passwords: dict[str, str], addresses: dict[str, str]
) -> None:
    """ann writes to bob alone."""
    block = f"PRESS TO bob\nA secret plan: {planted.new('private-press')}\nEND PRESS\n"
    raw = order_mail(
        GAME, "ann", passwords["ann"], block, sender=addresses["ann"], message_id="press@x"
    )
    receive(service, raw, now=NOW)


def _plant_quarantine(service: Service, planted: Planted) -> None:
    """A mail of a stranger claiming ann's seat with a wrong password: quarantined."""
    sender = f"{planted.new('quarantine-sender')}@example.org"
    subject = planted.new("quarantine-subject")
    body = f"GAME {GAME} SEAT ann PASSWORD {planted.new('quarantine-body')}\nHello\n"
    receive(service, mail(body, sender=sender, subject=subject, message_id="q@x"), now=NOW)
    assert quarantined(service), "the stranger's mail is quarantined"


def _plant_audit_reason(service: Service, planted: Planted, referee: str) -> None:
    args = argparse.Namespace(
        game=GAME,
        name="deadline",
        args=["extend", "24h"],
        reason=planted.new("audit-reason"),
        actor=referee,
    )
    run_referee(service, args, NOW + timedelta(minutes=5))


def _text_chunks(path: Path) -> bytes:
    """What a PNG says of itself beyond its pixels (tEXt, zTXt, iTXt, eXIf), decompressed."""
    image = Image.open(path)
    said = [f"{key}={value}" for key, value in image.info.items() if isinstance(value, str)]
    said += [f"{key}={value}" for key, value in getattr(image, "text", {}).items()]
    raw = path.read_bytes()
    at = 8
    while at < len(raw):  # the compressed chunks' own bytes, whatever PIL makes of them
        length = int.from_bytes(raw[at : at + 4], "big")
        kind, data = raw[at + 4 : at + 8], raw[at + 8 : at + 8 + length]
        if kind == b"zTXt":
            said.append(zlib.decompress(data.split(b"\0", 1)[1][1:]).decode("latin-1"))
        at += 12 + length
    return "\n".join(said).encode()


def _public_files(root: Path) -> Iterator[Path]:
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).parts
        if not path.is_file() or relative[0] == "desk":
            continue
        if len(relative) > 2 and relative[0] == "games" and relative[2] == "seats":
            continue
        yield path


def _contents(path: Path) -> bytes:
    data = path.read_bytes().lower()
    if path.suffix == ".png":
        data += b"\n" + _text_chunks(path).lower()
    return data


@pytest.fixture(scope="module", params=RULESETS)
def site(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Service, Path, Planted]]:
    folder = tmp_path_factory.mktemp(f"privacy-{request.param}")
    with archive_service(folder, quick_settings()) as service:
        planted = Planted()
        _played_game(service, request.param, planted)
        yield service, write_site(service), planted


def test_no_planted_string_nor_secret_token_is_on_a_public_page(
    site: tuple[Service, Path, Planted],
) -> None:
    service, root, planted = site
    public = list(_public_files(root))
    names = {path.relative_to(root).as_posix() for path in public}
    assert {"index.html", "style.css", "games/g1/index.html", "games/g1/turn-2.html"} <= names
    assert "games/g1/chart.html" in names and "games/g1/archive.json" in names
    tokens = {f"seat {name}": seat_path(service, GAME, name).split("/")[3] for name in NAMES} | {
        "desk": desk_path(service).split("/")[1]
    }
    assert all(len(token) >= 32 for token in tokens.values()), tokens
    secrets = planted.strings | tokens
    with transaction(service.db) as session:
        for row in session.exec(select(Seat).where(Seat.game_id == GAME)):
            secrets[f"password hash {row.name}"] = row.password_hash
    for path in public:
        data = _contents(path)
        leaked = [kind for kind, secret in secrets.items() if secret.lower().encode() in data]
        assert not leaked, (path.relative_to(root).as_posix(), leaked)


def test_the_planted_strings_that_belong_there_are_on_the_seat_pages_and_the_desk(
    site: tuple[Service, Path, Planted],
) -> None:
    service, root, planted = site
    strings = planted.strings
    ann = (root / seat_path(service, GAME, "ann")).parent
    bob = (root / seat_path(service, GAME, "bob")).parent
    assert strings["report-ann"] in (ann / "turn-1.html").read_text()
    assert strings["report-ann"] not in (bob / "turn-1.html").read_text()  # ann's alone
    assert seat_path(service, GAME, "ann").split("/")[3] not in _all_text(bob)
    desk = (root / desk_path(service)).parent
    on_desk = _all_text(desk)
    for kind in ("address-ann", "address-bob", "referee", "audit-reason", "quarantine-sender"):
        assert strings[kind] in on_desk, kind
    # Never anywhere: what no page needs (a password, orders not yet played, another
    # seat's press, a quarantined mail's own text).
    everything = b"".join(_contents(path) for path in root.rglob("*") if path.is_file())
    for kind, secret in strings.items():
        if kind.startswith(("password-", "pending-", "private-press", "quarantine-body")):
            assert secret.encode() not in everything, kind
    assert strings["quarantine-subject"].encode() not in everything
    with transaction(service.db) as session:  # the planted things are really stored
        assert session.exec(select(OrderSet).where(OrderSet.turn == 3)).one()
    assert json.loads((root / "games/g1/archive.json").read_text())["turns"]
    assert [t.number for t in turns(service, GAME)] == [1, 2, 3]


def _all_text(folder: Path) -> str:
    return "\n".join(path.read_text() for path in sorted(folder.rglob("*.html")))


def test_the_png_text_chunks_are_read(tmp_path: Path) -> None:
    """The check of the pictures' metadata finds a string hidden in a compressed chunk."""
    info = PngInfo()
    info.add_text("Comment", "planted-in-ztxt", zip=True)
    path = tmp_path / "a.png"
    Image.new("RGB", (4, 4)).save(path, pnginfo=info)
    assert b"planted-in-ztxt" not in path.read_bytes()
    assert b"planted-in-ztxt" in _contents(path)
