"""JOIN takes a seat only once its address confirms (issue 42, 4): a JOIN under someone else's
From gets them the one code and nothing else. And what meets JOIN (issue 43): the referee of a
game open to JOIN gets their password (1); the start mail of a seat taken by JOIN speaks of the
password its player chose (10)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import Engine
from sqlmodel import select

from pbem.cli import main
from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.store import JoinRequest, Referee, Seat, transaction
from tests.support.games import SEATS, body, game_row, new_game, outbox, quarantined
from tests.support.mails import mail

VICTIM = "vic@example.org"
_IDS = iter(range(10_000))


def _send(service: Service, now: datetime, text: str, sender: str) -> list[str]:
    """Mail `text` from `sender`; the recipients of what it queued."""
    raw = mail(text, sender=sender, message_id=f"j{next(_IDS)}@x")
    return [row.recipient for row in receive(service, raw, now=now).replies]


def _code(service: Service, to: str) -> str:
    [asked] = [row for row in outbox(service) if row.recipient == to and "CONFIRM" in body(row)]
    found = re.search(r"CONFIRM ([A-Z0-9]{8})", body(asked))
    assert found is not None
    return found.group(1)


def _seats(service: Service) -> list[tuple[str, str]]:
    with transaction(service.db) as session:
        return [(s.name, s.address) for s in session.exec(select(Seat).order_by(Seat.position))]


def _join(service: Service, now: datetime, seat: str, address: str, password: str) -> None:
    assert _send(service, now, f"JOIN g1 {seat} PASSWORD {password}", address) == [address]
    assert _send(service, now, f"CONFIRM {_code(service, address)}", address) == [address]


def test_a_join_under_another_from_takes_no_seat_and_mails_one_code(
    service: Service, now: datetime
) -> None:
    new_game(service, now, seats=(), signup_seats=2)
    # mal writes under vic's address: vic gets one mail, the code, and no seat is taken
    assert _send(service, now, "JOIN g1 vic PASSWORD x", VICTIM) == [VICTIM]
    assert _seats(service) == []
    assert _send(service, now, "JOIN g1 zoe PASSWORD y", "zoe@example.org") == ["zoe@example.org"]
    assert _send(service, now, "CONFIRM " + _code(service, "zoe@example.org"), "zoe@example.org")
    # again, and with another seat: vic gets nothing more
    assert _send(service, now, "JOIN g1 vic PASSWORD x", VICTIM) == []
    assert _send(service, now, "JOIN g1 vic2 PASSWORD x", VICTIM) == []
    # the seat mal chose does not exist: no mail proves it, and no press can reach it
    assert _send(service, now, "GAME g1 SEAT vic PASSWORD x\nSTATUS", "mal@evil.example") == [
        "mal@evil.example"
    ]
    assert [row.recipient for row in outbox(service)].count(VICTIM) == 1
    assert game_row(service).status == "open" and game_row(service).signup_seats == 1
    assert _seats(service) == [("zoe", "zoe@example.org")]
    with transaction(service.db) as session:
        [waiting] = session.exec(select(JoinRequest)).all()
    assert (waiting.address, waiting.seat) == (VICTIM, "vic")
    assert waiting.password_hash.startswith("scrypt$") and len(waiting.code) == 64  # hashes only


def test_a_second_join_is_set_aside_unanswered_and_logged_so(
    service: Service, now: datetime
) -> None:
    """Issue 42's leftovers: a second JOIN from the address, while its code is fresh, was
    logged "answered ()" and stored as answered beside its quarantine row. It is set aside
    (quarantined, its reason in the outcome), still with no second mail."""
    new_game(service, now, seats=(), signup_seats=2)
    assert _send(service, now, "JOIN g1 vic PASSWORD x", VICTIM) == [VICTIM]
    again = receive(service, mail("JOIN g1 vic PASSWORD x", sender=VICTIM, message_id="jj@x"),
                    now=now)  # fmt: skip
    assert again.replies == []
    assert again.status == "quarantined"
    assert again.outcome == f"join: a JOIN of g1 from {VICTIM} waits for CONFIRM already"
    assert [q.reason for q in quarantined(service)] == ["join"]


def test_a_confirm_from_another_address_or_too_late_takes_nothing(
    service: Service, now: datetime
) -> None:
    new_game(service, now, seats=(), signup_seats=2)
    _send(service, now, "JOIN g1 vic PASSWORD x", VICTIM)
    code = _code(service, VICTIM)
    assert _send(service, now, f"CONFIRM {code}", "mal@evil.example") == ["mal@evil.example"]
    late = now + timedelta(hours=73)
    assert _send(service, late, f"CONFIRM {code}", VICTIM) == [VICTIM]
    assert _seats(service) == []
    assert [q.reason for q in quarantined(service)] == ["confirm", "confirm"]


def test_confirmed_joins_start_the_game_with_the_password_each_chose(
    service: Service, now: datetime
) -> None:
    new_game(service, now, seats=(), signup_seats=2)
    _join(service, now, "zoe", "zoe@example.org", "secret1")
    assert game_row(service).status == "open"
    _join(service, now, "yan", "yan@example.org", "secret2")
    assert game_row(service).status == "running"
    assert _seats(service) == [("zoe", "zoe@example.org"), ("yan", "yan@example.org")]
    starts = outbox(service, "report")
    assert sorted(row.recipient for row in starts) == ["yan@example.org", "zoe@example.org"]
    for start in starts:  # issue 43, 10
        text = " ".join(body(start).split())
        assert "with the password you chose when you joined:" in text
        assert "referee gave you" not in text
    assert all("secret" not in body(row) for row in outbox(service))
    # the chosen password proves the seat
    orders = _send(service, now, "GAME g1 SEAT zoe PASSWORD secret1\nADD 1", "zoe@example.org")
    assert orders == ["zoe@example.org"]
    assert "Accepted" in body(outbox(service)[-1])
    again = _send(
        service, now, "GAME g1 SEAT zoe PASSWORD secret1\nREPORT START", "zoe@example.org"
    )
    assert again == ["zoe@example.org"]
    assert "password you chose when you joined" in " ".join(body(outbox(service)[-1]).split())


def test_the_last_seat_goes_to_the_first_confirm(service: Service, now: datetime) -> None:
    new_game(service, now, seats=SEATS[:1], signup_seats=1)
    _send(service, now, "JOIN g1 zoe PASSWORD secret1", "zoe@example.org")
    _send(service, now, "JOIN g1 zoe PASSWORD secret2", "yan@example.org")
    _send(service, now, f"CONFIRM {_code(service, 'yan@example.org')}", "yan@example.org")
    late = _send(service, now, f"CONFIRM {_code(service, 'zoe@example.org')}", "zoe@example.org")
    assert late == ["zoe@example.org"]
    assert "game g1 is not open to sign-up" in body(outbox(service)[-1])
    assert _seats(service) == [("alice", "alice@example.org"), ("zoe", "yan@example.org")]
    # alice's seat was the referee's: her start mail says so
    [start] = [row for row in outbox(service, "report") if row.recipient == "alice@example.org"]
    assert "with the password your referee gave you:" in " ".join(body(start).split())


def test_a_game_open_to_join_mails_its_referee_a_password(
    service: Service,
    db: Engine,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Issue 43, 1: the referees of a game open to JOIN were stored without a password.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pbem.toml").write_text("[security]\npassword_cost = 4\n")
    url = db.url.render_as_string(hide_password=False)
    head = ["--config", "pbem.toml", "--db", url, "--now", "2026-03-01T12:00:00+00:00"]
    assert main([*head, "game", "new", "g1", "--ruleset", "counting", "--open", "2",
                 "--referee", "ref@example.org"]) == 0  # fmt: skip
    assert "referee ref@example.org: password mailed to them (once)" in capsys.readouterr().out
    with transaction(db) as session:
        [referee] = session.exec(select(Referee)).all()
        assert referee.password_hash
    [letter] = outbox(service)
    assert letter.recipient == "ref@example.org"
    found = re.search(r"Your password: (\S+)", body(letter))
    assert found is not None
    # and the referee acts by mail while the game waits for its players
    raw = mail(f"GAME g1 REFEREE {found.group(1)}\naudit", sender="ref@example.org",
               message_id="r1@x")  # fmt: skip
    receipt = receive(service, raw, now=datetime.fromisoformat("2026-03-01T12:00:00+00:00"))
    assert receipt.status == "answered"
    # Issue 42's leftovers: the audit said "0 seats" of a game whose seats are all open.
    assert "game-created: counting, 0 taken, 2 open" in " ".join(body(receipt.replies[0]).split())


def _wrong(n: int, start: int = 0) -> str:
    """n CONFIRM lines of codes that are not the one mailed (no code has a 1 or an O)."""
    return "\n".join(f"CONFIRM WR{i:06d}".replace("0", "Z").replace("1", "Y")
                     for i in range(start, start + n))  # fmt: skip


def test_a_mail_of_many_wrong_codes_voids_the_join(service: Service, now: datetime) -> None:
    """A tester's find: one mail of 4,990 CONFIRM lines tried code after code. The fifth wrong
    code voids the waiting JOIN (the right one then takes nothing); the mail's outcome says
    each refusal once, not once a line. (Fewer lines than a mail may run: [limits]
    max_commands.)"""
    new_game(service, now, seats=(), signup_seats=2)
    _send(service, now, "JOIN g1 vic PASSWORD x", VICTIM)
    code = _code(service, VICTIM)
    receipt = receive(service, mail(f"{_wrong(15)}\nCONFIRM {code}", sender=VICTIM,
                                    message_id="many@x"), now=now)  # fmt: skip
    assert receipt.status == "quarantined", receipt.outcome
    text = " ".join(body(receipt.replies[0]).split())
    assert "that is not the code of a JOIN waiting here (4 more wrong codes void it)" in text
    assert "5 wrong codes: a JOIN waiting here is void; send the JOIN" in text
    assert "an address change waiting" not in text  # it speaks of what waits: a JOIN
    assert _seats(service) == []
    with transaction(service.db) as session:
        assert session.exec(select(JoinRequest)).all() == []
    assert len(receipt.outcome) < 1000, receipt.outcome
    assert "waits for a CONFIRM from this address (11 lines)" in receipt.outcome  # the rest
    assert quarantined(service)[-1].error.count("waits for a CONFIRM") == 1
    # Asked again, the new code works.
    _send(service, now, "JOIN g1 vic PASSWORD x", VICTIM)
    asked = [row for row in outbox(service) if "asked, from this address, to join" in body(row)]
    found = re.search(r"CONFIRM ([A-Z0-9]{8})", body(asked[-1]))
    assert found is not None and found.group(1) != code
    _send(service, now, f"CONFIRM {found.group(1)}", VICTIM)
    assert _seats(service) == [("vic", VICTIM)]


def test_wrong_codes_count_across_mails(service: Service, now: datetime) -> None:
    new_game(service, now, seats=(), signup_seats=2)
    _send(service, now, "JOIN g1 vic PASSWORD x", VICTIM)
    code = _code(service, VICTIM)
    for n in range(4):
        _send(service, now, _wrong(1, n), VICTIM)
    with transaction(service.db) as session:
        [waiting] = session.exec(select(JoinRequest)).all()
        assert waiting.misses == 4
    _send(service, now, _wrong(1, 4), VICTIM)
    assert "is void" in body(outbox(service)[-1])
    _send(service, now, f"CONFIRM {code}", VICTIM)
    assert "no JOIN or address change waits" in body(outbox(service)[-1])
    assert _seats(service) == []


def test_four_wrong_codes_then_the_right_one_join(service: Service, now: datetime) -> None:
    new_game(service, now, seats=(), signup_seats=2)
    _send(service, now, "JOIN g1 vic PASSWORD x", VICTIM)
    code = _code(service, VICTIM)
    receive(service, mail(f"{_wrong(4)}\nCONFIRM {code}", sender=VICTIM, message_id="four@x"),
            now=now)  # fmt: skip
    assert _seats(service) == [("vic", VICTIM)]


def test_the_last_wrong_code_but_one_is_named_in_the_singular(
    service: Service, now: datetime
) -> None:
    new_game(service, now, seats=(), signup_seats=2)
    _send(service, now, "JOIN g1 vic PASSWORD x", VICTIM)
    receipt = receive(service, mail(_wrong(4), sender=VICTIM, message_id="four@x"), now=now)
    text = " ".join(body(receipt.replies[0]).split())
    assert "(1 more wrong code voids it)" in text, text
    assert "(2 more wrong codes void it)" in text, text


def test_a_second_join_in_the_same_mail_is_answered(service: Service, now: datetime) -> None:
    # Every line is answered: the second JOIN is named, with why it was not taken.
    new_game(service, now, seats=(), signup_seats=2)
    text = "JOIN g1 vic PASSWORD x\nJOIN g1 vic2 PASSWORD y\n"
    receipt = receive(service, mail(text, sender=VICTIM, message_id="two@x"), now=now)
    [reply] = receipt.replies
    flat = " ".join(body(reply).split())
    assert "JOIN g1 vic2 PASSWORD" in flat, flat
    assert "only the first JOIN of game g1 in a mail is taken" in flat, flat
