"""What a report says about the turn to come when it is not the latest: the reports of a
rerun of several turns (each but the last is followed at once by the next one's), and an old
report sent again (resend, REPORT n), whose deadline and order template are long past."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from pbem.clock.turns import resolve_due
from pbem.games.outbox import as_message
from pbem.games.service import Service
from pbem.intake.intake import receive
from tests.referee.support import Channel, flat, play_turn, referee_game
from tests.support.games import body, outbox, turns
from tests.support.mails import mail, order_mail


def _report(service: Service, number: int, to: str = "alice@example.org") -> str:
    [row] = [
        row
        for row in outbox(service, "report")
        if row.recipient == to and f"turn {number} report (replaces" in row.subject
    ]
    return flat(body(row))


def test_a_rerun_report_followed_by_the_next_asks_for_no_orders(
    service: Service, now: datetime, via: Channel
) -> None:
    """Turns 1 and 2 rerun in one command: turn 1's new report says turn 2 was played again
    and its report follows, with no deadline and no template; turn 2's asks for turn 3."""
    referee_game(service, now)
    play_turn(service, now, 1)
    play_turn(service, now, 2)
    via.run("rollback", "1", reason="a lost order")
    via.run("rerun", reason="replay")
    first, second = _report(service, 1), _report(service, 2)
    assert "Turn 2 was played again too, in the same rerun: its report follows" in first
    assert "are due by" not in first
    assert "== Orders for turn" not in first
    deadline = turns(service)[-1].deadline
    assert deadline is not None and "Orders for turn 3 are due by 2026-03-" in second
    assert "== Orders for turn 3 ==" in second


def test_a_resent_old_report_says_it_is_a_copy_and_what_is_due_now(
    service: Service, now: datetime, via: Channel
) -> None:
    """Turn 1 resent while turn 3 is played: a copy, with turn 3's deadline and template,
    not turn 2's long-past ones."""
    referee_game(service, now)
    play_turn(service, now, 1)
    later = now + timedelta(days=5)
    play_turn(service, later, 2)
    via.run("resend", "alice", "turn", "1", reason="lost")
    text = flat(body(outbox(service, "report")[-1]))
    assert "This is a copy of your report of turn 1, sent again; turn 2 has been played" in text
    pending = turns(service)[-1]
    assert pending.number == 3
    assert "Turn 3 is being played now. Orders for turn 3 are due by 2026-03-08" in text
    assert "Orders for turn 2" not in text
    assert "== Orders for turn 3 ==" in text and "TURN 3" in text and "TURN 2" not in text


def test_the_latest_report_resent_is_as_first_mailed(
    service: Service, now: datetime, via: Channel
) -> None:
    referee_game(service, now)
    play_turn(service, now, 1)
    via.run("resend", "alice", reason="lost")
    text = flat(body(outbox(service, "report")[-1]))
    assert "copy" not in text
    assert "Orders for turn 2 are due by" in text and "TURN 2" in text


def _report_reply(service: Service, now: datetime, number: int) -> tuple[str, dict[str, object]]:
    """alice's REPORT <number>: its text, flattened, and its JSON."""
    ask = mail(
        f"GAME g1 SEAT alice PASSWORD pw-alice\nREPORT {number}\n",
        message_id=f"r{now.timestamp():.0f}@x",
    )
    receipt = receive(service, ask, now=now)
    assert len(receipt.replies) == 1, receipt
    [reply] = receipt.replies
    message = as_message(reply.raw)
    files = {str(p.get_filename()): p.get_content() for p in message.iter_attachments()}
    return flat(body(reply)), json.loads(files[f"report-g1-{number}-alice.json"])


def test_a_players_old_report_and_its_data_name_the_turn_being_played(
    service: Service, now: datetime, via: Channel
) -> None:
    """REPORT 1 while turn 3 is played: the text and the JSON agree on turn 3 and its
    deadline; while the game is paused, neither names a deadline."""
    referee_game(service, now)
    play_turn(service, now, 1)
    later = now + timedelta(days=5)
    play_turn(service, later, 2)
    text, data = _report_reply(service, later, 1)
    assert "Orders for turn 3 are due by 2026-03-08 12:00 UTC." in text
    assert (data["next_turn"], data["deadline"]) == (3, "2026-03-08T12:00:00Z")
    via.run("pause", reason="holidays")
    text, data = _report_reply(service, later + timedelta(hours=1), 1)
    assert "Turn 3 is being played now. Game g1 is paused: orders you send are kept" in text
    assert "its deadline is set then" in text
    assert "due by" not in text
    assert (data["next_turn"], data["deadline"]) == (3, None)


def test_an_old_report_names_every_turn_played_since_and_dates_its_notes(
    service: Service, now: datetime, via: Channel
) -> None:
    """REPORT 1 while turn 4 is played: turns 2 and 3 have been played since (not "turn 2"
    alone), and the referee notes of turn 1, which name turn 1's deadline, say they are
    turn 1's, not the deadline the copy's header names."""
    referee_game(service, now)
    via.run("replace", "bob", "carol@example.org", "72h", reason="bob left")
    [welcome] = [row for row in outbox(service, "referee") if row.recipient == "carol@example.org"]
    password = body(welcome).split("Your password: ", 1)[1].split()[0]
    passwords = {"alice": "pw-alice", "bob": password}
    for number in (1, 2, 3):
        at = now + timedelta(days=number)
        for seat in ("alice", "bob"):
            raw = order_mail("g1", seat, passwords[seat], "ADD 1", message_id=f"{seat}{number}@x")
            receive(service, raw, now=at)
        assert [s.turn for s in resolve_due(service, now=at)] == [number]
    text, _ = _report_reply(service, now + timedelta(days=4), 1)
    assert "turns 2 to 3 have been played since" in text
    assert "== Referee notes == Made while turn 1 was played:" in text
    assert "bob has a new player; the deadline of turn 1 is now 2026-03-04 12:00 UTC" in text


def test_the_latest_report_resent_after_a_rerun_says_it_is_sent_again(
    service: Service, now: datetime, via: Channel
) -> None:
    """Turn 1 rolled back and played again: its report said it replaced the first one. Sent
    again, it does not say so as news under the subject "(again)"."""
    referee_game(service, now)
    play_turn(service, now, 1)
    via.run("rollback", "1", reason="a lost order")
    via.run("rerun", reason="replay")
    assert "This report replaces your earlier report of turn 1" in _report(service, 1)
    via.run("resend", "alice", reason="lost")
    text = flat(body(outbox(service, "report")[-1]))
    assert "replaces your earlier report" not in text
    assert "This report of turn 1, sent again, is of the turn as played again after the" in text
