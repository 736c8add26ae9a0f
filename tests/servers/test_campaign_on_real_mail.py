"""A short campaign of each of the five games, played by real mail through `pbem serve`
(tests/campaign): bot players mail their orders and mistakes through the SMTP relay and read
their mailboxes over Dovecot's IMAP, a scripted referee pauses, resumes, extends, rolls back,
forces a turn and replaces a seat. Each invariant of tests/campaign/checker.py is a test case
of its own over every game's mail, so that a defect shows as the invariant and game it breaks.

Each game's campaign is played once a session (about 10 s), the first time a case asks for
it, whatever order the cases run in."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest

from tests.campaign.checker import INVARIANTS
from tests.campaign.record import Record
from tests.campaign.script import SETUPS, play_campaign
from tests.servers.moderated import logging_restored
from tests.servers.world import MailWorld

TURNS = 6  # rounds a game: turn 4 is the last of the script, then ordinary turns to the end

# The defects of the tree these tests were written on (issue 36), by the invariant they
# break, in every game. Strict: once one is fixed its cases fail, and its line here goes.
DEFECTS: dict[str, str] = {}


@dataclass(frozen=True)
class Played:
    record: Record
    uncollected: list[str]  # participants whose mailbox holds mail the campaign did not read


@pytest.fixture(scope="session")
def campaign(
    mail_world: MailWorld, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Callable[[str], Played]]:
    played: dict[str, Played | BaseException] = {}

    def play(ruleset: str) -> Played:
        if ruleset not in played:
            folder = tmp_path_factory.mktemp(f"campaign-{SETUPS[ruleset].game}")
            try:
                with logging_restored():
                    record, table = play_campaign(
                        mail_world, folder, ruleset, turns=TURNS, seconds=120
                    )
                played[ruleset] = Played(record, table.complete())
            except Exception as error:  # every case of the game reports it, played once
                played[ruleset] = error
        found = played[ruleset]
        if isinstance(found, BaseException):
            raise found
        return found

    yield play


def _cases() -> list[object]:
    cases: list[object] = []
    for ruleset in SETUPS:
        for invariant in INVARIANTS:
            defect = DEFECTS.get(invariant)
            xfail = pytest.mark.xfail(
                strict=True, raises=AssertionError, reason=f"issue 36: {defect}"
            )
            marks = [xfail] if defect else []
            cases.append(pytest.param(ruleset, invariant, marks=marks, id=f"{ruleset}-{invariant}"))
    return cases


@pytest.mark.parametrize(("ruleset", "invariant"), _cases())
def test_the_campaign_keeps_the_invariant(
    campaign: Callable[[str], Played], ruleset: str, invariant: str
) -> None:
    violations = INVARIANTS[invariant](campaign(ruleset).record)
    assert not violations, "\n".join(map(str, violations))


@pytest.mark.parametrize("ruleset", list(SETUPS))
def test_the_campaign_is_played_to_the_end_and_every_mail_read(
    campaign: Callable[[str], Played], ruleset: str
) -> None:
    """The script did what it says: the game ended, every referee action and every way of
    playing a turn happened, every mistake was sent, and the checker read every mail of
    every mailbox."""
    played = campaign(ruleset)
    record = played.record
    assert played.uncollected == []
    kinds = {event.kind for event in record.events}
    assert {"paused", "resumed", "deadline", "rollback", "replaced", "ended"} <= kinds
    causes = {event.cause for event in record.events if event.kind == "resolved"}
    assert causes == {"orders", "forced", "deadline", "rerun"}
    sent = {sent.kind for sent in record.sent}
    assert {"typo", "wrong-password", "command", "quoted-filled", "quoted-template"} <= sent
    assert {"reply-to-report", "auto-reply", "referee", "no-orders"} <= sent
    assert all(record.mail.values())
