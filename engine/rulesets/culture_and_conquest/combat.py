"""Wars: segments of battle rolls, each 1 killing an opposing Army, between two sides that may
each have allied contingents; the war stops when a side has no Army left, the defender
surrenders, the attacker gives up, or the 1D6 segments are over."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.dice import Dice

BASE_DICE = 3


@dataclass
class Contingent:
    seat: str  # a seat, or the name of a disaster's army
    armies: int
    lost: int = 0


@dataclass
class Side:
    contingents: list[Contingent]  # the belligerent's own first, then its allies
    dice: int  # battle rolls per segment
    bonuses: list[str] = field(default_factory=list)  # what added rolls, for the report

    @property
    def leader(self) -> Contingent:
        return self.contingents[0]

    def armies(self) -> int:
        return sum(c.armies for c in self.contingents)

    def take_hits(self, hits: int) -> None:
        """Each hit kills an Army of the contingent with the most Armies left (the belligerent
        first among equals, then allies in turn order): losses are shared by strength."""
        for _ in range(hits):
            alive = [c for c in self.contingents if c.armies]
            if not alive:
                return
            largest = max(alive, key=lambda c: (c.armies, -self.contingents.index(c)))
            largest.armies -= 1
            largest.lost += 1


@dataclass
class Segment:
    attacker_dice: list[int]
    defender_dice: list[int]


@dataclass
class War:
    segments: list[Segment]
    limit: int  # the 1D6 segments the war may last
    end: str  # defender_lost, attacker_lost, both_destroyed, surrender, gave_up, time

    def dice_text(self) -> str:
        return " ".join(
            f"s{n} {_show(s.attacker_dice)}/{_show(s.defender_dice)}"
            for n, s in enumerate(self.segments, 1)
        )

    def all_dice(self) -> tuple[int, ...]:
        dice = [self.limit]
        for segment in self.segments:
            dice += segment.attacker_dice + segment.defender_dice
        return tuple(dice)

    @property
    def defender_beaten(self) -> bool:
        """The winner takes tribute: the defender lost all his Army, or surrendered."""
        return self.end in ("defender_lost", "surrender")


def _show(dice: list[int]) -> str:
    return "[" + " ".join(map(str, dice)) + "]"


def fight(
    attacker: Side,
    defender: Side,
    dice: Dice,
    give_up: int = 0,
    surrender_below: int = 0,
) -> War:
    """Roll the 1D6 segment limit, then fight segment by segment. Both sides roll at once.
    After each segment: a side with no Army has lost (both: nobody wins); then the defender
    surrenders if his own Army is below `surrender_below`; then the attacker gives up if he
    has lost `give_up` Armies of his own; then the war ends if the segments are over."""
    limit = dice.d(6)
    segments: list[Segment] = []
    end = _ended(attacker, defender, 0, 0, 0, limit)
    while not end:
        one = dice.roll(attacker.dice)
        two = dice.roll(defender.dice)
        defender.take_hits(one.count(1))
        attacker.take_hits(two.count(1))
        segments.append(Segment(one, two))
        end = _ended(attacker, defender, give_up, surrender_below, len(segments), limit)
    return War(segments, limit, end)


def _ended(
    attacker: Side, defender: Side, give_up: int, surrender_below: int, fought: int, limit: int
) -> str:
    if not attacker.armies() and not defender.armies():
        return "both_destroyed"
    if not defender.armies():
        return "defender_lost"
    if not attacker.armies():
        return "attacker_lost"
    if fought and surrender_below and defender.leader.armies < surrender_below:
        return "surrender"
    if fought and give_up and attacker.leader.lost >= give_up:
        return "gave_up"
    if fought >= limit:
        return "time"
    return ""


END_TEXT = {
    "defender_lost": "the defender has lost all his Army",
    "attacker_lost": "the attacker has lost all his Army",
    "both_destroyed": "both sides have lost all their Armies; nobody wins",
    "surrender": "the defender surrenders",
    "gave_up": "the attacker gives up",
    "time": "the segments are over; the war ends undecided",
}
