"""While a game is paused no deadline stands (docs/referee.md): every mail sent then that would
name one (the latest report, a resent one, a new player's welcome, STATUS, the check reply)
says the game is paused, that orders are kept, and that the deadline is set when play
resumes. Found by a fresh-eyes tester: the last report played still named the deadline it
was mailed with, days past, and a welcome named one the resume then replaced."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest

from engine import get_ruleset
from pbem.games.lifecycle import SeatSpec
from pbem.games.outbox import as_message
from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.store import loads
from tests.referee.support import Channel, flat, play_turn, referee_game, referee_mail
from tests.support.games import body, outbox, turns
from tests.support.mails import mail, order_mail

PAUSED = "turn {n} goes on when the referee resumes the game; its deadline is set then"


def _report_reply(service: Service, now: datetime, command: str) -> tuple[str, dict[str, object]]:
    """alice's REPORT (with `command`'s words): its text, flattened, and its JSON if any."""
    ask = mail(f"GAME g1 SEAT alice PASSWORD pw-alice\n{command}\n", message_id=f"{command}@x")
    [reply] = receive(service, ask, now=now).replies
    message = as_message(reply.raw)
    files = [p.get_content() for p in message.iter_attachments() if "json" in p.get_filename()]
    return flat(body(reply)), json.loads(files[0]) if files else {}


def test_the_latest_report_asked_for_while_paused_names_no_deadline(
    service: Service, now: datetime, via: Channel
) -> None:
    referee_game(service, now)
    play_turn(service, now, 1)
    via.run("pause", reason="holidays")
    text, data = _report_reply(service, now + timedelta(days=3), "REPORT")
    assert "due by" not in text
    assert "Game g1 is paused: orders you send are kept, and " + PAUSED.format(n=2) in text
    assert "== Orders for turn 2 ==" in text
    assert (data["next_turn"], data["deadline"]) == (2, None)


def test_a_report_resent_in_the_mail_that_pauses_names_no_deadline(
    service: Service, now: datetime
) -> None:
    referee_game(service, now)
    play_turn(service, now, 1)
    raw = referee_mail("PAUSE BECAUSE holidays\nRESEND alice BECAUSE lost")
    assert receive(service, raw, now=now).status == "answered"
    text = flat(body(outbox(service, "report")[-1]))
    assert "due by" not in text and PAUSED.format(n=2) in text


def test_the_last_report_after_a_rollback_names_no_deadline(
    service: Service, now: datetime, via: Channel
) -> None:
    """A rollback pauses the game: the report of the turn before the reopened one does not
    name the reopened turn's deadline (set anew when the referee reruns or resumes)."""
    referee_game(service, now)
    play_turn(service, now, 1)
    play_turn(service, now + timedelta(days=1), 2)
    via.run("rollback", "2", reason="a lost order")
    text, _ = _report_reply(service, now + timedelta(days=2), "REPORT")
    assert "report of turn 1 for alice" in text
    assert "due by" not in text and PAUSED.format(n=2) in text


@pytest.mark.parametrize(
    "lines",
    [
        "PAUSE BECAUSE holidays\nREPLACE bob carol@example.org 96h BECAUSE bob left",
        "REPLACE bob carol@example.org 96h BECAUSE bob left\nPAUSE BECAUSE holidays",
    ],
    ids=["pause-then-replace", "replace-then-pause"],
)
def test_a_welcome_while_paused_says_so_and_names_no_deadline(
    service: Service, now: datetime, lines: str
) -> None:
    referee_game(service, now)
    assert receive(service, referee_mail(lines), now=now).status == "answered"
    [welcome] = [row for row in outbox(service, "referee") if row.recipient == "carol@example.org"]
    text = flat(body(welcome))
    assert "The deadline of turn 1 is" not in text
    assert "Game g1 is paused: orders you send are kept, and " + PAUSED.format(n=1) in text
    assert "its deadline is set then, 4d after the resume." in text  # the 96h grace


def test_status_and_the_check_reply_while_paused_say_orders_are_kept(
    service: Service, now: datetime, via: Channel
) -> None:
    referee_game(service, now, early_processing=True)
    via.run("pause")
    status = receive(service, mail("STATUS g1", message_id="s@x"), now=now).replies[0]
    text = flat(body(status))
    assert "no orders are taken" not in text
    assert "orders sent now are kept" in text
    check = receive(service, order_mail("g1", "alice", "pw-alice", "ADD 1\n"), now=now)
    reply = flat(body(check.replies[0]))
    assert "at the deadline, or sooner" not in reply
    assert "No turn is resolved while the game is paused" in reply


def test_the_start_mail_asked_for_while_paused_names_no_deadline(
    service: Service, now: datetime, via: Channel
) -> None:
    """REPORT before turn 1 is played sends the start mail: while paused, without its
    deadline."""
    referee_game(service, now)
    via.run("pause")
    text, _ = _report_reply(service, now + timedelta(days=3), "REPORT")
    assert text.startswith("Game g1 (Counting (a test ruleset)) begins. You are alice.")
    assert "due by" not in text and PAUSED.format(n=1) in text


def test_a_replace_while_paused_tells_the_referee_no_deadline(
    service: Service, now: datetime, via: Channel
) -> None:
    referee_game(service, now)
    via.run("pause")
    result = via.run("replace", "bob", "carol@example.org", reason="bob left")
    assert result.endswith("password mailed; deadline set when play resumes")


def test_a_mail_not_counted_while_paused_names_no_deadline(
    service: Service, now: datetime, via: Channel
) -> None:
    """The replies to a mail that does not count (no line accepted; a choice refused) told
    the player to send it again "before the deadline", and that the turn is played "at the
    deadline" without them: while paused there is none."""
    seats = [SeatSpec(name, f"{name}@example.org", f"pw-{name}") for name in ("alice", "bob")]
    referee_game(service, now, ruleset="classical", seats=seats)
    via.run("pause")
    nothing = receive(service, order_mail("g1", "alice", "pw-alice", "FLY AWAY\n"), now=now)
    text = flat(body(nothing.replies[0]))
    assert "You are not counted as having sent orders for turn 1" in text
    assert "deadline" not in text.split("-- ")[0].replace("with the deadline", "")
    assert "send the whole mail again before the turn is resolved, after the referee" in text
    state = loads(turns(service)[0].state_before)
    choice = "\n".join(
        "CIVILIZATION Romans, Egyptains" if line.upper().startswith("CIVILIZATION") else line
        for line in get_ruleset("classical").bot_orders(state, "alice", 1).splitlines()
    )
    raw = order_mail("g1", "alice", "pw-alice", choice + "\n", message_id="c@x")
    text = flat(body(receive(service, raw, now=now).replies[0]))
    assert "a choice the turn is played with, was rejected" in text
    assert "before the deadline" not in text and "played at the deadline" not in text
    assert "after the referee resumes the game" in text
