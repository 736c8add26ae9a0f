"""State edits through the ruleset's validated edits: applied to the pending turn, refused
with the engine's reason, audited with the values before and after."""

from __future__ import annotations

from datetime import datetime

from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.store import loads
from tests.referee.support import Channel, referee_audit, referee_game, referee_mail, results_of
from tests.support.games import body, turns
from tests.support.mails import order_mail


def test_edit_sets_a_value_of_the_pending_turn(
    service: Service, now: datetime, via: Channel
) -> None:
    referee_game(service, now)
    result = via.run("edit", "score.alice", "4", reason="a lost bonus")
    assert result == "score.alice set to 4: score.alice 0 -> 4"
    assert loads(turns(service)[0].state_before)["score"] == {"alice": 4, "bob": 0}
    [entry] = referee_audit(service)
    detail = loads(entry.detail)
    assert (entry.action, detail["reason"], detail["args"]) == (
        "referee-edit",
        "a lost bonus",
        ["score.alice", "4"],
    )
    assert detail["changes"][0]["before"] == {"score.alice": 0}
    assert detail["changes"][0]["after"] == {"score.alice": 4}


def test_an_invalid_edit_is_refused_with_the_reason(
    service: Service, now: datetime, via: Channel
) -> None:
    referee_game(service, now)
    assert via.refuse("edit", "score.zed=4") == "edit refused: cannot set score.zed to 4"
    assert via.refuse("edit", "score.alice") == (
        "an edit names a path and a value; write: edit PATH = VALUE"
    )
    assert loads(turns(service)[0].state_before)["score"] == {"alice": 0, "bob": 0}
    assert referee_audit(service) == []


def test_an_edit_that_changes_nothing_is_refused(
    service: Service, now: datetime, via: Channel
) -> None:
    referee_game(service, now)
    assert via.refuse("edit", "score.bob", "0") == "score.bob = 0 changes nothing"


def test_temples_and_swords_edits_by_mail(service: Service, now: datetime) -> None:
    """The ruleset's own paths: population, gold, advances, projects; one refused."""
    referee_game(service, now, ruleset="tns", seed=3)
    before = loads(turns(service)[0].state_before)
    [home] = [name for name, here in before["hexes"].items() if here["owner"] == "alice"]
    lines = (
        f"EDIT hex.{home}.pop = 2 BECAUSE the flood was misapplied\n"
        "REASON a lost treasure\n"
        "EDIT seat.alice.gold = 12\n"
        "EDIT seat.bob.advances = +Masonry\n"
        f"EDIT hex.{home}.temple = yes\n"
        "EDIT hex.Z99.pop = 1\n"
    )
    reply = body(receive(service, referee_mail(lines), now=now).replies[0])
    assert results_of(reply) == [
        f"hex.{home}.pop set to 2: hexes.{home}.pop 3 -> 2",
        "seat.alice.gold set to 12: seats.alice.gold 5 -> 12",
        "seat.bob.advances set to +Masonry: seats.bob.advances [] -> ['Masonry']",
        f"hex.{home}.temple set to yes: hexes.{home}.projects ['city'] -> ['city', 'temple']",
    ]
    assert (
        "Unprocessed:\n> line 7: EDIT hex.Z99.pop = 1\n"
        "refused: edit refused: 'Z99' is not a hex of this map\n" in reply
    )
    after = loads(turns(service)[0].state_before)
    assert after["hexes"][home] == {"owner": "alice", "pop": 2, "projects": ["city", "temple"]}
    notes = [loads(entry.detail)["reason"] for entry in referee_audit(service)]
    assert notes == ["the flood was misapplied"] + ["a lost treasure"] * 3


def test_orders_are_checked_against_the_edited_state(service: Service, now: datetime) -> None:
    referee_game(service, now)
    receive(service, referee_mail("EDIT score.bob = 3 BECAUSE a test\n"), now=now)
    receipt = receive(service, order_mail("g1", "alice", "pw-alice", "ATTACK bob\n"), now=now)
    assert "Accepted (1):\n  line 2: ATTACK bob\n    read as: attack seat bob\n" in body(
        receipt.replies[0]
    )
