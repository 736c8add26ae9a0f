"""A referee's mail, decided from what was read: no database. Whether the mail may run
commands (admit: the game found, the referee's password, the address, a STOP), which
commands it holds with their reasons (plan), and which of them lack a reason (unreasoned).
pbem.intake.referee_mail reads the facts under the game's lock, runs the commands admitted,
and answers with what they did."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from engine.words import nearest, normal

_BECAUSE = re.compile(r"\s+because\s+", re.IGNORECASE)
Line = tuple[int, str]
Unprocessed = tuple[int, str, str]  # (line number, the line, why it was not run)


class Shape(Protocol):
    """What reading a mail needs of a referee command (pbem.referee.command.RefereeCommand)."""

    @property
    def name(self) -> str: ...
    @property
    def block(self) -> bool: ...  # takes the lines after it, up to END <name>
    @property
    def fixed(self) -> int: ...  # its words before a block may follow
    @property
    def reads(self) -> bool: ...  # it changes nothing: no reason needed


@dataclass(frozen=True)
class Seen:
    """What was read of the mail's claim, under the game's lock, as far as it went."""

    game: str  # the game's id; '' if the mail names none that exists
    no_game: str  # then the refusal's words (pbem.intake.auth.no_game)
    referee: str = ""  # the address of the referee whose password the mail gives; '' if none
    address_check: bool = False  # the game's option: commands only from the referee's address
    stopped: bool = False  # the referee's address asked for no more mail (STOP)


@dataclass(frozen=True)
class Refused:
    """The mail refused whole: a quarantine reason and its error, told to `reply_to` (''
    for nobody: set aside unanswered)."""

    reason: str
    error: str
    reply_to: str = ""


def admit(seen: Seen, sender: str) -> Refused | None:
    """Why the mail may run no command, or None: it may."""
    if not seen.game:
        return Refused("unknown-game", seen.no_game, sender)
    if not seen.referee:
        return Refused("referee-password", f"wrong referee password for game {seen.game}", sender)
    if seen.address_check and sender != seen.referee:
        error = f"referee commands for game {seen.game} come only from the referee's address"
        return Refused("address", error, seen.referee)
    if seen.stopped:
        # No result could be mailed (the address asked for none): a command carried out
        # unseen is worse than one not carried out. Set aside, to replay after UNSTOP.
        return Refused("stopped", f"referee {seen.referee} asked for no more mail (STOP)")
    return None


@dataclass(frozen=True)
class Item:
    """One command of the mail, read with its reason (and block text) but not yet run."""

    no: int
    line: str
    name: str
    args: tuple[str, ...]
    reason: str


@dataclass(frozen=True)
class Plan:
    items: tuple[Item, ...]
    unprocessed: tuple[Unprocessed, ...]  # lines that are no command
    help: bool  # a HELP line: the answer lists the commands


def plan(lines: Sequence[Line], known: Mapping[str, Shape]) -> Plan:
    """The commands of the mail (`known`: the referees' commands by lower-case name), each
    with the reason of its line (BECAUSE ...) or of the REASON line above it."""
    items: list[Item] = []
    unprocessed: list[Unprocessed] = []
    reason, help_asked, i = "", False, 0
    while i < len(lines):
        no, text = lines[i]
        i += 1
        word, _, rest = text.partition(" ")
        if word.upper() == "REASON":
            reason = rest.strip()
        elif word.upper() == "HELP":
            help_asked = True
        elif word.lower() not in known:
            unprocessed.append((no, text, no_such_command(word, known)))
        else:
            item, i = _item(known[word.lower()], lines, i, reason)
            if isinstance(item, Item):
                items.append(item)
            else:
                unprocessed.append(item)
    return Plan(tuple(items), tuple(unprocessed), help_asked)


def _item(
    command: Shape, lines: Sequence[Line], i: int, reason: str
) -> tuple[Item | Unprocessed, int]:
    no, text = lines[i - 1]
    head, *because = _BECAUSE.split(text, maxsplit=1)
    args = head.split()[1:]
    if _wants_block(command, args):
        block, after = _block(command, lines, i)
        if block is None:  # the lines after it are read as commands, and answered as such
            return (no, text, f"no END {command.name.upper()} line after it"), i
        args.append(block)
        i = after
    return Item(no, text, command.name, tuple(args), because[0] if because else reason), i


def _wants_block(command: Shape, args: list[str]) -> bool:
    """A block command takes the lines after it when its own line has only its fixed words
    (and TURN n): `ORDERS alice` yes, `ORDERS alice ADD 2` no."""
    rest = args[command.fixed :]
    if rest[:1] and rest[0].upper() == "TURN":
        rest = rest[2:]
    return command.block and not rest


def _block(command: Shape, lines: Sequence[Line], i: int) -> tuple[str | None, int]:
    end = f"END {command.name.upper()}"
    for j in range(i, len(lines)):
        if " ".join(lines[j][1].upper().split()) == end:
            return "\n".join(text for _, text in lines[i:j]), j + 1
    return None, len(lines)


def unreasoned(item: Item, command: Shape) -> Unprocessed | None:
    """The line, unrun, if it changes something and gives no reason."""
    if item.reason or command.reads:  # AUDIT changes nothing
        return None
    why = "a reason is required: end the line with BECAUSE <reason>, or put a REASON line above"
    return (item.no, item.line, why)


def no_such_command(word: str, names: Collection[str]) -> str:
    """The refusal of a word that is no referee command (`names`, lower case): with the
    nearest if it is a misspelling of one, as a player's misspelt command gets."""
    near = nearest(normal(word), {name: name.upper() for name in names})
    guess = f"; did you mean {near}?" if near else ""
    return f"there is no referee command {word.upper()}{guess}"
