"""What each seat's turn was played with, kept in the turn's record so that anyone holding
the game's export and its revealed seed can play the turn again (see docs/dice.md).

`by` says where the text came from: ``orders`` (the seat's own mail), ``standing`` (its last
orders again, nmr = standing), ``bot`` (the ruleset's bot), ``no-orders`` (nothing: standing
orders kept in the state only). The text is read by the ruleset's parser in every case but
``no-orders``, whose text is empty and which plays with no orders at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import ParsedOrders, Ruleset
from engine.ruleset import State

NO_ORDERS = "no-orders"
BOT = "bot"  # played by the bot: as SeatStatus.BOT, the nmr mode and the resign choice


@dataclass(frozen=True)
class Played:
    by: str  # orders | standing | bot | no-orders
    text: str

    def to_json(self) -> dict[str, str]:
        return {"by": self.by, "text": self.text}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Played:
        return cls(str(data["by"]), str(data["text"]))


def parsed_all(
    ruleset: Ruleset, state: State, played: dict[str, Played]
) -> dict[str, ParsedOrders]:
    """The orders each seat's turn is played with: none for NO_ORDERS, else its text read
    by the ruleset, every seat's on one load of the position (Ruleset.orders_to_play_of)."""
    texts = {seat: item.text for seat, item in played.items() if item.by != NO_ORDERS}
    read = ruleset.orders_to_play_of(state, texts)
    return {seat: read.get(seat, ParsedOrders()) for seat in played}


def played_of(record: dict[str, Any]) -> dict[str, Played]:
    """The inputs a stored turn record kept ({} for turns resolved before they were kept)."""
    return {seat: Played.from_json(item) for seat, item in record.get("played", {}).items()}


def bot_played(ruleset: Ruleset, state: State, seat: str, seed: int) -> Played:
    """The ruleset's bot's orders for `seat`; they go through the parser like a player's."""
    return Played(BOT, ruleset.bot_orders(state, seat, seed))
