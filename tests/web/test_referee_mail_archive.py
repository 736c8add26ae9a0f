"""The archive follows a referee's commands given by mail as it follows those of the command
line: `pbem serve --once` takes the mail in, and the replaced player's seat pages are gone, the
overview shows the new deadline (issue 43's fresh-eyes test: the old seat link still worked).
On SQLite and PostgreSQL, with the real command line, a config file and the maildir folders."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy import Engine
from sqlmodel import Session

from pbem.cli import main
from pbem.config import Settings
from pbem.games.service import Service
from pbem.mail.maildir import MaildirInbox
from pbem.store import Game, reading
from pbem.store.changes import note_changed, unwatch, watch
from pbem.store.db import new_session
from pbem.web.archive import seat_path, write_site
from tests.referee.support import referee_game, referee_mail
from tests.servers.moderated import logging_restored
from tests.web.support import web_settings

LATER = "2026-03-01T13:00:00+00:00"


@pytest.fixture
def web_service(
    db: Engine, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Service]:
    """The database's service with its archive in tmp_path/web, as the config file there says."""
    monkeypatch.delenv("PBEM_WEB__FOLDER", raising=False)
    monkeypatch.delenv("PBEM_WEB__SECRET_FILE", raising=False)
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    (tmp_path / "pbem.toml").write_text(
        '[security]\npassword_cost = 4\n[web]\nfolder = "web"\nsecret_file = "web-secret"\n'
    )
    service = Service(db, web_settings(settings, tmp_path))
    yield service
    unwatch(db)


def _serve_once(tmp_path: Path, db: Engine) -> None:
    url = db.url.render_as_string(hide_password=False)
    config = str(tmp_path / "pbem.toml")
    with logging_restored():
        assert main(["--config", config, "--db", url, "--now", LATER, "serve", "--once"]) == 0


def test_a_referee_mail_rewrites_the_archive_in_serve_once(
    web_service: Service, now: datetime, tmp_path: Path, db: Engine
) -> None:
    referee_game(web_service, now)
    write_site(web_service)
    old = tmp_path / "web" / seat_path(web_service, "g1", "bob")
    overview = tmp_path / "web" / "games" / "g1" / "index.html"
    assert old.exists() and "orders due by 2026-03-03 12:00 UTC" in overview.read_text()
    commands = (
        "REPLACE bob carol@example.org BECAUSE bob left\n"
        "DEADLINE set 2026-03-20T12:00 BECAUSE the holidays\n"
    )
    MaildirInbox(tmp_path / "var" / "mail" / "inbox").deliver(referee_mail(commands))
    _serve_once(tmp_path, db)
    new = tmp_path / "web" / seat_path(web_service, "g1", "bob")
    assert new != old and new.exists()
    assert not old.exists() and not old.parent.exists()  # the old player's link is dead
    assert "orders due by 2026-03-20 12:00 UTC" in overview.read_text()


def test_the_watchers_hear_of_a_change_only_at_the_outer_commit(
    db: Engine, settings: Settings
) -> None:
    """A referee mail runs each command in a SAVEPOINT; SQLAlchemy fires after_commit at its
    release, before the change is committed. The daemon's archive runner and serve --once's
    writer read the database when told: they must be told after the real commit, and of the
    commands before a refused one too; a rolled back mail tells nothing."""
    seen: list[str] = []

    def watcher(game_id: str) -> None:
        with reading(db) as session:
            game = session.get(Game, game_id)
            seen.append(game.status if game is not None else "")

    referee_game(Service(db, settings), datetime.fromisoformat(LATER))
    watch(db, watcher)
    try:
        with new_session(db) as session, session.begin():
            _pause_in_a_savepoint(session)
            session.begin_nested().rollback()  # a refused command after it
            assert seen == []
        assert seen == ["paused"]  # after the commit, and the change there to read
        with new_session(db) as session:
            session.begin()
            _pause_in_a_savepoint(session, "running")
            session.rollback()
        assert seen == ["paused"]
    finally:
        unwatch(db)


def _pause_in_a_savepoint(session: Session, status: str = "paused") -> None:
    with session.begin_nested():
        game = session.get(Game, "g1")
        assert game is not None
        game.status = status  # type: ignore[assignment]
        session.add(game)
        note_changed(session, "g1")
