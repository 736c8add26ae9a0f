"""The words a player's mail may begin with (`PLAYER_WORDS`), declared here so that reading an
envelope (pbem.mail.envelope) needs no handler. The commands themselves, the players' and the
referees', are listed in one table each with their handlers: pbem.intake.command_table. A test
checks that every word has its command there."""

from __future__ import annotations

# The words a player's command line begins with, and the command each stands for.
PLAYER_WORDS = {
    "HELP": "HELP",
    "STATUS": "STATUS",
    "REPORT": "REPORT",
    "ORDERS": "ORDERS",
    "JOIN": "JOIN",
    "SIGNUP": "JOIN",  # what some other moderators call it
    "SET": "SET",
    "FORECAST": "FORECAST",
    "LIST": "LIST",
    "RESIGN": "RESIGN",
    "CONFIRM": "CONFIRM",
    "HISTORY": "HISTORY",
    "CHART": "CHART",
    "STOP": "STOP",
    # Not START: Classical reads "START <hex>" as its CITY order, below the GAME line.
    "UNSTOP": "UNSTOP",
}
