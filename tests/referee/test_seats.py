"""Seats and referees: replace a player, eject one, civil disorder, promote a referee."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from sqlmodel import select

from pbem.clock.turns import resolve_due
from pbem.games.service import Service
from pbem.games.stops import stop
from pbem.intake.intake import receive
from pbem.store import Seat, loads, transaction, utc
from tests.referee.support import Channel, referee_audit, referee_game, referee_mail
from tests.support.games import body, outbox, turns
from tests.support.mails import order_mail


def _seat(service: Service, name: str) -> Seat:
    with transaction(service.db) as session:
        return session.exec(select(Seat).where(Seat.name == name)).one()


def _password(mail_body: str) -> str:
    found = re.search(r"^Your password: (\S+)$", mail_body, re.M)
    assert found, mail_body
    return found.group(1)


def test_replace_a_seats_player(service: Service, now: datetime, via: Channel) -> None:
    referee_game(service, now)
    result = via.run("replace", "bob", "Carol@Example.org", "72h", reason="bob left the game")
    assert result == (
        "bob is now played by carol@example.org; password mailed; deadline 2026-03-04 12:00 UTC"
    )
    [welcome] = [row for row in outbox(service, "referee") if row.recipient == "carol@example.org"]
    assert welcome.subject == "[g1] you now play bob"
    text = body(welcome)
    assert text.startswith(
        "You now play bob in game g1 (Counting (a test ruleset)), in place of its\n"
        "former player.\n\nYour password: "
    )
    assert "The deadline of turn 1 is 2026-03-04 12:00 UTC.\n" in text
    assert utc(turns(service)[0].deadline or now) == datetime(2026, 3, 4, 12, tzinfo=UTC)
    fresh = order_mail("g1", "bob", _password(text), "ADD 1\n", sender="carol@example.org")
    assert receive(service, fresh, now=now).status == "accepted"
    stale = order_mail("g1", "bob", "pw-bob", "ADD 2\n", message_id="old@x")
    assert receive(service, stale, now=now).outcome.startswith("password: wrong password")
    # Issue 43, point 13: the replaced player heard only "wrong password". Mailing again from
    # the address the farewell went to, they are told they no longer play the seat; a
    # stranger's wrong password is told nothing more.
    old = order_mail("g1", "bob", "pw-bob", "ADD 2\n", message_id="o2@x", sender="bob@example.org")
    told = " ".join(body(receive(service, old, now=now).replies[0]).split())
    assert "wrong password for seat bob in game g1: you no longer play bob;" in told
    guess = order_mail("g1", "bob", "guess", "ADD 2\n", message_id="s@x", sender="eve@example.org")
    refused = " ".join(body(receive(service, guess, now=now).replies[0]).split())
    assert "wrong password for seat bob in game g1" in refused and "no longer" not in refused
    detail = loads(referee_audit(service)[0].detail)
    assert detail["changes"][0]["before"] == {"address": "bob@example.org", "status": "active"}
    assert detail["changes"][0]["after"]["address"] == "carol@example.org"


def test_eject_a_player(service: Service, now: datetime, via: Channel) -> None:
    referee_game(service, now)
    assert via.run("eject", "bob", reason="abusive mail") == (
        "bob ejected: no player, no orders, no mail until replaced"
    )
    bob = _seat(service, "bob")
    assert (bob.address, bob.password_hash, bob.status) == ("", "", "ejected")
    refused = receive(service, order_mail("g1", "bob", "pw-bob", "ADD 2\n"), now=now)
    assert refused.status == "quarantined"
    receive(service, order_mail("g1", "alice", "pw-alice", "ADD 1\n", message_id="a@x"), now=now)
    [summary] = resolve_due(service, now=now)  # nobody waits for bob
    assert (summary.turn, summary.orders) == (1, 1)
    reports = [row.recipient for row in outbox(service, "report")][2:]
    assert reports == ["alice@example.org"]
    assert via.refuse("eject", "bob") == "the player of bob was ejected already"


def test_civil_disorder(service: Service, now: datetime, via: Channel) -> None:
    referee_game(service, now)
    receive(service, order_mail("g1", "bob", "pw-bob", "ADD 3\n", message_id="b@x"), now=now)
    assert via.run("disorder", "bob", reason="no orders for a month") == (
        "bob is in civil disorder until replaced; bob's player was told"
    )
    again = receive(
        service, order_mail("g1", "bob", "pw-bob", "ADD 3\n", message_id="b2@x"), now=now
    )
    assert again.outcome == (
        "seat-disorder: seat bob is in civil disorder; only a referee can give it a player again"
    )
    receive(service, order_mail("g1", "alice", "pw-alice", "ADD 1\n", message_id="a@x"), now=now)
    resolve_due(service, now=now)
    record = loads(turns(service)[0].record or "{}")
    assert record["results"]["bob"] == []  # played with no orders, though some were stored
    assert [row.recipient for row in outbox(service, "report")][2:] == [
        "alice@example.org",
        "bob@example.org",
    ]
    assert via.refuse("disorder", "bob") == "bob is disorder already"
    via.run("replace", "bob", "bob@example.org")
    assert _seat(service, "bob").status == "active"


def test_promote_another_referee(service: Service, now: datetime, via: Channel) -> None:
    referee_game(service, now)
    assert via.run("promote", "second@example.org", reason="help while I travel") == (
        "second@example.org is a referee of game g1; their password is mailed to them"
    )
    [mail] = [row for row in outbox(service, "referee") if row.recipient == "second@example.org"]
    text = body(mail)
    assert text.startswith("You are now a referee of game g1 (Counting (a test ruleset)).\n")
    raw = referee_mail("PAUSE BECAUSE a test", password=_password(text), sender="x@example.org")
    receipt = receive(service, raw, now=now)
    assert (receipt.status, receipt.replies[0].recipient) == ("answered", "second@example.org")
    assert referee_audit(service)[-1].actor == "second@example.org"
    assert via.refuse("promote", "second@example.org") == (
        "second@example.org is a referee of game g1 already"
    )


def test_replace_gives_a_grace_period_from_now_when_late(
    service: Service, now: datetime, via: Channel
) -> None:
    referee_game(service, now)
    via.now = now + timedelta(days=5)  # past the deadline: the grace counts from now
    via.run("replace", "bob", "carol@example.org")
    assert utc(turns(service)[0].deadline or now) == datetime(2026, 3, 8, 12, tzinfo=UTC)


def test_the_grace_is_counted_from_the_replacement(
    service: Service, now: datetime, via: Channel
) -> None:
    """Fresh-eyes test: the grace was added to the old deadline, a day before it 48h gave the
    new player three days. It is the new player's time from the moment they take the seat."""
    referee_game(service, now)  # the deadline: 2026-03-03 12:00
    via.now = now + timedelta(days=1)
    result = via.run("replace", "bob", "carol@example.org")  # 48h from 2026-03-02 12:00
    assert result.endswith("deadline 2026-03-04 12:00 UTC")
    assert utc(turns(service)[0].deadline or now) == datetime(2026, 3, 4, 12, tzinfo=UTC)


def test_a_later_deadline_stays_and_nobody_is_told_of_a_change(
    service: Service, now: datetime, via: Channel
) -> None:
    referee_game(service, now)  # the deadline: 2026-03-03 12:00, two days from now
    via.run("replace", "bob", "carol@example.org", "24h")
    assert utc(turns(service)[0].deadline or now) == datetime(2026, 3, 3, 12, tzinfo=UTC)
    assert [row.subject for row in outbox(service, "clock")] == []  # no new deadline to tell


def test_a_replacement_while_paused_leaves_the_grace_at_the_resume(
    service: Service, now: datetime, via: Channel
) -> None:
    referee_game(service, now)
    via.now = now + timedelta(hours=36)  # 12h left
    via.run("pause")
    via.run("replace", "bob", "carol@example.org", "48h")
    via.now = now + timedelta(days=10)
    via.run("resume")
    assert utc(turns(service)[0].deadline or now) == via.now + timedelta(hours=48)


def test_the_referee_moves_an_address_at_once(
    service: Service, now: datetime, via: Channel
) -> None:
    referee_game(service, now)
    new = "alice@new.example.org"
    assert via.run("address", "alice", new) == f"alice's mail now goes to {new}"
    assert _seat(service, "alice").address == new
    told = {row.recipient for row in outbox(service, "referee") if "new address" in row.subject}
    assert told == {new, "alice@example.org"}
    assert "as the referee set it" in " ".join(body(outbox(service, "referee")[-1]).split())
    assert via.refuse("address", "alice", new) == f"alice's mail goes to {new} already"


def test_a_new_player_gets_the_position_and_order_template_at_once(
    service: Service, now: datetime, via: Channel
) -> None:
    """Before turn 1 was ever played: carol's one mail says she holds bob, with the password,
    the deadline, bob's holdings, the map and the template for turn 1 (not a pointer to a
    report she never had); the other seat hears of the new deadline."""
    referee_game(service, now)
    via.run("replace", "bob", "carol@example.org", "72h", reason="bob left the game")
    [welcome] = [row for row in outbox(service) if row.recipient == "carol@example.org"]
    text = body(welcome)
    assert "The deadline of turn 1 is 2026-03-04 12:00 UTC.\n" in text
    assert "\n== Your holdings ==\nPoints: 0 of 10\n" in text
    assert "\n== Map ==\n alice " in text and "\n*bob " in text
    assert (
        "\n== Orders for turn 1 ==\n"
        "Fill in and mail back, with the password above:\n\n"
        "GAME g1 SEAT bob PASSWORD <your password>\nTURN 1\nADD 3\n# ATTACK <seat>\nEND\n"
    ) in text
    assert "REPORT START" in text and "last report" not in text
    told = [row.subject for row in outbox(service, "clock") if row.recipient == "alice@example.org"]
    assert told == ["[g1] turn 1: new deadline"]


def test_no_password_is_promised_to_an_address_that_sent_stop(
    service: Service, now: datetime, via: Channel
) -> None:
    """The fresh-eyes test of issue 43: REPLACE to an address that had sent STOP answered
    "password mailed" while the mail was dropped. A command that would mail a password (or
    a seat's mail) to a stopped address is refused, and nothing changes."""
    referee_game(service, now)
    with service.store.transaction() as work:
        stop(work, "mallory@example.org", now)
    why = "asked for no more mail from this moderator (STOP)"
    refused = via.refuse("replace", "bob", "Mallory@Example.org", "72h")
    assert refused == (
        f"mallory@example.org {why}: bob's password cannot be mailed to it, so nothing was "
        "changed; ask the player for another address, or to send UNSTOP with the code their "
        "STOP's answer gave them"
    )
    assert via.refuse("promote", "mallory@example.org").startswith(
        f"mallory@example.org {why}: a referee's password cannot be mailed"
    )
    assert via.refuse("address", "bob", "mallory@example.org").startswith(
        f"mallory@example.org {why}: bob's mail cannot be mailed"
    )
    assert _seat(service, "bob").address == "bob@example.org"
    assert all(row.recipient != "mallory@example.org" for row in outbox(service))


def test_a_grace_of_seconds_moves_no_deadline(
    service: Service, now: datetime, via: Channel
) -> None:
    """The fresh-eyes test of issue 43: with grace 72h and 2d23h59m and some seconds left,
    every seat was told "The deadline of turn 1 was moved" to the time it showed already.
    Deadlines are shown to the minute: a move of less than one is not made, nor announced."""
    referee_game(service, now)
    via.run("replace", "bob", "carol@example.org", "72h", reason="bob left")
    told = len(outbox(service))
    via.now = now + timedelta(seconds=30)
    result = via.run("replace", "alice", "dave@example.org", "72h", reason="alice left")
    assert result.endswith("deadline 2026-03-04 12:00 UTC")
    assert utc(turns(service)[0].deadline or now) == datetime(2026, 3, 4, 12, tzinfo=UTC)
    later = [row.subject for row in outbox(service)[told:]]
    assert all("deadline" not in subject for subject in later), later
    assert not any(row.recipient == "carol@example.org" for row in outbox(service)[told:])
