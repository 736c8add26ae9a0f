"""Seat names are at most 12 letters and digits (docs/operations.md): long enough for a
nation or a house, short enough that every line naming one stays within 72 columns and the
Standing tables show it whole. A fresh-eyes tester's 80-character names were accepted, mails
ran past 72 columns, and the tables cut names to 10 characters (`A aaaaaaaaaa`, `B aaaaaaaaaa`:
two seats, one name shown)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from pbem.clock.turns import resolve_due
from pbem.games.lifecycle import GameError, SeatSpec
from pbem.games.service import Service
from pbem.intake.intake import receive
from tests.support.games import body, new_game, outbox
from tests.support.mails import mail, order_mail

LONG = ("aaaaaaaaaaaa", "aaaaaaaaaaab")  # 12 characters each, the same first 10
SEATS = tuple(SeatSpec(name, f"{name}@example.org", f"pw-{name}") for name in LONG)


def _too_wide(text: str) -> list[str]:
    return [line for line in text.splitlines() if len(line) > 72]


def test_a_seat_name_over_12_characters_is_refused(service: Service, now: datetime) -> None:
    with pytest.raises(GameError, match="at most 12"):
        new_game(service, now, seats=(SeatSpec("a" * 13, "x@example.org", "pw"), *SEATS))
    new_game(service, now, seats=(), signup_seats=2)
    asked = receive(service, mail("JOIN g1 abcdefghijklm PASSWORD x", message_id="j@x"), now=now)
    assert "at most 12" in " ".join(body(asked.replies[0]).split())


@pytest.mark.parametrize(
    "ruleset", ["temples-and-swords", "tribes", "culture-and-conquest", "counting"]
)
def test_long_seat_names_stay_within_72_columns_and_whole(
    service: Service, now: datetime, ruleset: str
) -> None:
    new_game(service, now, ruleset=ruleset, seats=SEATS, game="game-of-sixteen")
    first = [row for row in outbox(service) if row.recipient == "aaaaaaaaaaaa@example.org"]
    check = receive(
        service, order_mail("game-of-sixteen", LONG[0], f"pw-{LONG[0]}", "NO ORDERS"), now=now
    ).replies[0]
    again = receive(
        service,
        order_mail("game-of-sixteen", LONG[0], f"pw-{LONG[0]}", "NO ORDERS", message_id="2@x"),
        now=now,
    ).replies[0]
    resolve_due(service, now=now + timedelta(days=30))  # past the deadline
    report = next(row for row in outbox(service, "report") if "turn 1 report" in row.subject)
    for text in [*map(body, first), body(check), body(again), body(report)]:
        assert _too_wide(text) == []
    if ruleset != "counting":  # its standing is one line of names and points
        standing = body(report).split("== Standing ==\n", 1)[1].split("\n\n", 1)[0]
        rows = {line.split()[1] for line in standing.splitlines()[1:]}
        assert rows == set(LONG), standing


LONG_GAME = "a-long-game-id-" + "x" * 49  # 64 characters, the longest the store keeps


def test_a_64_character_game_id_keeps_every_mail_within_72_columns(
    service: Service, now: datetime
) -> None:
    """The form of the GAME line ("GAME <id> SEAT <seat> PASSWORD <your password>") ran to
    105 columns with the longest game id. A mail writes it over two lines when one would pass
    72 columns, and a mail filled in from that form is read back as written."""
    assert len(LONG_GAME) == 64
    new_game(service, now, ruleset="tribes", seats=SEATS, game=LONG_GAME,
             referees=["ref@example.org"])  # fmt: skip
    first = [row for row in outbox(service) if row.recipient == "aaaaaaaaaaaa@example.org"]
    [start] = [row for row in first if "game begins" in row.subject]
    form = f"GAME {LONG_GAME}\nSEAT {LONG[0]} PASSWORD <your password>\n"
    assert form in body(start)
    filled = form.replace("<your password>", f"pw-{LONG[0]}") + "NO ORDERS\n"
    check = receive(service, mail(filled, sender=f"{LONG[0]}@example.org"), now=now)
    assert check.status == "accepted", check.outcome
    resolve_due(service, now=now + timedelta(days=30))  # past the deadline
    mails = [body(row) for row in outbox(service)]
    assert [line for text in mails for line in _too_wide(text)] == []
