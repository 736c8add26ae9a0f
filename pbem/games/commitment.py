"""A game's secret seed, the commitment to it published at the start, and what reveals it.

A new game's seed is a random number of SEED_BITS bits: every die of the game is drawn from
it (engine.dice), so a player who knows some of their own rolls must not be able to try
every seed until one gives them (a seed below 2**31, as games made before had, can be found
so in hours). Those older games keep theirs: their dice must replay as they were rolled.

Commitment = SHA-256 of the text "SEED SALT" (decimal seed, one space, the salt in hex), as
lower-case hex. The salt is 16 random bytes made with the game and kept secret with the seed:
without it a small seed could be found from the commitment by hashing every candidate.
"""

from __future__ import annotations

import hashlib
import secrets

SALT_BYTES = 16
SEED_BITS = 128
# The most digits a stored seed has (pbem.store.models.SeedNumber): 2**128 has 39, a seed
# given on the command line may have one more, or a minus sign.
SEED_DIGITS = 40


def new_seed() -> int:
    return secrets.randbits(SEED_BITS)


def new_salt() -> str:
    return secrets.token_hex(SALT_BYTES)


def commitment(seed: int, salt: str) -> str:
    return hashlib.sha256(f"{seed} {salt}".encode()).hexdigest()
