"""The campaign's referee: acts by mail (`GAME <game> REFEREE <password>`, the password read
from the mail that gave it) and on the command line (`pbem referee ...`, `pbem turn run`), as
docs/referee.md describes. Each action is logged as the change it makes to the game."""

from __future__ import annotations

import re
from email.message import EmailMessage

from tests.campaign.players import Bot
from tests.campaign.record import Sent
from tests.campaign.table import Table
from tests.servers.world import Player

_PASSWORD = re.compile(r"Your password: (\S+)")


class Referee:
    def __init__(self, table: Table, name: str, player: Player) -> None:
        self.table, self.name, self.player = table, name, player
        self.password = ""
        table.join(name, player.account)

    @property
    def address(self) -> str:
        return self.player.address

    def learn_password(self) -> None:
        """The password the game's creation mailed, from the referee's mailbox."""
        self.password = password_in(self.table.mailboxes[self.name].received[0].view.text)

    def mail(self, *commands: str, reason: str) -> None:
        """A referee mail: the commands under one REASON line; one answer, to the referee."""
        game = self.table.game
        body = "\n".join([f"GAME {game} REFEREE {self.password}", f"REASON {reason}", *commands])
        message = _message(self.address, self.table.moderator.address, f"{game}: referee")
        message.set_content(body + "\nEND\n")
        message_id = self.player.send_message(message)
        words = tuple(command.split()[0] for command in commands)
        self.table.log(
            Sent(self.table.step, self.name, message_id, "referee", proves=True, lines=words)
        )

    def pause(self, reason: str) -> None:
        self.mail("PAUSE", reason=reason)
        self.table.event("paused", reason=reason)

    def resume_and_extend(self, hours: int, reason: str) -> None:
        self.mail("RESUME", f"DEADLINE extend {hours}h", reason=reason)
        turn = self.table.position().number
        self.table.event("resumed", turn=turn, reason=reason)
        self.table.event("deadline", turn=turn, reason=reason)

    def rollback(self, turn: int, reason: str) -> None:
        self.mail(f"ROLLBACK {turn}", reason=reason)
        self.table.event("rollback", turn=turn, reason=reason)

    def rerun(self, reason: str) -> None:
        """On the command line: the rolled-back turns resolved again, the game resumed."""
        out = self.table.cli(
            "referee", self.table.game, "rerun", "--reason", reason, "--as", self.address
        )
        for turn in re.findall(r"^turn (\d+): (?:identical|changed)", out, re.MULTILINE):
            self.table.event("resolved", turn=int(turn), cause="rerun")
        if "the game is over" in out:
            self.table.event("ended")
        else:
            self.table.event("resumed", turn=self.table.position().number, reason=reason)

    def force(self, reason: str, *, turn_run: bool = False) -> None:
        """The pending turn resolved now, before its deadline: `pbem referee GAME process`, or
        the operator's `pbem turn run GAME`."""
        game, before = self.table.game, self.table.position()
        if turn_run:
            out = self.table.cli("turn", "run", game)
        else:
            out = self.table.cli(
                "referee", game, "process", "--reason", reason, "--as", self.address
            )
        self.table.forced(out, before)

    def replace(self, bot: Bot, newcomer: Player, reason: str) -> Bot:
        """The seat given to a new player (by mail, 5 days of grace: longer than any turn of
        the campaign, so the deadline moves and every seat is told); the new player's bot,
        who learns the password from the mail that brings it, after the next pass."""
        self.mail(f"REPLACE {bot.seat} {newcomer.address} 5d", reason=reason)
        turn = self.table.position().number
        name = f"{bot.seat}2"
        self.table.event(
            "replaced", seat=bot.seat, old=bot.name, new=name, turn=turn, reason=reason
        )
        self.table.event("deadline", turn=turn, reason=reason)
        return Bot(self.table, name, newcomer, bot.seat, password="")


def password_in(text: str) -> str:
    found = _PASSWORD.search(text)
    assert found, f"no password in:\n{text}"
    return found[1]


def _message(sender: str, to: str, subject: str) -> EmailMessage:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, to, subject
    return message
