"""Running referee commands the two ways a referee can: `pbem referee ...` on the command line
(pbem.cli.main with --db and --now) and a referee mail fed through the intake."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import count
from typing import Any

import pytest
from sqlmodel import col, select

from pbem.cli import main
from pbem.clock.turns import resolve_due
from pbem.games.service import Service
from pbem.intake.intake import Receipt, receive
from pbem.passwords import hash_password
from pbem.store import AuditLog, Referee, transaction
from tests.support.games import body, new_game
from tests.support.mails import mail, order_mail

REFEREE = "ref@example.org"
REFEREE_PASSWORD = "pw-ref"
_IDS = count(1)


def referee_game(service: Service, now: datetime, **spec: Any) -> None:
    """Game g1 (counting unless told) with referee ref@example.org, password pw-ref (and
    the other `referees` given, without a password)."""
    new_game(service, now, **{"referees": [REFEREE], **spec})
    with transaction(service.db) as session:
        referee = session.exec(select(Referee).where(Referee.address == REFEREE)).one()
        referee.password_hash = hash_password(REFEREE_PASSWORD, cost=4)


def play_turn(service: Service, now: datetime, number: int) -> None:
    """Turn `number` of referee_game's counting game, played by both seats and resolved."""
    for seat, text in (("alice", "ADD 1"), ("bob", "ADD 1")):
        raw = order_mail("g1", seat, f"pw-{seat}", text, message_id=f"{seat}{number}@x")
        receive(service, raw, now=now)
    assert [s.turn for s in resolve_due(service, now=now)] == [number]


def flat(text: str) -> str:
    """A mail's text with its wrapping undone: its words, one space apart."""
    return " ".join(text.split())


def referee_mail(
    lines: str, *, password: str = REFEREE_PASSWORD, sender: str = REFEREE, game: str = "g1"
) -> bytes:
    text = f"GAME {game} REFEREE {password}\n{lines}"
    return mail(text, sender=sender, message_id=f"ref{next(_IDS)}@example.org", subject="ref")


def results_of(reply: str) -> list[str]:
    """The Results part of a referee reply: each result unwrapped to one line."""
    part = reply.split("Results:\n", 1)[1].split("\n\n", 1)[0]
    return [_unwrap(chunk) for chunk in re.split(r"^> .*\n", part, flags=re.M)[1:]]


def unprocessed_of(reply: str) -> list[str]:
    if "\nUnprocessed:\n" not in reply:
        return []
    part = reply.split("\nUnprocessed:\n", 1)[1].split("\n\n", 1)[0]
    return [_unwrap(chunk) for chunk in re.split(r"^> .*\n", part, flags=re.M)[1:]]


def _unwrap(text: str) -> str:
    return " ".join(text.split())


@dataclass
class Channel:
    """One way of giving referee commands: "cli" or "mail"."""

    way: str
    service: Service
    now: datetime
    capsys: pytest.CaptureFixture[str]
    receipts: list[Receipt] = field(default_factory=list)

    def run(self, name: str, *args: str, reason: str = "a test", actor: str = "") -> str:
        """The command's result text (whitespace made single); fails if it was refused."""
        ok, text = self._give(name, args, reason, actor)
        assert ok, text
        return text

    def refuse(self, name: str, *args: str, reason: str = "a test") -> str:
        """Why the command was refused."""
        ok, text = self._give(name, args, reason, "")
        assert not ok, text
        return text

    def _give(self, name: str, args: Sequence[str], reason: str, actor: str) -> tuple[bool, str]:
        if self.way == "cli":
            return self._cli(name, args, reason, actor)
        return self._mail(name, args, reason)

    def _cli(self, name: str, args: Sequence[str], reason: str, actor: str) -> tuple[bool, str]:
        url = self.service.db.url.render_as_string(hide_password=False)
        extra = ["--as", actor] if actor else []
        argv = ["--db", url, "--now", self.now.isoformat(), "referee", "g1", name, *args]
        code = main([*argv, "--reason", reason, *extra])
        out, err = self.capsys.readouterr()
        if code == 0:
            return True, _unwrap(out)
        assert code == 2 and err.startswith("pbem: "), (code, err)
        return False, _unwrap(err.removeprefix("pbem: "))

    def _mail(self, name: str, args: Sequence[str], reason: str) -> tuple[bool, str]:
        line = " ".join([name.upper(), *args])
        receipt = receive(self.service, referee_mail(f"{line} BECAUSE {reason}\n"), now=self.now)
        self.receipts.append(receipt)
        [reply] = receipt.replies
        assert reply.recipient == REFEREE
        text = body(reply)
        done, refused = results_of(text), unprocessed_of(text)
        assert len(done) + len(refused) == 1, text
        if done:
            return True, done[0]
        return False, refused[0].removeprefix("refused: ")


@pytest.fixture(params=["cli", "mail"])
def via(
    request: pytest.FixtureRequest,
    service: Service,
    now: datetime,
    capsys: pytest.CaptureFixture[str],
) -> Channel:
    return Channel(request.param, service, now, capsys)


def referee_audit(service: Service) -> list[AuditLog]:
    with transaction(service.db) as session:
        query = select(AuditLog).where(col(AuditLog.action).startswith("referee-"))
        return list(session.exec(query.order_by(col(AuditLog.id))))
