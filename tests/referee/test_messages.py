"""Mail: resend a report, announce a message to every seat, replay a quarantined mail."""

from __future__ import annotations

from datetime import datetime

from pbem.clock.turns import resolve_due
from pbem.games.service import Service
from pbem.games.stops import stop
from pbem.intake.intake import receive
from tests.referee.support import REFEREE, Channel, referee_game, referee_mail
from tests.support.games import body, new_game, orders, outbox, quarantined
from tests.support.mails import order_mail


def _play_turn_one(service: Service, now: datetime) -> None:
    receive(service, order_mail("g1", "alice", "pw-alice", "ADD 2\n", message_id="a@x"), now=now)
    receive(service, order_mail("g1", "bob", "pw-bob", "ADD 1\n", message_id="b@x"), now=now)
    assert len(resolve_due(service, now=now)) == 1


def test_resend_a_report(service: Service, now: datetime, via: Channel) -> None:
    referee_game(service, now)
    assert via.refuse("resend", "alice") == "there is no report of any turn"
    _play_turn_one(service, now)
    [first] = [
        r
        for r in outbox(service, "report")
        if r.recipient == "alice@example.org" and "turn 1" in r.subject
    ]
    assert via.run("resend", "alice", reason="her mailbox was full") == (
        "report of turn 1 sent again to alice"
    )
    again = outbox(service, "report")[-1]
    assert (again.recipient, again.subject) == ("alice@example.org", "[g1] turn 1 report (again)")
    assert body(again) == body(first)
    assert via.run("resend", "all", "turn", "1") == "report of turn 1 sent again to alice, bob"


def test_announce_to_every_seat(service: Service, now: datetime, via: Channel) -> None:
    referee_game(service, now)
    result = via.run("announce", "No", "deadline", "over", "the", "holidays.", reason="holidays")
    assert result == "announcement mailed to 2 seat(s) and 1 referee(s)"
    mails = outbox(service, "announcement")
    assert [row.recipient for row in mails] == ["alice@example.org", "bob@example.org", REFEREE]
    assert body(mails[0]) == (
        "A message from the referee of game g1 (Counting (a test ruleset)):\n\n"
        "No deadline over the holidays.\n\n"
        "-- \nPBEM Moderator - send HELP for the mail commands.\n"
    )


def test_announce_by_mail_as_a_block(service: Service, now: datetime) -> None:
    referee_game(service, now)
    lines = "ANNOUNCE BECAUSE house rules\nFirst line.\nSecond line.\nEND ANNOUNCE\n"
    receive(service, referee_mail(lines), now=now)
    assert "\n\nFirst line.\nSecond line.\n\n" in body(outbox(service, "announcement")[0])


def test_replay_a_quarantined_mail(service: Service, now: datetime, via: Channel) -> None:
    referee_game(service, now)
    # turn 1 is pending: orders for turn 5 are further ahead than orders are held
    early = order_mail("g1", "alice", "pw-alice", "ADD 2\n", turn=5, message_id="q@x")
    assert receive(service, early, now=now).status == "quarantined"
    via.run("process")
    [entry] = quarantined(service)
    assert via.run("replay", str(entry.id), reason="meant for the next turn") == (
        "mail q@x replayed: accepted (orders held for alice, turn 5)"  # 3 ahead of turn 2
    )
    assert [row.text for row in orders(service)] == ["ADD 2"]
    assert quarantined(service)[0].released_at is not None
    assert (
        via.refuse("replay", str(entry.id)) == f"quarantine entry {entry.id} was replayed already"
    )


def test_replay_only_mail_of_the_referees_game(
    service: Service, now: datetime, via: Channel
) -> None:
    referee_game(service, now)
    new_game(service, now, game="g2")
    receive(service, order_mail("g2", "alice", "wrong", "ADD 2\n", message_id="o@x"), now=now)
    [entry] = quarantined(service)
    assert via.refuse("replay", str(entry.id)) == (
        f"quarantine entry {entry.id} is not mail for game g1"
    )
    assert via.refuse("replay", "999") == "no quarantine entry 999"


def test_a_result_names_no_address_that_sent_stop_as_mailed(
    service: Service, now: datetime, via: Channel
) -> None:
    """The fresh-eyes test of issue 43: a fact in a result is true. Mail to an address that
    sent STOP is dropped, never sent: "sent again to alice, bob" and "mailed to 2 seat(s)"
    were false of bob."""
    referee_game(service, now)
    _play_turn_one(service, now)
    with service.store.transaction() as work:
        stop(work, "bob@example.org", now)
    unsent = "; NOT sent to bob@example.org: that address asked for no more mail (STOP)"
    assert via.run("resend", "all") == f"report of turn 1 sent again to alice{unsent}"
    assert via.run("resend", "bob") == f"report of turn 1 sent again to nobody{unsent}"
    result = via.run("announce", "Hello.", reason="news")
    assert result == f"announcement mailed to 1 seat(s) and 1 referee(s){unsent}"
