"""Phases 4, 6, 9, 10 and 11: harvest, upkeep, build, research and income."""

from __future__ import annotations

from engine.rulesets.culture_and_conquest.geography import city_site
from engine.rulesets.culture_and_conquest.legality import cost, refuse_city, refuse_wonder
from engine.rulesets.culture_and_conquest.model import (
    ADVANCES,
    CITY_NAMES,
    City,
    Project,
)
from engine.rulesets.culture_and_conquest.orders import Build
from engine.rulesets.culture_and_conquest.seat_turn import (
    SeatTurn,
    describe_loss,
    lose_population,
)
from engine.words import plural

RESEARCH_ADVANCES = ("Astronomy", "Literacy", "Mathematics")
INCOME_ADVANCES = ("Coinage", "Navigation")
BATTLE_ADVANCES = ("Metal Working", "Military Doctrine", "Equestrian")


def harvest(turn: SeatTurn) -> None:
    """Phase 4: 3 food per Agriculture population, 4 with Irrigation."""
    seat = turn.seat
    each = 3 + (1 if seat.has("Irrigation") else 0)
    food = each * seat.pops["agriculture"]
    seat.food += food
    turn.event(
        "harvest",
        f"Harvest: {seat.pops['agriculture']} Agriculture x {each} = {food} food; "
        f"food now {seat.food}.",
    )


def upkeep(turn: SeatTurn) -> None:
    """Phase 6: 1 food a population, 1 gold an Army; populations not fed and Armies not paid
    are lost. Then each leader dies of old age on a 1. Food not eaten spoils without Pottery."""
    seat = turn.seat
    eaters = seat.population
    starved = lose_population(seat, eaters - seat.food) if seat.food < eaters else {}
    seat.food = max(0, seat.food - eaters)
    armies = seat.army
    unpaid = max(0, armies - seat.gold)
    seat.pops["army"] -= unpaid
    seat.gold -= armies - unpaid
    verb = "eats" if eaters == 1 else "eat"
    text = f"Upkeep: {plural(eaters, 'population')} {verb} {eaters - sum(starved.values())} food"
    if starved:
        text += f"; {sum(starved.values())} starve ({describe_loss(starved)})"
    cost_verb = "costs" if armies == 1 else "cost"
    text += f"; {plural(armies, 'Army', 'Armies')} {cost_verb} {armies - unpaid} gold"
    if unpaid:
        text += f"; {plural(unpaid, 'unpaid Army is', 'unpaid Armies are')} lost"
    turn.event("upkeep", text + f". Gold {seat.gold}, food {seat.food}.", public=bool(starved))
    _old_age(turn)
    if seat.food and not seat.has("Pottery"):
        turn.event("food_spoils", f"{seat.food} food not eaten spoils (no Pottery).")
        seat.food = 0


def _old_age(turn: SeatTurn) -> None:
    seat = turn.seat
    if not seat.leaders:
        return
    dice = turn.dice("old age")
    rolls = dice.roll(len(seat.leaders))
    dead = [leader for leader, roll in zip(seat.leaders, rolls, strict=True) if roll == 1]
    seat.leaders = [leader for leader in seat.leaders if leader not in dead]
    text = f"Leaders' age: rolled {rolls}"
    if dead:
        names = ", ".join(f"the {x.kind} {x.name}" for x in dead)
        text += f": {names} {'dies' if len(dead) == 1 else 'die'} of old age."
    else:
        text += ": all live on."
    turn.event("old_age", text, rolls, public=bool(dead))


def build(turn: SeatTurn) -> None:
    """Phase 9: Labor specialists give 1 labor point each, a Builder 1D6, and traded labor its
    points. BUILD orders spend them; points left over continue the work under construction;
    what is left then is lost. A project finishes when its labor is in and its gold is paid."""
    seat = turn.seat
    if turn.disaster:
        for order in turn.of(Build):
            turn.rec.skipped(turn.name, order, f"no build phase after the {turn.disaster}")
        # Labor received is lost with the phase; labor given away is still owed, from the next
        # build phase there is (else giving it in this turn would cost nothing).
        seat.labor_credit = min(0, seat.labor_credit)
        owed = f" {plural(-seat.labor_credit, 'labor point')} traded away are owed from the next."
        turn.event(
            "build_skipped",
            f"Build phase skipped: the {turn.disaster}.{owed if seat.labor_credit else ''}",
        )
        return
    builders = turn.dice("builder").roll(len(seat.leaders_of("Builder")))
    points = max(0, seat.pops["labor"] + sum(builders) + seat.labor_credit)
    text = f"Build: {plural(points, 'labor point')}"
    if builders:
        text += f" (Builders rolled {builders})"
    if seat.labor_credit:
        text += f" ({seat.labor_credit:+d} traded)"
    seat.labor_credit = 0
    turn.event("labor", text + ".", builders)
    _drop_impossible(turn)
    for order in turn.of(Build):
        points = _carry_out(turn, order, points)
    for project in list(seat.projects):
        points -= _spend(turn, project, points)
    if points:
        turn.event("labor_lost", f"Build: {plural(points, 'labor point')} not assigned, lost.")


def _drop_impossible(turn: SeatTurn) -> None:
    """Work under construction that can no longer finish (its Wonder built elsewhere, its city
    lost) stops, and its labor is lost."""
    for project in list(turn.seat.projects):
        refusal = (
            refuse_wonder(turn.state, turn.name, project.name, project.city)
            if project.kind == "wonder"
            else refuse_city(turn.state, turn.name, project.name)
        )
        if refusal:
            turn.seat.projects.remove(project)
            turn.event(
                "project_dropped",
                f"Build: work on the {project.name} stops ({refusal.message}); "
                f"{project.labor} labor lost.",
            )


def _carry_out(turn: SeatTurn, order: Build, points: int) -> int:
    """Spend points on the order's project (starting it if new); returns the points left."""
    rec, name = turn.rec, turn.name
    refusal = (
        refuse_wonder(turn.state, name, order.name, order.city)
        if order.kind == "wonder"
        else refuse_city(turn.state, name, order.name)
        if order.name
        else None
    )
    if refusal:
        rec.skipped(name, order, refusal.message)
        return points
    project = _project_for(turn, order)
    spend = min(points, order.points or points)
    used = _spend(turn, project, spend)
    done = project not in turn.seat.projects
    labor, gold = cost(project.kind, project.name)
    if done:
        rec.done(name, order, f"{project.name} finished")
    elif used or project.labor:
        rec.partly(
            name,
            order,
            f"{project.name}: {project.labor}/{labor} labor"
            + (f", waits for {gold} gold" if project.labor >= labor else ""),
        )
    else:
        rec.skipped(name, order, "no labor points left")
    return points - used


def _project_for(turn: SeatTurn, order: Build) -> Project:
    seat = turn.seat
    for project in seat.projects:
        if project.kind == order.kind and (
            project.name.lower() == order.name.lower() or (order.kind == "city" and not order.name)
        ):
            return project
    if order.kind == "city":
        project = Project("city", order.name or next_city_name(turn), 0, order.city)
    else:
        city = order.city or _first_free_city(turn)
        project = Project("wonder", order.name, 0, city)
    seat.projects.append(project)
    turn.event("project_started", f"Build: work begins on the {_what(project)}.", public=True)
    return project


def _first_free_city(turn: SeatTurn) -> str:
    busy = {p.city for p in turn.seat.projects if p.kind == "wonder"}
    return next(c.name for c in turn.seat.cities if not c.wonder and c.name not in busy)


def next_city_name(turn: SeatTurn) -> str:
    """The first name on the City Names list no city has; past the list, a numbered name."""
    used = turn.state.names_in_use()
    for name in CITY_NAMES:
        if name.lower() not in used:
            return name
    number = 2
    while f"new {turn.seat.culture} {number}".lower() in used:
        number += 1
    return f"New {turn.seat.culture} {number}"


def _what(project: Project) -> str:
    if project.kind == "city":
        return f"city of {project.name}" + (f" in {project.city}" if project.city else "")
    return f"{project.name} in {project.city}"


def _spend(turn: SeatTurn, project: Project, points: int) -> int:
    """Put up to `points` labor into the project and finish it if its gold is there; returns
    the labor used."""
    seat = turn.seat
    labor, gold = cost(project.kind, project.name)
    used = min(points, labor - project.labor)
    project.labor += used
    if project.labor < labor:
        if used:
            turn.event(
                "build_progress",
                f"Build: {_what(project)} {project.labor}/{labor} labor (+{used}).",
            )
        return used
    if seat.gold < gold:
        turn.event(
            "build_waits",
            f"Build: the {_what(project)} has its labor and waits for {gold} gold "
            f"(you have {seat.gold}).",
        )
        return used
    site = city_site(turn.state, turn.name, project.city) if turn.state.land is not None else ""
    if project.kind == "city" and turn.state.land is not None and not site:
        turn.event(
            "build_waits",
            f"Build: the {_what(project)} has its labor and waits for a territory of yours "
            "without a city (One City per territory).",
        )
        return used
    seat.gold -= gold
    seat.projects.remove(project)
    if project.kind == "city":
        seat.cities.append(City(project.name))
        text = f"{turn.name} founds the city of {project.name}"
        if site:
            assert turn.state.land is not None
            turn.state.land.territories[site].city = project.name
            text += f" in {site}"
    else:
        city = seat.city(project.city)
        assert city is not None
        city.wonder = project.name
        seat.wonders_built.append(project.name)
        text = f"{turn.name} completes the {project.name} in {project.city}"
    turn.event("built", f"Build: {text} ({labor} labor, {gold} gold).", public=True)
    return used


def research(turn: SeatTurn) -> None:
    """Phase 10: 2D6 per scholar (1 per city), Thinker and research advance or Wonder; each 11
    or 12 gains a random advance: a d20 on the Advance Table, rerolled while known."""
    seat = turn.seat
    sources = [("scholar", min(seat.pops["scholars"], len(seat.cities)))]
    sources.append(("Thinker", len(seat.leaders_of("Thinker"))))
    sources += [(a, 1) for a in RESEARCH_ADVANCES if seat.has(a)]
    sources.append(("Great Library", 1 if seat.has_wonder("Great Library") else 0))
    count = sum(n for _, n in sources)
    if not count:
        turn.event("research_none", "Research: no scholars, thinkers or research advances.")
        return
    dice = turn.dice("research")
    rolls = [dice.roll(2) for _ in range(count)]
    totals = [sum(r) for r in rolls]
    found = sum(1 for t in totals if t >= 11)
    listing = ", ".join(f"{n} {w}" for w, n in sources if n)
    turn.event(
        "research",
        f"Research: {plural(count, 'roll')} ({listing}): {totals}; "
        f"{plural(found, 'discovery', 'discoveries')}.",
        [d for pair in rolls for d in pair],
    )
    for number in range(found):
        _gain_advance(turn, number)


def _gain_advance(turn: SeatTurn, number: int) -> None:
    seat = turn.seat
    if len(seat.advances) >= len(ADVANCES):
        turn.event("advance_none", "Research: every advance is already known.")
        return
    dice = turn.dice(f"advance:{number}")
    rolls = [dice.d(20)]
    while seat.has(ADVANCES[rolls[-1] - 1]):
        rolls.append(dice.d(20))
    advance = ADVANCES[rolls[-1] - 1]
    seat.advances.append(advance)
    rerolls = f" (rerolled known: {rolls[:-1]})" if len(rolls) > 1 else ""
    turn.event(
        "advance",
        f"Research: {turn.name} learns {advance}, d20 {rolls[-1]}{rerolls}; "
        f"{plural(len(seat.advances), 'advance')} in all.",
        rolls,
        public=True,
    )


def income(turn: SeatTurn) -> None:
    """Phase 11: 1 gold per Trade population and per City; Coinage and Navigation +1 per City
    each; each Ruler 1D6; the Colossus 1D6."""
    seat = turn.seat
    cities = len(seat.cities)
    parts = [f"{seat.pops['trade']} trade", f"{cities} from cities"]
    gold = seat.pops["trade"] + cities
    for advance in INCOME_ADVANCES:
        if seat.has(advance) and cities:
            gold += cities
            parts.append(f"{cities} {advance}")
    dice = turn.dice("income")
    rolled: list[int] = []
    for leader in seat.leaders_of("Ruler"):
        roll = dice.d(6)
        rolled.append(roll)
        parts.append(f"{roll} {leader.name}")
    if seat.has_wonder("Colossus"):
        roll = dice.d(6)
        rolled.append(roll)
        parts.append(f"{roll} Colossus")
    gold += sum(rolled)
    seat.gold += gold
    turn.event("income", f"Income: {gold} gold ({', '.join(parts)}); gold now {seat.gold}.", rolled)
