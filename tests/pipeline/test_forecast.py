"""FORECAST: a seat's own turn played now from the current position, on sample dice (never
the real ones), every other seat sending nothing; nothing stored, repeatable, rate limited
like every reply, for any ruleset through the engine interface."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from engine import ParsedOrders, get_ruleset
from pbem.clock.control import pause
from pbem.games.lifecycle import SeatSpec
from pbem.games.service import Service
from pbem.intake.forecast import forecast, sample_seed
from pbem.intake.intake import Receipt, receive
from pbem.store import loads
from tests.support.games import body, game_row, new_game, orders, turns
from tests.support.mails import mail, order_mail

SEATS = tuple(SeatSpec(n, f"{n}@example.org", f"pw-{n}") for n in ("ann", "bob", "cat"))


def _game(service: Service, now: datetime) -> tuple[str, dict]:
    new_game(service, now, ruleset="temples-and-swords", seats=SEATS, seed=29)
    state = loads(turns(service)[0].state_before)
    return get_ruleset("tns").bot_orders(state, "ann", 29), state


def _forecast_mail(service: Service, now: datetime, extra: str = "", n: int = 1) -> Receipt:
    text = f"GAME g1 SEAT ann PASSWORD pw-ann\nFORECAST\n{extra}"
    return receive(service, mail(text, sender="ann@example.org", message_id=f"f{n}@x"), now=now)


def test_a_forecast_plays_the_seats_turn_on_sample_dice_and_stores_nothing(
    service: Service, now: datetime
) -> None:
    text, state = _game(service, now)
    receive(service, order_mail("g1", "ann", "pw-ann", text, sender="ann@example.org"), now=now)
    before = [(t.state_before, t.state_after, t.record) for t in turns(service)]
    stored = [(o.text, o.version) for o in orders(service)]

    receipt = _forecast_mail(service, now)
    assert (receipt.status, receipt.outcome) == ("answered", "FORECAST for ann, turn 1")
    [reply] = receipt.replies
    assert reply.recipient == "ann@example.org"
    answer = body(reply)
    assert answer.startswith("Forecast for ann in game g1, turn 1.\n\nA SAMPLE, not the turn:")
    assert all(len(line) <= 72 for line in answer.splitlines())
    # What it shows is the engine's turn with ann's orders, nobody else's, on sample dice.
    ruleset = get_ruleset("tns")
    sample = sample_seed(29, 1, "ann")
    expected = forecast(ruleset, state, "ann", text, sample)
    assert expected.plays and expected.resolution is not None
    assert ruleset.holdings(expected.resolution.state, "ann") in answer
    assert "== Your orders, if played now ==\nThe line numbers are those of your" in answer
    assert "the orders on file.\nline 2: " in answer
    # The sample dice are not the real ones: the same turn on the game's seed rolls others.
    real = ruleset.resolve(
        state, {"ann": ruleset.parse_orders(state, "ann", text), **_nothing(state)}, 29
    )
    rolled = [e.dice for e in real.events if e.dice]
    sampled = [e.dice for e in expected.resolution.events if e.dice]
    assert rolled and sampled and rolled != sampled
    # Nothing stored, nothing changed; and the same question gets the same answer.
    assert [(t.state_before, t.state_after, t.record) for t in turns(service)] == before
    assert [(o.text, o.version) for o in orders(service)] == stored
    again = _forecast_mail(service, now, n=2)
    assert body(again.replies[0]) == answer


def _nothing(state: dict) -> dict[str, ParsedOrders]:
    return {s: ParsedOrders() for s in get_ruleset("tns").seats_to_order(state) if s != "ann"}


def test_forecast_with_orders_in_the_same_mail_takes_them_then_forecasts(
    service: Service, now: datetime
) -> None:
    text, _ = _game(service, now)
    receipt = _forecast_mail(service, now, extra=text)
    assert receipt.status == "accepted"
    # One answer (issue 43: each mail answered once): the orders' check, then the forecast.
    [reply] = receipt.replies
    check, forecast_reply = body(reply).split("> line 2: FORECAST\n")
    assert "\nOrders for ann in game g1, turn 1: " in check
    assert forecast_reply.startswith("Forecast for ann in game g1, turn 1.")
    # Issue 43, point 8: it said "Nothing was stored or changed" under the orders it stored.
    assert "Nothing was stored" not in forecast_reply
    assert (
        "The orders in your mail were stored, as their part of this answer says;\n"
        "the forecast itself stored and changed nothing.\n"
    ) in forecast_reply
    [stored] = orders(service)
    assert stored.text == text.strip()
    # The results are numbered as the lines of the mail (FORECAST is line 2).
    assert "\nline 3: " in forecast_reply


def test_a_greeting_before_the_game_line_is_listed_once(service: Service, now: datetime) -> None:
    """A fresh-eyes tester's find: the text before the GAME line of a FORECAST and orders mail
    was listed under "Ignored" twice, by the orders' check and again at the answer's end."""
    text, _ = _game(service, now)
    raw = mail(f"Hi there,\nGAME g1 SEAT ann PASSWORD pw-ann\nFORECAST\n{text}",
               sender="ann@example.org", message_id="g@x")  # fmt: skip
    answer = body(receive(service, raw, now=now).replies[0])
    assert answer.count("line 1: text before the GAME line (1 line)") == 1


def test_forecast_alone_says_whose_line_numbers_it_shows(service: Service, now: datetime) -> None:
    """A fresh-eyes tester's find: FORECAST alone showed "line 3: ..." of the orders on file
    without saying that those are the lines of an earlier mail, not of the FORECAST mail."""
    text, _ = _game(service, now)
    receive(service, order_mail("g1", "ann", "pw-ann", text, sender="ann@example.org"), now=now)
    answer = " ".join(body(_forecast_mail(service, now).replies[0]).split())
    assert (
        "== Your orders, if played now == The line numbers are those of your orders mail "
        "received 2026-03-01 12:00 UTC (mail 1 this turn), the orders on file. line 2: "
    ) in answer
    both = " ".join(body(_forecast_mail(service, now, extra=text, n=2).replies[0]).split())
    assert "The line numbers are those of" not in both  # this mail's own lines


def test_without_orders_on_file_it_says_so(service: Service, now: datetime) -> None:
    _game(service, now)
    answer = body(_forecast_mail(service, now).replies[0])
    assert "You have no orders on file for turn 1" in answer
    assert "seats are assumed to send no orders.\nNothing was stored or changed.\n" in answer
    assert orders(service) == []


def test_a_wrong_password_gets_no_forecast(service: Service, now: datetime) -> None:
    _game(service, now)
    text = "GAME g1 SEAT ann PASSWORD nope\nFORECAST\n"
    receipt = receive(service, mail(text, sender="ann@example.org", message_id="w@x"), now=now)
    assert receipt.status == "quarantined"
    assert "Forecast" not in body(receipt.replies[0])


def test_forecasts_are_rate_limited_like_every_reply(service: Service, now: datetime) -> None:
    limits = replace(service.settings.limits, replies_per_sender=2)
    limited = Service(service.db, replace(service.settings, limits=limits))
    _game(limited, now)
    answered = [len(_forecast_mail(limited, now, n=n).replies) for n in range(4)]
    assert answered == [1, 1, 0, 0]
    assert game_row(limited).status == "running"


def test_forecast_with_orders_held_for_a_later_turn_only_holds_them(
    service: Service, now: datetime
) -> None:
    text, _ = _game(service, now)
    held = f"GAME g1 SEAT ann PASSWORD pw-ann\nTURN 2\nFORECAST\n{text}"
    receipt = receive(service, mail(held, sender="ann@example.org", message_id="h@x"), now=now)
    [reply] = receipt.replies
    assert body(reply).startswith("Orders for ann in game g1 held for turn 2.")


def test_a_forecast_while_paused_plays_the_pending_turn_and_names_no_deadline(
    service: Service, now: datetime
) -> None:
    # Paused, the turn is pending all the same: orders sent now are kept for it, so a
    # forecast of them is worth as much; only no deadline stands (pbem.games.paused).
    text, _ = _game(service, now)
    receive(service, order_mail("g1", "ann", "pw-ann", text, sender="ann@example.org"), now=now)
    with service.store.transaction() as work:
        pause(work, service.settings, "g1", now=now, actor="ref", reason="a break")
    receipt = _forecast_mail(service, now)
    assert receipt.status == "answered", receipt.outcome
    answer = body(receipt.replies[0])
    assert answer.startswith("Forecast for ann in game g1, turn 1."), answer
    assert "Deadline:" not in answer and "is paused" in answer, answer
