"""`pbem serve --once` on real mail: a 3-seat Temples and Swords game played only by mail for
three turns, and the same game with the SMTP server gone for a while mid-game. The players
mail bot orders through the SMTP server and read their own mailboxes over IMAP; every check
reply and every report must arrive exactly once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine

from engine import get_ruleset
from pbem.cli import main
from pbem.config import Settings
from pbem.mail.compose import text_of
from pbem.store import utcnow
from tests.servers.moderated import (
    SEATS,
    Table,
    inbound_rows,
    logging_restored,
    seated_table,
    turn_of_game,
    unsent,
)
from tests.servers.world import MailWorld

TITLE = get_ruleset("temples-and-swords").title
START = [f"[g1] game begins: you are {seat}" for seat in SEATS]


@pytest.fixture
def table(world: MailWorld, db: Engine, settings: Settings, tmp_path: Path) -> Iterator[Table]:
    with logging_restored():
        yield seated_table(world, db, settings, utcnow(), tmp_path)


def serve_once(table: Table, capsys: pytest.CaptureFixture[str]) -> list[str]:
    capsys.readouterr()
    assert main(["serve", "--once", "--config", str(table.config)]) == 0
    return capsys.readouterr().out.splitlines()


def played_turn(number: int) -> list[str]:
    return [f"Re: turn {number}", f"[g1] turn {number} report"]


def expected(turns: int) -> dict[str, list[str]]:
    """Each seat's mailbox after `turns` turns: the start mail, then per turn the check reply
    and the report, each once."""
    return {
        seat: [start, *(s for n in range(1, turns + 1) for s in played_turn(n))]
        for seat, start in zip(SEATS, START, strict=True)
    }


def assert_turn_mail(table: Table, number: int) -> None:
    for seat in SEATS:
        reply, report = table.mail_of(seat)[-2:]
        assert text_of(reply).startswith(f"Orders for {seat} in game g1, turn {number}: ")
        assert text_of(report).startswith(
            f"Game g1 ({TITLE}), report of turn {number} for {seat}\r\n"
            f"Orders for turn {number + 1} are due by none (when all orders are in).\r\n"
        )


def test_three_turns_played_only_by_mail(table: Table, capsys: pytest.CaptureFixture[str]) -> None:
    assert serve_once(table, capsys) == [
        "mail in: 0 (none)",
        "mail out: 3 sent, 0 not sent, 0 bounced",
    ]
    assert table.wait_for_subjects(1) == expected(0)
    for number in (1, 2, 3):
        assert table.send_orders() == number
        assert serve_once(table, capsys) == [
            "mail in: 3 (3 accepted)",
            f"resolved g1 turn {number}",
            "mail out: 6 sent, 0 not sent, 0 bounced",
        ]
        assert table.wait_for_subjects(1 + 2 * number) == expected(number)
        assert_turn_mail(table, number)
    assert serve_once(table, capsys) == [
        "mail in: 0 (none)",
        "mail out: 0 sent, 0 not sent, 0 bounced",
    ]
    assert table.wait_for_subjects(7, timeout=0.5) == expected(3)
    assert inbound_rows(table.service) == [("accepted", 1)] * 9
    assert (turn_of_game(table.service), unsent(table.service)) == (4, 0)


def test_an_smtp_outage_mid_game_loses_and_repeats_nothing(
    world: MailWorld, table: Table, capsys: pytest.CaptureFixture[str]
) -> None:
    serve_once(table, capsys)
    table.send_orders()
    serve_once(table, capsys)
    assert table.wait_for_subjects(3) == expected(1)

    table.send_orders()
    world.smtp["starttls"].stop()
    during = serve_once(table, capsys)
    again = serve_once(table, capsys)  # a later pass while it is still away
    world.smtp["starttls"].start()
    after = serve_once(table, capsys)

    assert during[:3] == [
        "mail in: 3 (3 accepted)",
        "resolved g1 turn 2",
        "mail out: 0 sent, 1 not sent, 0 bounced",
    ]
    assert during[3].startswith("outbox stopped: smtp: ")
    assert again[:2] == ["mail in: 0 (none)", "mail out: 0 sent, 1 not sent, 0 bounced"]
    assert after == ["mail in: 0 (none)", "mail out: 6 sent, 0 not sent, 0 bounced"]
    assert table.wait_for_subjects(5) == expected(2)
    assert_turn_mail(table, 2)

    table.send_orders()
    serve_once(table, capsys)
    assert table.wait_for_subjects(7) == expected(3)
    assert inbound_rows(table.service) == [("accepted", 1)] * 9
    assert unsent(table.service) == 0
