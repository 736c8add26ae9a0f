"""End to end: real .eml files through the maildir inbox, intake, turn resolution and the
outbox maildir, on Temples and Swords; the exact state and the exact replies are asserted.

Rejection texts are the engine's own words, so the one rejected line's text is taken from the
engine; everything else in the replies is pbem's and is compared whole."""

from __future__ import annotations

import base64
import email
import email.policy
from datetime import datetime
from email.message import EmailMessage
from pathlib import Path
from typing import cast

import pytest

from engine import get_ruleset
from pbem.games.service import Service
from pbem.intake.poll import poll_once
from pbem.mail.compose import text_of
from pbem.mail.maildir import MaildirInbox, MaildirSender
from pbem.store import loads
from pbem.templates import wrap
from tests.support.games import game_row, inbound, new_game, orders, quarantined, turns

MAIL = Path(__file__).parent / "mail"
DELIVERY_ORDER = [
    "plain",
    "html_only",
    "multipart",
    "quoted_reply",
    "wrong_password",
    "wrong_game",
    "stale_turn",
    "auto_reply",
    "bounce",
    "latin1",
    "big_attachment",
    "plain",  # again: a duplicate Message-ID
]
SIGNATURE = "-- \nPBEM Moderator - send HELP for the mail commands.\n"
CLOSING = (
    "You may send new orders until the turn is resolved: at the deadline, or\n"
    "sooner, as soon as every seat's orders are in (a seat away or without a\n"
    "player is not waited for). The last mail counts, whole.\n\n"
)


def _check_reply(
    seat: str,
    line: int,
    *,
    waiting: str = "",
    replaced: int = 0,
    middle: str = "",
    verdict: str = "all accepted",
) -> str:
    again = (
        f"These orders replace the orders you sent earlier for this turn (mail {replaced}\n"
        "this turn).\n"
        if replaced
        else ""
    )
    still = (
        f"Still to send orders: {waiting}\n\n{CLOSING}"
        if waiting
        else "Every seat has sent orders for this turn, so it is resolved now,\n"
        "before the deadline. Your report follows.\n\n"
    )
    return (
        f"Orders for {seat} in game g1, turn 1: {verdict}.\n{again}\n"
        f"Accepted (1):\n  line {line}: TECH 0\n    read as: buy 0 tech rolls\n\n{middle}"
        f"Deadline: 2026-03-03 12:00 UTC\n{still}{SIGNATURE}"
    )


def _refusal(subject: str, reason: str, detail: str = "") -> str:
    head = f'Your mail "{subject}" was not processed:\n'
    return head + wrap(reason + "\n") + detail + "\n" + SIGNATURE


def _expected_replies(rejected: str) -> dict[str, tuple[str, str, str]]:
    """In-Reply-To -> (To, Subject, body) of every reply."""
    return {
        "plain-1@example.org": (
            "alice@example.org",
            "Re: g1 orders",
            _check_reply(
                "alice", 3, waiting="bob", middle="Ignored (1):\n  line 6: after END (1 line)\n\n"
            ),
        ),
        "html-1@example.org": (
            "bob@example.org",
            "Re: orders from bob",
            _check_reply(
                "bob",
                2,
                verdict="1 accepted, 1 rejected",
                middle=f"Rejected (1):\n{rejected}\n\nNotes:\n  read the HTML part as text\n\n",
            ),
        ),
        "multi-1@example.org": (
            "alice@example.org",
            "Re: new orders, with my notes",
            _check_reply(
                "alice",
                2,
                replaced=2,
                middle="Notes:\n  attachment plans.pdf (application/pdf, 48 bytes) ignored\n\n",
            ),
        ),
        "quoted-1@example.org": (
            "bob@example.org",
            "Re: [g1] game begins: you are bob",
            _check_reply(
                "bob", 2, replaced=2, middle="Ignored (1):\n  line 4: quoted text (4 lines)\n\n"
            ),
        ),
        "wrongpw-1@evil.example": (  # to the sender alone; alice is told apart (below)
            "mallory@evil.example",
            "Re: orders",
            _refusal("orders", "wrong password for seat alice in game g1"),
        ),
        "wronggame-1@example.org": (
            "alice@example.org",
            "Re: orders for the wrong game",
            _refusal("orders for the wrong game", "there is no game g9"),
        ),
        "stale-1@example.org": (
            "bob@example.org",
            "Re: old orders",
            _refusal(
                "old orders",
                "these orders are for turn 0, but the pending turn is 1; nothing was stored",
            ),
        ),
        "latin1-1@example.org": ("bob@example.org", "Re: Züge", _check_reply("bob", 2, replaced=3)),
        "big-1@example.org": (
            "alice@example.org",
            "Re: orders and a big picture",
            _refusal("orders and a big picture", "mail is 10.4 MB, over the 2.0 MB limit"),
        ),
    }


EXPECTED_STATUS = {
    "plain-1@example.org": "accepted",
    "html-1@example.org": "accepted",
    "multi-1@example.org": "accepted",
    "quoted-1@example.org": "accepted",
    "wrongpw-1@evil.example": "quarantined",
    "wronggame-1@example.org": "quarantined",
    "stale-1@example.org": "quarantined",
    "vacation-1@example.org": "ignored",
    "bounce-1@mx.example.org": "ignored",
    "latin1-1@example.org": "accepted",
    "big-1@example.org": "quarantined",
}


def _big_mail() -> bytes:
    picture = bytes(range(256)) * (7_700_000 // 256)  # base64 makes it over 10 MB
    return (
        (MAIL / "big_attachment_head.eml").read_bytes()
        + base64.encodebytes(picture)
        + (b"\n--big--\n")
    )


def _sent(folder: Path) -> list[EmailMessage]:
    return [
        cast(EmailMessage, email.message_from_bytes(p.read_bytes(), policy=email.policy.default))
        for p in sorted((folder / "new").iterdir())
    ]


@pytest.fixture
def outbox_dir(service: Service, now: datetime, tmp_path: Path) -> Path:
    new_game(service, now, ruleset="temples-and-swords", seed=7)
    inbox = MaildirInbox(tmp_path / "inbox")
    for name in DELIVERY_ORDER:
        inbox.deliver(
            _big_mail() if name == "big_attachment" else (MAIL / f"{name}.eml").read_bytes()
        )
    poll_once(service, inbox, MaildirSender(tmp_path / "outbox"), now=now)
    assert inbox.pending() == []
    return tmp_path / "outbox"


def _rejected_fly(service: Service) -> str:
    """The engine's words for bob's 'FLY TO THE MOON' (line 3 of the HTML mail's text)."""
    ruleset = get_ruleset("temples-and-swords")
    state = loads(turns(service)[0].state_before)
    [problem] = ruleset.parse_orders(state, "bob", "TECH 0\nFLY TO THE MOON").problems
    return "  " + wrap(problem.describe().replace("line 2:", "line 3:", 1), 70).replace(
        "\n", "\n  "
    )


def test_every_mail_is_recorded_once_with_its_fate(service: Service, outbox_dir: Path) -> None:
    assert {m.message_id: m.status for m in inbound(service)} == EXPECTED_STATUS
    assert [m.message_id for m in inbound(service)].count("plain-1@example.org") == 1
    assert [(q.reason) for q in quarantined(service)] == [
        "password",
        "unknown-game",
        "stale",
        "too-big",
    ]
    assert {m.message_id: m.outcome for m in inbound(service) if m.status == "ignored"} == {
        "vacation-1@example.org": "Auto-Submitted: auto-replied",
        "bounce-1@mx.example.org": "null return path (a bounce)",
    }


def test_the_last_mail_of_each_seat_counts_and_the_turn_resolves(
    service: Service, outbox_dir: Path
) -> None:
    stored = {row.seat: (row.text, row.version, row.message_id) for row in orders(service)}
    assert stored == {
        "alice": ("TECH 0", 2, "multi-1@example.org"),
        "bob": ("TECH 0", 3, "latin1-1@example.org"),
    }
    first, second = turns(service)
    assert first.state_after == second.state_before
    assert game_row(service).turn == 2


def test_each_reply_is_exact_and_goes_to_the_registered_address(
    service: Service, outbox_dir: Path
) -> None:
    expected = _expected_replies(_rejected_fly(service))
    replies = {
        str(m["In-Reply-To"]).strip("<>"): (str(m["To"]), str(m["Subject"]), text_of(m))
        for m in _sent(outbox_dir)
        if m["In-Reply-To"]
    }
    assert set(replies) == set(expected)
    for key, reply in expected.items():
        assert replies[key] == reply, key
    # The seat whose password was tried is told, outside the thread, not what was written.
    [notice] = [m for m in _sent(outbox_dir) if "was refused" in str(m["Subject"])]
    assert (str(notice["To"]), str(notice["Subject"])) == (
        "alice@example.org",
        "[g1] a mail for alice was refused",
    )
    assert "mallory" not in text_of(notice)
    assert all(m["Auto-Submitted"] and m["X-Loop"] == "pbem.localhost" for m in _sent(outbox_dir))


def test_reports_go_to_every_seat_with_map_and_template(service: Service, outbox_dir: Path) -> None:
    ruleset = get_ruleset("temples-and-swords")
    after = loads(turns(service)[0].state_after or "")
    reports = {str(m["To"]): m for m in _sent(outbox_dir) if "turn 1 report" in str(m["Subject"])}
    assert sorted(reports) == ["alice@example.org", "bob@example.org"]
    for address, message in reports.items():
        seat = address.split("@")[0]
        text = text_of(message)
        assert text.startswith(
            f"Game g1 (Temples and Swords v1.1), report of turn 1 for {seat}\n"
            "Orders for turn 2 are due by 2026-03-03 12:00 UTC.\n\n== What happened ==\n"
        )
        assert "\n== Map ==\n" + ruleset.render_map(after, seat) + "\n" in text
        assert ruleset.order_template(after, seat) + "\nEND\n" in text
        assert f"GAME g1 SEAT {seat} PASSWORD <your password>\nTURN 2\n" in text
        # Order lines are the ruleset's and must stay whole; everything else fits 72 columns.
        template = set(ruleset.order_template(after, seat).splitlines())
        assert max(len(line) for line in text.splitlines() if line not in template) <= 72
