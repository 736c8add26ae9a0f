"""An order mail for the pending turn, decided from rows made in memory (pbem.intake
order_check): no database. tests/pipeline checks the replies that are written from it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from engine import get_ruleset
from pbem.intake.order_check import Refused, Sent, Turned, check_orders, held, open_turn
from pbem.mail.envelope import Envelope, parse_envelope
from pbem.store import Game, GameStatus, MailStatus, Seat, Turn, dumps

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def game(**fields: object) -> Game:
    given: dict[str, object] = {"status": GameStatus.RUNNING, "turn": 1, **fields}
    return Game(id="g1", ruleset="counting", options=dumps({}), seed=1, created_at=NOW, **given)


SEATS = [
    Seat(game_id="g1", name=name, position=i, address=f"{name}@example.org", password_hash="x")
    for i, name in enumerate(("alice", "bob"))
]
STATE = get_ruleset("counting").new_game(["alice", "bob"], {}, 1)
TURN = Turn(game_id="g1", number=1, state_before=dumps(STATE), deadline=NOW + timedelta(days=2))


def checked(orders: str, have: dict[str, int] | None = None, **fields: object) -> Turned:
    envelope = parse_envelope(f"GAME g1 SEAT alice PASSWORD pw\n{orders}")
    sent = Sent(envelope.lines, envelope, (), NOW, 10)
    return check_orders(game(**fields), SEATS[0], TURN, SEATS, have or {}, sent)


def test_accepted_orders_are_stored_as_the_seats_first_mail() -> None:
    turned = checked("ADD 2\nATTACK bob\nADD 5\n")
    assert (turned.text, turned.line_map, turned.version) == (
        "ADD 2\nATTACK bob\nADD 5",
        (2, 3, 4),
        1,
    )
    assert turned.status == MailStatus.ACCEPTED
    assert turned.outcome == "orders stored for alice, turn 1: 2 accepted, 1 rejected"
    assert turned.reply["verdict"] == "2 accepted, 1 rejected"
    assert (turned.reply["replaced"], turned.reply["waiting"]) == (False, ["bob"])
    assert not turned.resolves_now


def test_a_second_mail_replaces_the_first() -> None:
    turned = checked("ADD 1\n", have={"alice": 1})
    assert (turned.version, turned.reply["replaced"], turned.reply["version"]) == (2, True, 2)


def test_orders_that_do_not_count_store_nothing_and_the_earlier_stand() -> None:
    turned = checked("FLY\n", have={"alice": 3})
    assert (turned.text, turned.version, turned.status) == (None, 0, MailStatus.ANSWERED)
    assert turned.outcome == "orders not counted for alice, turn 1: 0 accepted, 1 rejected"
    assert (turned.reply["counted"], turned.reply["earlier"]) == (False, 3)


def test_the_last_orders_in_resolve_the_turn_now() -> None:
    turned = checked("ADD 2\n", have={"bob": 1})
    assert turned.resolves_now and turned.reply["resolves_now"]
    assert turned.reply["waiting"] == []


def test_a_paused_game_does_not_resolve_now() -> None:
    turned = checked("ADD 2\n", have={"bob": 1}, status=GameStatus.PAUSED)
    assert not turned.resolves_now and turned.reply["paused"]


def test_no_orders_is_a_pass_stored_empty() -> None:
    turned = checked("NO ORDERS\n")
    assert (turned.text, turned.version, turned.status) == ("", 1, MailStatus.ACCEPTED)
    assert turned.reply["passes"]


def envelope_for(turn: int | None, lines: int = 1) -> Envelope:
    head = "GAME g1 SEAT alice PASSWORD pw\n" + (f"TURN {turn}\n" if turn else "")
    return parse_envelope(head + "ADD 1\n" * lines)


def test_orders_for_the_pending_turn_go_to_it() -> None:
    assert open_turn(game(), TURN, envelope_for(None), 100) is TURN
    assert open_turn(game(), TURN, envelope_for(1), 100) is TURN


def test_a_game_that_has_not_begun_takes_no_orders() -> None:
    assert open_turn(game(status=GameStatus.OPEN), None, envelope_for(None), 100) == Refused(
        "no-turn", "game g1 has not begun: it takes no orders"
    )
    ended = open_turn(game(status=GameStatus.ENDED), TURN, envelope_for(None), 100)
    assert ended == Refused("no-turn", "game g1 is ended: it takes no orders")


def test_orders_for_a_past_turn_or_too_far_ahead_are_stale() -> None:
    past = Turn(game_id="g1", number=3, state_before=dumps(STATE))
    assert open_turn(game(turn=3), past, envelope_for(2), 100) == Refused(
        "stale", "these orders are for turn 2, but the pending turn is 3; nothing was stored"
    )
    far = open_turn(game(), TURN, envelope_for(5), 100)
    assert isinstance(far, Refused) and far.error.endswith(
        "pending turn is 1 (orders are held at most 3 turns ahead); nothing was stored"
    )


def test_orders_a_few_turns_ahead_are_held() -> None:
    assert open_turn(game(), TURN, envelope_for(4), 100) is TURN
    assert held(envelope_for(4), TURN) and not held(envelope_for(1), TURN)


def test_too_many_order_lines_are_refused() -> None:
    assert open_turn(game(), TURN, envelope_for(None, lines=3), 2) == Refused(
        "too-long",
        "the mail has 3 order lines; at most 2 are read. Nothing was stored: your earlier "
        "orders for this turn, if any, stand.",
    )
