"""When a mail counts as a seat's orders: with at least one accepted order, or with an
explicit NO ORDERS line. A mail whose every line was refused (a template of forms sent back
unchanged among them) is answered ("you are not counted as having sent orders") and stores
nothing, so that the turn is not resolved early without the seat and its player can still
correct it. A template of orders as they stand counts, and the reply says so."""

from __future__ import annotations

from datetime import datetime

from engine import get_ruleset
from pbem.clock.turns import due_games, resolve_due
from pbem.games.lifecycle import SeatSpec
from pbem.games.service import Service
from pbem.intake.intake import Receipt, receive
from pbem.store import loads
from tests.support.games import body, new_game, orders, outbox, turns
from tests.support.mails import mail, order_mail

SIGNATURE = "\n-- \nPBEM Moderator - send HELP for the mail commands.\n"
NOT_COUNTED = (
    "You are not counted as having sent orders for turn 1: no line of this\n"
    "mail was accepted, so nothing of it was stored. Correct the rejected\n"
    "lines and send the whole mail again before the deadline; or, to play the\n"
    "turn without orders, send NO ORDERS on the line after your GAME line.\n"
)


def _send(service: Service, now: datetime, seat: str, text: str, n: int, **kw: int) -> Receipt:
    raw = order_mail(
        "g1",
        seat,
        f"pw-{seat}",
        text,
        message_id=f"{seat}{n}@x",
        sender=f"{seat}@example.org",
        **kw,
    )
    return receive(service, raw, now=now)


def _due(service: Service, now: datetime) -> list[str]:
    with service.store.transaction() as work:
        return due_games(work, now=now)


def test_a_mail_with_every_line_refused_does_not_count_until_a_correct_one_comes(
    service: Service, now: datetime
) -> None:
    """bob's LABUR/TECH-two mistakes, in the counting game: alice is in, bob's mail has no
    accepted line. The turn is not resolved; bob is told why, and his corrected mail then
    counts and resolves it."""
    new_game(service, now)
    _send(service, now, "alice", "ADD 2", 1)
    refused = _send(service, now, "bob", "ADD 9\nADD two", 1)
    assert refused.status == "answered"
    assert refused.outcome == "orders not counted for bob, turn 1: 0 accepted, 2 rejected"
    reply = body(refused.replies[0])
    assert reply.startswith("Orders for bob in game g1, turn 1: none accepted.\n" + NOT_COUNTED)
    assert "Still to send orders: bob\n" in reply
    assert "resolved now" not in reply
    assert [row.seat for row in orders(service)] == ["alice"]
    assert _due(service, now) == [] and resolve_due(service, now=now) == []
    fixed = _send(service, now, "bob", "ADD 2", 2)
    assert fixed.status == "accepted"
    assert "Every seat has sent orders for this turn, so it is resolved now" in body(
        fixed.replies[0]
    )
    assert [s.turn for s in resolve_due(service, now=now)] == [1]


def test_an_order_template_sent_back_unchanged_does_not_count(
    service: Service, now: datetime
) -> None:
    """Classical's setup template (bare CIVILIZATION and CITY lines) mailed back as it came."""
    seats = [SeatSpec(name, f"{name}@example.org", f"pw-{name}") for name in ("ann", "bob")]
    new_game(service, now, ruleset="classical", seats=seats)
    state = loads(turns(service)[0].state_before)
    template = get_ruleset("classical").order_template(state, "bob")
    assert "CIVILIZATION \n" in template  # as the start mail shows it
    text = get_ruleset("classical").bot_orders(state, "ann", 1)
    assert _send(service, now, "ann", text, 1).status == "accepted"
    unchanged = _send(service, now, "bob", template, 1, turn=1)
    assert unchanged.status == "answered"
    reply = body(unchanged.replies[0])
    assert "You are not counted as having sent orders for turn 1" in reply
    assert "Still to send orders: bob\n" in reply
    assert _due(service, now) == []


def test_a_template_of_orders_as_they_stand_counts_and_the_reply_says_so(
    service: Service, now: datetime
) -> None:
    """Issue 43, point 11: the handbook said an unchanged template stores nothing, but Temples
    and Swords' template (LABOR where the laborers are, TECH 0) is orders as they stand. It
    counts, as the handbook now says, and the check reply says it was the template as sent,
    so that one sent back by mistake is noticed."""
    seats = [SeatSpec(name, f"{name}@example.org", f"pw-{name}") for name in ("ann", "bob")]
    new_game(service, now, ruleset="temples-and-swords", seats=seats)
    state = loads(turns(service)[0].state_before)
    template = get_ruleset("temples-and-swords").order_template(state, "bob")
    unchanged = _send(service, now, "bob", template, 1)
    assert unchanged.status == "accepted"
    reply = " ".join(body(unchanged.replies[0]).split())
    assert (
        "These are the lines of your order template for turn 1 as your report gave them, "
        "unchanged. They are orders as they stand, so they count: your seat is in"
    ) in reply
    assert [row.seat for row in orders(service)] == ["bob"]
    changed = _send(service, now, "ann", template.replace("TECH 0", "TECH 1"), 1)
    assert "your order template" not in body(changed.replies[0])


def test_no_orders_counts_the_seat_and_plays_it_without_orders(
    service: Service, now: datetime
) -> None:
    new_game(service, now)
    passed = _send(service, now, "bob", "no orders.", 1)
    assert (passed.status, passed.outcome) == (
        "accepted",
        "orders stored for bob, turn 1: 0 accepted, 0 rejected",
    )
    reply = body(passed.replies[0])
    assert reply.startswith(
        "Orders for bob in game g1, turn 1: NO ORDERS.\n"
        "You send no orders for turn 1, and you are counted as having sent your\n"
        "orders: your seat plays the turn without new orders (its standing orders\n"
        "only).\n\nDeadline: "
    )
    [stored] = orders(service)
    assert (stored.seat, stored.text, loads(stored.line_map)) == ("bob", "", [])
    ask = mail("GAME g1 SEAT bob PASSWORD pw-bob\nORDERS\n", sender="bob@example.org")
    echo = body(receive(service, ask, now=now).replies[0])
    assert echo.endswith("NO ORDERS: your seat plays this turn without new orders.\n" + SIGNATURE)
    _send(service, now, "alice", "ADD 2", 1)
    assert [s.turn for s in resolve_due(service, now=now)] == [1]
    [report] = [r for r in outbox(service, "report") if r.subject == "[g1] turn 1 report"][1:]
    assert report.recipient == "bob@example.org"
    assert "You gave no orders this turn.\n" in body(report)
    assert "No orders from you" not in body(report)  # not a missed turn


def test_a_refused_mail_leaves_the_earlier_orders_standing(service: Service, now: datetime) -> None:
    new_game(service, now)
    _send(service, now, "bob", "ADD 2", 1)
    refused = _send(service, now, "bob", "ADD 9", 2)
    assert refused.status == "answered"
    assert body(refused.replies[0]).startswith(
        "Orders for bob in game g1, turn 1: none accepted.\n"
        "Nothing of this mail was stored, as no line of it was accepted: the\n"
        "orders you sent earlier for turn 1 (mail 1 this turn) stand. Correct the\n"
        "rejected lines and send the whole mail again to replace them.\n"
    )
    [stored] = orders(service)
    assert (stored.text, stored.version) == ("ADD 2", 1)


def test_no_orders_beside_accepted_orders_is_passed_over(service: Service, now: datetime) -> None:
    new_game(service, now)
    receipt = _send(service, now, "bob", "NO ORDERS\nADD 2", 1)
    reply = body(receipt.replies[0])
    assert "Ignored (1):\n  line 2: NO ORDERS passed over: the accepted orders count\n" in reply
    [stored] = orders(service)
    assert (stored.text, loads(stored.line_map)) == ("ADD 2", [3])


def test_held_orders_that_do_not_count_are_taken_out_when_their_turn_opens(
    service: Service, now: datetime
) -> None:
    """Held for turn 2: bob's refused lines, alice's NO ORDERS. When turn 2 opens bob is told
    he is not counted and the turn waits for him; alice is in with no orders."""
    new_game(service, now)
    assert _send(service, now, "bob", "ADD 9", 1, turn=2).status == "accepted"  # held, unread
    assert _send(service, now, "alice", "NO ORDERS", 1, turn=2).status == "accepted"
    _send(service, now, "alice", "ADD 1", 2)
    _send(service, now, "bob", "ADD 1", 2)
    assert [s.turn for s in resolve_due(service, now=now)] == [1]
    held = {row.recipient: body(row) for row in outbox(service, "reply") if "held" in row.subject}
    assert "You are not counted as having sent orders for turn 2" in held["bob@example.org"]
    assert "Orders for alice in game g1, turn 2: NO ORDERS." in held["alice@example.org"]
    assert [(row.seat, row.text) for row in orders(service) if row.turn == 2] == [("alice", "")]
    assert _due(service, now) == []


def test_help_tells_of_no_orders(service: Service, now: datetime) -> None:
    reply = body(receive(service, mail("HELP\n", message_id="help@x"), now=now).replies[0])
    assert "- NO ORDERS on a line of its own says you send no orders this turn" in reply


def test_a_misspelt_choice_is_answered_like_an_order_and_the_reply_says_when_it_resolves(
    service: Service, now: datetime
) -> None:
    """Issue 43, point 9: Classical's `CIVILIZATION Romans, Egyptains` was refused while the
    reply promised "until the deadline", and the next seat's mail resolved the turn at once.
    The choice gets "did you mean" as an order does, and the reply says the turn may resolve
    as soon as every seat's orders are in."""
    seats = [SeatSpec(name, f"{name}@example.org", f"pw-{name}") for name in ("ann", "bob")]
    new_game(service, now, ruleset="classical", seats=seats)
    state = loads(turns(service)[0].state_before)
    text = get_ruleset("classical").bot_orders(state, "ann", 1)
    lines = [
        "CIVILIZATION Romans, Egyptains" if line.upper().startswith("CIVILIZATION") else line
        for line in text.splitlines()
    ]
    reply = " ".join(body(_send(service, now, "ann", "\n".join(lines), 1).replies[0]).split())
    assert "'Egyptains' is not a civilization; did you mean Egyptians?" in reply
    assert "You may send new orders until the turn is resolved: at the deadline, or sooner" in reply


def test_a_refused_choice_keeps_the_mail_from_counting_and_the_turn_waits_for_it(
    service: Service, now: datetime
) -> None:
    """Issue 43, point 9, the rest (a fresh-eyes tester's find): `CIVILIZATION Romans,
    Egyptains` beside an accepted CITY line still counted as ann's orders, so bob's mail
    resolved the setup turn at once and ann was handed a civilisation she never chose. A mail
    whose choice line was refused stores nothing and does not count; the reply says the turn
    waits for the corrected choice; the corrected mail counts."""
    seats = [SeatSpec(name, f"{name}@example.org", f"pw-{name}") for name in ("ann", "bob")]
    new_game(service, now, ruleset="classical", seats=seats)
    state = loads(turns(service)[0].state_before)
    ruleset = get_ruleset("classical")
    text = ruleset.bot_orders(state, "ann", 1)
    wrong = "\n".join(
        "CIVILIZATION Romans, Egyptains" if line.upper().startswith("CIVILIZATION") else line
        for line in text.splitlines()
    )
    receipt = _send(service, now, "ann", wrong, 1)
    reply = " ".join(body(receipt.replies[0]).split())
    assert receipt.status == "answered" and orders(service) == []
    assert "You are not counted as having sent orders for turn 1: line " in reply
    assert "a choice the turn is played with, was rejected, so nothing of this mail" in reply
    assert "The turn waits for your corrected choice" in reply
    bob = _send(service, now, "bob", ruleset.bot_orders(state, "bob", 1), 1)
    assert "resolved now" not in body(bob.replies[0])
    assert _due(service, now) == []
    fixed = _send(service, now, "ann", wrong.replace("Egyptains", "Egyptians"), 2)
    assert fixed.status == "accepted" and "so it is resolved now" in body(fixed.replies[0])
    assert [s.turn for s in resolve_due(service, now=now)] == [1]
