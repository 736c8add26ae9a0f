"""A game's clock options as given at creation (GameSpec.clock), checked and stored on the
game row. The CLI fills them from the [games] config defaults; a GameSpec made in code gets
the neutral values below (no grace, no reminders, never abandoned)."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.deadlines.policy import (
    PolicyError,
    Weekly,
    check_zone,
    format_offsets,
    game_zone,
    parse_duration,
    parse_offsets,
    parse_policy,
)
from pbem.store import Game

NMR_MODES = ("no-orders", "standing", "bot")  # see pbem.clock.nmr


@dataclass(frozen=True)
class ClockOptions:
    timezone: str = "UTC"  # IANA name: weekly deadlines and absence dates are read in it
    grace: str = "0"  # a duration: the turn resolves that long after its deadline
    reminders: str = ""  # offsets before the deadline, e.g. "24h,2h"; "" for none
    nmr: str = "no-orders"  # how a seat without orders is played: no-orders | standing | bot
    abandon_after: int = 0  # misses in a row before the seat is abandoned; 0: never
    wait_for_absent: bool = False  # turns wait while a seat without orders is away

    def apply(self, game: Game) -> None:
        """Check the options and store them (and the canonical deadline policy) on `game`."""
        zone = check_zone(self.timezone)
        if self.nmr not in NMR_MODES:
            raise PolicyError(f"nmr is one of {', '.join(NMR_MODES)}, not {self.nmr!r}")
        if self.abandon_after < 0:
            raise PolicyError("abandon_after is a number of turns, 0 for never")
        policy = parse_policy(game.deadline_policy, zone)
        game.deadline_policy = str(policy) if isinstance(policy, Weekly) else game.deadline_policy
        game.timezone = game_zone(zone, policy)
        game.grace_seconds = int(parse_duration(self.grace).total_seconds())
        game.reminders = format_offsets(parse_offsets(self.reminders))
        game.nmr = self.nmr
        game.abandon_after = self.abandon_after
        game.wait_for_absent = self.wait_for_absent
