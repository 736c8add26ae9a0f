"""`pbem game new` checks what it is given before it makes a game or mails anyone: every seat's
and referee's address (the one check of pbem.mail.addresses), and a seat's password by the
rule SET PASSWORD applies. A refusal is one line and exit 2; nothing is stored or queued."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.config import load_settings
from pbem.games.service import Service
from pbem.games.stops import stop
from tests.pipeline.test_cli import NOW, pbem, workdir

__all__ = ["workdir"]  # the fixture, shared with test_cli

BOB = "bob=bob@example.org"


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """The one line `pbem game new g1 ...` is refused with; no game was made."""
    command = ["--config", "pbem.toml", "--now", NOW, "game", "new", "g1", "--ruleset", "counting"]
    assert main([*command, *args]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "Traceback" not in error, error
    assert pbem(capsys, "game", "list") == "no games\n"
    assert pbem(capsys, "outbox", "list") == "no mail waiting, bounced or dropped\n"
    return error.removeprefix("pbem: ").rstrip("\n")


@pytest.mark.parametrize(
    ("seat", "why"),
    [
        ("ann=ann-at-example.org", "'ann-at-example.org' is not a mail address: it needs exactly"),
        ("ann=ann@", "'ann@' is not a mail address: nothing comes after the @"),
        ("ann=ann@example.org,bob@example.org", "it holds ','"),
    ],
)
def test_a_seat_address_that_is_none_is_refused(
    workdir: Path, capsys: pytest.CaptureFixture[str], seat: str, why: str
) -> None:
    pbem(capsys, "init")
    error = refused(capsys, "--seat", seat, "--seat", BOB)
    assert error.startswith("seat ann: ") and why in error, error


@pytest.mark.parametrize(
    ("referee", "why"),
    [
        ("notanaddress", "'notanaddress' is not a mail address: it needs exactly one @"),
        ("a@x.org,b@x.org", "'a@x.org,b@x.org' is not a mail address: it holds ','"),
    ],
)
def test_a_referee_address_that_is_none_is_refused(
    workdir: Path, capsys: pytest.CaptureFixture[str], referee: str, why: str
) -> None:
    pbem(capsys, "init")
    error = refused(capsys, "--seat", "ann=ann@example.org", "--seat", BOB, "--referee", referee)
    assert error.startswith("referee: ") and why in error, error


@pytest.mark.parametrize("password", ["short", "x" * 65, "two words", "tulip#42"])
def test_a_seat_password_follows_the_set_password_rule(
    workdir: Path, capsys: pytest.CaptureFixture[str], password: str
) -> None:
    pbem(capsys, "init")
    error = refused(capsys, "--seat", f"ann=ann@example.org:{password}", "--seat", BOB)
    assert error == (
        "seat ann: a password is 6 to 64 characters, without spaces or # (# starts a comment "
        "in a mail)"
    )


def test_good_addresses_and_passwords_make_the_game(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pbem(capsys, "init")
    given = ["--seat", "ann=Ann@Example.org:tulip-stone-42", "--seat", BOB, "--referee", "R@x.org"]
    made = pbem(capsys, "game", "new", "g1", "--ruleset", "counting", *given)
    assert made.startswith("game g1 created")
    assert "referee r@x.org: password mailed to them (once)" in made
    assert "seat ann          ann@example.org" in pbem(capsys, "game", "show", "g1")


def test_a_referee_password_is_not_said_mailed_to_an_address_that_sent_stop(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The fresh-eyes test of issue 43: a fact in a line is true. A referee whose address
    sent STOP gets no mail: `game new` says their password was not sent."""
    pbem(capsys, "init")
    service = Service.from_settings(load_settings("pbem.toml"))
    with service.store.transaction() as work:
        stop(work, "r@x.org", datetime.fromisoformat(NOW))
    given = ["--seat", "ann=ann@example.org", "--seat", BOB, "--referee", "R@x.org"]
    made = pbem(capsys, "game", "new", "g1", "--ruleset", "counting", *given)
    assert "referee r@x.org: password NOT sent: the address asked for no more mail" in made
    assert "mailed to them" not in made
