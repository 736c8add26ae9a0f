"""A bot that writes order text a player could have written: it grows, builds, researches and
attacks when the odds favour it. Its text goes through the same parser as a player's."""

from __future__ import annotations

from engine.dice import Dice
from engine.hexgrid import distance
from engine.rulesets.temples_and_swords.hexmap import GRASS
from engine.rulesets.temples_and_swords.legality import (
    cap,
    is_enemy_held,
    refuse_build,
    refuse_path,
    work_cost,
)
from engine.rulesets.temples_and_swords.model import GameState
from engine.rulesets.temples_and_swords.render import advance_lines

PREFERENCE = [
    "Religion",
    "Masonry",
    "Art",
    "Writing",
    "Coinage",
    "Metal Working",
    "Equestrian",
    "Military Doctrine",
]
CITY_WORK = ("temple", "library", "marketplace", "road", "walls")


def bot_orders(state: GameState, seat: str, seed: int) -> str:
    dice = Dice(seed, state.round, seat, "bot")
    army = sum(state.units(n, seat).military() for n in state.army_hexes(seat))
    budget = state.seat(seat).gold - army
    plans = {name: _pick_work(state, seat, name, army) for name in state.owned(seat)}
    labor_lines, budget = _laborers(state, seat, plans, budget)
    standing = state.seat(seat).standing.advance_preference
    lines = ([] if standing == PREFERENCE else advance_lines(PREFERENCE)) + labor_lines
    lines += _tech(state, seat, budget)
    lines += _war(state, seat, dice)
    lines += [_build_line(name, work) for name, work in plans.items() if work]
    return "\n".join(lines) + "\n"


def _pick_work(state: GameState, seat: str, name: str, army: int) -> str:
    here = state.hexes[name]
    for work in sorted(here.progress, key=lambda w: -here.progress[w]):
        if refuse_build(state, seat, name, work) is None:
            return work
    if not here.has("city"):
        near_city = any(
            state.hexes[n].has("city") and distance(n, name) < 2 for n in state.owned(seat)
        )
        if here.pop >= 3 and state.terrain.terrain(name) == GRASS and not near_city:
            return "city"
        return "road" if here.pop >= 2 and not here.has("road") else ""
    cities = sum(state.hexes[n].has("city") for n in state.owned(seat))
    threatened = _enemy_within(state, seat, name, 3)
    if army < cities + (2 if threatened else 0):
        return _best_unit(state, seat, name)
    for work in CITY_WORK:
        if work == "walls" and not threatened:
            continue
        if refuse_build(state, seat, name, work) is None:
            return work
    return _best_unit(state, seat, name) if army < 3 * cities else ""


def _best_unit(state: GameState, seat: str, name: str) -> str:
    for unit in ("swordsman", "horseman", "soldier"):
        if refuse_build(state, seat, name, unit) is None:
            return unit
    return ""


def _enemy_within(state: GameState, seat: str, name: str, reach: int) -> bool:
    for other, here in state.hexes.items():
        if here.owner and here.owner != seat and distance(other, name) <= reach:
            return True
    return any(
        state.enemies_in(other, seat) and distance(other, name) <= reach for other in state.armies
    )


def _laborers(
    state: GameState, seat: str, plans: dict[str, str], budget: int
) -> tuple[list[str], int]:
    """Laborers where there is work, as many as keep the hex growing (on grassland at most
    half the population works; on desert only a full hex works) and as the gold can pay."""
    lines = []
    holder = state.seat(seat)
    for name, work in plans.items():
        here = state.hexes[name]
        wanted = 0
        if work:
            full = here.pop >= cap(state, name)
            limit = (
                here.pop if full else (here.pop // 2 if state.terrain.terrain(name) == GRASS else 0)
            )
            left = work_cost(holder, work) - here.progress.get(work, 0)
            wanted = max(0, min(limit, left, budget))
        budget -= wanted
        lines.append(f"LABOR {name} {wanted}")
    return lines, budget


def _tech(state: GameState, seat: str, budget: int) -> list[str]:
    cities = sum(state.hexes[n].has("city") for n in state.owned(seat))
    rolls = min(cities, max(budget, 0))
    if budget - rolls >= 2 * cities:
        rolls = 2 * cities
    return [f"TECH {rolls}"] if rolls else []


def _war(state: GameState, seat: str, dice: Dice) -> list[str]:
    """Attack a neighbouring enemy hex when clearly stronger; otherwise march a large army a
    step toward the nearest enemy. A city keeps one defender."""
    lines: list[str] = []
    for name in state.army_hexes(seat):
        ours = state.units(name, seat).military()
        keep = 1 if state.peek(name).has("city") else 0
        free = ours - keep
        if free < 2:
            continue
        target = _target(state, seat, name, free)
        if target:
            lines += [
                f"MOVE {name} {target} {free} {_main_kind(state, seat, name)}",
                f"ATTACK {target} UNTIL {max(1, free // 2)}",
            ]
        elif free >= 3:
            step = _step_toward_enemy(state, seat, name, dice)
            if step:
                lines.append(f"MOVE {name} {step} {free} {_main_kind(state, seat, name)}")
    return lines


def _main_kind(state: GameState, seat: str, name: str) -> str:
    units = state.units(name, seat)
    return max(("soldier", "swordsman", "horseman"), key=lambda k: (units.get(k), k)).upper()


def _target(state: GameState, seat: str, name: str, free: int) -> str:
    best, best_score = "", 0.0
    for other in state.terrain.neighbours(name):
        if not is_enemy_held(state, other, seat):
            continue
        enemy = sum(state.units(other, s).military() for s in state.enemies_in(other, seat))
        pop = state.peek(other).pop
        walls = 1 if state.peek(other).has("walls") else 0
        if free >= 2 * enemy + walls + 1 and 2 * (free - enemy) >= pop:
            score = pop + 3 * state.peek(other).has("city") - enemy
            if score > best_score or not best:
                best, best_score = other, score
    return best


def _step_toward_enemy(state: GameState, seat: str, name: str, dice: Dice) -> str:
    enemy_hexes = [n for n, h in state.hexes.items() if h.owner and h.owner != seat]
    if not enemy_hexes:
        return ""
    goal = min(enemy_hexes, key=lambda n: (distance(n, name), n))
    steps = [
        n
        for n in state.terrain.neighbours(name)
        if distance(n, goal) < distance(name, goal)
        and not is_enemy_held(state, n, seat)
        and refuse_path(state, seat, [name, n]) is None
    ]
    return dice.choice(sorted(steps)) if steps else ""


def _build_line(name: str, work: str) -> str:
    return f"BUILD {name} {work.upper()}"
