"""One registry of mail commands (pbem.mail.commands): the players' and the referees' commands
side by side, each word the envelope reads with its handler, no name twice."""

from __future__ import annotations

import pytest

import pbem.intake  # noqa: F401 (registers the players' commands and the intake's replay)
from pbem.mail.commands import PLAYER_WORDS, REGISTRY, CommandRegistry, MailCommand
from pbem.referee import commands


def test_every_player_word_has_its_command_and_every_command_its_word() -> None:
    registered = {command.name for command in REGISTRY.of("player")}
    assert registered == set(PLAYER_WORDS.values())


def test_referee_commands_are_in_the_same_registry() -> None:
    referee = commands()
    assert {"orders", "edit", "replay", "resend"} <= set(referee)
    assert REGISTRY.find("referee", "REPLAY") is referee["replay"]
    # ORDERS is a player's command and a referee's: the audience keeps them apart.
    assert REGISTRY.find("player", "orders") is not REGISTRY.find("referee", "orders")
    assert list(referee)[-1] == "replay"  # registered from the intake, listed after the rest


def test_a_name_is_registered_once_per_audience() -> None:
    registry = CommandRegistry()
    registry.add(MailCommand("SET", "player", "", "", print))
    registry.add(MailCommand("set", "referee", "", "", print))
    with pytest.raises(ValueError, match="two player commands are called set"):
        registry.add(MailCommand("set", "player", "", "", print))
