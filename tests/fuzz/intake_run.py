"""Push hostile mail through intake and check what it left behind. Shared by the fuzz test
(a few hundred mails in `make test`) and bench/fuzz.py (ten thousand, with figures)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlmodel import select

from pbem.games.lifecycle import SeatSpec
from pbem.games.outbox import as_message
from pbem.games.service import Service
from pbem.intake.intake import Receipt, receive
from pbem.store import InboundMessage, Outbox, Quarantine, transaction
from tests.fuzz.strategies import SEATS, UNIQUE
from tests.support.games import new_game

FINAL = {"accepted", "answered", "ignored", "quarantined", "duplicate"}


def seat_games(service: Service, now: datetime) -> None:
    """The two games the strategies write to: g1 (the counting test ruleset) and g2 (a real
    one, Temples and Swords), their seats and passwords as in tests.fuzz.strategies."""
    for game, ruleset in (("g1", "counting"), ("g2", "temples-and-swords")):
        seats = [SeatSpec(s, a, p) for a, (g, s, p) in SEATS.items() if g == game]
        new_game(service, now, game=game, ruleset=ruleset, seats=seats)


@dataclass
class Tally:
    """What became of the mails pushed so far."""

    mails: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)

    def push(self, service: Service, raw: bytes, now: datetime) -> Receipt:
        # A minute between mails, as a busy day would space them; every mail is its own
        # transaction, so a crash here is a crash of the daemon's intake.
        raw = raw.replace(UNIQUE.encode(), f"n{self.mails}".encode())
        receipt = receive(service, raw, now=now + timedelta(minutes=self.mails))
        self.mails += 1
        self.statuses[receipt.status] += 1
        assert receipt.status in FINAL, receipt
        answered_for(receipt)
        return receipt


def answered_for(receipt: Receipt) -> None:
    """Every mail is answered, ignored as a loop, set aside with a reason, or a redelivery."""
    if receipt.status in {"accepted", "answered"}:
        assert receipt.replies or "no reply" in receipt.outcome, receipt
    elif receipt.status in {"ignored", "quarantined"}:
        assert receipt.outcome.strip(), receipt


def check_consistent(service: Service, tally: Tally) -> None:
    """After the run: no crash was quarantined, every stored mail reached a final state with
    its quarantine row where it should have one, and every queued mail is one we may send."""
    with transaction(service.db) as session:
        inbound = list(session.exec(select(InboundMessage)))
        aside = list(session.exec(select(Quarantine)))
        outbox = list(session.exec(select(Outbox)))
    tally.reasons.update(row.reason for row in aside)
    crashes = [row.error for row in aside if row.reason == "error"]
    assert not crashes, crashes[0]
    assert {row.status for row in inbound} <= FINAL - {"duplicate"}
    quarantined = {row.id for row in inbound if row.status == "quarantined"}
    assert quarantined == {row.inbound_id for row in aside}
    assert len(inbound) == tally.mails - tally.statuses["duplicate"]
    ours = {service.settings.mail.address.lower()}
    for row in outbox:
        assert row.recipient.lower() not in ours
        assert "mailer-daemon" not in row.recipient.lower()
        message = as_message(row.raw)
        assert message["Auto-Submitted"], row.subject
        assert message["X-Loop"], row.subject
