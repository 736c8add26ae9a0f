"""Seat passwords: stored as salted scrypt hashes, compared in constant time."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

# scrypt cost as log2(n): 14 takes ~50 ms here, cheap for one mail and costly for a guesser.
# Each hash records its own cost, so lowering the setting (tests, benchmarks) breaks nothing.
DEFAULT_COST = 14
_R, _P = 8, 1


def hash_password(password: str, *, cost: int = DEFAULT_COST, salt: bytes | None = None) -> str:
    salt = salt if salt is not None else secrets.token_bytes(16)
    n = 2**cost
    digest = _scrypt(password, salt, n, _R, _P)
    return f"scrypt${n}${_R}${_P}${_b64(salt)}${_b64(digest)}"


def verify_password(password: str, stored: str) -> bool:
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
    except ValueError:
        return False
    if scheme != "scrypt":
        return False
    expected = base64.b64decode(digest)
    actual = _scrypt(password, base64.b64decode(salt), int(n), int(r), int(p))
    return hmac.compare_digest(actual, expected)


def new_password() -> str:
    """A password a person can type: 10 letters and digits without look-alikes."""
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
    return "".join(secrets.choice(alphabet) for _ in range(10))


def masked(password: str) -> str:
    """What a reply may show of a password: its first letter only."""
    return password[:1] + "*" * max(len(password) - 1, 3)


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(password.encode(), salt=salt, n=n, r=r, p=p, dklen=32)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")
