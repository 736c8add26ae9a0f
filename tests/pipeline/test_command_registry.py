"""The mail commands' two tables (pbem.intake.command_table): every word the envelope reads
has its players' command, every referee command is there in the order HELP lists them, each
with a handler of its audience's signature, and no name twice."""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any, get_type_hints

import pytest

from pbem.intake.command_table import (
    PLAYER_COMMANDS,
    REFEREE_COMMANDS,
    PlayerCommand,
    _by_name,
    find_referee_command,
    player_command,
    referee_commands,
)
from pbem.intake.context import MailContext
from pbem.mail.commands import PLAYER_WORDS
from pbem.mail.envelope import Envelope
from pbem.referee.command import RefereeError
from pbem.referee.context import RefereeContext

# The referee commands in the order HELP, `pbem referee --help` and docs/referee.md list them.
REFEREE_ORDER = [
    "orders", "delete-orders", "edit", "preview", "process", "rollback", "rerun", "pause",
    "resume", "deadline", "policy", "replace", "eject", "disorder", "promote", "address", "bot",
    "resend", "announce", "audit", "replay",
]  # fmt: skip


def test_every_player_word_has_its_command_and_every_command_its_word() -> None:
    words = [command.word for command in PLAYER_COMMANDS]
    assert sorted(words) == sorted(set(PLAYER_WORDS.values()))  # each once, none without a word
    for word, name in PLAYER_WORDS.items():
        assert player_command(name).word == name, word


def test_the_referee_commands_are_listed_in_the_handbooks_order() -> None:
    assert list(referee_commands()) == REFEREE_ORDER
    assert [command.name for command in REFEREE_COMMANDS] == REFEREE_ORDER
    assert find_referee_command("REPLAY") is referee_commands()["replay"]
    # ORDERS is a player's command and a referee's: each table has its own.
    assert player_command("ORDERS").run is not find_referee_command("orders").run


def test_an_unknown_referee_command_is_refused() -> None:
    with pytest.raises(RefereeError, match="there is no referee command FLY"):
        find_referee_command("fly")


def _hints(run: Any) -> tuple[list[inspect.Parameter], dict[str, Any]]:
    return list(inspect.signature(run).parameters.values()), get_type_hints(run)


@pytest.mark.parametrize("command", PLAYER_COMMANDS, ids=lambda command: command.word)
def test_a_players_handler_takes_the_mail_and_its_envelope(command: PlayerCommand) -> None:
    parameters, hints = _hints(command.run)
    assert [p.kind for p in parameters] == [inspect.Parameter.POSITIONAL_OR_KEYWORD] * 2
    assert [hints[p.name] for p in parameters] == [MailContext, Envelope]
    assert hints["return"] is type(None)


@pytest.mark.parametrize("name", REFEREE_ORDER)
def test_a_referees_handler_takes_the_context_arguments_and_reason(name: str) -> None:
    parameters, hints = _hints(find_referee_command(name).run)
    assert [p.kind for p in parameters] == [inspect.Parameter.POSITIONAL_OR_KEYWORD] * 3
    assert [hints[p.name] for p in parameters] == [RefereeContext, Sequence[str], str]
    assert hints["return"] is str


def test_a_name_is_in_a_table_once() -> None:
    twice = (*PLAYER_COMMANDS, PlayerCommand("set", "", "", PLAYER_COMMANDS[0].run))
    with pytest.raises(ValueError, match="two player commands are called SET"):
        _by_name(twice, lambda command: command.word.upper(), "player")
    names = [command.name.lower() for command in REFEREE_COMMANDS]
    assert len(names) == len(set(names))
