"""The conversation machine: Hypothesis's rule-based state machine plays one game by mail,
combining every player command, the referee's actions and the clock in any order, and checks
the invariants (tests/machine/invariants.py) after every step.

`conversation(ruleset)` makes the machine for one ruleset; tests/machine/test_machine.py runs
a bounded number of steps of each in `make test`, bench/state_machine.py many more.
"""

from __future__ import annotations

import random
import re
from datetime import timedelta
from email import message_from_bytes, policy

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from tests.machine.invariants import INVARIANTS, Anonymous, Invariant, Record, Secret
from tests.machine.world import GAME, REFEREE, SEATS, STRANGER, Person, Step, World

# The test ruleset (quick, every service path) and the five games.
RULESETS = (
    "counting",
    "temples-and-swords",
    "culture-and-conquest",
    "classical",
    "tribes",
    "medieval-micromanager",
)
SETTINGS = ("PICTURES OFF", "PICTURES ON", "DATA OFF", "DATA ON", "PRESS OFF", "PRESS ON")
SIMPLE = ("STATUS", "ORDERS", "REPORT", "HISTORY", "HELP", "LIST MINE")


class Conversation(RuleBasedStateMachine):
    """One game, its players, its referee and its clock; subclassed per ruleset."""

    ruleset = "counting"
    checks = INVARIANTS  # a planted-bug test checks only the one it plants for

    def __init__(self) -> None:
        super().__init__()
        self.world = World(self.ruleset)
        self.record = Record(passwords=set(self.world.passwords_ever))
        self.steps: list[Step] = []
        self.tokens = 0
        self.rolled_back = False
        self.anonymous_press: list[tuple[str, str]] = []  # (press message-id, writer seat)

    def teardown(self) -> None:
        self.world.close()

    # -- helpers -------------------------------------------------------------------------

    def _token(self, what: str) -> str:
        self.tokens += 1
        return f"{what}-{self.tokens}-qz{random.Random(self.tokens).randrange(10**6):06d}"

    def _seated(self) -> list[str]:
        """The seats a player of ours still holds (not resigned, not replaced)."""
        facts = self.world.facts()
        return [
            name
            for name, person in self.world.players.items()
            if facts.addresses.get(name) == person.address
            and facts.seats.get(name) not in ("disorder", "ejected")
        ]

    def _do(self, step: Step) -> None:
        self.steps.append(step)
        for check in self.checks:
            check(step, self.record)

    def _seat_mail(self, seat: str, lines: list[str], action: str) -> Step:
        person = self.world.players[seat]
        head = f"GAME {GAME} SEAT {seat} PASSWORD {person.password}"
        step = self.world.mail(person, "\n".join([head, *lines]) + "\n", action)
        self._do(step)
        return step

    def _orders(self, seat: str) -> list[str]:
        state = self.world.state()
        text = self.world.ruleset.bot_orders(state, seat, self.tokens)
        return [line for line in text.splitlines() if line.strip()]

    def _referee(self, *commands: str, action: str) -> Step:
        referee = self.world.referee
        body = "\n".join([f"GAME {GAME} REFEREE {referee.password}", "REASON machine", *commands])
        step = self.world.mail(referee, body + "\nEND\n", action)
        self._do(step)
        return step

    # -- players ---------------------------------------------------------------------------

    seat = st.sampled_from(SEATS)

    @precondition(lambda self: self.world.running)
    @rule(seat=seat)
    def orders(self, seat: str) -> None:
        if seat in self._seated():
            self._seat_mail(seat, self._orders(seat), "orders")

    @precondition(lambda self: self.world.running)
    @rule(seat=seat)
    def typo_orders(self, seat: str) -> None:
        if seat in self._seated():
            lines = [f"X{line}" for line in self._orders(seat) if not line.startswith("#")]
            self._seat_mail(seat, lines or ["XYZZY 1"], "typo orders")

    @precondition(lambda self: self.world.running)
    @rule(seat=seat)
    def no_orders(self, seat: str) -> None:
        if seat in self._seated():
            self._seat_mail(seat, ["NO ORDERS"], "no orders")

    @rule(seat=seat, sign_off=st.booleans())
    def orders_with_sign_off(self, seat: str, sign_off: bool) -> None:
        if seat in self._seated() and self.world.running:
            tail = ["", "Cheers,", seat.title()] if sign_off else []
            self._seat_mail(seat, [*self._orders(seat), *tail], "orders signed")

    @rule(seat=seat)
    def wrong_password(self, seat: str) -> None:
        person = self.world.players[seat]
        body = f"GAME {GAME} SEAT {seat} PASSWORD not-{person.password}\nSTATUS\n"
        self._do(self.world.mail(person, body, "wrong password"))

    @rule(seat=seat, command=st.sampled_from(SIMPLE))
    def command(self, seat: str, command: str) -> None:
        if seat in self._seated():
            self._seat_mail(seat, [command], command)

    @rule(seat=seat, setting=st.sampled_from((*SETTINGS, "BANANA ON")))
    def set_setting(self, seat: str, setting: str) -> None:
        if seat in self._seated():
            self._seat_mail(seat, [f"SET {setting}"], f"SET {setting}")

    @rule(seat=seat, days=st.integers(min_value=0, max_value=3))
    def absence(self, seat: str, days: int) -> None:
        if seat in self._seated():
            until = (self.world.now + timedelta(days=days)).date().isoformat()
            self._seat_mail(seat, [f"SET ABSENCE {until}"], "absence")

    @rule(seat=seat, to=seat, anonymous=st.booleans())
    def press(self, seat: str, to: str, anonymous: bool) -> None:
        if seat not in self._seated() or seat == to:
            return
        text = self._token("press")
        person = self.world.players[seat]
        if anonymous:
            self.record.anonymous.append(Anonymous(text, seat, person.address))
        else:
            allowed = {person.address, self.world.players[to].address, REFEREE}
            self.record.secrets.append(Secret(text, frozenset(allowed), f"press {seat}->{to}"))
        how = " ANONYMOUS" if anonymous else ""
        step = self._seat_mail(seat, [f"PRESS TO {to}{how}", text, "END PRESS"], "press")
        if anonymous:
            for mail in step.queued:
                if mail.kind == "press":
                    self.anonymous_press.append((_message_id(mail.raw), seat))

    @precondition(lambda self: bool(self.anonymous_press))
    @rule(data=st.data())
    def answer_anonymous_press(self, data: st.DataObject) -> None:
        press_id, writer = data.draw(st.sampled_from(self.anonymous_press))
        facts = self.world.facts()
        readers = [name for name in self._seated() if name != writer and facts.addresses.get(name)]
        if not readers:
            return
        reader = self.world.players[data.draw(st.sampled_from(readers))]
        text = f"Who are you? {self._token('answer')}\n"
        step = self.world.mail(
            reader, text, "press answer", headers={"In-Reply-To": press_id}, subject="Re: press"
        )
        self.record.press_answers[step.message_id] = writer
        self._do(step)

    @precondition(lambda self: self.world.running)
    @rule(seat=seat, with_orders=st.booleans())
    def forecast(self, seat: str, with_orders: bool) -> None:
        if seat in self._seated():
            lines = ["FORECAST", *(self._orders(seat) if with_orders else [])]
            self._seat_mail(seat, lines, "forecast")

    @precondition(lambda self: self.world.running)
    @rule(seat=seat, ahead=st.integers(min_value=1, max_value=2))
    def advance_orders(self, seat: str, ahead: int) -> None:
        if seat in self._seated():
            turn = self.world.facts().turn + ahead
            self._seat_mail(seat, [f"TURN {turn}", *self._orders(seat)], "advance orders")

    @rule(seat=seat, new=st.booleans())
    def set_password(self, seat: str, new: bool) -> None:
        if seat not in self._seated() or not new:
            return
        person = self.world.players[seat]
        password = self._token("pw")
        self.record.passwords.add(password)
        step = self._seat_mail(seat, [f"SET PASSWORD {password}"], "SET PASSWORD")
        if "is changed to" in " ".join(m.text for m in step.queued):
            self.world.players[seat] = Person(seat, person.address, password)

    @precondition(lambda self: len(self._seated()) > 2)
    @rule(seat=seat)
    def resign(self, seat: str) -> None:
        if seat in self._seated():
            self._seat_mail(seat, ["RESIGN"], "RESIGN")

    @rule()
    def stranger(self) -> None:
        person = Person("stranger", STRANGER, "")
        body = f"GAME {GAME} SEAT {SEATS[0]} PASSWORD guess\nSTATUS\n"
        self._do(self.world.mail(person, body, "stranger"))

    # -- the referee -----------------------------------------------------------------------

    @rule(command=st.sampled_from(("PAUSE", "RESUME", "DEADLINE extend 6h", "PREVIEW", "AUDIT")))
    def referee(self, command: str) -> None:
        self._referee(command, action=command)

    @precondition(lambda self: self.world.running)
    @rule()
    def process(self) -> None:
        self._referee("PROCESS", action="PROCESS")

    @rule(back=st.integers(min_value=0, max_value=2))
    def rollback(self, back: int) -> None:
        turn = max(1, self.world.facts().turn - back)
        step = self._referee(f"ROLLBACK {turn}", action="ROLLBACK")
        self.rolled_back = self.rolled_back or "kept as branch" in _texts(step)

    @rule()
    def rerun(self) -> None:
        self._referee("RERUN", action="RERUN")

    @rule(seat=seat)
    def replace(self, seat: str) -> None:
        if seat not in self._seated():
            return
        address = f"{seat}.{self.tokens}@new.example"
        step = self._referee(f"REPLACE {seat} {address}", action="REPLACE")
        for mail in step.queued:
            if mail.recipient == address and "password" in mail.text.lower():
                password = _password_in(mail.text)
                if password:
                    self.world.players[seat] = Person(seat, address, password)
                    self.record.passwords.add(password)  # mailed this once, never again

    # -- the clock -------------------------------------------------------------------------

    @rule(minutes=st.integers(min_value=5, max_value=55))
    def tick(self, minutes: int) -> None:
        self._do(self.world.tick(minutes))

    @invariant()
    def nothing_failed(self) -> None:
        # Every step's checks ran in _do; this one holds the machine's own footing.
        assert self.world.facts().status != ""


def conversation(ruleset: str, *invariants: Invariant) -> type[Conversation]:
    """The machine for one ruleset, checking these invariants (all, if none are named)."""
    name = f"Conversation_{ruleset.replace('-', '_')}"
    return type(name, (Conversation,), {"ruleset": ruleset, "checks": invariants or INVARIANTS})


def _texts(step: Step) -> str:
    return "\n".join(mail.text for mail in step.queued)


def _message_id(raw: bytes) -> str:
    return str(message_from_bytes(raw, policy=policy.default).get("Message-ID", ""))


def _password_in(text: str) -> str:
    found = re.search(r"[Pp]assword:? (\S+)", text)
    return found.group(1) if found else ""
