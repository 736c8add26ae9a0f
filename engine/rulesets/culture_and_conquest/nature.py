"""Phase 5, the disaster check: on a 1 on a d6, one disaster rolled on the d20 table."""

from __future__ import annotations

from collections.abc import Callable

from engine.dice import Dice
from engine.rulesets.culture_and_conquest.model import DISASTERS, WONDERS
from engine.rulesets.culture_and_conquest.seat_turn import (
    SeatTurn,
    describe_loss,
    lose_population,
)
from engine.rulesets.culture_and_conquest.war import disaster_war
from engine.words import plural

# What mitigates each disaster: advances from the Advance Table, Wonders from the Wonder Table.
MITIGATION: dict[str, tuple[str, ...]] = {
    "Flood": ("Engineering",),
    "Earthquake": ("Architecture",),
    "Heresy": ("Philosophy",),
    "Anarchy": ("Art and Sculpture", "Pyramids"),
    "Epidemic": ("Medicine",),
    "Famine": ("Pottery",),
    "Uprising": ("Hanging Gardens",),
    "Corruption": ("Law", "Parthenon"),
    "Drought": ("Pottery",),
    "Hurricane": ("Engineering", "Lighthouse"),
    "Mad King": ("Democracy",),
    "Pestilence": ("Medicine",),
    "Unrest": ("Music", "Drama and Poetry", "Oracle"),
    "Civil War": ("Democracy",),
}
# Population loss: number of d6 rolled.
POPULATION_DICE = {
    "Flood": 2,
    "Earthquake": 1,
    "Heresy": 1,
    "Anarchy": 1,
    "Epidemic": 3,
    "Hurricane": 1,
    "Pestilence": 2,
    "Unrest": 1,
}
WARS = ("Barbarians", "Civil War", "Uprising")


def mitigator(turn: SeatTurn, disaster: str) -> str:
    """The first advance or Wonder the seat has that mitigates the disaster ('' for none)."""
    seat = turn.seat
    for name in MITIGATION.get(disaster, ()):
        if seat.has_wonder(name) if name in WONDERS else seat.has(name):
            return name
    return ""


def disaster(turn: SeatTurn) -> None:
    dice = turn.dice("disaster")
    check = dice.d(6)
    if check != 1:
        turn.event("disaster_check", f"Disaster check: rolled {check}, no disaster.", [check])
        return
    roll = dice.d(20)
    name = DISASTERS[roll - 1]
    turn.disaster = name
    turn.event(
        "disaster",
        f"Disaster check: rolled 1; d20 {roll}: {name}! (no build or war phase this turn)",
        [check, roll],
        public=True,
    )
    mitigated = mitigator(turn, name)
    if name in WARS:
        disaster_war(turn, name, dice, mitigated)
    elif name in POPULATION_DICE:
        _population_loss(turn, name, dice, mitigated)
    else:
        STRIKES[name](turn, dice, mitigated)


def _halved(loss: int, mitigated: str) -> tuple[int, str]:
    """Half as much loss, rounded down, with a mitigating advance or Wonder."""
    if not mitigated:
        return loss, ""
    return loss // 2, f", halved by {mitigated} to {loss // 2}"


def _population_loss(turn: SeatTurn, name: str, dice: Dice, mitigated: str) -> None:
    count = POPULATION_DICE[name]
    if name == "Heresy" and turn.seat.has("Religion"):
        count = 2
    rolls = dice.roll(count)
    loss, note = _halved(sum(rolls), mitigated)
    lost = lose_population(turn.seat, loss)
    turn.event(
        "disaster_loss",
        f"{name}: {count}D6 {rolls} = {plural(sum(rolls), 'population')}{note}; lost "
        f"{sum(lost.values())} ({describe_loss(lost)}).",
        rolls,
        public=True,
    )


def _volcano(turn: SeatTurn, dice: Dice, mitigated: str) -> None:
    seat = turn.seat
    if not seat.cities:
        turn.event("disaster_loss", "Volcano: there is no city to bury.", public=True)
        return
    pick = dice.randrange(len(seat.cities))
    city = seat.cities.pop(pick)
    wonder = ""
    if city.wonder:
        turn.state.wonders_lost.append(city.wonder)
        wonder = f" and its {city.wonder}"
    turn.event(
        "disaster_loss", f"Volcano: the city of {city.name}{wonder} is lost.", [pick + 1], True
    )


def _pirates(turn: SeatTurn, dice: Dice, mitigated: str) -> None:
    seat = turn.seat
    loss = -(-seat.gold // 2)  # "Round all losses up"
    seat.gold -= loss
    turn.event(
        "disaster_loss", f"Pirates: half the gold, {loss}, is lost; {seat.gold} left.", (), True
    )


def _food(turn: SeatTurn, name: str, mitigated: str) -> None:
    seat = turn.seat
    loss, note = _halved(-(-seat.food // 2), mitigated)
    seat.food -= loss
    turn.event(
        "disaster_loss",
        f"{name}: half the food reserve{note}; {loss} food lost, {seat.food} left.",
        (),
        True,
    )


def _famine(turn: SeatTurn, dice: Dice, mitigated: str) -> None:
    _food(turn, "Famine", mitigated)


def _drought(turn: SeatTurn, dice: Dice, mitigated: str) -> None:
    _food(turn, "Drought", mitigated)


def _corruption(turn: SeatTurn, dice: Dice, mitigated: str) -> None:
    seat = turn.seat
    loss, note = _halved(seat.gold, mitigated)
    seat.gold -= loss
    turn.event(
        "disaster_loss",
        f"Corruption: all the gold{note}; {loss} gold lost, {seat.gold} left.",
        (),
        True,
    )


def _sands_of_time(turn: SeatTurn, dice: Dice, mitigated: str) -> None:
    cities = [c for c in turn.seat.cities if c.wonder]
    if not cities:
        turn.event("disaster_loss", "Sands of Time: there is no Wonder to lose.", (), True)
        return
    pick = dice.randrange(len(cities))
    city = cities[pick]
    turn.state.wonders_lost.append(city.wonder)
    text = f"Sands of Time: the {city.wonder} in {city.name} is lost."
    city.wonder = ""
    turn.event("disaster_loss", text, [pick + 1], True)


def _mad_king(turn: SeatTurn, dice: Dice, mitigated: str) -> None:
    seat = turn.seat
    if mitigated:
        turn.event(
            "disaster_loss", f"Mad King: half of one leader is none ({mitigated}).", (), True
        )
        return
    if not seat.leaders:
        turn.event("disaster_loss", "Mad King: there is no leader to lose.", (), True)
        return
    pick = dice.randrange(len(seat.leaders))
    leader = seat.leaders.pop(pick)
    turn.event(
        "disaster_loss", f"Mad King: the {leader.kind} {leader.name} is lost.", [pick + 1], True
    )


STRIKES: dict[str, Callable[[SeatTurn, Dice, str], None]] = {
    "Volcano": _volcano,
    "Pirates": _pirates,
    "Famine": _famine,
    "Corruption": _corruption,
    "Drought": _drought,
    "Sands of Time": _sands_of_time,
    "Mad King": _mad_king,
}
assert set(STRIKES) | set(POPULATION_DICE) | set(WARS) == set(DISASTERS)
