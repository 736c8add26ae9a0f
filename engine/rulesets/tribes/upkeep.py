"""Phase 4: work, food and hunger, the barracks' support, growth and the Shrines' fame.

Removing unsupported military is the fragment's rule ("support"); the rest completes it: the
fragment's population "works" and "eats" and its tribe card holds hunger chips and fame.
"""

from __future__ import annotations

from engine.rulesets.tribes.model import MILITARY, SITES, GameState
from engine.rulesets.tribes.orders import Grow
from engine.rulesets.tribes.seat_turn import SeatTurn
from engine.words import plural

WORKERS_A_HEX = 3  # population units that can work one hex (completion)
PLAIN_FOOD = 2  # food a worker gathers on land without a site
GAME_FOOD = 3  # on a game site
SUPPORT = 6  # "For each barracks a player owns, he may support 6 military units."
GROWTH_FOOD = 3  # food for one new population unit
GROWTH_MOST = 2  # new population units a turn at most
REMOVE_FIRST = ("ranged", "magic", "melee")  # unsupported military leave in this order


def work_and_upkeep(turn: SeatTurn) -> None:
    _work(turn)
    _feed(turn)
    _support(turn)
    _grow(turn)


def yields(state: GameState, name: str, workers: int) -> dict[str, int]:
    """What `workers` population units make in one hex in a turn."""
    made: dict[str, int] = {}
    if not workers:
        return made
    ground = state.ground(name)
    site = SITES.get(ground, "")
    if site == "food":
        made["food"] = GAME_FOOD * workers
    elif site:
        made[site] = workers
    else:
        made["food"] = PLAIN_FOOD * workers
    here = state.peek(name)
    if here.has("farm"):
        made["food"] = made.get("food", 0) + workers
    if here.has("market"):
        made["money"] = workers
    if here.has("shrine"):
        made["fame"] = 1
    return made


def workers_in(turn: SeatTurn, name: str) -> int:
    here = turn.state.peek(name)
    return max(0, min(WORKERS_A_HEX, here.units.population - turn.spent.get(name, 0)))


def _work(turn: SeatTurn) -> None:
    state, seat = turn.state, turn.seat
    made: dict[str, int] = {}
    workers = 0
    for name in state.held(turn.name):
        count = workers_in(turn, name)
        workers += count
        for what, amount in yields(state, name, count).items():
            made[what] = made.get(what, 0) + amount
    ships = sum(state.places[n].units.ship for n in state.held(turn.name))
    made["food"] = made.get("food", 0) + ships
    made["money"] = made.get("money", 0) + workers // 2  # trade: a money for two workers
    for what, amount in made.items():
        seat.gain(what, amount)
    got = ", ".join(f"{amount} {what}" for what, amount in sorted(made.items()) if amount)
    made_by = plural(workers, "worker") + (f" and {plural(ships, 'ship')}" if ships else "")
    turn.event("work", f"Work by {made_by}: {got or 'nothing'}.")


def eaters(state: GameState, seat: str, bribed: int = 0) -> int:
    """Every population unit eats a food (completion: the fragment feeds population; its
    military are kept by the barracks, and ships fish)."""
    return sum(state.places[n].units.population for n in state.held(seat)) - bribed


def _feed(turn: SeatTurn) -> None:
    """ "bribed population units also do not need to be fed on the turn they were bribed"."""
    seat = turn.seat
    need = eaters(turn.state, turn.name, sum(turn.bribed.values()))
    if seat.food >= need:
        seat.food -= need
        chip = ""
        if seat.hunger:
            seat.hunger -= 1
            chip = "; a hunger chip is returned"
        turn.event("fed", f"Food: {need} eaten, {seat.food} left{chip}.")
        return
    seat.food = 0
    seat.hunger += 1
    seat.fame = max(0, seat.fame - 1)
    turn.event(
        "hunger",
        f"Hunger: {turn.name} cannot feed {need}: a hunger chip ({seat.hunger} now), fame -1.",
        public=True,
    )


def _support(turn: SeatTurn) -> None:
    """ "In phase 4, a player is required to remove military units until he has not exceeded
    his maximum allowed by his barracks." The barracks' places are "up to six melees, ranged,
    or magic units": a magic unit takes a place like the others and needs nothing more."""
    state, seat = turn.state, turn.name
    barracks = state.owned_buildings(seat, "barracks")
    gone = _remove(state, seat, REMOVE_FIRST, _count(state, seat, MILITARY) - SUPPORT * barracks)
    if gone:
        turn.event(
            "unsupported",
            f"Support: {gone} military units beyond what "
            f"{plural(barracks, 'barracks', 'barracks')} support leave play.",
        )


def _count(state: GameState, seat: str, kinds: tuple[str, ...]) -> int:
    return sum(state.places[n].units.get(k) for n in state.held(seat) for k in kinds)


def _remove(state: GameState, seat: str, kinds: tuple[str, ...], excess: int) -> int:
    """Take `excess` units of `kinds`, each kind in turn from the hexes holding most of it."""
    removed = 0
    for kind in kinds:
        while removed < excess:
            holding = [n for n in state.held(seat) if state.places[n].units.get(kind)]
            if not holding:
                break
            name = max(holding, key=lambda n: state.places[n].units.get(kind))
            state.places[name].units.add(kind, -1)
            removed += 1
    for name in state.held(seat):
        if not state.places[name].units.total():
            state.places[name].owner = ""
    return removed


def _grow(turn: SeatTurn) -> None:
    """A tribe with no hunger chip turns each 3 food left into a new population unit, at most
    2 a turn, placed where GROW orders say (in order), else where its population is fewest."""
    state, seat = turn.state, turn.seat
    count = 0 if seat.hunger else min(GROWTH_MOST, seat.food // GROWTH_FOOD)
    orders = turn.of(Grow)
    placed = []
    for number in range(count):
        name = _growth_hex(turn, orders[number].hex if number < len(orders) else "")
        if not name:
            break
        seat.food -= GROWTH_FOOD
        state.place(name).units.population += 1
        placed.append(name)
    for order in orders:
        if order.hex in placed:
            turn.rec.done(turn.name, order, f"new population in {order.hex}")
        else:
            why = "no growth this turn" if not placed else "the growth went to earlier GROW lines"
            turn.rec.skipped(turn.name, order, why)
    if placed:
        turn.event("growth", f"Growth: new population in {', '.join(placed)}.")


def _growth_hex(turn: SeatTurn, wanted: str) -> str:
    state = turn.state
    if wanted and state.peek(wanted).owner == turn.name:
        return wanted
    homes = [n for n in state.held(turn.name) if state.places[n].units.population]
    return min(homes, key=lambda n: state.places[n].units.population) if homes else ""
