"""The checker on mail made up here (no servers): every invariant passes a right campaign and
names the mail of a wrong one. A check that cannot fail would pass every campaign."""

from __future__ import annotations

import io
import json
import re
from dataclasses import replace
from typing import Any

from PIL import Image

from pbem.mail.compose import Attachment, compose
from pbem.pictures.palette import SEAT_COLOURS
from tests.campaign.checker import INVARIANTS, check
from tests.campaign.record import Event, Received, Record, Sent

GAME = "g1"
DUE = "2026-03-09 17:00 UTC (2026-03-09 18:00 CET in Europe/Berlin)"


def _record(**changes: Any) -> Record:
    record = Record(
        game=GAME,
        ruleset="temples-and-swords",
        zone="Europe/Berlin",
        addresses={name: f"{name}@pbem.test" for name in ("ann", "bob", "bob2", "referee")},
        referee="referee",
        first_holders={"ann": "ann", "bob": "bob"},
    )
    record.mail = {name: [] for name in record.addresses}
    return replace(record, **changes)


def _deliver(record: Record, owner: str, step: int, subject: str, body: str, **more: Any) -> None:
    message = compose(
        sender="PBEM <moderator@pbem.test>",
        to=more.pop("to", record.addresses[owner]),
        subject=subject,
        body=body,
        message_id=f"<{len(record.all_mail())}.{owner}@moderator.test>",
        loop_token="loop",
        **more,
    )
    record.mail[owner].append(Received(step, owner, message))


def _report(turn: int, seat: str, *, vp: int = 1, legend: str = "AB", due: str = DUE) -> str:
    letters = dict(zip(("ann", "bob"), legend, strict=True))
    rows = "\n".join(f"{letters[s]} {s:<11}{vp if s == seat else 2:>4}{3:>6}" for s in letters)
    return (
        f"Game {GAME} (Temples and Swords v1.1), report of turn {turn} for {seat}\n"
        f"Orders for turn {turn + 1} are due by {due}.\n\n== What happened ==\nNothing.\n\n"
        f"== Standing ==\n{'Seat':<13}{'VP':>4}{'Gold':>6}\n{rows}\n\n== Orders ==\n"
    )


def _attachments(turn: int, seat: str, *, vp: int = 1, seats: str = "ann bob") -> tuple[Any, ...]:
    names = seats.split()
    data = {
        "game": GAME,
        "turn": turn,
        "seat": seat,
        "next_turn": turn + 1,
        "deadline": "2026-03-09T17:00:00Z",
        "standings": {s: {"VP": vp if s == seat else 2} for s in ("ann", "bob")},
        "map": {"seats": [{"name": n, "letter": "AB"[names.index(n)]} for n in names]},
    }
    return (
        Attachment(f"map-{GAME}-{turn}-{seat}.png", "image/png", _png(len(names))),
        Attachment(
            f"report-{GAME}-{turn}-{seat}.json", "application/json", json.dumps(data).encode()
        ),
    )


def _png(seats: int) -> bytes:
    image = Image.new("P", (4, 4))
    colours = [int(c[i : i + 2], 16) for c in SEAT_COLOURS[:seats] for i in (1, 3, 5)]
    image.putpalette(colours + [255] * (768 - len(colours)))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _turn_played(
    record: Record, step: int, turn: int, cause: str = "orders", **report: Any
) -> None:
    record.events.append(Event(step, "resolved", turn=turn, cause=cause, seats=("ann", "bob")))
    for seat in ("ann", "bob"):
        owner = record.holders(step)[seat]
        text = _report(turn, seat, **report.get(seat, {}))
        _deliver(
            record,
            owner,
            step,
            f"[{GAME}] turn {turn} report",
            text,
            attachments=_attachments(turn, seat),
        )


def _orders(record: Record, step: int, seat: str, turn: int, *, counted: bool = True) -> str:
    """Orders from the seat's player; not `counted`: every line refused."""
    message_id = f"<{len(record.sent)}.{seat}@pbem.test>"
    kind = "orders" if counted else "typo"
    record.sent.append(
        Sent(step, seat, message_id, kind, seat=seat, proves=True, turn=turn, counted=counted)
    )
    return message_id


def _answer(record: Record, step: int, owner: str, parent: str, body: str = "Orders: 3") -> None:
    _deliver(record, owner, step, "Re: turn 1", body, in_reply_to=parent)


def _named(record: Record, invariant: str) -> list[str]:
    return [str(v) for v in INVARIANTS[invariant](record)]


def _unnamed(found: list[str], *texts: str) -> list[str]:
    """The texts no violation says."""
    return [text for text in texts if not any(text in violation for violation in found)]


def _a_right_campaign() -> Record:
    record = _record()
    for seat in ("ann", "bob"):
        _answer(record, 1, seat, _orders(record, 1, seat, 1))
    _turn_played(record, 1, 1)
    return record


def test_a_right_campaign_has_no_violation() -> None:
    assert check(_a_right_campaign()) == []


def test_a_mail_answered_twice_or_never_or_an_auto_reply_answered() -> None:
    record = _a_right_campaign()
    twice, never = _orders(record, 2, "ann", 2), _orders(record, 2, "bob", 2)
    _answer(record, 2, "ann", twice)
    _answer(record, 2, "ann", twice)
    auto = "<away.bob@pbem.test>"
    record.sent.append(Sent(2, "bob", auto, "auto-reply", answer=False))
    _answer(record, 2, "bob", auto)
    found = _named(record, "answered-once")
    assert len(found) == 3
    assert f"ann's orders mail of step 2 ({twice}) was answered 2 times" in found[0]
    assert f"bob's orders mail of step 2 ({never}) was answered 0 times" in found[1]
    assert "bob's auto-reply mail of step 2" in found[2] and "must not be answered" in found[2]


def test_every_command_of_a_mail_is_answered_in_its_one_answer() -> None:
    record = _record()
    record.sent.append(Sent(1, "bob", "<c.bob@pbem.test>", "command", lines=("STATUS", "ORDERS")))
    _answer(record, 1, "bob", "<c.bob@pbem.test>", "> STATUS\nGame g1: running.")
    [found] = _named(record, "answered-once")
    assert "says nothing of ORDERS" in found


def test_an_answer_to_another_person_or_a_seat_notice_to_a_stranger() -> None:
    record = _a_right_campaign()
    old = "<old.bob@pbem.test>"  # under the seat's old password, which no longer holds
    record.sent.append(Sent(2, "bob", old, "wrong-password", seat="bob", turn=2))
    record.events.append(Event(2, "replaced", turn=2, seat="bob", old="bob", new="bob2"))
    _answer(record, 2, "bob2", old)  # the old player's refused mail, answered to the new one
    _deliver(record, "ann", 2, f"[{GAME}] a mail for bob was refused", "Someone tried.")
    _deliver(record, "bob", 2, "hello", "A mail about nothing.", to="someone@else.test")
    assert (
        _unnamed(
            _named(record, "addressed-right"),
            "answers bob's wrong-password mail of step 2, but went to bob2",
            "is about seat bob, which bob or bob2 plays, not them",
            "is addressed to someone@else.test",
            "answers no mail and is about no game",
        )
        == []
    )


def test_a_turn_without_reports_and_a_rerun_that_does_not_say_it_replaces() -> None:
    record = _a_right_campaign()
    record.events.append(Event(2, "resolved", turn=2, cause="orders", seats=("ann", "bob")))
    _turn_played(record, 3, 1, cause="rerun")
    found = _named(record, "turn-reported")
    assert found[0] == "turn-reported: ann got no report of turn 2 for ann at step 2"
    assert "played again after the rollback, has the first one's subject" in found[2]


def test_a_first_report_that_says_it_replaces_another() -> None:
    record = _record()
    record.events.append(Event(1, "resolved", turn=1, cause="forced", seats=()))
    for seat in ("ann", "bob"):
        text = "This report replaces your earlier report of turn 1.\n" + _report(1, seat)
        _deliver(
            record, seat, 1, f"[{GAME}] turn 1 report", text, attachments=_attachments(1, seat)
        )
    assert (
        "says it replaces an earlier report of the turn; there was none"
        in _named(record, "turn-reported")[0]
    )


def test_a_pause_not_told_and_a_rollback_told_as_a_pause() -> None:
    record = _a_right_campaign()
    record.events.append(Event(2, "paused", reason="away"))
    record.events.append(Event(3, "rollback", turn=1, reason="a mistake"))
    _deliver(record, "ann", 2, f"[{GAME}] game paused", "Game g1 is paused at turn 2.")
    for seat in ("ann", "bob"):
        _deliver(record, seat, 3, f"[{GAME}] game paused", "Game g1 is paused at turn 1.")
    assert _named(record, "clock-told") == [
        "clock-told: bob was not told that the game is paused at step 2"
    ]
    assert (
        "bob was not told of the rollback to turn 1 at step 3" in _named(record, "rollback-told")[1]
    )


def test_a_new_player_without_the_position_and_a_template() -> None:
    record = _a_right_campaign()
    record.events.append(Event(2, "replaced", turn=2, seat="bob", old="bob", new="bob2"))
    _deliver(record, "bob", 2, f"[{GAME}] you no longer play bob", "You no longer play it.")
    _deliver(record, "bob2", 2, f"[{GAME}] you now play bob", "Send REPORT for the report.")
    [found] = _named(record, "replacement-told")
    assert "bob2, the new player of bob, got no position and order template for turn 2" in found
    template = "== Your holdings ==\n3 GP\n\nGAME g1 SEAT bob PASSWORD <your password>\nTURN 2\nEND"
    _deliver(record, "bob2", 2, f"[{GAME}] you now play bob", template)
    assert _named(record, "replacement-told") == []


def test_a_turn_played_early_without_counted_orders() -> None:
    record = _record()
    _orders(record, 1, "ann", 1)
    _orders(record, 1, "bob", 1, counted=False)
    _turn_played(record, 1, 1)
    [found] = _named(record, "early-turn-complete")
    assert "without counted orders from bob (its mails for the turn: typo)" in found


def test_a_forced_turn_counted_as_missed_and_a_miss_not_told() -> None:
    record = _record()
    _orders(record, 1, "ann", 1)
    missed = "We had no orders from you for turn 1: 1 turn in a row."
    record.events.append(Event(1, "resolved", turn=1, cause="forced", seats=("ann", "bob")))
    _deliver(record, "bob", 1, "[g1] turn 1 report", _report(1, "bob") + missed)
    _orders(record, 2, "ann", 2)
    _turn_played(record, 2, 2, cause="deadline")
    found = _named(record, "misses-counted")
    assert "bob's report of turn 1 for bob (step 1, forced) counts 1 missed turns" in found[0]
    assert "bob's report of turn 2 for bob (step 2, deadline) does not say" in found[1]


def test_a_report_whose_text_and_data_disagree() -> None:
    record = _record()
    record.events.append(Event(1, "resolved", turn=1, cause="orders", seats=()))
    text = _report(
        1, "ann", vp=4, due="2026-03-10 17:00 UTC (2026-03-10 18:00 CET in Europe/Berlin)"
    )
    attached = (*_attachments(1, "ann"), Attachment("chart-g1-2.png", "image/png", b"not a png"))
    _deliver(record, "ann", 1, "[g1] turn 2 report", text, attachments=attached)
    assert (
        _unnamed(
            _named(record, "reports-agree"),
            "the subject names another turn than the text's 1",
            "ann's VP is 1 in the JSON, '4' in the text",
            "(2, '2026-03-10T17:00:00Z') are not the JSON's",
            "chart-g1-2.png is not the chart of turn 1",
            "chart-g1-2.png is not a picture",
        )
        == []
    )


def test_a_deadline_in_utc_alone_or_at_another_local_time() -> None:
    record = _record()
    _deliver(record, "ann", 1, "[g1] reminder", "Due by 2026-03-09 17:00 UTC.")
    _deliver(record, "bob", 1, "[g1] reminder", f"Due by {DUE.replace('18:00', '19:00')}.")
    _deliver(record, "bob", 1, "[g1] reminder", f"Due by {DUE}.")
    found = _named(record, "deadline-in-zone")
    assert len(found) == 2
    assert all("is not shown in Europe/Berlin (2026-03-09 18:00 there)" in f for f in found)


def test_a_seat_whose_place_in_the_legend_or_letter_changes() -> None:
    record = _record()
    _turn_played(record, 1, 1)
    _deliver(
        record,
        "ann",
        2,
        "[g1] turn 2 report",
        _report(2, "ann", legend="BA"),
        attachments=_attachments(2, "ann", seats="bob ann"),
    )
    found = _named(record, "colours-stable")
    assert _unnamed(found, "the legend's seats are A=bob, B=ann, first A=ann, B=bob") == []
    assert any(re.search(r"ann is B, in .* A$", f) for f in found)
