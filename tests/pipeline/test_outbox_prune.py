"""Retention of sent mail (pbem.games.outbox_prune): [outbox] keep_sent_days after a mail was
sent its bytes are dropped and its row kept, so the audit, the reply limit and the Message-ID
still see it; mail not sent is never touched; a report asked again is drawn again from the
stored turn. The clocks prune in batches, a few minutes apart; `serve --once` and `pbem
outbox prune` too."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from pbem.cli import main
from pbem.clock import run_due
from pbem.clock.turns import resolve_due
from pbem.config import LimitSettings, OutboxSettings, Settings
from pbem.daemon.command import outbox_lines
from pbem.games import outbox_prune
from pbem.games.outbox import drain, replies_allowed
from pbem.games.outbox_prune import EVERY, prunable, prune
from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.mail.maildir import MaildirSender
from pbem.store import Outbox, transaction
from tests.pipeline.test_cli import NOW, _new_game, workdir
from tests.pipeline.test_outbox_retries import DEFERRED, REFUSED, ScriptedSender
from tests.support.games import body, new_game, outbox
from tests.support.mails import mail, order_mail

__all__ = ["workdir"]  # the fixture, shared with test_cli

DAY = timedelta(days=1)
KEEP = 30 * DAY  # the default [outbox] keep_sent_days


def _metadata(row: Outbox) -> tuple[Any, ...]:
    """What a pruned row keeps: all but its bytes."""
    return (
        row.id, row.message_id, row.kind, row.recipient, row.subject, row.game_id,
        row.created_at, row.sent_at, row.attempts, row.bounced_at, row.next_attempt_at,
    )  # fmt: skip


def _help(service: Service, now: datetime, n: int) -> None:
    receive(service, mail("HELP", message_id=f"help{n}@x"), now=now)


def test_only_mail_sent_longer_ago_than_keep_sent_days_loses_its_bytes(
    service: Service, now: datetime, tmp_path: Path
) -> None:
    new_game(service, now)  # the start mails: alice's is sent, bob's refused (bounced)
    drain(service, ScriptedSender(None, REFUSED), now=now)
    _help(service, now + 20 * DAY, 1)
    drain(service, MaildirSender(tmp_path / "out"), now=now + 20 * DAY)  # sent 20 days on
    _help(service, now, 2)
    drain(service, ScriptedSender(DEFERRED), now=now)  # deferred: tried again later
    _help(service, now, 3)  # waiting
    before = {row.id: row for row in outbox(service)}
    states = [(r.kind, r.sent_at is not None, r.bounced_at is not None) for r in before.values()]
    assert states == [
        ("report", True, False),
        ("report", False, True),
        ("reply", True, False),
        ("reply", False, False),
        ("reply", False, False),
    ]
    # Sent exactly keep_sent_days ago is not yet older than that.
    assert prune(service, now + KEEP) == outbox_prune.Pruned()
    later = now + KEEP + timedelta(seconds=1)
    assert prunable(service, later) == outbox_prune.Pruned(1, len(before[1].raw))
    assert prune(service, later) == outbox_prune.Pruned(1, len(before[1].raw))
    after = {row.id: row for row in outbox(service)}
    assert _metadata(after[1]) == _metadata(before[1])
    assert (after[1].raw, after[1].pruned_at) == (b"", later)
    for row_id in (2, 3, 4, 5):  # bounced, sent 10 days before, deferred, waiting
        assert (after[row_id].raw, after[row_id].pruned_at) == (before[row_id].raw, None)
    assert prune(service, later + 100 * DAY).mails == 1  # the reply sent 20 days on, alone
    assert prunable(service, later + 100 * DAY) == outbox_prune.Pruned()


def test_outbox_list_marks_the_rows_whose_bytes_are_pruned(
    service: Service, now: datetime, tmp_path: Path
) -> None:
    _help(service, now, 1)
    drain(service, MaildirSender(tmp_path / "out"), now=now)
    _help(service, now + 10 * DAY, 2)
    drain(service, MaildirSender(tmp_path / "out"), now=now + 10 * DAY)
    prune(service, now + 31 * DAY)
    states = [line.split()[6:] for line in outbox_lines(service, include_sent=True)]
    assert states == [["03-01", "12:00", "pruned", "1"], ["03-11", "12:00", "1"]]


def test_a_report_asked_again_after_its_bytes_are_pruned_is_drawn_again(
    service: Service, now: datetime, tmp_path: Path
) -> None:
    new_game(service, now)
    for seat in ("alice", "bob"):
        raw = order_mail("g1", seat, f"pw-{seat}", "ADD 2\n", message_id=f"{seat}@x")
        receive(service, raw, now=now)
    assert [summary.turn for summary in resolve_due(service, now=now)] == [1]
    drain(service, MaildirSender(tmp_path / "out"), now=now)
    [report] = [r for r in outbox(service, "report") if r.subject == "[g1] turn 1 report"
                and r.recipient == "bob@example.org"]  # fmt: skip
    first = body(report)
    later = now + 31 * DAY
    assert prune(service, later).mails == len(outbox(service))  # every mail, the reports too
    assert [r.raw for r in outbox(service) if r.id == report.id] == [b""]
    asked = mail("GAME g1 SEAT bob PASSWORD pw-bob\nREPORT 1\n", sender="bob@example.org")
    receipt = receive(service, asked, now=later)
    assert receipt.status == "answered", receipt.outcome
    [reply] = receipt.replies
    assert body(reply) == first


def test_the_reply_limit_still_counts_the_pruned_mails(db: Any, now: datetime) -> None:
    settings: Settings = replace(
        Service(db, Settings()).settings,
        limits=LimitSettings(replies_per_sender=2, reply_window_minutes=3 * 24 * 60),
        outbox=OutboxSettings(keep_sent_days=1),
    )
    service = Service(db, settings)
    for n in (1, 2):
        _help(service, now, n)
    drain(service, ScriptedSender(), now=now)
    later = now + DAY + timedelta(minutes=1)
    assert prune(service, later).mails == 2
    with service.store.reading() as work:
        assert not replies_allowed(work, settings, "alice@example.org", now=later)
    receipt = receive(service, mail("HELP", message_id="help3@x"), now=later)
    assert receipt.replies == []
    assert "reply rate limit reached" in receipt.outcome


def test_keep_sent_days_0_keeps_every_mail_for_ever(db: Any, now: datetime) -> None:
    service = Service(db, replace(Settings(), outbox=OutboxSettings(keep_sent_days=0)))
    _help(service, now, 1)
    drain(service, ScriptedSender(), now=now)
    assert prune(service, now + 3650 * DAY) == outbox_prune.Pruned()
    assert run_due(service, now + 3650 * DAY).pruned == outbox_prune.Pruned()
    [row] = outbox(service)
    assert row.raw and row.pruned_at is None


def test_the_clocks_prune_a_batch_at_a_look_then_every_few_minutes(
    service: Service, now: datetime, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(outbox_prune, "BATCH", 2)
    for n in range(5):
        _help(service, now, n)
    drain(service, ScriptedSender(), now=now)
    later = now + 31 * DAY
    # A daemon's pass out of time: a batch a look while some are left...
    pruned = [run_due(service, later, enough=lambda: True).pruned for _ in range(3)]
    assert [(p.mails, p.left) for p in pruned] == [(2, True), (2, True), (1, False)]
    _help(service, now + DAY, 5)
    drain(service, ScriptedSender(), now=now + DAY)
    # ...then, all pruned, not again before EVERY has passed.
    assert run_due(service, later + EVERY - timedelta(seconds=1)).pruned.mails == 0
    assert run_due(service, later + EVERY).pruned.mails == 1
    assert all(row.pruned_at is not None for row in outbox(service))


def test_a_prune_reads_the_kept_rows_from_their_own_index(service: Service, now: datetime) -> None:
    """Every mail ever sent keeps its row: a prune reads the sent rows still kept, oldest
    first, from the partial index ix_outbox_kept, not from every row sent."""
    read: list[tuple[str, Any]] = []

    def watch(_conn: object, _cursor: object, statement: str, parameters: Any, *_: object) -> None:
        if statement.startswith("SELECT"):
            read.append((statement, parameters))

    event.listen(service.db, "before_cursor_execute", watch)
    try:
        prune(service, now)
    finally:
        event.remove(service.db, "before_cursor_execute", watch)
    [(statement, parameters)] = read
    explain = "EXPLAIN" if service.db.dialect.name == "postgresql" else "EXPLAIN QUERY PLAN"
    with transaction(service.db) as session:
        if explain == "EXPLAIN":  # a plan for the table as it will be, not as empty as now
            session.connection().exec_driver_sql("SET LOCAL enable_seqscan = off")
        plan = session.connection().exec_driver_sql(f"{explain} {statement}", parameters)
        assert "ix_outbox_kept" in " ".join(str(row) for row in plan)


def test_a_prune_with_nothing_due_takes_no_write_transaction(
    service: Service, now: datetime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 45: the clocks' prune took a write transaction to find nothing to prune, and on
    SQLite a writer waits behind every other: in a deadline wave the clocks thread, and its
    turns, waited 7 s there. A read finds there is nothing to do."""
    _help(service, now, 1)
    drain(service, ScriptedSender(), now=now)

    def no_write() -> None:
        raise AssertionError("a write transaction to prune nothing")

    with monkeypatch.context() as patched:
        patched.setattr(service.db, "begin", no_write)
        assert prune(service, now + DAY) == outbox_prune.Pruned()
    assert prune(service, now + 31 * DAY).mails == 1  # then one is due: pruned


def test_serve_once_and_outbox_prune_do_prune(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _new_game(capsys)
    assert main(["--config", "pbem.toml", "--now", NOW, "serve", "--once"]) == 0
    assert "outbox:" not in capsys.readouterr().out  # sent now: nothing to prune
    later = (datetime.fromisoformat(NOW) + 31 * DAY).isoformat()
    assert main(["--config", "pbem.toml", "--now", later, "outbox", "prune", "--dry-run"]) == 0
    said = capsys.readouterr().out
    assert said.startswith("2 sent mail(s) older than 30 days would be pruned, 0.0 MB")
    assert main(["--config", "pbem.toml", "--now", later, "serve", "--once"]) == 0
    assert "\noutbox: 2 sent mail(s) pruned, 0.0 MB of their bytes\n" in capsys.readouterr().out
    assert main(["--config", "pbem.toml", "--now", later, "outbox", "prune"]) == 0
    assert capsys.readouterr().out == "0 sent mail(s) pruned, 0.0 MB of their bytes\n"
