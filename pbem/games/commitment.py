"""The commitment to a game's secret seed, published at the start, and what reveals it.

Commitment = SHA-256 of the text "SEED SALT" (decimal seed, one space, the salt in hex), as
lower-case hex. The salt is 16 random bytes made with the game and kept secret with the seed:
without it a seed below 2**31 could be found by hashing every candidate.
"""

from __future__ import annotations

import hashlib
import secrets

SALT_BYTES = 16


def new_salt() -> str:
    return secrets.token_hex(SALT_BYTES)


def commitment(seed: int, salt: str) -> str:
    return hashlib.sha256(f"{seed} {salt}".encode()).hexdigest()
