"""What the rules allow, asked the same way by the parser (before the turn) and by the phases
(when the order's moment comes): each check returns None or the reason with the rule it cites."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from engine.rulesets.classical.geography import CITY_SPACING, distances, neighbours
from engine.rulesets.classical.model import CITY, GameState

ARMY_REACH = 2  # "An Army may move 2 Spaces."
FLEET_REACH = 4  # "A Fleet may move 4 Spaces."


@dataclass(frozen=True)
class Refusal:
    message: str
    rule: str


def refuse_first_city(state: GameState, space: str) -> Refusal | None:
    spot = state.space(space)
    if spot.sea:
        return Refusal(f"{space} is sea; a city stands on land", "placement")
    if spot.settlement:
        return Refusal(f"{space} already holds a city", "placement")
    near = distances(state.board, space, within=CITY_SPACING - 1)
    close = [c for c in state.all_cities() if c in near]
    if close:
        return Refusal(f"{space} is within 2 spaces of the city in {close[0]}", "placement")
    return None


def refuse_settle(
    state: GameState, seat: str, space: str, settled: list[str] | tuple[str, ...] = ()
) -> Refusal | None:
    spot = state.space(space)
    if spot.sea:
        return Refusal(f"{space} is sea; villages are placed on land", "settle")
    if spot.settlement:
        return Refusal(f"{space} already holds a settlement", "extra_village")
    if spot.enemy_units(seat):
        return Refusal(f"{space} holds another seat's armies", "settle")
    if homeless(state, seat) and state.options["homeless"] == "refound" and not settled:
        return None
    if any(_supports_village(state, seat, n, settled) for n in neighbours(state.board, space)):
        return None
    return Refusal(f"{space} is not next to a city, village or fleet of yours", "settle")


def _supports_village(
    state: GameState, seat: str, label: str, settled: list[str] | tuple[str, ...]
) -> bool:
    spot = state.space(label)
    return label in settled or spot.owner == seat or (spot.sea and spot.units_of(seat) > 0)


def homeless(state: GameState, seat: str) -> bool:
    return not state.settlements(seat)


def refuse_recruit_place(state: GameState, seat: str, space: str) -> Refusal | None:
    spot = state.space(space)
    if not spot.sea:
        if spot.owner == seat and spot.settlement == CITY:
            return None
        return Refusal(f"{space} is not a city of yours; armies start in cities", "unit_place")
    if any(
        state.space(n).owner == seat and state.space(n).settlement == CITY
        for n in neighbours(state.board, space)
    ):
        return None
    return Refusal(f"{space} is not next to a city of yours", "unit_place")


def unit_allowance(state: GameState, seat: str) -> int:
    """Units the seat may still recruit: 1 + Government + cities, each turn or (option) in all."""
    limit = 1 + state.seat(seat).level("government") + len(state.cities(seat))
    if state.options["unit_limit"] == "in all":
        limit -= sum(state.space(n).units_of(seat) for n in state.unit_spaces(seat))
    return max(0, limit)


def monument_allowance(state: GameState, seat: str) -> int:
    """Monuments the seat may build: 1 + Religion, each turn or (option) controlled at once."""
    limit = 1 + state.seat(seat).level("religion")
    if state.options["monument_limit"] == "in all":
        limit -= state.monuments(seat)
    return max(0, limit)


def refuse_path(state: GameState, seat: str, origin: str, dest: str) -> Refusal | None:
    """A move of the units in `origin` to `dest`: fleets over sea, 4 spaces; armies over land, 2
    spaces, crossing sea spaces that hold a fleet of theirs at no cost; never through a space
    another seat holds, though a move may end in one (then there is battle)."""
    if origin == dest:
        return Refusal(f"the units are in {dest} already", "move")
    if path(state, seat, origin, dest) is not None:
        return None
    fleets = state.space(origin).sea
    if state.space(dest).sea != fleets:
        where = "land" if fleets else "sea"
        return Refusal(f"{'fleets' if fleets else 'armies'} cannot end a move on {where}", "move")
    reach = FLEET_REACH if fleets else ARMY_REACH
    return Refusal(
        f"no way from {origin} to {dest} within {reach} spaces that avoids spaces other seats hold",
        "move",
    )


def path(state: GameState, seat: str, origin: str, dest: str) -> list[str] | None:
    """The cheapest way (fewest spaces paid for, then fewest steps, then label order), or None."""
    if origin == dest:
        return None
    board = state.board
    fleets = state.space(origin).sea
    if state.space(dest).sea != fleets:
        return None
    reach = FLEET_REACH if fleets else ARMY_REACH
    best: dict[str, tuple[int, int]] = {origin: (0, 0)}
    came: dict[str, str] = {}
    queue = deque([origin])
    while queue:
        here = queue.popleft()
        cost, steps = best[here]
        if here != origin and state.space(here).held_by_enemy(seat):
            continue  # a move may end in an enemy-held space but not pass through it
        for near in neighbours(board, here):
            spot = state.space(near)
            if fleets and not spot.sea:
                continue
            carried = not fleets and spot.sea
            if carried and not (spot.units_of(seat) and not spot.enemy_units(seat)):
                continue
            mark = (cost + (0 if carried else 1), steps + 1)
            if mark[0] > reach or (near in best and best[near] <= mark):
                continue
            best[near], came[near] = mark, here
            queue.append(near)
    if dest not in best:
        return None
    way = [dest]
    while way[-1] != origin:
        way.append(came[way[-1]])
    return way[::-1]
