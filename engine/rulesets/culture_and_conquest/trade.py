"""Phase 8, trade by mail. An OFFER becomes an open offer with an id when the turn is
resolved; an ACCEPT (by id, or by the offer's terms) is kept until it matches. A matching offer
and acceptance execute in the offering seat's trade phase: everything changes hands, or, if
either side cannot deliver, nothing does and both reports say why. An offer is tried in the
offering seat's trade phase of the turn it is made and of that seat's next turn, then expires."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.recorder import Recorder
from engine.records import OrderStatus
from engine.rulesets.culture_and_conquest.geography import transfer
from engine.rulesets.culture_and_conquest.legality import refuse_deliver, refuse_receive
from engine.rulesets.culture_and_conquest.model import (
    Acceptance,
    GameState,
    Item,
    Offer,
    Seat,
    describe_items,
)
from engine.rulesets.culture_and_conquest.orders import Accept, OfferOrder, Order, Withdraw
from engine.rulesets.culture_and_conquest.seat_turn import SeatTurn

TRIES = 2


def register(state: GameState, orders: Mapping[str, Sequence[Order]], rec: Recorder) -> None:
    """Before any seat plays: withdrawals, then this turn's offers get their ids, then the
    acceptances are kept (in round mode for this turn; in sequential mode until the accepting
    seat's next turn)."""
    alive = sum(1 for s in state.seats if s.alive)
    span = 1 if state.options["mode"] == "round" else max(1, alive)
    for seat in state.seats:
        count = 0
        for order in orders.get(seat.name, ()):
            if isinstance(order, Withdraw):
                _withdraw(state, seat, order, rec)
            elif isinstance(order, OfferOrder):
                count += 1
                _open(state, seat, order, count, rec)
            elif isinstance(order, Accept):
                state.acceptances.append(
                    Acceptance(
                        seat.name,
                        order.seat,
                        order.offer_id,
                        list(order.give),
                        list(order.get),
                        state.step,
                        state.step + span - 1,
                        order.line_no,
                    )
                )


def _withdraw(state: GameState, seat: Seat, order: Withdraw, rec: Recorder) -> None:
    offer = next((o for o in state.offers if o.id == order.offer_id), None)
    if offer is None:
        rec.skipped(seat.name, order, f"offer {order.offer_id} is no longer open")
        return
    state.offers.remove(offer)
    rec.done(seat.name, order, f"offer {offer.id} withdrawn")
    rec.event(
        "offer_withdrawn",
        seat.name,
        "8 Trade",
        f"Trade: {seat.name} withdraws offer {offer.id} to {offer.to}.",
        also=(offer.to,),
    )


def _open(state: GameState, seat: Seat, order: OfferOrder, count: int, rec: Recorder) -> None:
    offer = Offer(
        f"{state.step}{seat.letter}{count}",
        seat.name,
        order.to,
        list(order.give),
        list(order.get),
        state.step,
        0,
        order.line_no,
    )
    state.offers.append(offer)
    rec.event(
        "offer",
        seat.name,
        "8 Trade",
        f"Trade: offer {offer.id} from {seat.name} to {offer.to}: {offer.describe()}.",
        also=(offer.to,),
    )


def trade(turn: SeatTurn) -> None:
    """Phase 8: the seat's open offers, oldest first, each with the first acceptance that
    matches it."""
    state = turn.state
    for offer in [o for o in state.offers if o.seat == turn.name]:
        offer.tries += 1
        acceptance = next((a for a in state.acceptances if a.matches(offer)), None)
        if acceptance is not None:
            state.offers.remove(offer)
            state.acceptances.remove(acceptance)
            _execute(turn, offer, acceptance)
        elif offer.tries >= TRIES or not state.seat(offer.to).alive:
            state.offers.remove(offer)
            _offer_result(turn, offer, OrderStatus.SKIPPED, f"offer {offer.id} not accepted")
            turn.event(
                "offer_expired",
                f"Trade: offer {offer.id} to {offer.to} expires unaccepted.",
                also=(offer.to,),
            )
        else:
            _offer_result(
                turn,
                offer,
                OrderStatus.DONE,
                f"open as offer {offer.id}; {offer.to} may accept it until your next trade phase",
            )


def _execute(turn: SeatTurn, offer: Offer, acceptance: Acceptance) -> None:
    state = turn.state
    giver, taker = state.seat(offer.seat), state.seat(offer.to)
    why = (
        ("" if taker.alive else f"{taker.name} is out of the game")
        or refuse_deliver(state, giver.name, offer.give)
        or refuse_deliver(state, taker.name, offer.get)
        or refuse_receive(state, taker.name, offer.give)
        or refuse_receive(state, giver.name, offer.get)
    )
    if why:
        note = f"trade {offer.id} failed: {why}"
        turn.event("trade_failed", f"Trade: {note}.", also=(taker.name,))
        _offer_result(turn, offer, OrderStatus.SKIPPED, note)
        _accept_result(turn, acceptance, OrderStatus.SKIPPED, note)
        return
    _hand_over(state, giver, taker, offer.give)
    _hand_over(state, taker, giver, offer.get)
    promises = [i for i in offer.give + offer.get if i.kind == "promise"]
    text = (
        f"Trade {offer.id}: {giver.name} gives {taker.name} {describe_items(offer.give)}; "
        f"{taker.name} gives {giver.name} {describe_items(offer.get)}."
    )
    if promises:
        text += " (Promises are recorded, not enforced.)"
    public = any(i.kind in ("city", "advance", "leader") for i in offer.give + offer.get)
    turn.event("trade", text, public=public, also=(taker.name,))
    note = f"trade {offer.id} done"
    _offer_result(turn, offer, OrderStatus.DONE, note)
    _accept_result(turn, acceptance, OrderStatus.DONE, note)


def _hand_over(state: GameState, giver: Seat, taker: Seat, items: list[Item]) -> None:
    """In the map version a city goes with its territory and every token in it, after the
    other things."""
    for item in sorted(items, key=lambda i: i.kind == "city"):
        if item.kind == "gold":
            giver.gold -= item.count
            taker.gold += item.count
        elif item.kind == "food":
            giver.food -= item.count
            taker.food += item.count
        elif item.kind == "labor":
            giver.labor_credit -= item.count
            taker.labor_credit += item.count
        elif item.kind == "population":
            giver.pops[item.name] -= item.count
            taker.pops["agriculture"] += item.count
        elif item.kind == "city" and state.land is not None:
            city = giver.city(item.name)
            assert city is not None
            transfer(state, state.land.where_city(city.name), taker.name, captured=False)
        elif item.kind == "city":
            city = giver.city(item.name)
            assert city is not None
            giver.cities.remove(city)
            taker.cities.append(city)
        elif item.kind == "advance":
            taker.advances.append(item.name)
        elif item.kind == "leader":
            leader = next(x for x in giver.leaders if x.name == item.name)
            giver.leaders.remove(leader)
            taker.leaders.append(leader)


def _offer_result(turn: SeatTurn, offer: Offer, status: OrderStatus, note: str) -> None:
    """The result of the OFFER line, when the offer was made this turn."""
    order = turn.all_orders.get((offer.seat, offer.line_no))
    if offer.step == turn.state.step and isinstance(order, OfferOrder):
        turn.rec.result(offer.seat, order, status, note)


def _accept_result(turn: SeatTurn, acceptance: Acceptance, status: OrderStatus, note: str) -> None:
    order = turn.all_orders.get((acceptance.by, acceptance.line_no))
    if acceptance.step == turn.state.step and isinstance(order, Accept):
        turn.rec.result(acceptance.by, order, status, note)


def close_turn(state: GameState, orders: Mapping[str, Sequence[Order]], rec: Recorder) -> None:
    """After every seat played: this turn's ACCEPT lines that did not trade get their result;
    acceptances past their last turn, and offers of seats out of the game, are dropped."""
    answered = {(seat, r.line_no) for seat, rs in rec.results.items() for r in rs}
    for seat, seat_orders in orders.items():
        for order in seat_orders:
            if not isinstance(order, Accept) or (seat, order.line_no) in answered:
                continue
            kept = any(
                a.by == seat and a.line_no == order.line_no and a.step == state.step
                for a in state.acceptances
                if a.last_step > state.step
            )
            if kept:
                rec.done(seat, order, f"kept until {order.seat}'s next trade phase")
            else:
                rec.skipped(seat, order, f"no open offer from {order.seat} matched it")
    state.acceptances = [a for a in state.acceptances if a.last_step > state.step]
    alive = {s.name for s in state.seats if s.alive}
    state.offers = [o for o in state.offers if o.seat in alive and o.to in alive]
