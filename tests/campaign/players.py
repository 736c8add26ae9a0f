"""A player of the campaign: a mail client (SMTP out, IMAP in, tests/servers' Player) whose
orders come from the ruleset's bot on the stored game (its brain), and who makes the mistakes
players make: a typo in every line, a wrong password, a template sent back unfilled, a plain
reply to the report, an out-of-office auto-reply. Every mail sent is logged with what it was
meant to be, for the checker."""

from __future__ import annotations

import re
from email.message import EmailMessage
from typing import Any

from engine import get_ruleset
from tests.campaign.record import Received, Sent
from tests.campaign.table import Table
from tests.servers.world import Player

BOT_SEED = 11
PLACEHOLDER = "<your password>"


class Bot:
    def __init__(self, table: Table, name: str, player: Player, seat: str, password: str) -> None:
        self.table, self.name, self.player = table, name, player
        self.seat, self.password = seat, password
        table.join(name, player.account)

    @property
    def address(self) -> str:
        return self.player.address

    def game_line(self, password: str = "") -> str:
        return f"GAME {self.table.game} SEAT {self.seat} PASSWORD {password or self.password}"

    def order_lines(self) -> tuple[int, list[str]] | None:
        """The turn taking orders and the bot's order lines for this seat; None if the
        ruleset asks this seat for none (out of the game)."""
        position = self.table.position()
        if self.seat not in position.asked:
            return None
        ruleset = get_ruleset(self.table.record.ruleset)
        text = ruleset.bot_orders(position.state, self.seat, BOT_SEED)
        return position.number, [line for line in text.splitlines() if line.strip()]

    def orders(self) -> None:
        if (found := self.order_lines()) is not None:
            turn, lines = found
            self._orders(turn, lines, kind="orders", counted=bool(lines))

    def no_orders(self) -> None:
        if (found := self.order_lines()) is not None:
            self._orders(found[0], ["NO ORDERS"], kind="no-orders", counted=True)

    def typo_orders(self) -> None:
        """Every order line with a typo in its first word: nothing of it counts."""
        if (found := self.order_lines()) is not None:
            turn, lines = found
            mangled = [_typo(line) for line in lines if not line.startswith("#")]
            self._orders(turn, mangled or ["XYZZY 1"], kind="typo", counted=False)

    def wrong_password(self, password: str = "not-my-password") -> None:
        """Orders under a password that does not hold (a typo, or the seat's old one)."""
        turn, lines = self.order_lines() or (self.table.position().number, ["XYZZY 1"])
        body = "\n".join([self.game_line(password), f"TURN {turn}", *lines, "END"])
        self.send(body, kind="wrong-password", subject=f"turn {turn}", turn=turn)

    def command(self, *lines: str, game_line: bool = True) -> None:
        """A command mail; with `game_line`, under the seat's GAME line. Every line of
        several is to be answered, in the mail's one answer."""
        head = [self.game_line()] if game_line else []
        body = "\n".join([*head, *lines])
        words = tuple(line.split()[0] for line in lines) if len(lines) > 1 else ()
        self.send(body, kind="command", subject=lines[0].lower(), proves=game_line, lines=words)

    def press(self, to: str, text: str, *, anonymous: bool = False) -> None:
        """Press to a seat, under the seat's GAME line; answered by its confirmation."""
        head = f"PRESS TO {to}{' ANONYMOUS' if anonymous else ''}"
        body = "\n".join([self.game_line(), head, text, "END PRESS"])
        self.send(body, kind="press", subject="a word", proves=True)

    def reply_to_press(self, press: Received, text: str) -> str:
        """A plain reply to relayed press (it goes on to the writer); its Message-ID."""
        return self._reply(press, f"{text}\n", kind="press-reply")

    def quoted_filled(self, report: Received) -> None:
        """A reply to the report, its template filled in inside the quote (the handbook's
        way): orders that count."""
        turn, lines = self.order_lines() or (self.table.position().number, ["NO ORDERS"])
        filled = [self.game_line(), f"TURN {turn}", *lines, "END"]
        text = _with_template(report.view.text, filled)
        body = "My orders are filled in below.\n\nThe moderator wrote:\n" + _quoted(text)
        self._reply(report, body, kind="quoted-filled", proves=True, turn=turn, counted=True)

    def quoted_template(self, report: Received) -> None:
        """A reply to the report with the template quoted as it came, nothing filled in."""
        turn = self.table.position().number
        body = "Here you are, my orders.\n\nThe moderator wrote:\n" + _quoted(report.view.text)
        self._reply(report, body, kind="quoted-template", turn=turn)

    def reply_to_report(self, report: Received) -> None:
        """A plain reply to the report, a question for the referee, nothing quoted."""
        body = "Thanks for the report! Who attacked me in that turn, and why?\n"
        self._reply(report, body, kind="reply-to-report")

    def auto_reply(self, report: Received) -> None:
        """An out-of-office reply to the report, marked as one: must not be answered."""
        headers = {"Auto-Submitted": "auto-replied", "X-Autoreply": "yes"}
        body = "I am away until Monday and will read your mail then.\n"
        self._reply(report, body, kind="auto-reply", answer=False, headers=headers)

    def last(self, pattern: str) -> Received:
        """The newest mail in the mailbox whose subject matches `pattern`."""
        found = [
            m
            for m in self.table.mailboxes[self.name].received
            if re.search(pattern, m.view.subject)
        ]
        assert found, f"{self.name} has no mail {pattern!r}"
        return found[-1]

    def send(self, body: str, *, kind: str, subject: str, **meant: Any) -> str:
        headers = meant.pop("headers", {})
        message = EmailMessage()
        message["From"] = self.address
        message["To"] = self.table.moderator.address
        message["Subject"] = subject
        for name, value in headers.items():
            message[name] = value
        message.set_content(body + "\n")
        message_id = self.player.send_message(message)
        meant.setdefault("seat", self.seat)
        self.table.log(Sent(self.table.step, self.name, message_id, kind, **meant))
        return message_id

    def _orders(self, turn: int, lines: list[str], *, kind: str, counted: bool) -> None:
        body = "\n".join([self.game_line(), f"TURN {turn}", *lines, "END"])
        self.send(body, kind=kind, subject=f"turn {turn}", proves=True, turn=turn, counted=counted)

    def _reply(self, report: Received, body: str, *, kind: str, **meant: Any) -> str:
        parent = report.view.message_id
        headers = {"In-Reply-To": parent, "References": parent, **meant.pop("headers", {})}
        subject = f"Re: {report.view.subject}"
        return self.send(body, kind=kind, subject=subject, headers=headers, **meant)


def _typo(line: str) -> str:
    """The line with its first word misspelt: its second letter replaced."""
    word, _, rest = line.partition(" ")
    wrong = word[0] + ("Q" if word[1:2].upper() != "Q" else "X") + word[2:] if word else "XYZZY"
    return f"{wrong} {rest}".strip()


def _with_template(text: str, filled: list[str]) -> str:
    """The report's text with its order template (GAME line to END) replaced by `filled`."""
    lines = text.split("\n")
    start = next(
        i for i, line in enumerate(lines) if line.startswith("GAME ") and PLACEHOLDER in line
    )
    end = next(i for i in range(start, len(lines)) if lines[i].strip() == "END")
    return "\n".join([*lines[:start], *filled, *lines[end + 1 :]])


def _quoted(text: str) -> str:
    return "\n".join(f"> {line}".rstrip() for line in text.rstrip("\n").split("\n"))
