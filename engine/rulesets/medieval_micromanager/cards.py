"""The building cards and commodities of Medieval Micromanager.

The text names the kinds of thing (raw materials, finished goods, granaries, warehouses,
schools, academies, houses) but prints no card. Every card here is a project completion;
docs/rules/medieval-micromanager.md gives the reason for each.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Group(StrEnum):
    RAW = "raw material"  # "Raw materials don't cost any other type of commodity"
    GOODS = "finished goods"
    STORAGE = "storage"
    OTHER = "other"


GRAIN = "grain"
RAW_MATERIALS = ("grain", "lumber", "ore", "stone")
FINISHED_GOODS = ("tools", "swords", "shields")
COMMODITIES = RAW_MATERIALS + FINISHED_GOODS
OTHER_COMMODITIES = COMMODITIES[1:]  # what a warehouse stores: everything but grain


def counted(count: int, commodity: str) -> str:
    """'3 grain', '1 tool', '2 tools': finished goods are counted pieces."""
    if count == 1 and commodity in FINISHED_GOODS:
        return f"1 {commodity[:-1]}"
    return f"{count} {commodity}"


@dataclass(frozen=True)
class Card:
    kind: str
    group: Group
    # What removing one damage token costs (the text: "1 lumber for each damage token removed").
    cost: dict[str, int] = field(default_factory=dict)
    makes: str = ""  # the commodity one action produces
    uses: str = ""  # the commodity one action consumes (finished goods)
    amount: int = 1  # how much of `makes` one action makes
    text: str = ""  # what the card does, for the reference in the report

    def cost_text(self) -> str:
        return " + ".join(f"{n} {what}" for what, n in self.cost.items()) or "nothing"

    def action_text(self) -> str:
        if self.makes and self.uses:
            return f"1 {self.uses} -> {counted(self.amount, self.makes)}"
        if self.makes:
            return counted(self.amount, self.makes)
        return self.text


LUMBER = {"lumber": 1}
CARDS: dict[str, Card] = {
    card.kind: card
    for card in (
        # Fields and a woodcutters' camp are cleared, not built: no lumber, so a seat that has
        # lost its lumber can always start again.
        # A field feeds more than a pit digs: a unit costs 5 grain, 3 actions on a farm.
        Card("farm", Group.RAW, {}, "grain", amount=2),
        Card("woodcutter", Group.RAW, {}, "lumber"),
        Card("mine", Group.RAW, LUMBER, "ore"),
        Card("quarry", Group.RAW, LUMBER, "stone"),
        Card("smithy", Group.GOODS, LUMBER, "tools", "ore"),
        Card("swordsmith", Group.GOODS, LUMBER, "swords", "ore"),
        Card("armourer", Group.GOODS, LUMBER, "shields", "lumber"),
        Card("granary", Group.STORAGE, LUMBER, text="stores 10 grain"),
        Card("warehouse", Group.STORAGE, LUMBER, text="stores 10 others"),
        Card("school", Group.OTHER, LUMBER, text="tools double work"),
        Card("academy", Group.OTHER, LUMBER, text="ATTACK from here"),
        Card("house", Group.OTHER, LUMBER, text="houses 5; BUY here"),
        # The goal: a prestige building of stone.
        Card("cathedral", Group.OTHER, {"stone": 2}, text="the goal"),
    )
}
KINDS = tuple(CARDS)

TOKENS = 5  # "placing five damage tokens on the card"; five tokens remove a building
STORE = 10  # "10 Grain per Granary, and 10 other commodities per Warehouse"
STORE_LOSS = 2  # "For each damage token in the storage structure ... reduced by 2"
HOUSED = 5  # "A House must exists for every 5 units"
UNIT_PRICE = 5  # "buying a new unit, which costs 5 Grain"
