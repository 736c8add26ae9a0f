"""An SMTP server that accepts the connection and never answers (issue 20): the daemon's
sends wait for [smtp] timeout_seconds, in the courier's thread; order mail keeps coming in
over IMAP and its check replies keep being written to the outbox meanwhile."""

from __future__ import annotations

import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest
from sqlalchemy import Engine
from sqlmodel import select

from pbem.config import Settings
from pbem.store import InboundMessage, Outbox, transaction, utcnow
from tests.servers.hanging import HangingSmtp
from tests.servers.moderated import Table, daemon_running, logging_restored, seated_table
from tests.servers.moderated import write_config as moderator_config
from tests.servers.world import MailWorld
from tests.support.waiting import wait_until

TIMEOUT = 5  # [smtp] timeout_seconds: each send hangs this long


@pytest.fixture
def hanging() -> Iterator[HangingSmtp]:
    server = HangingSmtp()
    yield server
    server.close()


@pytest.fixture
def table(
    world: MailWorld,
    db: Engine,
    settings: Settings,
    tmp_path: Path,
    hanging: HangingSmtp,
) -> Iterator[Table]:
    with logging_restored():
        table = seated_table(world, db, settings, utcnow(), tmp_path)
        table.config = moderator_config(
            tmp_path,
            world,
            table.moderator,
            db,
            table.log,
            port=hanging.port,
            security="plain",
            timeout_seconds=TIMEOUT,
        )
        yield table


def answered(table: Table, message_id: str, replies: int) -> bool:
    """The mail is recorded as answered and `replies` check replies are in the outbox (the
    reply is written in the mail's own transaction)."""
    with transaction(table.service.db) as session:
        stored_id = message_id.strip("<>").lower()  # as intake keeps it
        query = select(InboundMessage.status).where(InboundMessage.message_id == stored_id)
        status = session.exec(query).first()
        queued = session.exec(select(Outbox.id).where(Outbox.kind == "reply")).all()
    return status == "answered" and len(queued) == replies


def test_intake_keeps_flowing_while_the_smtp_server_hangs(
    table: Table, hanging: HangingSmtp
) -> None:
    latencies = []
    with daemon_running(table):
        wait_until(lambda: hanging.connections >= 1)  # the start mails: a send hangs
        for number, seat in enumerate(("alice", "bob", "cy", "alice", "bob", "cy"), 1):
            sent = time.monotonic()
            message_id = table.players[seat].send(
                table.moderator.address, f"GAME g1 SEAT {seat} PASSWORD pw-{seat}\nSTATUS\n"
            )
            done = partial(answered, table, message_id, number)
            wait_until(done, timeout=3 * TIMEOUT)
            latencies.append(time.monotonic() - sent)
            time.sleep(0.7)  # spread the mails over several hung sends
        hung = hanging.connections
    print("intake latency with a hanging SMTP server:", [f"{s:.2f}s" for s in latencies])
    assert hung >= 2  # the courier kept trying (each try ends at the timeout)
    # Taken in and answered (into the outbox) within IDLE's wake-up, never after a hung send.
    assert max(latencies) < 2.0
