"""The outbox on the real SMTP server, through `pbem serve --once`: a deferral (4xx at DATA)
waits its retry time until the server takes a mail again, a refusal (550 for an unknown
mailbox) bounces at once, and the game's referee is told once, by mail that really arrives."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import Engine

from pbem.cli import main
from pbem.config import Settings
from pbem.games.lifecycle import SeatSpec
from pbem.games.service import Service
from pbem.mail.compose import text_of
from pbem.store import utcnow
from tests.servers.moderated import logging_restored, write_config
from tests.servers.world import MailWorld
from tests.support.games import new_game, outbox


@pytest.fixture(autouse=True)
def _logging() -> Iterator[None]:
    with logging_restored():
        yield


def test_deferred_mail_waits_and_refused_mail_bounces_to_the_referee(
    world: MailWorld,
    db: Engine,
    settings: Settings,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    moderator, alice, referee = (
        world.account("moderator"),
        world.player("alice"),
        world.player("ref"),
    )
    ghost = "ghost@pbem.test"  # no such mailbox: the relay refuses it at RCPT
    service = Service(db, settings)
    now = utcnow().replace(microsecond=0)
    seats = [SeatSpec("alice", alice.address, "pw-a"), SeatSpec("ghost", ghost, "pw-g")]
    new_game(service, now, seats=seats, referees=[referee.address], deadline_policy="none")
    config = write_config(tmp_path, world, moderator, db, tmp_path / "pbem.log")

    def serve_once(at: timedelta) -> list[str]:
        assert (
            main(["--now", (now + at).isoformat(), "serve", "--once", "--config", str(config)]) == 0
        )
        return capsys.readouterr().out.splitlines()

    world.relay.defer = "451 4.3.0 try again later"
    # The notice, queued when ghost's mail bounced, is tried in the same drain: deferred too.
    assert serve_once(timedelta(0)) == [
        "mail in: 0 (none)",
        "mail out: 0 sent, 3 not sent, 1 bounced",
    ]
    # Neither alice's start mail nor the notice is tried before its retry time.
    assert serve_once(timedelta(seconds=30))[-1] == "mail out: 0 sent, 0 not sent, 0 bounced"
    world.relay.defer = None
    assert serve_once(timedelta(seconds=45))[-1] == "mail out: 0 sent, 0 not sent, 0 bounced"
    # Alice's mail is due a minute after its first try; once the server takes it, the notice
    # (deferred while it failed everything) goes at once, not at its own retry time.
    assert serve_once(timedelta(seconds=60))[-1] == "mail out: 2 sent, 0 not sent, 0 bounced"
    assert serve_once(timedelta(hours=1))[-1] == "mail out: 0 sent, 0 not sent, 0 bounced"

    [notice] = referee.wait_for_mail(1)
    assert notice["Subject"] == "[g1] undeliverable: [g1] game begins: you are ghost"
    assert "\r\n  To:       ghost@pbem.test\r\n" in text_of(notice)
    assert [m["Subject"] for m in alice.wait_for_mail(1)] == ["[g1] game begins: you are alice"]
    rows = {row.recipient: row for row in outbox(service)}
    assert (rows[alice.address].attempts, rows[alice.address].last_error) == (
        2,
        "smtp: 451 4.3.0 try again later",
    )
    assert rows[ghost].bounced_at == now and rows[ghost].last_error == (
        "ghost@pbem.test: 550 5.1.1 <ghost@pbem.test>: Recipient address rejected: User unknown"
    )
    assert [world.relay.delivered_to(a) for a in (alice.address, referee.address)] == [1, 1]
