"""Seat passwords are hashed with a salt and checked in constant time."""

from __future__ import annotations

from pbem.passwords import hash_password, masked, new_password, verify_password


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
