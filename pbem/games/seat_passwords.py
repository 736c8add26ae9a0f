"""A seat's password as the database keeps it: the scrypt hash, and (with a check key) the
check that lets a verified password be verified again at the cost of an HMAC, across restarts.

The check key is a secret of the operator's, kept outside the database (an environment
variable or a file, `[security] check_key_env` / `check_key_file`), so that whoever has the
database alone cannot test guesses at HMAC speed. docs/operations.md ("The check key") weighs
it."""

from __future__ import annotations

import hashlib
from functools import cache

from pbem.config import SecuritySettings
from pbem.mail.secrets import SecretError, resolve_secret
from pbem.passwords import (
    hash_password,
    password_check,
    rehashed,
    verified_at_once,
    verify_password,
)
from pbem.store import Seat
from pbem.store.changes import note_seat_changed

# Shorter than this is no secret: `openssl rand -base64 32` gives 44 characters.
SHORTEST_KEY = 32


def give_password(seat: Seat, password: str, security: SecuritySettings) -> None:
    """Make `password` the seat's."""
    seat.password_hash = hash_password(password, cost=security.password_cost)
    seat.password_check = password_check(password, seat.password_hash, check_key(security))
    note_seat_changed(seat)  # a new link to the seat's web pages (pbem.games.site_links)


def take_password(seat: Seat) -> None:
    """The seat has no password any more (its player left): nothing proves it."""
    seat.password_hash = seat.password_check = ""
    note_seat_changed(seat)


def password_holds(seat: Seat, password: str, security: SecuritySettings) -> bool:
    """Does `password` prove the seat? When it does, the hash is made anew at the configured
    cost if it was made at another, and the check stored if it was missing or stale."""
    if not looks_proved(seat, password, security):
        return False
    upgraded = rehashed(password, seat.password_hash, cost=security.password_cost)
    if upgraded:
        seat.password_hash = upgraded
    check = password_check(password, seat.password_hash, check_key(security))
    if seat.password_check != check:
        seat.password_check = check
    return True


def looks_proved(seat: Seat, password: str, security: SecuritySettings) -> bool:
    """The same test as password_holds, changing nothing (a look ahead of the mail's turn)."""
    key = check_key(security)
    return verify_password(password, seat.password_hash, check=seat.password_check, key=key)


def proved_at_once(seat: Seat, password: str, security: SecuritySettings) -> bool:
    """Does `password` prove the seat by what costs an HMAC: its stored check, or this
    process's memory of a check passed? False says only that scrypt would have to tell (or
    that the seat has no password, which nothing proves)."""
    key = check_key(security)
    return verified_at_once(password, seat.password_hash, check=seat.password_check, key=key)


def check_key(security: SecuritySettings) -> bytes:
    """The key checks are made under; b"" when none is configured. Read once a process: a new
    key takes a restart (and every seat's next mail then pays scrypt once)."""
    return _key(security.check_key_env, security.check_key_file)


@cache
def _key(env: str, file: str) -> bytes:
    secret = resolve_secret(
        env=env, file=file, what="[security] check key", sources="check_key_env, check_key_file"
    )
    if secret and len(secret) < SHORTEST_KEY:
        raise SecretError(
            f"[security] check key: {len(secret)} characters; it needs at least {SHORTEST_KEY} "
            "(make one with: openssl rand -base64 32)"
        )
    if not secret:
        return b""
    return hashlib.sha256(b"pbem password check\0" + secret.encode()).digest()
