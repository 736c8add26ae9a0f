"""Phases 1, 2, 3, 5 and 6: population distribution, upkeep, tech, build and tax."""

from __future__ import annotations

from engine.hexgrid import reading_key
from engine.rulesets.temples_and_swords.legality import (
    UNIT_WORK,
    refuse_build,
    refuse_labor,
    work_cost,
)
from engine.rulesets.temples_and_swords.model import ADVANCES, PROJECTS
from engine.rulesets.temples_and_swords.orders import Build, Labor, Tech
from engine.rulesets.temples_and_swords.seat_turn import SeatTurn
from engine.words import article, plural

TECH_POINTS = {1: 1, 2: 1, 3: 1, 4: 2, 5: 2, 6: 3}
# Which advance a seat takes when its preference list names none of those on offer.
DEFAULT_PREFERENCE = (
    "Religion",
    "Masonry",
    "Art",
    "Writing",
    "Coinage",
    "Metal Working",
    "Military Doctrine",
    "Equestrian",
)


def distribution(turn: SeatTurn) -> None:
    """Phase 1: laborers as ordered; hexes without an order keep last turn's laborers."""
    state, rec = turn.state, turn.rec
    for order in turn.of(Labor):
        refusal = refuse_labor(state, turn.name, order.hex, order.count)
        here = state.peek(order.hex)
        if refusal and here.owner == turn.name and here.pop:
            here.laborers = here.pop
            rec.partly(turn.name, order, f"{refusal.message}; hired all {here.pop}")
        elif refusal:
            rec.skipped(turn.name, order, refusal.message)
        else:
            state.hexes[order.hex].laborers = order.count
            rec.done(turn.name, order)
    working = [(n, h.laborers) for n, h in turn.owned_hexes() if h.laborers]
    total = sum(count for _, count in working)
    if working:
        listing = ", ".join(f"{n} {c}" for n, c in working)
        turn.event("laborers", f"Laborers: {listing} ({total} in all).")
    else:
        turn.event("laborers", "No laborers hired: all population is basic.")


def upkeep(turn: SeatTurn) -> None:
    """Phase 2: one GP a laborer and a military unit. What cannot be paid is let go:
    laborers first (they become basic), then units in the seat's LOSSES order."""
    state, seat = turn.state, turn.seat
    laborers = sum(h.laborers for _, h in turn.owned_hexes())
    units = sum(state.units(n, turn.name).military() for n in state.army_hexes(turn.name))
    cost = laborers + units
    released = _release_laborers(turn, cost - seat.gold) if cost > seat.gold else 0
    disbanded = _disband(turn, cost - released - seat.gold) if cost - released > seat.gold else 0
    paid = cost - released - disbanded
    seat.gold -= paid
    text = (
        f"Upkeep: {plural(laborers, 'laborer')} and {plural(units, 'army unit')} cost {cost} GP;"
        f" paid {paid}"
    )
    if released:
        text += f"; {plural(released, 'laborer')} went unpaid and returned to basic form"
    if disbanded:
        text += f"; {plural(disbanded, 'army unit')} went unpaid and disbanded"
    turn.event("upkeep", text + f". Gold now {seat.gold}.")


def _release_laborers(turn: SeatTurn, short: int) -> int:
    released = 0
    for _, here in sorted(turn.owned_hexes(), key=lambda nh: -nh[1].laborers):
        take = min(here.laborers, short - released)
        here.laborers -= take
        released += take
    return released


def _disband(turn: SeatTurn, short: int) -> int:
    state, disbanded = turn.state, 0
    for kind in turn.seat.standing.losses:
        for hex_name in state.army_hexes(turn.name):
            units = state.units_for_change(hex_name, turn.name)
            take = min(units.get(kind), short - disbanded)
            units.add(kind, -take)
            disbanded += take
    return disbanded


def tech(turn: SeatTurn) -> None:
    """Phase 3: buy tech rolls (1 GP a city for the first, 2 GP a city for the second),
    roll for tech points, and take an advance for every ten points."""
    state, seat = turn.state, turn.seat
    hexes = [here for _, here in turn.owned_hexes()]
    cities = sum(here.has("city") for here in hexes)
    libraries = sum(here.has("library") for here in hexes)
    bought = _buy_rolls(turn, cities)
    free_rolls = libraries if state.options["library_effect"] == "roll" else 0
    free_points = libraries if state.options["library_effect"] == "point" else 0
    rolls = turn.dice("tech").roll(bought + free_rolls)
    points = sum(TECH_POINTS[r] for r in rolls) + free_points
    seat.tech_points += points
    if rolls or free_points:
        text = f"Tech: {plural(len(rolls), 'roll')} {rolls}: {plural(points, 'tech point')}"
        if free_rolls or free_points:
            text += f" ({libraries} from libraries)"
        turn.event("tech", text + f"; {seat.tech_points} in all.", dice=rolls)
    attempt = 0
    while seat.tech_points >= 10 and _gain_advance(turn, attempt):
        seat.tech_points -= 10
        attempt += 1


def _buy_rolls(turn: SeatTurn, cities: int) -> int:
    seat, rec = turn.seat, turn.rec
    orders = turn.of(Tech)
    if not orders:
        return 0
    order = orders[0]
    wanted = min(order.rolls, 2 * cities)
    bought = cost = 0
    for number in range(wanted):
        price = 1 if number < cities else 2
        if cost + price > seat.gold:
            break
        cost += price
        bought += 1
    seat.gold -= cost
    if bought == order.rolls:
        rec.done(turn.name, order, f"{plural(bought, 'roll')} for {cost} GP")
    elif bought:
        rec.partly(
            turn.name,
            order,
            f"bought {plural(bought, 'roll')} for {cost} GP: gold or cities ran short",
        )
    else:
        rec.skipped(
            turn.name,
            order,
            f"no roll bought: {seat.gold} GP and {plural(cities, 'city', 'cities')}",
        )
    return bought


def _gain_advance(turn: SeatTurn, attempt: int) -> bool:
    """Roll three times on the chart; take one of those not yet known, or one another seat
    has, by the seat's standing ADVANCE preference (else DEFAULT_PREFERENCE)."""
    state, seat = turn.state, turn.seat
    rolls = turn.dice(f"advance:{attempt}").roll(3, 8)
    rolled = [ADVANCES[r - 1] for r in rolls]
    offered = [a for a in dict.fromkeys(rolled) if not seat.has(a)]
    others = {a for s in state.seats if s.name != seat.name for a in s.advances}
    copyable = [a for a in ADVANCES if a in others and not seat.has(a) and a not in offered]
    only = seat.standing.advance_only
    choice = _choose(seat.standing.advance_preference, offered, copyable, only)
    text = f"Advance: ten tech points; rolled {rolls} on the chart: {', '.join(rolled)}."
    if not choice:
        why = "None you chose (ADVANCE ... ONLY) is on offer" if only else "Nothing new to take"
        turn.event("advance_none", text + f" {why}; the points are kept.", rolls)
        return False
    seat.advances.append(choice)
    how = "from the rolls" if choice in offered else "already known to another player"
    turn.event("advance", text + f" {seat.name} gains {choice} ({how}).", rolls, public=True)
    return True


def _choose(preference: list[str], offered: list[str], copyable: list[str], only: bool) -> str:
    """The first advance of the preference on offer; else, unless the seat takes only those
    ("he may gain one random advance": it may also wait), one by the default preference."""
    for name in preference:
        if name in offered or name in copyable:
            return name
    if only:
        return ""
    for name in DEFAULT_PREFERENCE:
        if name in offered:
            return name
    for name in DEFAULT_PREFERENCE:
        if name in copyable:
            return name
    return ""


def build(turn: SeatTurn) -> None:
    """Phase 5: every laborer (and slave in an own hex) gives a build point to work in its hex.
    Points not ordered continue the hex's unfinished work; the rest are lost."""
    points = _build_points(turn)
    capped = set()  # (hex, work) of orders that set the most points to spend: no leftovers
    for order in turn.of(Build):
        if _carry_out_build(turn, order, points) and order.points:
            capped.add((order.hex, order.work))
    for hex_name in sorted(points, key=reading_key):
        _continue_work(turn, hex_name, points, capped)
        if points[hex_name]:
            unused = plural(points[hex_name], "build point")
            turn.event("build_unused", f"Build: {unused} unused in {hex_name}.")


def _build_points(turn: SeatTurn) -> dict[str, int]:
    """Points by hex: laborers and slaves there. A hex with none is listed (with 0) when it has
    work already paid for (a cost that Masonry lowered), so that the work can finish."""
    points = {}
    for hex_name, here in turn.owned_hexes():
        slaves = turn.state.units(hex_name, turn.name).slave
        paid = any(have >= work_cost(turn.seat, w) for w, have in here.progress.items())
        if here.laborers + slaves or paid:
            points[hex_name] = here.laborers + slaves
    return points


def _carry_out_build(turn: SeatTurn, order: Build, points: dict[str, int]) -> bool:
    """Carry out one BUILD order; False when it was skipped."""
    rec, name = turn.rec, turn.name
    refusal = refuse_build(turn.state, name, order.hex, order.work)
    if refusal:
        rec.skipped(name, order, refusal.message)
        return False
    if not points.get(order.hex) and not _paid_for(turn, order):
        here = turn.state.hexes[order.hex]
        workers = here.laborers + turn.state.units(order.hex, name).slave
        why = (
            f"the build points of {order.hex} went to earlier BUILD orders"
            if workers
            else f"no build points in {order.hex}: no laborers or slaves there"
        )
        rec.skipped(name, order, why)
        return False
    wanted = order.count if order.work in UNIT_WORK else 1
    limit = order.points or None
    finished = 0
    for _ in range(wanted):
        if not _spend(turn, order.hex, order.work, points, limit):
            break
        finished += 1
    here = turn.state.hexes[order.hex]
    progress = here.progress.get(order.work, 0)
    if finished == wanted:
        rec.done(name, order)
    elif finished or progress:
        cost = work_cost(turn.seat, order.work)
        rec.partly(
            name, order, f"{finished} of {wanted} finished; {progress}/{cost} toward the next"
        )
    else:
        rec.skipped(name, order, "no build points left")
    return True


def _paid_for(turn: SeatTurn, order: Build) -> bool:
    """Work whose points are all spent already (a cost lowered by Masonry) needs none."""
    here = turn.state.hexes[order.hex]
    return here.progress.get(order.work, 0) >= work_cost(turn.seat, order.work)


def _spend(
    turn: SeatTurn, hex_name: str, work: str, points: dict[str, int], limit: int | None = None
) -> bool:
    """Spend points on one project or unit; True when it is finished."""
    here = turn.state.hexes[hex_name]
    cost = work_cost(turn.seat, work)
    have = here.progress.get(work, 0)
    # max(0, ...): Masonry can lower a cost below the points already spent on it.
    spend = max(0, min(points.get(hex_name, 0), cost - have, limit if limit else cost))
    points[hex_name] = points.get(hex_name, 0) - spend
    have += spend
    if have < cost:
        if have:
            here.progress[work] = have
        if spend:
            turn.event("build_progress", f"Build: {hex_name} {work} {have}/{cost} (+{spend}).")
        return False
    here.progress.pop(work, None)
    if work in UNIT_WORK:
        turn.state.units_for_change(hex_name, turn.name).add(work, 1)
        turn.event("unit_built", f"Build: {hex_name} a {work} is ready.")
    else:
        here.projects = sorted({*here.projects, work}, key=_project_order)
        turn.event(
            "project_built",
            f"Build: {turn.name} finishes {article(work)} in {hex_name}.",
            public=True,
        )
    return True


def _project_order(project: str) -> int:
    return PROJECTS.index(project)


def _continue_work(
    turn: SeatTurn, hex_name: str, points: dict[str, int], capped: set[tuple[str, str]]
) -> None:
    """Points left go to unfinished work, except work an order capped at fewer points."""
    here = turn.state.hexes[hex_name]
    for work in sorted(here.progress, key=lambda w: (-here.progress[w], w)):
        if (hex_name, work) in capped:
            continue
        paid = here.progress[work] >= work_cost(turn.seat, work)
        if (points[hex_name] or paid) and refuse_build(
            turn.state, turn.name, hex_name, work
        ) is None:
            _spend(turn, hex_name, work, points)


def tax(turn: SeatTurn) -> None:
    """Phase 6: half the basic population, plus project gold by hex (city 1, road 1, both 3),
    a marketplace doubling its hex's gold (option marketplace: 'hex' or 'projects')."""
    halves = 0  # counted in half GP so that 'half the sum' is rounded once, at the end
    whole_hex = turn.state.options["marketplace"] == "hex"
    for _, here in turn.owned_hexes():
        people = here.basic
        projects = 2 * _project_gold(here.has("city"), here.has("road"))
        double = 2 if here.has("marketplace") else 1
        halves += people * (double if whole_hex else 1) + projects * double
    gold = halves // 2
    turn.seat.gold += gold
    turn.event("tax", f"Tax: {gold} GP; gold now {turn.seat.gold}.")


def _project_gold(city: bool, road: bool) -> int:
    if city and road:
        return 3
    return int(city) + int(road)
