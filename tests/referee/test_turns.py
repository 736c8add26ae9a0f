"""Preview (to the referees only, nothing stored) and process now."""

from __future__ import annotations

from datetime import datetime

from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.store import Referee, transaction
from tests.referee.support import REFEREE, Channel, referee_game
from tests.support.games import body, game_row, outbox, turns
from tests.support.mails import order_mail

PREVIEW = """\
Preview of turn 1 of game g1 (Counting (a test ruleset)).
Nothing was stored: this is what the turn would give with the orders
on file now. Only the referees get this mail.
Orders in from: alice

== What would happen ==
alice: [add] alice adds 2
alice: [bonus] alice rolls 2 for a bonus
bob: [bonus] bob rolls 1 for a bonus

== Orders ==
alice:
  line 1: ADD 2 - done
bob:
  (no orders)

== Map after the turn ==
*alice      ##                             2
 bob                                       0

== Standing after the turn ==
alice 2, bob 0

-- \nPBEM Moderator - send HELP for the mail commands.
"""


def test_preview_mails_only_the_referees(service: Service, now: datetime, via: Channel) -> None:
    referee_game(service, now)
    with transaction(service.db) as session:
        session.add(Referee(game_id="g1", address="second@example.org"))
    receive(service, order_mail("g1", "alice", "pw-alice", "ADD 2\n"), now=now)
    before = len(outbox(service))
    assert via.run("preview", reason="checking the bonus") == (
        "preview of turn 1 mailed to 2 referee(s)"
    )
    mails = [row for row in outbox(service)[before:] if row.kind == "referee"]
    assert [row.recipient for row in mails] == [REFEREE, "second@example.org"]
    assert mails[0].subject == "[g1] preview of turn 1"
    assert body(mails[0]) == PREVIEW.replace("*alice", " alice")
    others = [row for row in outbox(service)[before:] if row.kind != "referee"]
    assert [row.recipient for row in others] == ([REFEREE] if via.way == "mail" else [])
    [turn] = turns(service)
    assert (turn.state_after, turn.record, turn.resolved_at) == (None, None, None)


def test_process_resolves_the_pending_turn_now(
    service: Service, now: datetime, via: Channel
) -> None:
    referee_game(service, now)
    receive(service, order_mail("g1", "alice", "pw-alice", "ADD 2\n"), now=now)
    assert via.run("process", reason="bob is away all week") == (
        "turn 1 resolved: 1 orders, 3 events"
    )
    assert game_row(service).turn == 2
    assert turns(service)[0].resolved_at is not None
    reports = [row.recipient for row in outbox(service, "report")][2:]  # after the start mails
    assert reports == ["alice@example.org", "bob@example.org"]


def test_process_refuses_a_paused_game(service: Service, now: datetime, via: Channel) -> None:
    referee_game(service, now)
    via.run("pause")
    assert via.refuse("process") == "game g1 is paused; resume it first"
