"""Every change of the pending deadline reaches every seat at once, with the new time in the
game's zone; a seat without orders reads that in the same mail, which stands in for the
reminders the new deadline has passed; a paused game keeps a change over its resume; and a
replaced or ejected player hears of it at the address the seat had."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from sqlmodel import select

from pbem.deadlines.options import ClockOptions
from pbem.games.service import Service
from pbem.store import Seat, transaction
from tests.clock.support import orders, reminders, run
from tests.referee.support import Channel, referee_game
from tests.support.games import body, outbox, turns

HOUR = timedelta(hours=1)


def _game(service: Service, now: datetime, **clock: object) -> None:
    options = ClockOptions(**{"timezone": "Europe/Berlin", "reminders": "24h,2h", **clock})
    referee_game(service, now, clock=options)


def _announcements(service: Service) -> dict[str, str]:
    mails = [row for row in outbox(service, "clock") if "new deadline" in row.subject]
    return {row.recipient: body(row) for row in mails}


def test_a_shortened_deadline_is_mailed_to_every_seat_with_a_reminder(
    service: Service, now: datetime, via: Channel
) -> None:
    _game(service, now)
    orders(service, "alice", "ADD 1", now + HOUR)
    via.now = now + 2 * HOUR
    result = via.run("deadline", "set", "2026-03-01T14:03", reason="the map is ready early")
    assert result.endswith("every seat was told; no orders yet from bob")
    mails = _announcements(service)
    assert sorted(mails) == ["alice@example.org", "bob@example.org"]
    for text in mails.values():
        assert "Now:    2026-03-01 14:03 UTC (2026-03-01 15:03 CET in Europe/Berlin)" in text
        assert "Reason: the map is ready early" in text
        assert "That is 3m from now." in text
    assert "We have no orders from bob for turn 1 yet." in mails["bob@example.org"]
    assert "Your orders for turn 1 are in." in mails["alice@example.org"]
    # The mail was bob's reminder: none comes on top of it, before the new deadline.
    assert reminders(service) == [(1, "bob", 86400), (1, "bob", 7200)]
    assert run(service, now + 2 * HOUR + timedelta(minutes=1)).reminders == 0


def test_an_extension_is_announced_and_arms_the_reminders_again(
    service: Service, now: datetime, via: Channel
) -> None:
    _game(service, now)
    run(service, now + 46 * HOUR + timedelta(minutes=1))  # the 2h reminder of the old deadline
    assert reminders(service)[-2:] == [(1, "alice", 7200), (1, "bob", 7200)]
    via.now = now + 47 * HOUR
    via.run("deadline", "extend", "2d", reason="a holiday")
    assert len(_announcements(service)) == 2
    assert "That is 2d1h from now." in _announcements(service)["bob@example.org"]
    assert reminders(service) == []  # both offsets lie ahead of the new deadline again
    assert run(service, now + 72 * HOUR + timedelta(minutes=1)).reminders == 2
    assert run(service, now + 94 * HOUR + timedelta(minutes=1)).reminders == 2


def test_a_change_while_paused_survives_the_resume(
    service: Service, now: datetime, via: Channel
) -> None:
    _game(service, now)
    via.run("pause")
    via.run("deadline", "extend", "1d")
    told = " ".join(_announcements(service)["alice@example.org"].split())
    assert "is paused: no deadline stands until the referee resumes it" in told, told
    assert "Before: 2d after the resume Now: 3d after the resume" in told, told
    via.now = now + 5 * HOUR
    via.run("resume")
    assert turns(service)[-1].deadline == datetime(2026, 3, 4, 17, 0, tzinfo=UTC)
    resumed = [body(row) for row in outbox(service, "clock") if "resumed" in row.subject]
    assert "2026-03-04 17:00 UTC" in resumed[-1]


def test_a_policy_change_is_announced(service: Service, now: datetime, via: Channel) -> None:
    _game(service, now)
    via.run("policy", "interval:24h", reason="faster turns")
    subjects = [row.subject for row in outbox(service, "clock")]
    assert subjects == ["[g1] deadline policy changed"] * 2
    text = body(outbox(service, "clock")[0])
    assert "changed the deadline policy to interval:24h." in " ".join(text.split())


@pytest.mark.parametrize("command", ["replace", "eject"])
def test_the_outgoing_player_is_told_once(
    service: Service, now: datetime, via: Channel, command: str
) -> None:
    _game(service, now)
    args = ("bob", "newbob@example.org", "72h") if command == "replace" else ("bob",)
    via.run(command, *args, reason="bob has left the club")
    farewell = [row for row in outbox(service) if row.subject == "[g1] you no longer play bob"]
    assert [row.recipient for row in farewell] == ["bob@example.org"]
    assert "Reason: bob has left the club" in body(farewell[0])
    if command == "replace":
        # The new player's extra time is the other seats' news; the new player reads the
        # deadline in the mail that gives them the seat, not as a change to one they never had.
        assert sorted(_announcements(service)) == ["alice@example.org"]


def test_a_seat_given_again_to_its_own_player_gets_no_farewell(
    service: Service, now: datetime, via: Channel
) -> None:
    _game(service, now)
    via.run("replace", "bob", "bob@example.org", reason="a new password for bob")
    assert [row for row in outbox(service) if "no longer play" in row.subject] == []


def test_a_seat_away_is_not_asked_for_orders_nor_counted_as_awaited(
    service: Service, now: datetime, via: Channel
) -> None:
    """The fresh-eyes test of issue 43: a seat away (SET ABSENCE) was told "We have no orders
    from bob for turn 1 yet. Send them...", though the handbook says an away player gets no
    reminders, and the referee read "no orders yet from alice, bob" where STATUS says "Away,
    not waited for: bob". Both follow pbem.games.games.awaited now; PREVIEW names bob apart
    and still says what the turn plays for him."""
    _game(service, now)
    with transaction(service.db) as session:
        bob = session.exec(select(Seat).where(Seat.name == "bob")).one()
        bob.absent_until = date(2026, 3, 10)
    result = via.run("deadline", "extend", "6h", reason="a holiday")
    assert result.endswith(
        "every seat was told; no orders yet from alice; away, not waited for: bob"
    )
    told = " ".join(_announcements(service)["bob@example.org"].split())
    assert "We have no orders from bob" not in told
    assert (
        "bob is away (SET ABSENCE): turn 1 does not wait for its orders. If none are in when "
        "it is resolved, it is played without them, and that does not count as a missed turn."
    ) in told
    assert (
        "We have no orders from alice for turn 1 yet."
        in _announcements(service)["alice@example.org"]
    )
    via.run("preview")
    [preview] = [row for row in outbox(service, "referee") if "preview" in row.subject][-1:]
    text = body(preview)
    assert "No orders yet from: alice. As the turn would play each seat:\n" in text
    assert "Away, not waited for: bob. As the turn would play each seat:\n  bob: " in text
    assert "bob (away, not waited for: see above):\n" in text


def test_a_replace_while_paused_tells_the_others_the_time_after_the_resume(
    service: Service, now: datetime, via: Channel
) -> None:
    # While paused no deadline stands (pbem.games.paused): the other seats read how long the
    # turn will have when the game resumes, before and now, not two stored moments.
    _game(service, now)
    via.run("pause")
    via.run("replace", "bob", "dan@example.org", "72h")
    text = _announcements(service)["alice@example.org"]
    assert "Before: 2d after the resume" in text, text
    assert "Now:    3d after the resume" in text, text
    assert "2026-03-0" not in text, text  # no stored moment is named
    via.now = now + 5 * HOUR
    via.run("resume")
    assert turns(service)[-1].deadline == now + 5 * HOUR + 72 * HOUR
