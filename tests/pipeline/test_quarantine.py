"""The quarantine keeps what failed with the error; a replay handles the stored mail again."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from pbem.games.service import Service
from pbem.intake.context import MailContext
from pbem.intake.intake import receive, replay
from pbem.intake.quarantine import QuarantineError, entries, entry
from pbem.intake.reasons import REASONS
from pbem.store import transaction
from pbem.store.work import work_of
from tests.support.games import inbound, new_game, orders, outbox
from tests.support.mails import order_mail


def test_a_mail_for_a_game_made_later_is_applied_on_replay(service: Service, now: datetime) -> None:
    raw = order_mail("g1", "alice", "pw-alice", "ADD 2\n")
    assert receive(service, raw, now=now).status == "quarantined"
    with transaction(service.db) as session:
        [item] = entries(work_of(session))
        shown, stored = entry(work_of(session), item.id)
    assert shown == item
    assert (item.reason, item.error, item.sender) == (
        "unknown-game",
        "there is no game g1",
        "alice@example.org",
    )
    assert stored == raw
    new_game(service, now)
    receipt = replay(service, item.id, now=now)
    assert receipt.status == "accepted"
    assert orders(service)[0].text == "ADD 2"
    assert inbound(service)[0].attempts == 2
    with transaction(service.db) as session:
        assert entries(work_of(session)) == []
        assert [e.released_at for e in entries(work_of(session), include_released=True)] == [now]
    replies = outbox(service, "reply")
    assert len(replies) == 2 and len({row.message_id for row in replies}) == 2
    with pytest.raises(QuarantineError):
        replay(service, item.id, now=now)


def test_a_replay_that_fails_again_is_quarantined_again(service: Service, now: datetime) -> None:
    new_game(service, now, ruleset="counting-broken")
    receive(service, order_mail("g1", "alice", "pw-alice", "EXPLODE\n"), now=now)
    receipt = replay(service, 1, now=now)
    assert receipt.status == "quarantined"
    with transaction(service.db) as session:
        [again] = entries(work_of(session))
    assert again.id == 2 and "the test ruleset exploded" in again.error


def test_every_quarantine_reason_is_explained_in_the_operations_table() -> None:
    """Issue 43, point 14: `referee-password` and `seat-bot` were set aside but missing from
    docs/operations.md's table. The reasons are one list, and set_aside takes no other."""
    text = (Path(__file__).parents[2] / "docs" / "operations.md").read_text()
    table = text.split("| reason | meaning |", 1)[1].split("\n\n", 1)[0]
    explained = {
        code.strip() for row in table.splitlines()[2:] for code in row.split("|")[1].split(",")
    }
    assert set(REASONS) <= explained, set(REASONS) - explained
    assert explained <= set(REASONS), explained - set(REASONS)


def test_a_reason_nobody_explained_is_refused(now: datetime) -> None:
    """Checked before anything is written: the mail's context is not needed to refuse it."""
    context = MailContext(None, None, None, None, now)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no quarantine reason 'oops'"):
        context.set_aside("oops", "an error")
