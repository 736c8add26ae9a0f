"""Seat passwords are hashed with a salt and checked in constant time."""

from __future__ import annotations

import pytest

from pbem.passwords import (
    PasswordMemory,
    hash_password,
    masked,
    new_password,
    rehashed,
    verify_password,
)
from tests.support.scrypt import counted_scrypt


def test_a_password_checks_against_its_hash_only() -> None:
    stored = hash_password("s3cret", cost=4)
    assert stored.startswith("scrypt$16$")
    assert "s3cret" not in stored
    assert verify_password("s3cret", stored)
    assert not verify_password("s3cret ", stored)
    assert not verify_password("", stored)


def test_the_same_password_hashes_differently_each_time() -> None:
    assert hash_password("pw", cost=4) != hash_password("pw", cost=4)


def test_a_damaged_hash_checks_nothing() -> None:
    assert not verify_password("pw", "plain-text")
    assert not verify_password("pw", "md5$1$1$1$AA==$AA==")


def test_new_passwords_and_masks() -> None:
    password = new_password()
    assert len(password) == 10 and password.isalnum()
    assert masked("hunter2") == "h******"
    assert masked("ab") == "a***"


def test_costs_above_14_work() -> None:
    # Without scrypt's maxmem, OpenSSL refused every cost above 14 ("memory limit exceeded").
    for cost in (15, 16):
        stored = hash_password("pw", cost=cost)
        assert stored.startswith(f"scrypt${2**cost}$")
        assert verify_password("pw", stored)


def test_a_hash_of_another_cost_is_made_anew() -> None:
    old = hash_password("pw", cost=4)
    assert rehashed("pw", old, cost=4) is None
    new = rehashed("pw", old, cost=5)
    assert new is not None and new.startswith("scrypt$32$")
    assert verify_password("pw", new)


def test_a_verified_password_is_checked_again_without_scrypt_and_a_guess_never_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stored = hash_password("tulip-stone-42", cost=4)
    calls = counted_scrypt(monkeypatch)
    assert verify_password("tulip-stone-42", stored)
    assert verify_password("tulip-stone-42", stored)  # the second time: an HMAC
    assert calls == ["tulip-stone-42"]
    for guess in ("tulip-stone-43", "tulip-stone-43", ""):
        assert not verify_password(guess, stored)
    assert calls == ["tulip-stone-42", "tulip-stone-43", "tulip-stone-43", ""]  # full price
    changed = hash_password("tulip-stone-42", cost=4)  # the same password under a new hash
    calls.clear()
    assert verify_password("tulip-stone-42", changed) and calls == ["tulip-stone-42"]


def test_the_verified_checks_keep_the_newest() -> None:
    verified = PasswordMemory(size=2)
    for number in range(3):
        verified.add(f"pw{number}", f"hash{number}")
    assert not verified.holds("pw0", "hash0")  # the oldest went
    assert verified.holds("pw1", "hash1") and verified.holds("pw2", "hash2")
    assert not verified.holds("pw2", "hash1")  # a password counts for its own hash only
