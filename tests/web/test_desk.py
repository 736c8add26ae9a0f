"""Each referee's desk (docs/web.md): a desk of their own, behind a link of their own, with
the games they referee and no other (a referee of two games sees both), mailed to them when
they are made a referee; it waits for the seats `game show` waits for, and its audit log is
not cut at a mail's 72 columns."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from sqlmodel import select

from pbem.cli import main
from pbem.config import Settings
from pbem.console.referee import run as run_referee
from pbem.games.games import awaited, pending_turn
from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.referee.roles import give_passwords
from pbem.store import Game, Referee, transaction
from pbem.store.work import work_of
from pbem.web.archive import desk_path, desk_paths, write_game, write_site
from tests.support.games import body, new_game, outbox
from tests.support.mails import mail, order_mail
from tests.web.support import PASSWORDS, SEATS, archive_service, web_settings

BASE = "https://pbem.example.org/archive"


@pytest.fixture
def service(tmp_path: Path, settings: Settings) -> Iterator[Service]:
    with archive_service(tmp_path, settings) as made:
        yield made


def _game(service: Service, now: datetime, game: str, *referees: str) -> None:
    new_game(service, now, game=game, ruleset="tribes", seats=SEATS, referees=list(referees))


def _desk(service: Service, site: Path, referee: str) -> Path:
    return (site / desk_path(service, referee)).parent


def _pages(folder: Path) -> set[str]:
    return {page.name for page in folder.glob("*.html")}


def test_each_referee_has_a_desk_of_their_own_games_and_of_no_other(
    service: Service, now: datetime
) -> None:
    _game(service, now, "g1", "ann@ref.example")
    _game(service, now, "g2", "bob@ref.example")
    _game(service, now, "g3", "ann@ref.example", "cy@ref.example")
    stranger = "GAME g2 SEAT alice PASSWORD wrong-one\nHello\n"
    receive(service, mail(stranger, sender="stranger@example.net", message_id="q@x"), now=now)
    site = write_site(service)
    assert sorted(desk_paths(service)) == ["ann@ref.example", "bob@ref.example", "cy@ref.example"]
    ann, bob, cy = (_desk(service, site, f"{n}@ref.example") for n in ("ann", "bob", "cy"))
    assert len({ann, bob, cy}) == 3 and {p.name for p in (site / "desk").iterdir()} == {
        ann.name,
        bob.name,
        cy.name,
    }
    assert _pages(ann) == {"index.html", "game-g1.html", "game-g3.html"}  # both of ann's
    assert _pages(bob) == {"index.html", "game-g2.html"}
    assert _pages(cy) == {"index.html", "game-g3.html"}
    ann_index, bob_index = (ann / "index.html").read_text(), (bob / "index.html").read_text()
    assert "game-g1.html" in ann_index and "game-g2.html" not in ann_index
    assert "ann@ref.example" in ann_index and "bob@ref.example" not in ann_index
    # The quarantined mail of g2 is at g2's referee's desk alone.
    assert "stranger@example.net" in bob_index and "stranger@example.net" not in ann_index
    assert "stranger@example.net" not in (cy / "index.html").read_text()
    # After one game's change the desks of its referees follow; no other desk gains it.
    _game(service, now, "g4", "bob@ref.example")
    write_game(service, "g4")
    assert _pages(bob) == {"index.html", "game-g2.html", "game-g4.html"}
    assert "game-g4.html" in (bob / "index.html").read_text()
    assert _pages(ann) == {"index.html", "game-g1.html", "game-g3.html"}
    # No longer g2's referee: at g2's next write its page leaves bob's desk.
    with transaction(service.db) as session:
        row = session.exec(select(Referee).where(Referee.game_id == "g2")).one()
        session.delete(row)
    write_game(service, "g2")
    assert _pages(bob) == {"index.html", "game-g4.html"}
    assert "game-g2.html" not in (bob / "index.html").read_text()


def test_a_new_referee_is_mailed_the_link_of_their_desk(
    service: Service, now: datetime, tmp_path: Path
) -> None:
    service = Service(service.db, web_settings(service.settings, tmp_path, base_url=BASE))
    _game(service, now, "g1", "ann@ref.example")
    _game(service, now, "g2", "ann@ref.example", "bob@ref.example")
    with transaction(service.db) as session:
        for game_id in ("g1", "g2"):
            game = session.get(Game, game_id)
            assert game is not None
            give_passwords(work_of(session), service.settings, game, now=now)
    links: dict[str, list[str]] = {}
    for row in outbox(service):
        found = re.search(r"Your desk: (\S+)", body(row))
        if found:
            links.setdefault(row.recipient, []).append(found.group(1))
    ann_desk = BASE + "/" + desk_path(service, "ann@ref.example").removesuffix("index.html")
    bob_desk = BASE + "/" + desk_path(service, "bob@ref.example").removesuffix("index.html")
    assert links == {"ann@ref.example": [ann_desk, ann_desk], "bob@ref.example": [bob_desk]}
    assert ann_desk != bob_desk
    write_site(service)
    assert (tmp_path / "web" / desk_path(service, "bob@ref.example")).exists()


def test_no_desk_link_is_mailed_without_a_base_url(service: Service, now: datetime) -> None:
    _game(service, now, "g1", "ann@ref.example")
    with transaction(service.db) as session:
        game = session.get(Game, "g1")
        assert game is not None
        assert give_passwords(work_of(session), service.settings, game, now=now) == 1
    [mailed] = [row for row in outbox(service) if row.recipient == "ann@ref.example"]
    assert "Your password:" in body(mailed) and "desk" not in body(mailed)


def test_a_resigned_seat_in_civil_disorder_is_not_awaited_at_the_desk(
    service: Service, now: datetime
) -> None:
    new_game(service, now, ruleset="tribes", seats=SEATS, referees=["ann@ref.example"],
             resign="disorder")  # fmt: skip
    text = f"GAME g1 SEAT cy PASSWORD {PASSWORDS['cy']}\nRESIGN\n"
    receive(service, mail(text, sender="cy@example.org", message_id="r@x"), now=now)
    with transaction(service.db) as session:
        game = session.get(Game, "g1")
        assert game is not None
        turn = pending_turn(work_of(session), game)
        assert turn is not None
        shown = awaited(work_of(session), game, turn, now=now).waiting  # what `game show` says
    assert shown == ["alice", "bob"]
    site = write_site(service)
    index = (_desk(service, site, "ann@ref.example") / "index.html").read_text()
    assert "<td>-</td><td>alice, bob</td><td>-</td></tr>" in index  # none in; both awaited


REASON = " ".join(["the players asked for more time over the holidays"] * 3)  # 152 columns


def _extended(service: Service, now: datetime) -> argparse.Namespace:
    """Game g1, refereed by ann, its deadline extended with a long reason: the command."""
    _game(service, now, "g1", "ann@ref.example")
    namespace = argparse.Namespace(game="g1", name="deadline", args=["extend", "24h"],
                                   reason=REASON, actor="ann@ref.example")  # fmt: skip
    run_referee(service, namespace, now)
    return namespace


def test_the_desk_audit_is_not_cut_at_a_mails_72_columns(service: Service, now: datetime) -> None:
    _extended(service, now)
    site = write_site(service)
    page = (_desk(service, site, "ann@ref.example") / "game-g1.html").read_text()
    assert f"    why: {REASON}\n" in page  # one line: the page wraps it at its own width
    assert '<pre class="text audit">' in page
    assert "pre.audit { white-space: pre-wrap;" in (site / "style.css").read_text()


def test_the_referee_log_by_mail_still_wraps_at_72(service: Service, now: datetime) -> None:
    """The audit as mailed (AUDIT, `pbem referee GAME audit`) keeps a mail's width."""
    namespace = _extended(service, now)
    asked = argparse.Namespace(**{**vars(namespace), "name": "audit", "args": [], "reason": "x"})
    shown = run_referee(service, asked, now)
    assert REASON[:40] in shown
    assert max(len(line) for line in shown.splitlines()) <= 72


def test_orders_on_file_of_a_seat_in_civil_disorder_are_not_counted_in(
    service: Service, now: datetime, capsys: pytest.CaptureFixture[str]
) -> None:
    """Resolution plays a seat in civil disorder with no orders, whatever is on file for it:
    the desk and `game show` say its orders are on file but not played, as the preview does,
    never that they are in; nor does a deadline notice tell its player so."""
    new_game(service, now, referees=["ann@ref.example"])
    raw = order_mail("g1", "bob", "pw-bob", "ADD 2\n", message_id="b@x")
    assert receive(service, raw, now=now).status == "accepted"
    url = service.db.url.render_as_string(hide_password=False)
    referee = ["--db", url, "--now", now.isoformat(), "referee", "g1"]
    assert main([*referee, "disorder", "bob", "--reason", "gone"]) == 0
    assert main([*referee, "deadline", "extend", "24h", "--reason", "holidays"]) == 0
    [notice] = [r for r in outbox(service) if r.subject == "[g1] turn 1: new deadline"
                and r.recipient == "bob@example.org"]  # fmt: skip
    assert "Your orders for turn 1 are in" not in " ".join(body(notice).split())
    capsys.readouterr()
    assert main(["--db", url, "--now", now.isoformat(), "game", "show", "g1"]) == 0
    shown = capsys.readouterr().out
    assert "orders in from: nobody; on file, not played: bob (civil disorder)\n" in shown
    site = write_site(service)
    desk = _desk(service, site, "ann@ref.example")
    index = (desk / "index.html").read_text()
    assert "<td>-</td><td>alice</td><td>bob</td></tr>" in index  # in, waiting, not played
    page = (desk / "game-g1.html").read_text()
    assert "<td>on file, not played</td>" in page
