"""Every line of a check reply fits in 72 columns, whatever the player wrote (issue 13: a few
Temples and Swords check-reply lines ran to 73)."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

from pbem.games.lifecycle import SeatSpec
from pbem.games.service import Service
from pbem.intake.intake import receive
from tests.referee.support import referee_game, referee_mail
from tests.support.games import body, new_game
from tests.support.mails import mail, order_mail

DOC = Path(__file__).resolve().parents[2] / "docs" / "orders" / "temples-and-swords.md"
SEATS = (SeatSpec("ann", "ann@example.org", "pw-ann"), SeatSpec("bob", "bob@example.org", "pw-b"))


def _problem_lines() -> list[str]:
    """The order lines of the reference's examples of problems (those not indented)."""
    blocks = re.findall(r"<!-- verify: problems ann -->\n```text\n(.*?)```", DOC.read_text(), re.S)
    return [line for block in blocks for line in block.splitlines() if not line.startswith(" ")]


def test_a_check_reply_fits_72_columns(service: Service, now: datetime) -> None:
    new_game(service, now, ruleset="temples-and-swords", seats=SEATS, seed=7)
    lines = [
        *_problem_lines(),
        "ADVANCE Religion, Masonry, Writing, Art, Coinage, Metal Working, Military Doctrine",
        "LOSSES SOLDIER, HORSEMAN, SWORDSMAN, SOLDIER, HORSEMAN, SWORDSMAN, SOLDIER, HORSEMAN",
        "Regards from the far side of the mountains, where the mail is slow and the wine good",
        "x" * 90,
    ]
    receipt = receive(service, order_mail("g1", "ann", "pw-ann", "\n".join(lines)), now=now)
    text = body(receipt.replies[0])
    assert "Accepted (" in text and "Rejected (" in text and "Ignored (" in text
    assert [line for line in text.splitlines() if len(line) > 72] == []


def test_prose_around_the_orders_is_answered_and_the_orders_are_read_back(
    service: Service, now: datetime
) -> None:
    """issue 13: "Hi, here are my orders" after the GAME line became HIRE (LABOR) with a
    baffling complaint, and the reply echoed the raw line, not what was understood."""
    new_game(service, now, ruleset="temples-and-swords", seats=SEATS, seed=7)
    text = "Hi, here are my orders\nLABOR D4, 1.\nI hope the weather holds\nThanks!\n"
    receipt = receive(service, order_mail("g1", "ann", "pw-ann", text), now=now)
    reply = body(receipt.replies[0])
    assert (
        "Accepted (1):\n"
        "  line 3: LABOR D4, 1.\n"
        "    read as: put 1 laborer to work in D4\n\n"
        "Rejected (1):\n"
        "  line 4: 'I' is not an order; an order starts with one of: ADVANCE,\n"
    ) in reply
    assert (
        "Ignored (2):\n  line 2: a greeting, not an order\n  line 5: a sign-off, not an order\n"
    ) in reply


def test_a_name_under_the_sign_off_is_passed_over_like_the_greeting(
    service: Service, now: datetime
) -> None:
    """Issue 43, point 12: the name under "Cheers," was "Rejected (1): 'Bob' is not an order"."""
    new_game(service, now, ruleset="temples-and-swords", seats=SEATS, seed=7)
    text = "Hi all,\nLABOR D4 1\nCheers,\nBob\n"
    receipt = receive(service, order_mail("g1", "ann", "pw-ann", text), now=now)
    reply = body(receipt.replies[0])
    assert "Rejected" not in reply
    assert (
        "Ignored (3):\n  line 2: a greeting, not an order\n  line 4: a sign-off, not an order\n"
        "  line 5: a sign-off, not an order\n"
    ) in reply


def test_a_line_its_phase_decides_is_read_back_with_a_note(service: Service, now: datetime) -> None:
    """An order is judged against the position its phase will meet (engine.rehearsal): the
    check reply says under the line what that position decides, in the mail's own line
    numbers and in 72 columns."""
    new_game(service, now, ruleset="temples-and-swords", seats=SEATS, seed=7)
    text = "Here they come\nLABOR D4 0\nBUILD D4 ROAD\n"
    receipt = receive(service, order_mail("g1", "ann", "pw-ann", text), now=now)
    reply = body(receipt.replies[0])
    assert (
        "  line 4: BUILD D4 ROAD\n"
        "    read as: build a road in D4, spending what it needs\n"
        "    note: as things stand it fails at phase 5 Build: no build points in\n"
        "      D4: no laborers or slaves there\n"
    ) in reply
    assert [line for line in reply.splitlines() if len(line) > 72] == []


def test_the_lines_a_reply_quotes_fit_72_columns(service: Service, now: datetime) -> None:
    """Fresh-eyes test (issue 43): a command mail of HELP and a line of 390,000 words was
    answered with that line quoted at 500 characters. Every line a reply quotes (a command
    mail's, a referee mail's, HELP's topic) is cut to fit 72 columns, the cut marked."""
    referee_game(service, now)
    spam = "spam " * 3_900
    mails = [
        mail(f"HELP\n{spam}\n", message_id="c1@x"),
        mail(f"HELP {'x' * 300}\n", message_id="c2@x"),
        referee_mail(f"AUDIT\n{spam}\n"),
    ]
    for raw in mails:
        text = body(receive(service, raw, now=now).replies[0])
        assert [line for line in text.splitlines() if len(line) > 72] == []
    assert "> line 3: spam spam" in text and text.count("spam") < 20
    assert any(
        line.startswith("> line 3: spam") and line.endswith("…") for line in text.splitlines()
    )
