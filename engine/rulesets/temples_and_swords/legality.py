"""Whether an order can be carried out now. The parser asks before accepting an order and the
turn asks again when the order's phase comes (an earlier seat's turn may have changed things),
so both give the same reason in the same words."""

from __future__ import annotations

import itertools
from typing import NamedTuple

from engine.rulesets.temples_and_swords.hexmap import DESERT
from engine.rulesets.temples_and_swords.model import MILITARY, GameState, Seat
from engine.words import article

BASE_COST = {
    "city": 10,
    "road": 3,
    "temple": 5,
    "walls": 3,
    "marketplace": 5,
    "library": 5,
    "soldier": 2,
    "swordsman": 2,
    "horseman": 2,
}
UNIT_WORK = ("soldier", "swordsman", "horseman")
NEEDS_CITY = ("temple", "walls", "marketplace", "library", *UNIT_WORK)
ADVANCE_NEEDED = {
    "temple": "Religion",
    "walls": "Masonry",
    "marketplace": "Coinage",
    "library": "Writing",
    "swordsman": "Metal Working",
    "horseman": "Equestrian",
}
CAP = {"g": 6, "d": 3}


class Refusal(NamedTuple):
    message: str
    rule: str  # key of RULES


def cap(state: GameState, hex_name: str) -> int:
    return CAP[state.terrain.terrain(hex_name)]


def work_cost(seat: Seat, work: str) -> int:
    """Build points for a project or one unit; Masonry takes 20% off cities and temples."""
    cost = BASE_COST[work]
    if work in ("city", "temple") and seat.has("Masonry"):
        cost = cost * 4 // 5
    return cost


def advance_needed(state: GameState, work: str) -> str:
    if work == "library" and state.options["library_requires"] == "none":
        return ""
    return ADVANCE_NEEDED.get(work, "")


def refuse_labor(state: GameState, seat: str, hex_name: str, count: int) -> Refusal | None:
    here = state.peek(hex_name)
    if here.owner != seat:
        return Refusal(f"{hex_name} is not your hex", "distribution")
    if count > here.pop:
        return Refusal(f"{hex_name} has only {here.pop} population, not {count}", "distribution")
    return None


def refuse_build(
    state: GameState, seat: str, hex_name: str, work: str, city_coming: bool = False
) -> Refusal | None:
    """Why `work` cannot be built in the hex; `city_coming`: a city is ordered there first."""
    here = state.peek(hex_name)
    rule = "units" if work in UNIT_WORK else "projects"
    if here.owner != seat:
        return Refusal(f"{hex_name} is not your hex; you build only in your own hexes", "own_hex")
    if work not in UNIT_WORK and here.has(work):
        return Refusal(f"{hex_name} already has {article(work)}", rule)
    needed = advance_needed(state, work)
    if needed and not state.seat(seat).has(needed):
        return Refusal(f"{_needs(work)} the advance {needed}, which you do not have", rule)
    if work in NEEDS_CITY and not (here.has("city") or city_coming):
        return Refusal(f"{_needs(work)} a city in its hex, and {hex_name} has none", rule)
    return None


def _needs(work: str) -> str:
    return f"{article(work)} {'need' if work == 'walls' else 'needs'}"


def is_enemy_held(state: GameState, hex_name: str, seat: str) -> bool:
    """The hex holds an enemy city, population or army."""
    here = state.peek(hex_name)
    return bool((here.owner and here.owner != seat) or state.has_enemy_army(hex_name, seat))


def move_cost(state: GameState, path: list[str]) -> int:
    """Moves needed for the path (start included): one hex a move, or two hexes in one move
    where the start of the move and both hexes entered have roads."""

    def road(name: str) -> bool:
        return state.peek(name).has("road")

    moves, at = 0, 0
    while at < len(path) - 1:
        two = at + 2 < len(path) and road(path[at]) and road(path[at + 1]) and road(path[at + 2])
        at += 2 if two else 1
        moves += 1
    return moves


def allowance(kind: str) -> int:
    return 2 if kind == "horseman" else 1


def refuse_path(state: GameState, seat: str, path: list[str]) -> Refusal | None:
    for here, there in itertools.pairwise(path):
        if there not in state.terrain.neighbours(here):
            return Refusal(f"{there} is not next to {here}", "move")
    for middle in path[1:-1]:
        if is_enemy_held(state, middle, seat):
            return Refusal(
                f"{middle} holds enemy holdings: a move that enters it ends there", "move"
            )
    return None


def refuse_move_kind(state: GameState, path: list[str], kind: str) -> Refusal | None:
    needed = move_cost(state, path)
    if needed > allowance(kind):
        unit = "a horseman moves twice" if kind == "horseman" else f"a {kind} moves once"
        return Refusal(
            f"{'-'.join(path)} takes {needed} moves and {unit} (two road hexes count as one move)",
            "move",
        )
    return None


def refuse_migrate(state: GameState, seat: str, source: str, target: str) -> Refusal | None:
    if state.peek(source).owner != seat:
        return Refusal(f"{source} is not your hex", "migration")
    if target not in state.terrain.neighbours(source):
        return Refusal(f"{target} is not next to {source}", "migration")
    there = state.peek(target)
    if there.owner and there.owner != seat:
        return Refusal(f"{target} belongs to {there.owner}", "migration")
    if state.has_enemy_army(target, seat):
        return Refusal(f"{target} holds an enemy army", "migration")
    if there.pop >= cap(state, target):
        kind = "desert" if state.terrain.terrain(target) == DESERT else "grassland"
        return Refusal(f"{target} is full ({kind} holds {cap(state, target)})", "growth")
    return None


def military_kinds(state: GameState, hex_name: str, seat: str) -> list[str]:
    units = state.units(hex_name, seat)
    return [kind for kind in MILITARY if units.get(kind)]
