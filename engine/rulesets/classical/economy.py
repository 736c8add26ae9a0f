"""The phases that produce and use up resources: Produce, Upkeep, Build, Upgrade, Settle,
Recruit, Research and Score."""

from __future__ import annotations

from engine.rulesets.classical import legality
from engine.rulesets.classical.model import (
    BONUS_TRAITS,
    CATEGORIES,
    CATEGORY_OF,
    CITY,
    TRAIT_TITLES,
    TRAITS,
    VILLAGE,
    GameState,
)
from engine.rulesets.classical.orders import Monument, Recruit, Research, Settle, Upgrade
from engine.rulesets.classical.rules import RULES
from engine.rulesets.classical.seat_turn import ANY, SeatTurn
from engine.words import plural

MONUMENT_COST: list[tuple[str, ...]] = [("food",), ("food",), ("stone",)]
CITY_COST: list[tuple[str, ...]] = [("luxury",), ("luxury",), ("stone",)]
VILLAGE_COST: list[tuple[str, ...]] = [("food", "luxury"), ("wood", "stone")]


def production(state: GameState, seat: str) -> tuple[dict[str, int], list[str]]:
    """What the seat produces: a token for each of its territories (salt: none), at sea
    (option sea_production) for each space where its fleet is alone, 1 gold a city, and the
    trait bonuses. Returns the resources and the territories that yielded."""
    pool = dict.fromkeys(CATEGORIES, 0)
    yields: list[str] = []
    fishing = state.options["sea_production"] == "fleets"
    for label, spot in state.board.territories.items():
        ours = spot.owner == seat
        at_sea = fishing and spot.sea and spot.units_of(seat) > 0 and not spot.enemy_units(seat)
        if (ours or at_sea) and CATEGORY_OF[spot.resource]:
            pool[CATEGORY_OF[spot.resource]] += 1
            yields.append(f"{label} {spot.resource}")
        if ours and spot.settlement == CITY:
            pool["gold"] += 1
    holder = state.seat(seat)
    for trait, kind in BONUS_TRAITS.items():
        pool[kind] += holder.level(trait)
    return pool, yields


def produce(turn: SeatTurn) -> None:
    """Phase 1: the seat's production goes into this turn's pool."""
    turn.pool, yields = production(turn.state, turn.name)
    bonus = [
        f"{TRAIT_TITLES[trait]} +{turn.seat.level(trait)} {kind}"
        for trait, kind in BONUS_TRAITS.items()
        if turn.seat.level(trait)
    ]
    cities = len(turn.state.cities(turn.name))
    detail = ", ".join(yields) or "no territory"
    text = f"Produced: {turn.pool_text()} ({detail}; "
    text += f"{plural(cities, 'city', 'cities')} 1 gold each"
    text += (f"; {', '.join(bonus)})" if bonus else ")") + "."
    turn.event("produce", text)


def upkeep(turn: SeatTurn) -> None:
    """Each fleet, army and city needs 1 food, fed in the FEED order; unfed units are
    discarded, an unfed city falls to a village (its monuments stay)."""
    order = turn.seat.standing.feed
    hungry: list[str] = []
    for group in order:
        for label in _members(turn, group):
            count = _mouths(turn, group, label)
            fed = 0
            while fed < count and turn.pay([("food",)]):
                fed += 1
            if fed < count:
                hungry.append(_starve(turn, group, label, count - fed))
    if hungry:
        turn.event("famine", "Famine: " + "; ".join(hungry) + ".", public=True)
    else:
        turn.event("upkeep", f"Upkeep paid; left: {turn.pool_text()}.")


def _members(turn: SeatTurn, group: str) -> list[str]:
    """The spaces of one group in the order they are fed: cities with the most monuments
    first; units in the largest stacks first (the smallest go hungry)."""
    state, seat = turn.state, turn.name
    if group == "cities":
        return sorted(state.cities(seat), key=lambda n: -state.space(n).monuments)
    sea = group == "fleets"
    spaces = [n for n in state.unit_spaces(seat) if state.space(n).sea == sea]
    return sorted(spaces, key=lambda n: -state.space(n).units_of(seat))


def _mouths(turn: SeatTurn, group: str, label: str) -> int:
    return 1 if group == "cities" else turn.state.space(label).units_of(turn.name)


def _starve(turn: SeatTurn, group: str, label: str, unfed: int) -> str:
    spot = turn.state.space(label)
    if group == "cities":
        spot.settlement = VILLAGE
        kept = f", keeping {plural(spot.monuments, 'monument')}" if spot.monuments else ""
        return f"{turn.name}'s city in {label} is reduced to a village{kept}"
    spot.add_units(turn.name, -unfed)
    what = plural(unfed, "fleet") if group == "fleets" else plural(unfed, "army", "armies")
    return f"{turn.name} discards {what} in {label}"


def build(turn: SeatTurn) -> None:
    """Monuments: 2 food, 1 stone and 1 more of any kind for each monument already in the
    city; no more than 1 + Religion (each turn, or controlled: option monument_limit)."""
    state, seat = turn.state, turn.name
    for order in turn.of(Monument):
        built, why = 0, ""
        for _ in range(order.count):
            why = _monument_refusal(turn, order.space)
            if why:
                break
            spot = state.space(order.space)
            used = turn.pay([*MONUMENT_COST, *[ANY] * spot.monuments])
            if used is None:
                why = f"not enough resources (2 food, 1 stone and {spot.monuments} more)"
                break
            spot.monuments += 1
            turn.monuments_built += 1
            built += 1
            turn.event(
                "monument",
                f"{seat} builds a monument in {order.space} ({used}); it has "
                f"{plural(spot.monuments, 'monument')}.",
                public=True,
            )
        _report(turn, order, built, order.count, why)


def _monument_refusal(turn: SeatTurn, label: str) -> str:
    spot = turn.state.space(label)
    if spot.owner != turn.name or spot.settlement != CITY:
        return f"{label} is no longer a city of yours"
    allowed = legality.monument_allowance(turn.state, turn.name)
    if turn.state.options["monument_limit"] == "per turn":
        allowed -= turn.monuments_built
    if allowed <= 0:
        return f"the limit of 1 + Religion monuments is reached ({RULES['religion']})"
    return ""


def upgrade(turn: SeatTurn) -> None:
    """A village becomes a city for 2 luxuries and 1 stone."""
    for order in turn.of(Upgrade):
        spot = turn.state.space(order.space)
        if spot.owner != turn.name or spot.settlement != VILLAGE:
            turn.rec.skipped(turn.name, order, f"{order.space} is no longer a village of yours")
            continue
        used = turn.pay(CITY_COST)
        if used is None:
            turn.rec.skipped(turn.name, order, "not enough resources (2 luxuries and 1 stone)")
            continue
        spot.settlement = CITY
        turn.event(
            "upgrade",
            f"{turn.name}'s village in {order.space} becomes a city ({used}).",
            public=True,
        )
        turn.rec.done(turn.name, order)


def settle(turn: SeatTurn) -> None:
    """The first village of the turn is free; each more uses up food or luxury and wood or
    stone. Next to the seat's cities, villages or fleets, on empty land."""
    placed: list[str] = []
    for order in turn.of(Settle):
        refusal = legality.refuse_settle(turn.state, turn.name, order.space, placed)
        if refusal:
            turn.rec.skipped(turn.name, order, refusal.message)
            continue
        used = "free" if turn.villages == 0 else turn.pay(VILLAGE_COST)
        if used is None:
            turn.rec.skipped(
                turn.name, order, "not enough resources (food or luxury, and wood or stone)"
            )
            continue
        spot = turn.state.space(order.space)
        spot.owner, spot.settlement = turn.name, VILLAGE
        turn.villages += 1
        placed.append(order.space)
        turn.event(
            "settle", f"{turn.name} places a village in {order.space} ({used}).", public=True
        )
        turn.rec.done(turn.name, order)


def recruit(turn: SeatTurn) -> None:
    """Armies for 1 iron in the seat's cities, fleets for 1 wood in sea next to them; no more
    than 1 + Government + cities (each turn, or at once: option unit_limit)."""
    state, seat = turn.state, turn.name
    for order in turn.of(Recruit):
        refusal = legality.refuse_recruit_place(state, seat, order.space)
        if refusal:
            turn.rec.skipped(seat, order, refusal.message)
            continue
        made, why = 0, ""
        kind = "wood" if order.fleets else "iron"
        for _ in range(order.count):
            allowed = legality.unit_allowance(state, seat)
            if state.options["unit_limit"] == "per turn":
                allowed -= turn.recruited
            if allowed <= 0:
                why = "the limit of 1 + Government + cities is reached"
                break
            if turn.pay([(kind,)]) is None:
                why = f"no {kind} left"
                break
            state.space(order.space).add_units(seat, 1)
            turn.recruited += 1
            made += 1
        if made:
            units = plural(made, "fleet") if order.fleets else plural(made, "army", "armies")
            turn.event("recruit", f"{seat} recruits {units} in {order.space}.", public=True)
        _report(turn, order, made, order.count, why)


def research(turn: SeatTurn) -> None:
    """One free roll, one more a level of Science, and paid rolls at 1, 2, 3... resources."""
    free = 1 + turn.seat.level("science")
    paid, pay_note = _paid_rolls(turn)
    rolls = turn.dice("research").roll(free + paid, 12)
    gains = [_gain(turn, TRAITS[roll - 1]) for roll in rolls]
    text = (
        f"Research: {plural(free, 'free roll')}"
        + (f" and {plural(paid, 'paid roll')} ({pay_note})" if paid else "")
        + ": "
        + "; ".join(gains)
        + "."
    )
    turn.event("research", text, dice=rolls)


def _paid_rolls(turn: SeatTurn) -> tuple[int, str]:
    orders = turn.of(Research)
    if not orders:
        return 0, ""
    order = orders[0]
    wanted = order.rolls if order.rolls >= 0 else 10_000
    paid, spent = 0, 0
    while paid < wanted and turn.pay([ANY] * (paid + 1), prefer=order.pay):
        paid += 1
        spent += paid
    note = f"{plural(spent, 'resource')} used up"
    if order.rolls >= 0 and paid < order.rolls:
        turn.rec.partly(turn.name, order, f"{paid} of {order.rolls} paid rolls: resources ran out")
    else:
        turn.rec.done(turn.name, order, f"{plural(paid, 'paid roll')}")
    return paid, note


def _gain(turn: SeatTurn, trait: str) -> str:
    """A research point; a level when the points exceed the level by one (points reset)."""
    seat = turn.seat
    seat.points[trait] = seat.points.get(trait, 0) + 1
    title = TRAIT_TITLES[trait]
    if seat.points[trait] > seat.level(trait):
        seat.levels[trait] = seat.level(trait) + 1
        seat.points[trait] = 0
        turn.event("level", f"{turn.name} reaches {title} {seat.levels[trait]}.", public=True)
        return f"{title} (level {seat.levels[trait]})"
    return f"{title} ({seat.points[trait]} RP)"


def score(turn: SeatTurn) -> None:
    """1 VP a monument controlled, plus the Arts level."""
    monuments = turn.state.monuments(turn.name)
    arts = turn.seat.level("arts")
    turn.seat.vp += monuments + arts
    turn.event(
        "score",
        f"{turn.name} scores {monuments + arts} VP ({plural(monuments, 'monument')}, Arts "
        f"{arts}): {turn.seat.vp} VP.",
        public=True,
    )


def _report(turn: SeatTurn, order: Monument | Recruit, done: int, wanted: int, why: str) -> None:
    if done == wanted:
        turn.rec.done(turn.name, order)
    elif done:
        turn.rec.partly(turn.name, order, f"{done} of {wanted}: {why}")
    else:
        turn.rec.skipped(turn.name, order, why)
