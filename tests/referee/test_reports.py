"""What the players are told: a "Referee notes" part in the next reports (what changed and
why), unless the game opts out; and referees named at `pbem game new` get a password."""

from __future__ import annotations

import re
from datetime import datetime

import pytest

from pbem.cli import main
from pbem.clock.turns import resolve_due
from pbem.games.service import Service
from pbem.intake.intake import receive
from tests.referee.support import REFEREE, referee_audit, referee_game, referee_mail
from tests.support.games import body, game_row, outbox
from tests.support.mails import order_mail


def _resolve_turn_one(service: Service, now: datetime) -> str:
    """Alice's report of turn 1."""
    receive(service, order_mail("g1", "alice", "pw-alice", "ADD 2\n", message_id="a@x"), now=now)
    receive(service, order_mail("g1", "bob", "pw-bob", "ADD 1\n", message_id="b@x"), now=now)
    resolve_due(service, now=now)
    reports = outbox(service, "report")
    return body(next(r for r in reports if r.subject == "[g1] turn 1 report"))


def test_reports_list_public_referee_actions(service: Service, now: datetime) -> None:
    referee_game(service, now)
    lines = (
        "EDIT score.bob = 2 BECAUSE a bonus was lost to a bug\n"
        "PREVIEW BECAUSE only for me\n"
        "DEADLINE extend 2h BECAUSE a mail outage\n"
    )
    receive(service, referee_mail(lines), now=now)
    report = _resolve_turn_one(service, now)
    assert (
        "== Referee notes ==\n"
        "score.bob set to 2: score.bob 0 -> 2. Why: a bonus was lost to a bug\n"
        "the deadline of turn 1 moved from 2026-03-03 12:00 UTC to 2026-03-03\n"
        "    14:00 UTC. Why: a mail outage\n\n"
        "== Orders for turn 2 ==\n"
    ) in report
    assert "previewed" not in report


def test_a_game_may_opt_out_of_the_notes(service: Service, now: datetime) -> None:
    referee_game(service, now, announce_referee_actions=False)
    receive(service, referee_mail("EDIT score.bob = 2 BECAUSE a test\n"), now=now)
    report = _resolve_turn_one(service, now)
    assert "Referee notes" not in report
    assert len(referee_audit(service)) == 1  # audited all the same


def test_game_new_mails_each_referee_a_password(
    service: Service, now: datetime, capsys: pytest.CaptureFixture[str]
) -> None:
    url = service.db.url.render_as_string(hide_password=False)
    argv = ["--db", url, "--now", now.isoformat(), "game", "new", "g1", "--ruleset", "counting"]
    seats = ["--seat", "alice=alice@example.org:pw-alice", "--seat", "bob=bob@example.org:pw-bob"]
    options = ["--referee", "Ref@Example.org", "--option", "announce_referee_actions=no"]
    assert main([*argv, *seats, *options, "--seed", "1"]) == 0
    assert capsys.readouterr().out == (
        "game g1 created (counting, running)\n"
        "  referee ref@example.org: password mailed to them (once)\n"
    )
    assert game_row(service).announce_referee_actions is False
    [mail] = outbox(service, "referee")
    assert (mail.recipient, mail.subject) == (REFEREE, "[g1] you are a referee")
    found = re.search(r"^Your password: (\S+)$", body(mail), re.M)
    assert found
    receipt = receive(service, referee_mail("PAUSE BECAUSE x\n", password=found.group(1)), now=now)
    assert receipt.status == "answered"
    assert outbox(service, "referee") == [mail]  # never mailed again
