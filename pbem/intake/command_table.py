"""Every mail command, in two explicit tables: the players' (the words of pbem.mail.commands'
PLAYER_WORDS) and the referees' (by mail and `pbem referee`), each in the order HELP and the
handbook list them, with its usage, summary and handler. Nothing registers itself: the
look-ups are built from these tables, and a name twice is an error at import.

The tables live in the intake, the one layer that may import every handler: the players' are
the intake's own; the referees' are pbem.referee's, and the intake's `replay`, which handles a
quarantined mail again (docs/architecture.md, "The layers of pbem/")."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from pbem.intake import replay
from pbem.intake.campaign import chart_command, history_command
from pbem.intake.commands import (
    SETTINGS,
    orders_command,
    report_command,
    settings_command,
    status_command,
)
from pbem.intake.context import MailContext
from pbem.intake.forecast import forecast_command
from pbem.intake.help import send_help
from pbem.intake.joining import join_command
from pbem.intake.open_games import list_command
from pbem.intake.own_address import confirm_address
from pbem.intake.referee_check import no_such_command
from pbem.intake.resign import resign
from pbem.intake.stop import stop_command, unstop_command
from pbem.mail.envelope import Envelope
from pbem.referee import bots, clock, edits, log, messages, orders, seats, turns
from pbem.referee.command import RefereeCommand, RefereeError

PlayerRun = Callable[[MailContext, Envelope], None]


@dataclass(frozen=True)
class PlayerCommand:
    word: str  # the command word, in capitals: a value of PLAYER_WORDS
    usage: str  # the arguments, e.g. "[ORDERS | RULES | topic]"
    summary: str
    run: PlayerRun


PLAYER_COMMANDS: tuple[PlayerCommand, ...] = (
    PlayerCommand("HELP", "[ORDERS | RULES | topic]", "the handbook or a part", send_help),
    PlayerCommand("STATUS", "<game>", "a game's state, deadline and seats", status_command),
    PlayerCommand("ORDERS", "", "the orders stored for your seat", orders_command),
    PlayerCommand("REPORT", "[<turn> | START]", "your report of a turn again", report_command),
    PlayerCommand("JOIN", "<game> <seat> PASSWORD <pw>", "take a seat", join_command),
    PlayerCommand("SET", f"{SETTINGS} ...", "your own settings", settings_command),
    PlayerCommand("FORECAST", "", "your turn played now on sample dice", forecast_command),
    PlayerCommand("LIST", "[MINE]", "the games open to join; your own", list_command),
    PlayerCommand("RESIGN", "", "give up your seat", resign),
    PlayerCommand("CONFIRM", "<code>", "confirm a JOIN or a new address", confirm_address),
    PlayerCommand("HISTORY", "[<turn>]", "the standings turn by turn", history_command),
    PlayerCommand("CHART", "", "the campaign chart, attached", chart_command),
    PlayerCommand("STOP", "[<code>]", "no more mail to your address", stop_command),
    PlayerCommand("UNSTOP", "<code>", "mail to your address again", unstop_command),
)

REFEREE_COMMANDS: tuple[RefereeCommand, ...] = (
    # Orders (docs/referee.md, "Orders")
    RefereeCommand(
        "orders",
        orders.ORDERS_USAGE.removeprefix("orders "),
        "store orders on behalf of a seat",
        orders.orders,
        block=True,
        fixed=1,
    ),
    RefereeCommand(
        "delete-orders",
        "SEAT [TURN n]",
        "delete the orders stored for a seat",
        orders.delete_orders,
    ),
    # Correcting the state
    RefereeCommand(
        "edit",
        "PATH = VALUE",
        "correct the state through the ruleset's validated edits",
        edits.edit,
    ),
    # Turns
    RefereeCommand(
        "preview",
        "",
        "resolve the pending turn without storing it; mail it to the referees",
        turns.preview,
    ),
    RefereeCommand("process", "", "resolve the pending turn now", turns.process),
    RefereeCommand(
        "rollback",
        "N",
        "go back to the start of turn N; later turns are kept as a branch",
        turns.rollback,
    ),
    RefereeCommand(
        "rerun", "", "resolve the rolled-back turns again from their stored inputs", turns.rerun
    ),
    # The clock
    RefereeCommand(
        "pause", "", "stop the clock: nothing resolves; orders sent meanwhile are kept", clock.pause
    ),
    RefereeCommand(
        "resume", "", "start the clock again; the deadline moves on by the pause", clock.resume
    ),
    RefereeCommand(
        "deadline",
        "extend|shorten DURATION | set TIME",
        "move the pending turn's deadline",
        clock.deadline,
    ),
    RefereeCommand(
        "policy",
        "POLICY",
        "change the deadline policy (interval:48h, none...) from next turn",
        clock.policy,
    ),
    # Seats and referees
    RefereeCommand(
        "replace",
        "SEAT ADDRESS [GRACE]",
        "a new player for a seat: new password, GRACE (48h) from now at least",
        seats.replace,
    ),
    RefereeCommand(
        "eject", "SEAT", "remove a seat's player; the seat plays in civil disorder", seats.eject
    ),
    RefereeCommand(
        "disorder",
        "SEAT",
        "the seat plays with no orders every turn until replaced",
        seats.disorder,
    ),
    RefereeCommand(
        "promote",
        "ADDRESS",
        "make another address a referee of the game (password mailed)",
        seats.promote,
    ),
    RefereeCommand(
        "address",
        "SEAT ADDRESS",
        "move a seat's mail to another address at once (both told)",
        seats.address,
    ),
    RefereeCommand(
        "bot",
        "SEAT [OFF]",
        "the ruleset's bot plays the seat every turn; OFF gives it back",
        bots.bot,
    ),
    # Mail
    RefereeCommand(
        "resend",
        "SEAT|ALL [TURN n]",
        "mail a turn's report again (default: the last turn)",
        messages.resend,
    ),
    RefereeCommand(
        "announce",
        "TEXT",
        "mail a message to every seat (and a copy to the referees)",
        messages.announce,
        block=True,
    ),
    # The audit log: it only reads
    RefereeCommand(
        "audit",
        "[N]",
        f"the game's audit log: its newest N entries (default {log.NEWEST})",
        log.audit_log,
        reads=True,
    ),
    # The quarantine: the intake's, as replaying is handling mail
    RefereeCommand(
        "replay", "QUARANTINE-ID", "handle a quarantined mail of this game again", replay.replay
    ),
)


C = TypeVar("C", PlayerCommand, RefereeCommand)


def _by_name(commands: Sequence[C], name: Callable[[C], str], who: str) -> dict[str, C]:
    found: dict[str, C] = {}
    for command in commands:
        if name(command) in found:
            raise ValueError(f"two {who} commands are called {name(command)}")
        found[name(command)] = command
    return found


_PLAYERS = _by_name(PLAYER_COMMANDS, lambda command: command.word.upper(), "player")
_REFEREES = _by_name(REFEREE_COMMANDS, lambda command: command.name.lower(), "referee")


def player_command(word: str) -> PlayerCommand:
    """The players' command of a command word (a value of PLAYER_WORDS: every one has its
    command, a test checks); KeyError for another word."""
    return _PLAYERS[word.upper()]


def referee_commands() -> dict[str, RefereeCommand]:
    """The referees' commands by name (lower case), in the table's order."""
    return dict(_REFEREES)


def find_referee_command(name: str) -> RefereeCommand:
    found = _REFEREES.get(name.lower())
    if found is None:
        raise RefereeError(no_such_command(name, _REFEREES))
    return found
