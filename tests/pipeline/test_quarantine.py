"""The quarantine keeps what failed with the error; a replay handles the stored mail again."""

from __future__ import annotations

from datetime import datetime

import pytest

from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.intake.quarantine import QuarantineError, entries, entry, replay
from pbem.store import transaction
from tests.support.games import inbound, new_game, orders, outbox
from tests.support.mails import order_mail


def test_a_mail_for_a_game_made_later_is_applied_on_replay(service: Service, now: datetime) -> None:
    raw = order_mail("g1", "alice", "pw-alice", "ADD 2\n")
    assert receive(service, raw, now=now).status == "quarantined"
    with transaction(service.db) as session:
        [item] = entries(session)
        shown, stored = entry(session, item.id)
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
        assert entries(session) == []
        assert [e.released_at for e in entries(session, include_released=True)] == [now]
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
        [again] = entries(session)
    assert again.id == 2 and "the test ruleset exploded" in again.error
