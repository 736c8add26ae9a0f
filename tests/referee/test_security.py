"""Who may run referee commands: a referee's password only. A seat's password, a forged From
with no password, or a wrong password does nothing. And the reply to a referee mail."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.games.service import Service
from pbem.intake.command_table import REFEREE_COMMANDS
from pbem.intake.intake import receive
from pbem.store import loads
from tests.referee.support import REFEREE, referee_audit, referee_game, referee_mail
from tests.support.games import body, inbound, quarantined, turns
from tests.support.mails import mail

SIGNATURE = "-- \nPBEM Moderator - send HELP for the mail commands.\n"


def _score(service: Service) -> dict[str, int]:
    return dict(loads(turns(service)[0].state_before)["score"])


def test_a_seats_password_cannot_run_a_referee_command(service: Service, now: datetime) -> None:
    referee_game(service, now)
    raw = referee_mail("EDIT score.alice = 9 BECAUSE I say so\n", password="pw-alice")
    receipt = receive(service, raw, now=now)
    assert (receipt.status, receipt.outcome) == (
        "quarantined",
        "referee-password: wrong referee password for game g1",
    )
    as_seat = mail(
        "GAME g1 SEAT alice PASSWORD pw-alice\nEDIT score.alice = 9 BECAUSE I say so\n",
        message_id="seat@x",
    )
    reply = body(receive(service, as_seat, now=now).replies[0])
    assert "Rejected (1):\n  line 2: unknown order EDIT\n" in reply
    assert _score(service) == {"alice": 0, "bob": 0}
    assert referee_audit(service) == []


def test_a_forged_from_with_no_password_does_nothing(service: Service, now: datetime) -> None:
    referee_game(service, now)
    forged = mail(
        "GAME g1 REFEREE\nEDIT score.bob = 9 BECAUSE x\n", sender=REFEREE, message_id="f@x"
    )
    receipt = receive(service, forged, now=now)
    assert receipt.status == "quarantined"
    assert receipt.outcome.startswith("envelope: line 1: REFEREE needs a value after it.")
    nothing = mail("EDIT score.bob = 9 BECAUSE x\n", sender=REFEREE, message_id="g@x")
    assert receive(service, nothing, now=now).status == "quarantined"
    assert _score(service) == {"alice": 0, "bob": 0}
    assert referee_audit(service) == []
    assert [q.reason for q in quarantined(service)] == ["envelope", "envelope"]


def test_the_reply_has_results_unprocessed_and_ignored(service: Service, now: datetime) -> None:
    referee_game(service, now)
    lines = (
        "EDIT score.alice = 2 BECAUSE a lost bonus\n"
        "EDIT score.bob = 1\n"
        "FLY away BECAUSE why not\n"
        "REASON the deadline fell on a holiday\n"
        "DEADLINE extend 1d\n"
        "> quoted text\n"
        "END\n"
        "my signature\n"
    )
    receipt = receive(service, referee_mail(lines), now=now)
    assert (receipt.status, receipt.outcome) == ("answered", "referee mail: 2 done, 2 unprocessed")
    [reply] = receipt.replies
    assert reply.recipient == REFEREE
    assert body(reply) == (
        "Referee commands for game g1, from ref@example.org.\n\n"
        "Results:\n"
        "> EDIT score.alice = 2 BECAUSE a lost bonus\n"
        "score.alice set to 2: score.alice 0 -> 2\n"
        "> DEADLINE extend 1d\n"
        "deadline of turn 1: 2026-03-04 12:00 UTC; every seat was told; no orders\n"
        "    yet from alice, bob\n\n"
        "Unprocessed:\n"
        "> line 3: EDIT score.bob = 1\n"
        "a reason is required: end the line with BECAUSE <reason>, or put a\n"
        "    REASON line above\n"
        "> line 4: FLY away BECAUSE why not\n"
        "there is no referee command FLY\n\n"
        "Ignored:\n"
        "  line 7: quoted text (1 line)\n"
        "  line 9: after END (1 line)\n\n" + SIGNATURE
    )
    reasons = [loads(entry.detail)["reason"] for entry in referee_audit(service)]
    assert reasons == ["a lost bonus", "the deadline fell on a holiday"]


def test_help_lists_every_command(service: Service, now: datetime) -> None:
    referee_game(service, now)
    reply = body(receive(service, referee_mail("HELP\n"), now=now).replies[0])
    assert (
        "  ORDERS SEAT [TURN n] ORDER; ORDER; ...\n      store orders on behalf of a seat\n"
        in reply
    )
    assert reply.count("\n      ") == len(REFEREE_COMMANDS)  # one summary line a command
    assert "  ADDRESS SEAT ADDRESS\n" in reply and "  REPLAY QUARANTINE-ID\n" in reply


def test_a_refused_command_changes_nothing_and_the_rest_go_on(
    service: Service, now: datetime
) -> None:
    referee_game(service, now)
    lines = "REASON testing\nEDIT score.alice = 3\nEDIT score.nobody = 3\nEDIT score.bob = 4\n"
    reply = body(receive(service, referee_mail(lines), now=now).replies[0])
    assert "refused: edit refused: cannot set score.nobody to 3\n" in reply
    assert _score(service) == {"alice": 3, "bob": 4}
    assert len(referee_audit(service)) == 2


def test_an_unknown_game_and_an_ended_turn(service: Service, now: datetime) -> None:
    referee_game(service, now)
    receipt = receive(service, referee_mail("PAUSE BECAUSE x\n", game="g9"), now=now)
    assert receipt.outcome == "unknown-game: there is no game g9"
    assert [m.game_id for m in inbound(service)] == ["g9"]


def test_the_cli_acts_as_a_named_referee_only(
    service: Service, now: datetime, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    referee_game(service, now)
    url = service.db.url.render_as_string(hide_password=False)
    base = ["--db", url, "--now", now.isoformat(), "referee", "g1", "pause", "--reason", "x"]
    assert main([*base, "--as", "mallory@example.org"]) == 2
    assert capsys.readouterr().err == "pbem: mallory@example.org is not a referee of game g1\n"
    assert main([*base, "--as", REFEREE]) == 0
    assert [entry.actor for entry in referee_audit(service)] == [REFEREE]
    assert main(["--db", url, "referee", "g1", "pause"]) == 2  # no --reason
    assert capsys.readouterr().err == (
        "pbem: pause needs a reason (--reason WHY; by mail BECAUSE WHY)\n"
    )
