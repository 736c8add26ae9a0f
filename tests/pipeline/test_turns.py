"""Turn resolution: due when all orders are in or the deadline passed; resolved through the
engine from the stored order texts; snapshot, record, next turn and reports in one go; the
same stored inputs give the same stored outputs byte for byte."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from engine import Event, ParsedOrders
from engine.kit import GameRuleset
from engine.ruleset import State
from pbem.clock.turns import TurnError, due_games, resolve_due, resolve_turn
from pbem.config import Settings, WebSettings
from pbem.games.commitment import commitment
from pbem.games.reports import event_line
from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.store import loads, transaction
from pbem.store.work import work_of
from tests.support.databases import migrated_engine
from tests.support.games import body, game_row, new_game, outbox, turns
from tests.support.mails import order_mail
from tests.web.support import archive_service, play, start

SIGNATURE = "-- \nPBEM Moderator - send HELP for the mail commands.\n"
ALICE_REPORT = (
    """\
Game g1 (Counting (a test ruleset)), report of turn 1 for alice
Orders for turn 2 are due by 2026-03-03 12:00 UTC.

== What happened ==
[add] alice adds 2
[bonus] alice rolls 2 for a bonus

== Your orders ==
line 2: ADD 2 - done
line 3: ATTACK bob - skipped: bob has no points

== Your holdings ==
Points: 2 of 10

== Map ==
*alice      ##                             2
 bob        ###                            3

== Standing ==
alice 2, bob 3

== Orders for turn 2 ==
Fill in and mail back, keeping the first two lines:

GAME g1 SEAT alice PASSWORD <your password>
TURN 2
ADD 3
# ATTACK <seat>
END

"""
    + SIGNATURE
)


def _both_order(service: Service, now: datetime, turn: int = 1) -> None:
    receive(
        service,
        order_mail("g1", "alice", "pw-alice", "ADD 2\nATTACK bob\nADD 9", message_id=f"a{turn}@x"),
        now=now,
    )
    receive(service, order_mail("g1", "bob", "pw-bob", "ADD 3\n", message_id=f"b{turn}@x"), now=now)


def _due(service: Service, now: datetime) -> list[str]:
    with service.store.transaction() as work:
        return due_games(work, now=now)


def test_a_turn_waits_for_every_seat_then_resolves(service: Service, now: datetime) -> None:
    new_game(service, now)
    receive(service, order_mail("g1", "bob", "pw-bob", "ADD 3\n"), now=now)
    assert _due(service, now) == []
    assert resolve_due(service, now=now) == []
    _both_order(service, now)
    assert _due(service, now) == ["g1"]
    [summary] = resolve_due(service, now=now)
    assert (summary.turn, summary.orders, summary.events, summary.ended) == (1, 2, 4, False)
    first, second = turns(service)
    assert loads(first.state_after or "")["score"] == {"alice": 2, "bob": 3}
    assert [e["code"] for e in loads(first.record or "")["events"]] == [
        "add",
        "bonus",
        "add",
        "bonus",
    ]
    assert second.state_before == first.state_after
    assert second.deadline == now + timedelta(hours=48)
    assert game_row(service).turn == 2
    reports = [row for row in outbox(service, "report") if "turn 1 report" in row.subject]
    assert [row.recipient for row in reports] == ["alice@example.org", "bob@example.org"]
    assert body(reports[0]) == ALICE_REPORT


def test_the_deadline_resolves_with_the_orders_that_are_in(service: Service, now: datetime) -> None:
    new_game(service, now, early_processing=False)
    _both_order(service, now)
    assert _due(service, now) == []
    later = now + timedelta(hours=48)
    [summary] = resolve_due(service, now=later)
    assert summary.orders == 2
    receive(service, order_mail("g1", "bob", "pw-bob", "ADD 1\n", message_id="late@x"), now=later)
    [summary] = resolve_due(service, now=later + timedelta(hours=48))
    assert (summary.turn, summary.orders) == (2, 1)
    assert loads(turns(service)[1].state_after or "")["score"]["alice"] == 2


def test_turn_run_resolves_now_and_refuses_an_ended_game(service: Service, now: datetime) -> None:
    new_game(service, now, options={"target": 3})
    with service.store.transaction() as work:
        summary = resolve_turn(work, service.settings, "g1", now=now)
    assert summary is not None and summary.orders == 0
    _both_order(service, now, turn=2)
    [summary] = resolve_due(service, now=now)
    assert summary.ended and summary.winners == ("bob",)
    with pytest.raises(TurnError), transaction(service.db) as session:
        resolve_turn(work_of(session), service.settings, "g1", now=now)


def test_game_end_mails_everyone_the_result_and_final_map(service: Service, now: datetime) -> None:
    new_game(service, now, options={"target": 4}, referees=["ref@example.org"])
    _both_order(service, now)
    resolve_due(service, now=now)
    _both_order(service, now, turn=2)
    resolve_due(service, now=now)
    game = game_row(service)
    assert game.status == "ended"
    assert loads(game.result) == {"winners": ["bob"], "reason": "bob reached 6 points"}
    ends = outbox(service, "game-end")
    assert [row.recipient for row in ends] == [
        "alice@example.org",
        "bob@example.org",
        "ref@example.org",
    ]
    assert body(ends[2]) == (
        "Game g1 (Counting (a test ruleset)) has ended after turn 2.\n\n"
        "Result: bob reached 6 points\nWinner: bob\n\n"
        "== Final standing ==\nalice 4, bob 6\n\n"
        "== Final map ==\n"
        " alice      ####                           4\n"
        " bob        ######                         6\n\n"
        "== Dice ==\n"
        f"The game's hidden seed was 1,\nwith the salt {game.seed_salt}.\n"
        "The SHA-256 of the text: seed, one space, salt, is the commitment the\n"
        "start mail published:\n"
        f"{commitment(1, game.seed_salt)}\n"
        "With the game's export (ask the referee) `pbem verify` plays every turn\n"
        "again from this seed and checks every state and die (docs/dice.md).\n\n"
        "Thank you for playing.\n\n"
        "-- \nPBEM Moderator - send HELP for the mail commands.\n"
    )
    assert "*bob" in body(ends[1])
    assert _due(service, now) == []


def test_same_stored_inputs_give_the_same_stored_outputs(
    service: Service, now: datetime, tmp_path: Path
) -> None:
    other = Service(migrated_engine(f"sqlite:///{tmp_path / 'other.db'}"), service.settings)
    results = []
    for target in (service, other):
        new_game(target, now, options={"target": 6})
        for turn in (1, 2):
            _both_order(target, now, turn)
            resolve_due(target, now=now)
        stored = [(t.state_before, t.state_after, t.record) for t in turns(target)]
        results.append((stored, [(r.message_id, r.raw) for r in outbox(target)]))
    assert results[0] == results[1]
    other.db.dispose()


def test_news_of_another_seat_names_it() -> None:
    """issue 13: Temples and Swords news said "Famine!" alone, not whose famine it was."""
    famine = Event(
        "disaster", "bob", "Disaster check: rolled 1; chart roll 5: Famine!", "7", (1, 5)
    )
    assert event_line(famine, news=True) == (
        "[7] bob: Disaster check: rolled 1; chart roll 5: Famine!"
    )
    assert event_line(famine) == "[7] Disaster check: rolled 1; chart roll 5: Famine!"


def test_a_turns_orders_are_read_on_one_load_of_its_position(
    tmp_path: Path, settings: Settings, now: datetime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 45: resolving a turn read every seat's stored text on a load of the position of
    its own (a load is a third of a bot game's time); now every seat's on one."""
    with archive_service(tmp_path, replace(settings, web=WebSettings(enabled=False))) as made:
        start(made, now, "temples-and-swords")
        play(made, now, 1)
        calls: list[list[str]] = []
        of = GameRuleset.orders_to_play_of

        def counted(self: GameRuleset[Any], state: State, texts: Mapping[str, str]) -> Any:
            calls.append(sorted(texts))
            return of(self, state, texts)

        def one_seat(*_: object) -> ParsedOrders:
            raise AssertionError("a seat's orders read on a load of their own")

        monkeypatch.setattr(GameRuleset, "orders_to_play_of", counted)
        monkeypatch.setattr(GameRuleset, "orders_to_play", one_seat)
        play(made, now + timedelta(hours=1), 1)
    assert calls == [["alice", "bob", "cy"]]
