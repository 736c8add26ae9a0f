"""A seat's password check under the operator's key: a verified password is verified again at
HMAC cost across restarts, a guess never is, and the key stays outside the database."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import pytest
from sqlmodel import select

from pbem import passwords
from pbem.config import SecuritySettings, Settings
from pbem.games import seat_passwords
from pbem.games.seat_passwords import (
    check_key,
    give_password,
    looks_proved,
    password_holds,
    take_password,
)
from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.mail.secrets import SecretError
from pbem.store import Seat, transaction
from tests.support.games import new_game
from tests.support.mails import order_mail
from tests.support.scrypt import counted_scrypt

KEY = "k" * 44
KEYED = SecuritySettings(password_cost=4, check_key_env="PBEM_TEST_CHECK_KEY")
UNKEYED = SecuritySettings(password_cost=4)


@pytest.fixture(autouse=True)
def fresh_process(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """A process just started (nothing verified in memory, the key not read yet), with the key
    in the environment; yields the passwords scrypt was run for."""
    monkeypatch.setenv("PBEM_TEST_CHECK_KEY", KEY)
    monkeypatch.setattr(passwords, "_VERIFIED", passwords.PasswordMemory())
    seat_passwords._key.cache_clear()
    yield counted_scrypt(monkeypatch)
    seat_passwords._key.cache_clear()


def restart(monkeypatch: pytest.MonkeyPatch, calls: list[str]) -> None:
    monkeypatch.setattr(passwords, "_VERIFIED", passwords.PasswordMemory())
    seat_passwords._key.cache_clear()
    calls.clear()


def test_a_given_password_is_proved_by_its_check_without_scrypt(
    monkeypatch: pytest.MonkeyPatch, fresh_process: list[str]
) -> None:
    seat = Seat(game_id="g1", name="ann", position=0, address="", password_hash="")
    give_password(seat, "tulip-stone-42", KEYED)
    assert seat.password_check and "tulip" not in seat.password_check
    restart(monkeypatch, fresh_process)
    assert password_holds(seat, "tulip-stone-42", KEYED)
    assert looks_proved(seat, "tulip-stone-42", KEYED)
    assert fresh_process == []  # no scrypt: the check proved it
    for guess in ("tulip-stone-43", "tulip-stone-43", ""):
        assert not password_holds(seat, guess, KEYED)
    assert fresh_process == ["tulip-stone-43", "tulip-stone-43", ""]  # a guess pays in full


def test_without_a_key_nothing_is_stored_and_scrypt_proves_it_once_a_process(
    monkeypatch: pytest.MonkeyPatch, fresh_process: list[str]
) -> None:
    seat = Seat(game_id="g1", name="ann", position=0, address="", password_hash="")
    give_password(seat, "tulip-stone-42", UNKEYED)
    assert seat.password_check == ""
    restart(monkeypatch, fresh_process)
    assert password_holds(seat, "tulip-stone-42", UNKEYED)
    assert password_holds(seat, "tulip-stone-42", UNKEYED)
    assert fresh_process == ["tulip-stone-42"] and seat.password_check == ""


def test_a_check_made_under_another_key_or_for_another_hash_proves_nothing(
    monkeypatch: pytest.MonkeyPatch, fresh_process: list[str]
) -> None:
    seat = Seat(game_id="g1", name="ann", position=0, address="", password_hash="")
    give_password(seat, "tulip-stone-42", UNKEYED)
    old_hash = seat.password_hash
    fresh_process.clear()
    assert password_holds(seat, "tulip-stone-42", KEYED)  # scrypt, then the check is written
    assert seat.password_check and fresh_process == ["tulip-stone-42"]
    monkeypatch.setenv("PBEM_TEST_CHECK_KEY", "n" * 44)  # the operator changed the key
    restart(monkeypatch, fresh_process)
    stale = seat.password_check
    assert password_holds(seat, "tulip-stone-42", KEYED)
    assert fresh_process == ["tulip-stone-42"] and seat.password_check not in ("", stale)
    give_password(seat, "new-password-7", KEYED)  # a new hash: the old check is for the old
    restart(monkeypatch, fresh_process)
    check = seat.password_check
    seat.password_check = passwords.password_check("tulip-stone-42", old_hash, check_key(KEYED))
    assert not password_holds(seat, "tulip-stone-42", KEYED)
    seat.password_check = check
    assert password_holds(seat, "new-password-7", KEYED) and fresh_process == ["tulip-stone-42"]


def test_a_seat_without_a_password_is_proved_by_nothing(fresh_process: list[str]) -> None:
    seat = Seat(game_id="g1", name="ann", position=0, address="", password_hash="")
    give_password(seat, "tulip-stone-42", KEYED)
    check = seat.password_check
    take_password(seat)
    assert (seat.password_hash, seat.password_check) == ("", "")
    seat.password_check = check  # even a check left behind
    assert not password_holds(seat, "tulip-stone-42", KEYED)
    assert not password_holds(seat, "", KEYED)


def test_a_raised_cost_rehashes_and_checks_the_new_hash(fresh_process: list[str]) -> None:
    seat = Seat(game_id="g1", name="ann", position=0, address="", password_hash="")
    give_password(seat, "tulip-stone-42", KEYED)
    dearer = replace(KEYED, password_cost=5)
    assert password_holds(seat, "tulip-stone-42", dearer)
    assert seat.password_hash.startswith("scrypt$32$")
    assert seat.password_check == passwords.password_check(
        "tulip-stone-42", seat.password_hash, check_key(KEYED)
    )


def test_the_key_comes_from_a_file_or_a_variable_long_enough(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    key_file = tmp_path / "check-key"
    key_file.write_text(KEY + "\n")
    key_file.chmod(0o600)
    from_file = check_key(SecuritySettings(check_key_file=str(key_file)))
    assert from_file == check_key(KEYED) and len(from_file) == 32
    assert check_key(UNKEYED) == b""
    monkeypatch.setenv("PBEM_SHORT_KEY", "hunter2")
    with pytest.raises(SecretError, match="at least 32"):
        check_key(SecuritySettings(check_key_env="PBEM_SHORT_KEY"))
    both = SecuritySettings(check_key_env="PBEM_TEST_CHECK_KEY", check_key_file=str(key_file))
    with pytest.raises(SecretError, match="only one of check_key_env, check_key_file"):
        check_key(both)
    with pytest.raises(SecretError, match="PBEM_NO_SUCH_KEY is not set"):
        check_key(SecuritySettings(check_key_env="PBEM_NO_SUCH_KEY"))


def test_a_restarted_daemon_takes_the_first_orders_of_a_new_game_without_scrypt(
    db: object, monkeypatch: pytest.MonkeyPatch, fresh_process: list[str], now: datetime
) -> None:
    service = Service(db, replace(Settings(), security=KEYED))  # type: ignore[arg-type]
    new_game(service, now)
    restart(monkeypatch, fresh_process)
    raw = order_mail("g1", "alice", "pw-alice", "ADD 2\n")
    assert receive(service, raw, now=now).status == "accepted"
    assert fresh_process == []
    wrong = order_mail("g1", "bob", "pw-alice", "ADD 2\n", message_id="m2@x")
    assert receive(service, wrong, now=now).outcome.startswith("password:")
    assert fresh_process == ["pw-alice", "pw-alice"]  # a guess: scrypt ahead, and again inside
    with transaction(service.db) as session:
        checks = {seat.name: seat.password_check for seat in session.exec(select(Seat))}
    assert all(checks.values()) and "pw-alice" not in str(checks)
