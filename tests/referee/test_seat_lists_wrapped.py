"""Lists of seats in STATUS, the check reply and the referee's PREVIEW are wrapped at 72
columns, as the check reply's notes are: a game of many seats with long names ran past it."""

from __future__ import annotations

from datetime import datetime

from pbem.games.lifecycle import SeatSpec
from pbem.games.service import Service
from pbem.intake.intake import receive
from tests.referee.support import Channel, referee_game
from tests.support.games import body, outbox
from tests.support.mails import mail, order_mail

NAMES = tuple(f"northkingd{n:02d}" for n in range(1, 9))  # 12 characters, the longest allowed
SEATS = tuple(SeatSpec(name, f"{name}@example.org", f"pw-{name}") for name in NAMES)


def _lines_fit(text: str) -> None:
    # The test ruleset's one-line standing and map are its own, not the mail's, text.
    ours = [line for line in text.splitlines() if not line.startswith(f"{NAMES[0]} 1")]
    assert max(len(line) for line in ours) <= 72, text


def test_long_lists_of_seats_are_wrapped(service: Service, now: datetime, via: Channel) -> None:
    referee_game(service, now, seats=SEATS)
    for name in NAMES[:3]:
        raw = order_mail("g1", name, f"pw-{name}", "ADD 1\n", message_id=f"{name}@x")
        assert receive(service, raw, now=now).status == "accepted"
    check = body(outbox(service, "reply")[-1])
    _lines_fit(check)
    assert (
        "Still to send orders: northkingd04, northkingd05, northkingd06,\n"
        "    northkingd07, northkingd08\n"
    ) in check
    status = body(receive(service, mail("STATUS g1", message_id="s@x"), now=now).replies[0])
    _lines_fit(status)
    assert (
        "Still to send orders: northkingd04, northkingd05, northkingd06,\n"
        "    northkingd07, northkingd08\n"
    ) in status
    via.run("preview", reason="a look")
    [preview] = [row for row in outbox(service, "referee") if "review" in row.subject]
    _lines_fit(body(preview))
