"""After an outage of the mail servers (issue 20): the first mail the SMTP server takes again
flushes the mail it deferred meanwhile, within the rate limit; reminders whose deadline went
by and notices a newer one replaced are dropped, never sent stale, while reports and replies
all arrive; and the deadlines an outage pushes back are logged, once."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import Engine

from pbem.cli import main
from pbem.config import Settings
from pbem.deadlines.options import ClockOptions
from pbem.games.lifecycle import SeatSpec
from pbem.games.service import Service
from pbem.intake.poll import poll_once
from pbem.mail.smtp import SmtpSender
from pbem.store import utcnow
from tests.servers.moderated import (
    SEATS,
    Table,
    daemon_running,
    logging_restored,
    seated_table,
    unsent,
    write_config,
)
from tests.servers.test_daemon_on_real_mail import expected
from tests.servers.test_pipeline_on_real_mail import moderated_game
from tests.servers.world import MailWorld
from tests.support.games import new_game, outbox
from tests.support.waiting import wait_until

MAIL_STORE_AWAY = "451 4.3.0 mail store unreachable, try again later"
HOUR = timedelta(hours=1)


@pytest.fixture(autouse=True)
def _logging() -> Iterator[None]:
    with logging_restored():
        yield


def deferred(service: Service) -> int:
    return sum(1 for row in outbox(service) if row.next_attempt_at is not None)


def test_the_first_mail_taken_after_an_outage_flushes_what_was_deferred(
    world: MailWorld, db: Engine, settings: Settings, tmp_path: Path
) -> None:
    table = seated_table(world, db, settings, utcnow(), tmp_path)
    # The moderator's provider defers its mail (its mail store is away); players' mail flows.
    world.relay.defer, world.relay.defer_from = MAIL_STORE_AWAY, table.moderator.address
    with daemon_running(table):
        wait_until(lambda: deferred(table.service) == len(SEATS))  # the start mails, 60 s
        world.relay.defer = None
        restored = time.monotonic()
        table.send_orders()  # the replies to these are the first mail the server takes
        wait_until(lambda: unsent(table.service) == 0, timeout=30)
        drained = time.monotonic() - restored
    print(f"restore to queue drained (9 mails, 3 of them deferred): {drained:.2f}s")
    # Without the flush the start mails would wait out their 60 s retry delay.
    assert drained < 20
    assert [sorted(subjects) for subjects in table.distinct_subjects().values()] == [
        sorted(subjects) for subjects in expected(1).values()
    ]


def test_the_flush_keeps_to_the_rate_limit(
    world: MailWorld, db: Engine, settings: Settings, now: datetime
) -> None:
    table = moderated_game(world, db, settings, now)
    sender = SmtpSender(world.smtp_settings(rate_per_minute=2), clock=table.time.clock)
    world.relay.defer, world.relay.defer_from = MAIL_STORE_AWAY, table.moderator.address
    for player in (table.alice, table.bob):
        player.send(table.moderator.address, "HELP\n")
    with table.inbox as inbox:
        during = poll_once(table.service, inbox, sender, now=now + timedelta(seconds=5))
        waiting = deferred(table.service)
        world.relay.defer = None
        table.time.advance(60)
        table.alice.send(table.moderator.address, "HELP\n")
        after = poll_once(table.service, inbox, sender, now=now + timedelta(seconds=10))
        table.time.advance(60)
        rest = poll_once(table.service, inbox, sender, now=now + timedelta(seconds=20))

    assert (during.drained.sent, during.drained.failed, waiting) == (0, 2, 2)
    # The new reply goes, and flushes the two deferred ones; the limit lets one of them go.
    assert after.drained.sent == 2
    assert after.drained.flushed == 2
    assert after.drained.stopped == "smtp: rate limit of 2 a minute reached"
    # The other is due at once (its retry time would be 60 s after its deferral).
    assert (rest.drained.sent, rest.drained.failed) == (1, 0)
    assert len(table.alice.wait_for_mail(3)) == 3 and len(table.bob.wait_for_mail(2)) == 2


def test_stale_notices_are_dropped_and_reports_still_arrive(
    world: MailWorld,
    db: Engine,
    settings: Settings,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    moderator = world.account("moderator")
    players = {seat: world.player(seat) for seat in ("alice", "bob")}
    service = Service(db, settings)
    start = utcnow().replace(microsecond=0)
    seats = [SeatSpec(seat, player.address, f"pw-{seat}") for seat, player in players.items()]
    options = ClockOptions(reminders="1h", grace="1h")  # the turn resolves an hour late
    new_game(service, start, seats=seats, deadline_policy="interval:2h", clock=options)
    config = write_config(tmp_path, world, moderator, db, tmp_path / "pbem.log")

    def pbem(at: timedelta, *command: str) -> list[str]:
        when = (start + at).isoformat()
        assert main(["--config", str(config), "--now", when, *command]) == 0
        return capsys.readouterr().out.splitlines()

    world.smtp["starttls"].stop()
    pbem(timedelta(0), "serve", "--once")
    pbem(timedelta(minutes=30), "game", "pause", "g1", "--reason", "a holiday")
    pbem(timedelta(minutes=40), "game", "resume", "g1")  # the deadline: 2h10m
    pbem(timedelta(minutes=71), "serve", "--once")  # the reminders, 1 h before it
    world.smtp["starttls"].start()
    back = pbem(timedelta(minutes=132), "serve", "--once")  # past the deadline
    resolved = pbem(timedelta(minutes=191), "serve", "--once")  # the turn and its reports

    assert back[-1] == "mail out: 4 sent, 0 not sent, 0 bounced, 2 dropped"
    assert resolved[-2:] == ["resolved g1 turn 1", "mail out: 2 sent, 0 not sent, 0 bounced"]
    for seat, player in players.items():
        assert sorted(m["Subject"] for m in player.wait_for_mail(3)) == [
            f"[g1] game begins: you are {seat}",
            "[g1] game resumed",
            "[g1] turn 1 report",
        ]
    listing = pbem(timedelta(minutes=192), "outbox", "list")
    assert len(listing) == 4 and all(" dropped " in line for line in listing)
    deadline = (start + timedelta(minutes=130)).strftime("%Y-%m-%d %H:%M UTC")
    stale = [line for line in listing if line.endswith(f" stale: its moment passed at {deadline}")]
    superseded = [line for line in listing if " superseded by a newer notice <" in line]
    assert (len(stale), len(superseded)) == (2, 2)


def test_an_outage_push_back_is_logged_once(
    world: MailWorld,
    db: Engine,
    settings: Settings,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    table: Table = seated_table(world, db, settings, utcnow(), tmp_path)
    start = utcnow().replace(microsecond=0)
    seats = [SeatSpec(seat, table.players[seat].address, f"pw-{seat}") for seat in SEATS]
    new_game(table.service, start, game="g2", seats=seats, deadline_policy="interval:2h")
    late = (start + 5 * HOUR).isoformat()
    for _ in range(2):
        assert main(["--config", str(table.config), "--now", late, "serve", "--once"]) == 0
    capsys.readouterr()
    moved = [line for line in table.log.read_text().splitlines() if "pushed back" in line]
    old = (start + 2 * HOUR).strftime("%Y-%m-%d %H:%M")
    new = (start + 29 * HOUR).strftime("%Y-%m-%d %H:%M")
    assert len(moved) == 1
    assert moved[0].split(" WARNING ", 1)[1] == (
        f"pbem.clock.run [game=g2 msg=-] outage: the deadline of turn 1 was pushed back from "
        f"{old} UTC to {new} UTC: the moderator was not running when it passed 3h ago; "
        "every seat and referee is told"
    )
