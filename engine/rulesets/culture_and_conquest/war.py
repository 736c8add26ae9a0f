"""Phase 7, war: the active seat's attack on one opponent with allies on both sides, the
tribute; and the wars that are disasters (Barbarians, Civil War, Uprising)."""

from __future__ import annotations

from collections.abc import Callable

from engine.dice import Dice
from engine.rulesets.culture_and_conquest.combat import (
    BASE_DICE,
    END_TEXT,
    Contingent,
    Side,
    War,
    fight,
)
from engine.rulesets.culture_and_conquest.economy import BATTLE_ADVANCES
from engine.rulesets.culture_and_conquest.geography import border, remove_from, transfer
from engine.rulesets.culture_and_conquest.model import City, GameState, Seat, Support
from engine.rulesets.culture_and_conquest.orders import Attack
from engine.rulesets.culture_and_conquest.seat_turn import (
    SeatTurn,
    describe_loss,
    lose_population,
)
from engine.words import plural


def war(turn: SeatTurn) -> None:
    """Phase 7: the seat's one ATTACK, unless a disaster struck it this turn."""
    fight_wars(turn, _attack)


def fight_wars(turn: SeatTurn, attack: Callable[[SeatTurn, Attack], None]) -> None:
    """The first ATTACK order is carried out by `attack`; the others are skipped; all of them
    after a disaster."""
    attacks = turn.of(Attack)
    if turn.disaster:
        for order in attacks:
            turn.rec.skipped(turn.name, order, f"no war phase after the {turn.disaster}")
        if attacks:
            turn.event("war_skipped", f"War phase skipped: the {turn.disaster}.")
        return
    for number, order in enumerate(attacks):
        if number:
            turn.rec.skipped(turn.name, order, "a Player may attack one opponent a turn")
            continue
        attack(turn, order)


def _attack(turn: SeatTurn, order: Attack) -> None:
    state, name, rec = turn.state, turn.name, turn.rec
    enemy = state.seat(order.target)
    if not enemy.alive:
        rec.skipped(name, order, f"{enemy.name} is out of the game")
        return
    if not turn.seat.army:
        rec.skipped(name, order, "you have no Army left to attack with")
        return
    attacker = _side(state, turn.seat, enemy, defending=False)
    defender = _side(state, enemy, turn.seat, defending=True)
    result = fight(
        attacker,
        defender,
        turn.dice("war"),
        order.give_up,
        enemy.standing.surrender_below,
    )
    _apply_losses(state, attacker, defender)
    involved = tuple(sorted({c.seat for c in attacker.contingents + defender.contingents} - {name}))
    turn.event(
        "war",
        war_text(name, enemy.name, attacker, defender, result),
        result.all_dice(),
        public=True,
        also=involved,
    )
    if pays_tribute(state, result):
        note = take_tribute(turn, turn.seat, enemy, involved)
        rec.done(name, order, f"won: {END_TEXT[result.end]}; {note}")
    elif result.end == "surrender":
        rec.done(name, order, "won: the defender surrenders (no tribute by the game's options)")
    else:
        rec.done(name, order, END_TEXT[result.end])


def pays_tribute(state: GameState, result: War) -> bool:
    """The defender lost all his Army, or surrendered (option surrender_pays_tribute)."""
    return result.end == "defender_lost" or (
        result.end == "surrender" and bool(state.options["surrender_pays_tribute"])
    )


def _side(state: GameState, seat: Seat, enemy: Seat | None, defending: bool) -> Side:
    """The seat's whole Army and the allies its SUPPORT standing orders send (none against a
    disaster's army, `enemy` None): an ally who supports both sides sends to neither."""
    contingents = [Contingent(seat.name, seat.army)]
    return with_allies(state, seat, enemy, defending, contingents, _all_armies)


def _all_armies(ally: Seat) -> int:
    return ally.army


def with_allies(
    state: GameState,
    seat: Seat,
    enemy: Seat | None,
    defending: bool,
    contingents: list[Contingent],
    available: Callable[[Seat], int],
) -> Side:
    """The side of `seat` (its own contingent given) with the allies its SUPPORT standing orders
    send, each at most `available(ally)` Armies, and its battle rolls."""
    bonuses = [a for a in BATTLE_ADVANCES if seat.has(a)]
    bonuses += ["General"] * len(seat.leaders_of("General"))
    foe = enemy.name if enemy else ""
    for other in state.seats if enemy else ():
        if other.name in (seat.name, foe) or not other.alive:
            continue
        mine = next((s for s in other.standing.supports if s.seat == seat.name), None)
        theirs = next((s for s in other.standing.supports if s.seat == foe), None)
        if not _sends(mine) or _sends(theirs):  # an ally of both sides sends to neither
            continue
        assert mine is not None
        sent = min(mine.armies, available(other))
        if sent:
            contingents.append(Contingent(other.name, sent))
        if mine.general and other.leaders_of("General"):
            bonuses.append(f"{other.name}'s General")
    if defending and seat.has_wonder("Great Wall"):
        bonuses.append("Great Wall")
    return Side(contingents, BASE_DICE + len(bonuses), bonuses)


def _sends(support: Support | None) -> bool:
    return support is not None and bool(support.armies or support.general)


def _apply_losses(state: GameState, *sides: Side) -> None:
    for side in sides:
        for contingent in side.contingents:
            if contingent.lost:
                seat = state.seat(contingent.seat)
                seat.pops["army"] -= min(contingent.lost, seat.army)


def _side_text(name: str, side: Side) -> str:
    allies = [f"{c.seat} {c.armies + c.lost}" for c in side.contingents[1:]]
    text = f"{name} {side.leader.armies + side.leader.lost}"
    if allies:
        text += " with " + ", ".join(allies)
    bonus = f" +{', '.join(side.bonuses)}" if side.bonuses else ""
    return f"{text} ({side.dice} dice{bonus})"


def war_text(name: str, enemy: str, attacker: Side, defender: Side, result: War) -> str:
    losses = ", ".join(
        f"{c.seat} {c.lost}" for c in attacker.contingents + defender.contingents if c.lost
    )
    return (
        f"War: {_side_text(name, attacker)} attacks {_side_text(enemy, defender)}; "
        f"at most {plural(result.limit, 'segment')}. Dice (attacker/defender): "
        f"{result.dice_text() or 'none'}. Armies lost: {losses or 'none'}. "
        f"{END_TEXT[result.end][0].upper()}{END_TEXT[result.end][1:]}."
    )


def take_tribute(turn: SeatTurn, winner: Seat, loser: Seat, involved: tuple[str, ...]) -> str:
    """The first form of tribute in the winner's TRIBUTE order that the loser can give. In the
    map version a city is ceded with its territory and every token in it."""
    roll: list[int] = []
    for kind in winner.standing.tribute:
        if kind == "gold" and loser.gold:
            gold, loser.gold = loser.gold, 0
            winner.gold += gold
            text = f"{winner.name} takes all {gold} gold of {loser.name}"
            break
        if kind == "city" and loser.cities:
            city = tribute_city(loser)
            land = turn.state.land
            where = land.where_city(city.name) if land is not None else ""
            if where:
                transfer(turn.state, where, winner.name, captured=False)
            else:
                loser.cities.remove(city)
                winner.cities.append(city)
            wonder = f" with the {city.wonder}" if city.wonder else ""
            text = f"{winner.name} takes the city of {city.name}{wonder} from {loser.name}"
            if where:
                text += f", with the territory {where} and everything in it"
            break
        if kind == "population" and loser.population:
            roll = turn.dice("tribute").roll(2)
            lost = lose_population(loser, sum(roll), spare_army=True)
            winner.pops["agriculture"] += sum(lost.values())
            text = (
                f"{winner.name} takes {plural(sum(lost.values()), 'population')} of {loser.name} "
                f"(2D6 {roll}: {describe_loss(lost)}), who join its Agriculture"
            )
            break
    else:
        text = f"{loser.name} has nothing to give"
    turn.event("tribute", f"Tribute: {text}.", roll, public=True, also=involved)
    return text


def tribute_city(loser: Seat) -> City:
    """The city taken: one with a Wonder if there is one (the first founded), else the last
    founded."""
    with_wonder = [c for c in loser.cities if c.wonder]
    return with_wonder[0] if with_wonder else loser.cities[-1]


def disaster_war(turn: SeatTurn, kind: str, dice: Dice, mitigated: str) -> None:
    """Barbarians, Civil War or Uprising: 1D6 Armies (half, rounded down, when mitigated)
    attack the culture, which fights alone with its own bonuses."""
    seat = turn.seat
    roll = dice.d(6)
    strength = roll // 2 if mitigated else roll
    text = f"{kind}: {plural(roll, 'Army', 'Armies')} rise"
    if mitigated:
        text += f", halved by {mitigated} to {strength}"
    if not strength:
        turn.event("disaster_war", text + "; no war.", [roll], public=True)
        return
    raiders = Side([Contingent(kind, strength)], BASE_DICE)
    defender = _side(turn.state, seat, None, defending=True)  # allies serve in wars only
    at = _border_attacked(turn, kind, dice)
    if at:
        text += f" at the border, in {at}"
        defender.contingents[0].armies = _land_armies(turn.state, at)
    result = fight(raiders, defender, dice, 0, seat.standing.surrender_below)
    if at:
        remove_from(turn.state, seat, "army", defender.leader.lost, [at])
    else:
        _apply_losses(turn.state, defender)
    text += (
        f". War: {_side_text(kind, raiders)} attack {_side_text(seat.name, defender)}; "
        f"at most {plural(result.limit, 'segment')}. Dice ({kind}/{seat.name}): "
        f"{result.dice_text() or 'none'}. {seat.name} loses "
        f"{plural(defender.leader.lost, 'Army', 'Armies')}; {_disaster_end(result.end, seat.name)}."
    )
    turn.event("disaster_war", text, (roll, *result.all_dice()), public=True)
    if pays_tribute(turn.state, result):
        _rebels_win(turn, kind, dice)


def _border_attacked(turn: SeatTurn, kind: str, dice: Dice) -> str:
    """Map version: "Barbarians and Civil War rebels will attack a border territory" - one of
    the culture's territories next to a space not its own, chosen at random; only the Armies in
    it defend. ('' without a map, for an Uprising, or for a culture with no territory.)"""
    land = turn.state.land
    if land is None or kind == "Uprising":
        return ""
    edge = border(land, turn.name)
    return dice.choice(edge) if edge else ""


def _land_armies(state: GameState, at: str) -> int:
    land = state.land
    assert land is not None
    return land.territories[at].army


def _disaster_end(end: str, name: str) -> str:
    return {
        "defender_lost": f"{name} has lost all its Army",
        "attacker_lost": "the invaders are destroyed",
        "both_destroyed": "both sides are destroyed; the invaders take nothing",
        "surrender": f"{name} surrenders",
        "time": "the segments are over; the invaders withdraw",
    }[end]


def _rebels_win(turn: SeatTurn, kind: str, dice: Dice) -> None:
    seat, state = turn.seat, turn.state
    if kind == "Barbarians":
        gold, seat.gold = seat.gold, 0
        text = f"the Barbarians take all {gold} gold"
        roll: list[int] = []
    elif kind == "Civil War":
        if not seat.cities:
            text, roll = "the rebels find no city to take", []
        else:
            pick = dice.randrange(len(seat.cities))
            city = seat.cities.pop(pick)
            roll = [pick + 1]
            if city.wonder:
                state.wonders_lost.append(city.wonder)
            wonder = f" and its {city.wonder}" if city.wonder else ""
            text = f"the rebels take the city of {city.name}{wonder}"
    else:
        roll = dice.roll(2)
        lost = lose_population(seat, sum(roll), spare_army=True)
        text = f"the rebels take {plural(sum(lost.values()), 'population')} ({describe_loss(lost)})"
    turn.event("disaster_loss", f"{kind}: {text}.", roll, public=True)
