"""Whether a mail proves its seat, decided from rows made in memory (pbem.intake.seat_check):
no database. tests/pipeline checks the refusals and notices written from it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from pbem.intake.seat_check import Claim, Refused, judge
from pbem.store import Game, GameStatus, Seat, SeatStatus, dumps

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
ALICE = "alice@example.org"


def game(**fields: object) -> Game:
    given: dict[str, object] = {"status": GameStatus.RUNNING, "turn": 1, **fields}
    return Game(id="g1", ruleset="counting", options=dumps({}), seed=1, created_at=NOW, **given)


def seat(status: SeatStatus = SeatStatus.ACTIVE) -> Seat:
    return Seat(game_id="g1", name="alice", position=0, address=ALICE, status=status)


def judged(claim: Claim, row: Seat | None = None, **fields: object) -> Refused | None:
    row = row if row is not None else seat()
    return judge(game(**fields), row, [row], claim)


def test_a_seat_proved_by_its_address_is_not_refused() -> None:
    assert judged(Claim(ALICE, "alice", proves=True), address_check=True) is None


def test_a_seat_not_found_is_refused_naming_the_seats() -> None:
    refused = judge(game(), None, [seat()], Claim("x@y", "bobb", proves=False))
    assert refused == Refused(
        "unknown-seat", "game g1 has no seat bobb", "x@y", ("The seats are: alice",)
    )


def test_a_wrong_password_is_refused_to_the_sender_and_the_seat_told() -> None:
    refused = judged(Claim("eve@example.org", "alice", proves=False))
    assert refused == Refused(
        "password", "wrong password for seat alice in game g1", "eve@example.org", tell=ALICE
    )


@pytest.mark.parametrize(
    "claim", [Claim(ALICE, "alice", False), Claim("Alice@Example.org", "alice", False)]
)
def test_the_seats_own_address_is_not_told_of_its_own_mail(claim: Claim) -> None:
    refused = judged(claim)
    assert refused is not None and refused.tell == ""


def test_the_player_the_seat_was_taken_from_is_told_so_and_the_seat_is_not() -> None:
    refused = judged(Claim("old@example.org", "alice", proves=False, former=True))
    assert refused is not None and refused.tell == ""
    assert "you no longer play alice" in refused.error


def test_a_mail_written_before_the_seat_was_taken_tells_the_seat_nothing() -> None:
    refused = judged(Claim("old@example.org", "alice", proves=False, before=True))
    assert refused is not None and (refused.reason, refused.tell) == ("password", "")


@pytest.mark.parametrize(
    ("status", "reason"),
    [
        (SeatStatus.DISORDER, "seat-disorder"),
        (SeatStatus.EJECTED, "seat-disorder"),
        (SeatStatus.BOT, "seat-bot"),
    ],
)
def test_a_seat_without_its_player_is_refused_to_its_address(
    status: SeatStatus, reason: str
) -> None:
    refused = judged(Claim(ALICE, "alice", proves=True), seat(status))
    assert refused is not None and (refused.reason, refused.reply_to, refused.tell) == (
        reason,
        ALICE,
        "",
    )


def test_the_right_password_from_another_address_is_refused_and_the_seat_told() -> None:
    refused = judged(Claim("eve@example.org", "alice", proves=True), address_check=True)
    assert refused == Refused(
        "address",
        "orders for alice come only from its registered address",
        "eve@example.org",
        tell=ALICE,
    )
