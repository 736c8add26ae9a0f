"""Seat passwords are hashed with a salt and checked in constant time."""

from __future__ import annotations

from pbem.passwords import hash_password, masked, new_password, rehashed, verify_password


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
