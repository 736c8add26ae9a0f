"""A mail of commands as a player lives it (issue 36): the GAME line proves the seat before
anything runs; every line is answered, in one answer (Results / Unprocessed / Ignored, as
Mailman answers); a refusal goes only to whoever sent the mail, and a seat whose password
someone else tried is told that, never what they wrote."""

from __future__ import annotations

from datetime import date, datetime
from itertools import count
from typing import Any

import pytest

from pbem.games.games import find_seat
from pbem.games.lifecycle import PressOptions
from pbem.games.service import Service
from pbem.intake.answer import summary
from pbem.intake.intake import Receipt, receive
from pbem.store import Outbox, Seat
from tests.referee.support import referee_game, referee_mail
from tests.support.games import body, new_game, orders, outbox, quarantined
from tests.support.joins import join
from tests.support.mails import mail

_IDS = count(1)
ALICE = "GAME g1 SEAT alice PASSWORD pw-alice\n"


def _send(service: Service, now: datetime, text: str, **kwargs: Any) -> Receipt:
    kwargs.setdefault("sender", "alice@example.org")
    return receive(service, mail(text, message_id=f"c{next(_IDS)}@x", **kwargs), now=now)


def _seat(service: Service, name: str = "alice") -> Seat:
    with service.store.transaction() as work:
        seat = find_seat(work, "g1", name)
        assert seat is not None
        return seat


def _by_recipient(receipt: Receipt, *addresses: str) -> list[Outbox]:
    """The mail's replies, one to each address, in the order of `addresses`."""
    assert sorted(row.recipient for row in receipt.replies) == sorted(addresses)
    return [next(r for r in receipt.replies if r.recipient == to) for to in addresses]


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_an_old_players_mail_is_refused_to_them_alone_after_a_replacement(
    service: Service, now: datetime
) -> None:
    """Fresh-eyes test (issue 43): the new player was warned "a mail for bob came with a
    wrong password" of the old player's mail. The old player hears they no longer play the
    seat; the new one is told only of a mail written after they took it, by someone else."""
    referee_game(service, now)
    replaced = receive(
        service, referee_mail("REPLACE bob newbob@example.org BECAUSE bob left"), now=now
    )
    assert replaced.status == "answered"
    old = _send(
        service,
        now,
        "GAME g1 SEAT bob PASSWORD pw-bob\nADD 3\n",
        sender="bob@example.org",
        subject="my plan against alice",
    )
    assert old.status == "quarantined"
    [refusal] = _by_recipient(old, "bob@example.org")  # the new player hears nothing of it
    assert "wrong password for seat bob in game g1: you no longer play bob;" in _flat(body(refusal))
    written_before = {"Date": "Sun, 01 Mar 2026 11:00:00 +0000"}  # an hour before the REPLACE
    early = _send(service, now, "GAME g1 SEAT bob PASSWORD guess\n", headers=written_before)
    _by_recipient(early, "alice@example.org")
    stranger = _send(
        service, now, "GAME g1 SEAT bob PASSWORD guess\nADD 3\n", sender="eve@example.org"
    )
    # The seat's new player learns that someone tried: not who, nor what they wrote.
    refused, notice = _by_recipient(stranger, "eve@example.org", "newbob@example.org")
    assert "no longer" not in body(refused)
    text = body(notice)
    assert "wrong password" in text
    for private in ("eve@example.org", "ADD 3", "guess"):
        assert private not in text and private not in notice.subject


def test_the_old_password_proves_nothing_after_set_password(
    service: Service, now: datetime
) -> None:
    new_game(service, now)
    changed = _send(service, now, ALICE + "SET PASSWORD abcdefgh\n")
    assert changed.status == "answered"
    for command in ("STATUS", "ORDERS", "HELP"):
        old = _send(service, now, ALICE + command + "\n")
        assert old.status == "quarantined", command
        [reply] = old.replies  # the sender is the seat: one refusal, no notice on top
        assert reply.recipient == "alice@example.org"
        assert "wrong password for seat alice in game g1" in body(reply)
    new = _send(service, now, "GAME g1 SEAT alice PASSWORD abcdefgh\nSTATUS\n")
    assert new.status == "answered"
    assert body(new.replies[0]).startswith("Game g1 (Counting (a test ruleset)): running.\n")


@pytest.mark.parametrize("command", ["HELP", "HELP DEADLINES", "STATUS", "LIST", "ORDERS"])
def test_a_wrong_password_refuses_whatever_follows_it_and_tells_the_seat(
    service: Service, now: datetime, command: str
) -> None:
    new_game(service, now)
    receipt = _send(
        service,
        now,
        f"GAME g1 SEAT alice PASSWORD guess\n{command}\n",
        sender="eve@evil.example",
        subject="hello alice",
    )
    assert receipt.status == "quarantined"
    assert quarantined(service)[0].reason == "password"
    refusal, notice = _by_recipient(receipt, "eve@evil.example", "alice@example.org")
    assert _flat(body(refusal)).startswith(
        'Your mail "hello alice" was not processed: wrong password for seat alice in game g1'
    )
    for shown in (body(notice), notice.subject):
        assert "eve@evil.example" not in shown and "hello alice" not in shown


def test_a_right_password_from_another_address_is_refused_there_where_the_game_checks(
    service: Service, now: datetime
) -> None:
    new_game(service, now, address_check=True)
    receipt = _send(service, now, ALICE + "ADD 3\n", sender="alice@elsewhere.example")
    assert receipt.status == "quarantined"
    refusal, notice = _by_recipient(receipt, "alice@elsewhere.example", "alice@example.org")
    assert "orders for alice come only from its registered address" in _flat(body(refusal))
    assert "change it at once with SET PASSWORD" in _flat(body(notice))
    assert "alice@elsewhere.example" not in body(notice)


def test_every_command_of_a_mail_is_carried_out_and_answered_in_one_mail(
    service: Service, now: datetime
) -> None:
    new_game(service, now)
    receipt = _send(
        service,
        now,
        ALICE + "SET ABSENCE 2026-04-24\nSET PASSWORD abcdefgh\n-- \nAlice\n",
        subject="holidays",
    )
    assert receipt.status == "answered"
    [answer] = receipt.replies
    assert answer.recipient == "alice@example.org"
    text = body(answer)
    assert _seat(service).absent_until == date(2026, 4, 24)
    assert text.startswith('Your mail "holidays", line by line.\n\nResults:\n')
    away = "> line 2: SET ABSENCE 2026-04-24\nalice in game g1 is marked away from now through"
    assert away in text
    assert "> line 3: SET PASSWORD a*******\nThe password of alice in game g1 is changed" in text
    assert "Ignored:\n  line 5: signature (1 line)\n" in text
    assert "abcdefgh" not in text and text.count("\n-- \n") == 1
    again = _send(service, now, "GAME g1 SEAT alice PASSWORD abcdefgh\nSTATUS\n")
    assert again.status == "answered"


def test_a_refused_command_and_press_in_one_mail_get_one_consistent_answer(
    service: Service, now: datetime
) -> None:
    new_game(service, now, press=PressOptions())
    receipt = _send(
        service, now, ALICE + "SET ABSENCE 2020-01-01\nPRESS TO bob\nShall we?\nEND PRESS\n"
    )
    [to_bob] = [row for row in outbox(service, "press") if row.recipient == "bob@example.org"]
    assert "Shall we?" in body(to_bob)
    [answer] = receipt.replies
    text = body(answer)
    assert "not processed" not in text
    results = text.split("Results:\n", 1)[1].split("\nUnprocessed:\n", 1)
    assert "> line 3: PRESS TO bob\n" in results[0] and "line 3: sent to bob" in results[0]
    assert results[1].startswith(
        "> line 2: SET ABSENCE 2020-01-01\nrefused: 2020-01-01 has passed\n"
    )
    # Something in it was done: the mail is answered, never set aside to be replayed.
    assert receipt.status == "answered" and quarantined(service) == []
    assert _seat(service).absent_until is None


def test_lines_that_are_no_commands_are_answered_as_unprocessed(
    service: Service, now: datetime
) -> None:
    new_game(service, now)
    receipt = _send(service, now, "STATUS g1\nThanks, and what are the rules?\n")
    [answer] = receipt.replies
    text = body(answer)
    assert text.startswith('Your mail "orders", line by line.\n\nResults:\n> line 1: STATUS g1\n')
    assert "\nUnprocessed:\n> line 2: Thanks, and what are the rules?\nnot a command" in text
    assert receipt.status == "answered"


def test_a_mail_whose_every_command_is_refused_is_set_aside(
    service: Service, now: datetime
) -> None:
    new_game(service, now)
    receipt = _send(service, now, ALICE + "SET ABSENCE 2020-01-01\nREPORT 7\n")
    assert receipt.status == "quarantined"
    assert quarantined(service)[0].reason == "set"
    [answer] = receipt.replies
    unprocessed = body(answer).split("\nUnprocessed:\n", 1)[1]
    assert "> line 2: SET ABSENCE 2020-01-01\nrefused: 2020-01-01 has passed" in unprocessed
    assert "> line 3: REPORT 7\nrefused: there is no report of turn 7 yet" in unprocessed


def test_a_joined_player_asks_with_the_game_line_before_the_game_begins(
    service: Service, now: datetime
) -> None:
    new_game(service, now, seats=(), signup_seats=2)
    joined = join(service, now, "JOIN g1 zoe PASSWORD secret1", "zoe@example.org", "zoe")
    assert joined.status == "answered"
    status = _send(service, now, "GAME g1 SEAT zoe PASSWORD secret1\nSTATUS\n")
    assert status.status == "answered"
    assert body(status.replies[0]).startswith("Game g1 (Counting (a test ruleset)): open.\n")
    orders = _send(service, now, "GAME g1 SEAT zoe PASSWORD secret1\nORDERS\n")
    assert "game g1 has not begun" in _flat(body(orders.replies[0]))


def test_a_template_sent_back_unfilled_says_what_to_replace(
    service: Service, now: datetime
) -> None:
    new_game(service, now)
    receipt = _send(service, now, "GAME g1 SEAT alice PASSWORD <your password>\nTURN 1\nADD 3\n")
    assert receipt.status == "quarantined"
    assert "line 1: replace <your password> with your password" in _flat(body(receipt.replies[0]))


def test_a_mails_outcome_says_each_thing_once_and_a_few_only() -> None:
    """Thousands of refused lines made one log line and one quarantine reason of thousands of
    copies; each is said once, with its count, and only the first eight."""
    texts = ["a"] * 4990 + ["b"] + [f"c{n}" for n in range(20)]
    said = summary(texts)
    assert said == "a (4990 lines); b; c0; c1; c2; c3; c4; c5; and 14 more"


def test_orders_and_commands_in_one_mail_say_what_was_done_and_where_the_rest_goes(
    service: Service, now: datetime
) -> None:
    """A fresh-eyes tester's find: orders and RESIGN (or SET) in one mail, and SET before
    orders, got "unknown order RESIGN" or "not a command" and no hint. A command among
    orders is refused with where it goes, and the orders are stored without it; orders
    under a command are not read, and the answer says that none were stored."""
    new_game(service, now)
    mixed = _flat(body(_send(service, now, ALICE + "ADD 1\nRESIGN\nSET PRESS OFF\n").replies[0]))
    assert "Accepted (1): line 2: ADD 1" in mixed
    assert (
        "line 3: RESIGN is a mail command, not an order, and was not carried out. RESIGN must "
        "be sent in a mail of its own: your GAME line, then RESIGN."
    ) in mixed
    assert (
        "line 4: SET is a mail command, not an order, and was not carried out. Send SET in "
        "a separate mail (your GAME line, then SET)"
    ) in mixed
    with service.store.transaction() as work:
        assert find_seat(work, "g1", "alice").status == "active"  # type: ignore[union-attr]
    [stored] = orders(service)
    assert stored.text == "ADD 1"  # the command lines are not kept as orders
    first = _flat(body(_send(service, now, ALICE + "SET PRESS OFF\nADD 1\nADD 2\n").replies[0]))
    assert (
        "> line 3: ADD 1 not a command, so not read. A mail that starts with a command (after "
        "its GAME line) is read for commands only, and no orders were stored from it. Send "
        "orders in a mail of their own: your GAME line, then the orders. "
        "> line 4: ADD 2 not a command either: not read."
    ) in first
    assert [row.text for row in orders(service)] == ["ADD 1"]  # still the first mail's


def test_resign_beside_other_lines_is_refused_and_resigns_nothing(
    service: Service, now: datetime
) -> None:
    """RESIGN cannot be taken back: in a mail with other lines (orders, another command) it
    is refused, saying why and that the seat is still the player's; the rest still runs."""
    new_game(service, now)
    for n, text in enumerate(("RESIGN\nADD 1\n", "SET PRESS OFF\nRESIGN\n")):
        receipt = _send(service, now, ALICE + text)
        answer = _flat(body(receipt.replies[0]))
        assert (
            "refused: RESIGN must be sent in a mail of its own: your GAME line, then RESIGN, "
            "and no other line. This mail holds other lines too, so nothing was resigned: "
            "seat alice is still yours"
        ) in answer, n
        assert _seat(service).status == "active" and _seat(service).address
    assert receipt.status == "answered"  # SET PRESS OFF was done
    alone = _send(service, now, ALICE + "RESIGN\n")
    assert alone.status == "answered" and _seat(service).status == "disorder"


@pytest.mark.parametrize(
    "closing", ["Thanks, Eve\n", "Cheers,\nEve\n", "Best regards,\nEve\nThe Red Empire\n"]
)
def test_a_short_sign_off_after_the_last_command_is_passed_over(
    service: Service, now: datetime, closing: str
) -> None:
    """Fresh-eyes test (issue 43): "Thanks, Eve" under a JOIN was answered "not a command
    ... nobody reads other text sent here". A short sign-off after the last command is passed
    over as in an order mail, the JOIN answered alone."""
    new_game(service, now, seats=(), signup_seats=2)
    text = f"Hi!\nJOIN g1 eve PASSWORD tulip\n{closing}\nSent from my iPhone\n"
    receipt = _send(service, now, text, sender="eve@example.org")
    (reply,) = receipt.replies
    said = body(reply)
    assert "not a command" not in said and "Unprocessed" not in said
    assert "CONFIRM" in said  # the JOIN's own answer, alone


def test_a_sign_off_before_another_command_or_a_long_closing_is_still_answered(
    service: Service, now: datetime
) -> None:
    """Only a short closing block at the very end is passed over: a "Thanks" line before
    another command, or a paragraph after the thanks, is answered as before."""
    new_game(service, now)
    text = ALICE + "HELP\nThanks\nHISTORY\nThanks for the game, I hope to play again next year\n"
    said = body(_send(service, now, text).replies[0])
    assert "> line 3: Thanks\nnot a command, so not read." in said
    assert "> line 5: Thanks for the game, I hope to play again next year\nnot a command" in said
