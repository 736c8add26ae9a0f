"""The `pbem` command line, run in-process on a SQLite file and maildirs in a temporary folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import all_rulesets
from pbem.cli import main
from pbem.mail.maildir import MaildirInbox
from tests.servers.moderated import logging_restored
from tests.support.mails import mail, order_mail

NOW = "2026-03-01T12:00:00+00:00"


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    (tmp_path / "pbem.toml").write_text("[security]\npassword_cost = 4\n")
    # `serve --once` and `poll --once` log to standard error, which pytest captures: a
    # handler left on that stream would outlive the capture, into later tests.
    with logging_restored():
        yield tmp_path


def pbem(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["--config", "pbem.toml", "--now", NOW, *args]) == 0
    return capsys.readouterr().out


def _new_game(capsys: pytest.CaptureFixture[str]) -> str:
    pbem(capsys, "init")
    return pbem(
        capsys,
        "game",
        "new",
        "g1",
        "--ruleset",
        "counting",
        "--seed",
        "5",
        "--seat",
        "alice=alice@example.org:pw-alice",
        "--seat",
        "bob=bob@example.org",
    )


def test_init_game_new_list_and_show(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    created = _new_game(capsys)
    assert created.startswith("game g1 created (counting, running)\n  seat bob: password ")
    assert (workdir / "pbem.db").exists()
    assert pbem(capsys, "game", "list").startswith("g1                   counting")
    shown = pbem(capsys, "game", "show", "g1")
    assert "turn 1, deadline 2026-03-03 12:00 UTC, waiting for: alice, bob\n" in shown
    assert "  seat alice        alice@example.org" in shown


def test_game_show_lists_the_referees(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 43, point 14: `game show` listed the seats but never the referees."""
    pbem(capsys, "init")
    seats = ("--seat", "alice=alice@example.org:pw-alice", "--seat", "bob=bob@example.org")
    pbem(capsys, "game", "new", "g1", "--ruleset", "counting", *seats, "--referee", "r@x.org")
    shown = pbem(capsys, "game", "show", "g1")
    assert shown.endswith(
        "  seat bob          bob@example.org                  active\n  referee r@x.org\n"
    )


def test_rulesets_lists_ids_aliases_and_titles(capsys: pytest.CaptureFixture[str]) -> None:
    listing = main(["rulesets"]), capsys.readouterr().out
    assert listing[0] == 0
    assert "temples-and-swords     aliases: tns, temples" in listing[1]
    assert "counting               aliases: cnt" in listing[1]


def test_rulesets_keeps_the_title_clear_of_the_longest_aliases(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 35: "classicalc Classical" - the last alias ran into the title. Every title starts
    in one column, two spaces or more after the aliases."""
    assert main(["rulesets"]) == 0
    heads = [line for line in capsys.readouterr().out.splitlines() if " aliases: " in line]
    titles = {
        line.index(ruleset.title)
        for ruleset in all_rulesets()
        for line in heads
        if line.startswith(ruleset.id + " ")
    }
    assert len(titles) == 1
    column = titles.pop()
    assert all(line[column - 2 : column] == "  " for line in heads)
    assert "cls, warpspawn, classicalc  Classical (Warpspawn)" in "\n".join(heads)


def test_rulesets_lists_rotate_first_where_the_first_seat_has_an_edge(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 35: the option that evens out the first seat's head start is listed for every
    ruleset that declares one."""
    assert main(["rulesets"]) == 0
    blocks = _ruleset_blocks(capsys.readouterr().out)
    edged = [ruleset for ruleset in all_rulesets() if ruleset.first_seat_edge]
    assert {r.id for r in edged} >= {"temples-and-swords", "culture-and-conquest", "classical"}
    for ruleset in edged:
        assert ruleset.first_seat_edge is not None
        assert f"    {ruleset.first_seat_edge.option} = no" in blocks[ruleset.id]


def _ruleset_blocks(listing: str) -> dict[str, str]:
    """Each ruleset's head line and option lines, by id."""
    blocks: dict[str, str] = {}
    current = ""
    for line in listing.splitlines():
        if " aliases: " in line:
            current = line.split()[0]
        if current:
            blocks[current] = blocks.get(current, "") + line + "\n"
    return blocks


def _new_tns_game(
    capsys: pytest.CaptureFixture[str], game: str, *options: str, ruleset: str = "tns"
) -> str:
    return pbem(
        capsys,
        "game",
        "new",
        game,
        "--ruleset",
        ruleset,
        "--seed",
        "5",
        "--seat",
        "alice=alice@example.org",
        "--seat",
        "bob=bob@example.org",
        *(word for option in options for word in ("--option", option)),
    )


def test_game_new_says_when_seat_order_matters_and_what_evens_it(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 35: the first seat in the order of play wins about 40% of four-seat Temples and
    Swords bot games ("High roll starts, then play goes clockwise"); the referee making a game
    is told so, with the option that evens it, unless the game already has it. A fresh-eyes
    tester's find: it said "Seat order matters" where the setup rolls who plays first, and
    the order the seats were listed in decides nothing of it."""
    pbem(capsys, "init")
    created = _new_tns_game(capsys, "g1").splitlines()
    assert created[1] == (
        "  Playing first matters: who plays first is rolled at setup, and in 4-seat bot games "
        "the first seat wins 40% of Temples and Swords v1.1 games; --option rotate_first=yes "
        "evens it (23%)."
    )
    evened = _new_tns_game(capsys, "g2", "rotate_first=yes")
    assert "matters" not in evened
    listed = _new_tns_game(capsys, "g3", ruleset="classical").splitlines()
    assert listed[1].startswith(
        "  Seat order matters: the first seat listed plays first every round, and in 4-seat "
    )
    drawn = _new_tns_game(capsys, "g4", "first_player=random", ruleset="classical")
    assert "Seat order matters" not in drawn and "  Playing first matters: " in drawn


def test_game_new_says_nothing_of_seat_order_for_a_ruleset_without_an_edge(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "Seat order matters" not in _new_game(capsys)


def test_check_prints_the_reply_and_changes_nothing(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _new_game(capsys)
    (workdir / "orders.eml").write_bytes(order_mail("g1", "alice", "pw-alice", "ADD 2\nADD 7\n"))
    for _ in range(2):  # twice: the first check stored nothing, so no duplicate either
        out = pbem(capsys, "check", "orders.eml")
        assert out.startswith(
            "a check only: nothing was stored, nothing is sent\n"
            "as a real mail: accepted (orders stored for alice, turn 1: 1 accepted, 1"
        )
        assert "To: alice@example.org\nSubject: Re: orders\n\n" in out
        assert "  line 3: cannot add 7 points\n" in out
    assert "waiting for: alice, bob" in pbem(capsys, "game", "show", "g1")


def test_check_of_a_duplicate_says_of_which_mail(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 42's leftovers: `pbem check` of a mail taken in already said "duplicate (already
    recorded)" only; it names the mail it repeats, when it came and what became of it."""
    _new_game(capsys)
    raw = order_mail("g1", "alice", "pw-alice", "ADD 2\n", message_id="o1@x")
    MaildirInbox(workdir / "var/mail/inbox").deliver(raw)
    pbem(capsys, "poll", "--once")
    (workdir / "again.eml").write_bytes(raw)
    out = pbem(capsys, "check", "again.eml")
    assert (
        "as a real mail: duplicate (already recorded)\na duplicate of the mail o1@x from "
        "alice@example.org, received 2026-03-01 12:00 UTC"
    ) in out
    assert ": accepted (orders stored for alice, turn 1" in out


def test_game_list_shows_the_seats_open_to_join(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 42's leftovers: a game open to JOIN was listed with "0 seats"."""
    _new_game(capsys)
    pbem(capsys, "game", "new", "o1", "--ruleset", "counting", "--open", "2")
    listed = pbem(capsys, "game", "list").splitlines()
    assert listed[0].endswith(" 2 seats") and listed[1].endswith(" 0 taken, 2 open")


def test_poll_turn_run_and_outbox(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _new_game(capsys)
    inbox = MaildirInbox(workdir / "var/mail/inbox")
    inbox.deliver(order_mail("g1", "alice", "pw-alice", "ADD 2\n"))
    inbox.deliver(mail("HELP", message_id="h@x"))
    assert pbem(capsys, "poll", "--once") == (
        "mail in: 2 (1 accepted, 1 answered)\nmail out: 4 sent, 0 not sent, 0 bounced\n"
    )
    assert pbem(capsys, "turn", "run", "g1") == "resolved g1 turn 1: 1 orders, 3 events\n"
    assert pbem(capsys, "outbox", "flush") == "2 sent, 0 failed, 0 bounced, 0 waiting\n"
    assert len(list((workdir / "var/mail/outbox/new").iterdir())) == 6


def test_quarantine_list_show_replay(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pbem(capsys, "init")
    (workdir / "early.eml").write_bytes(order_mail("g1", "alice", "pw-alice", "ADD 2\n"))
    inbox = MaildirInbox(workdir / "var/mail/inbox")
    inbox.deliver((workdir / "early.eml").read_bytes())
    pbem(capsys, "poll", "--once")
    listing = pbem(capsys, "quarantine", "list")
    assert listing.startswith("    1 2026-03-01 12:00 unknown-game alice@example.org")
    assert "GAME g1 SEAT alice PASSWORD pw-alice" in pbem(capsys, "quarantine", "show", "1")
    pbem(
        capsys,
        "game",
        "new",
        "g1",
        "--ruleset",
        "counting",
        "--seat",
        "alice=alice@example.org:pw-alice",
        "--seat",
        "bob=bob@example.org:pw-bob",
    )
    assert pbem(capsys, "quarantine", "replay", "1").startswith("replayed: accepted")
    assert pbem(capsys, "quarantine", "list") == "the quarantine is empty\n"


def test_quarantine_list_keeps_its_columns_in_line(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 43, point 14: a reason longer than the column ("referee-password") pushed its
    row's sender and error out of line."""
    pbem(capsys, "init")
    _new_game(capsys)
    inbox = MaildirInbox(workdir / "var/mail/inbox")
    inbox.deliver(order_mail("nogame", "alice", "pw-alice", "ADD 2\n", message_id="a@x"))
    referee = "GAME g1 REFEREE wrong\nPAUSE\n"
    inbox.deliver(mail(referee, message_id="b@x", sender="someone.else@example.org"))
    pbem(capsys, "poll", "--once")
    rows = pbem(capsys, "quarantine", "list").splitlines()[:2]
    assert [row.split()[3] for row in rows] == ["unknown-game", "referee-password"]
    senders = [
        row.index(sender) for row, sender in zip(rows, ("alice@", "someone.else@"), strict=True)
    ]
    errors = [
        row.index(error) for row, error in zip(rows, ("there is", "wrong referee"), strict=True)
    ]
    assert senders[0] == senders[1] and errors[0] == errors[1]


def test_errors_are_one_line_and_exit_2(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pbem(capsys, "init")
    assert main(["--config", "pbem.toml", "game", "new", "g1", "--ruleset", "nosuch"]) == 2
    assert "pbem: " in capsys.readouterr().err
    assert main(["--config", "pbem.toml", "game", "show", "nope"]) == 2
    assert capsys.readouterr().err == "pbem: there is no game nope\n"
