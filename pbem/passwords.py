"""Seat and referee passwords: stored as salted scrypt hashes, compared in constant time. A hash
made at another cost than the configured one is made anew the next time its password is given
(`rehashed`), so that raising `[security] password_cost` reaches every seat that plays.

A password once verified is verified again at the cost of an HMAC for as long as the process
runs (`PasswordMemory`): a player mails every turn with the same password, and scrypt at the
production cost (about 50 ms) would otherwise bound intake near 20 mails a second. A wrong
password never gains from it: a guess that is not a password already verified pays scrypt in
full. With a check key configured (kept outside the database), the same HMAC is stored beside
the hash (`password_check`), so that a restarted daemon, or a seat that has not written since,
skips scrypt too. docs/operations.md ("Password checks at volume") gives the reasoning."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import threading
from collections import OrderedDict

# scrypt cost as log2(n): 14 takes ~50 ms here, cheap for one mail and costly for a guesser.
# Each hash records its own cost, so lowering the setting (tests, benchmarks) breaks nothing.
DEFAULT_COST = 14
# 2**20 takes 1 GiB and about 4 s: more would hold up every mail behind one password check.
MIN_COST, MAX_COST = 4, 20
_R, _P = 8, 1


def hash_password(password: str, *, cost: int = DEFAULT_COST, salt: bytes | None = None) -> str:
    salt = salt if salt is not None else secrets.token_bytes(16)
    n = 2**cost
    digest = _scrypt(password, salt, n, _R, _P)
    return f"scrypt${n}${_R}${_P}${_b64(salt)}${_b64(digest)}"


class PasswordMemory:
    """Passwords this process has seen pass, each for a key of the caller's (a stored hash, a
    seat): an HMAC of the password under a key made at start and never written anywhere. One
    password a key: a new one replaces it. The oldest entries go beyond `size`."""

    def __init__(self, size: int = 20_000) -> None:
        self.size = size
        self._key = secrets.token_bytes(32)
        self._entries: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def holds(self, password: str, key: str) -> bool:
        mac = self._mac(password, key)
        with self._lock:
            known = self._entries.get(key)
            if known is None or not hmac.compare_digest(known, mac):
                return False
            self._entries.move_to_end(key)
            return True

    def add(self, password: str, key: str) -> None:
        mac = self._mac(password, key)
        with self._lock:
            self._entries[key] = mac
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def forget(self, key: str) -> None:
        with self._lock:
            self._entries.pop(key, None)

    def _mac(self, password: str, key: str) -> bytes:
        return _mac(self._key, password, key)


# The checks scrypt passed, by stored hash: a new password (a new hash) is checked anew.
_VERIFIED = PasswordMemory()


def password_check(password: str, stored: str, key: bytes) -> str:
    """What may be stored beside `stored` once `password` has passed it, so that the next
    check costs an HMAC: the HMAC of both under `key`. "" without a key or a hash. Bound to the
    hash, so a new password (a new hash, a new salt) leaves an old check matching nothing."""
    if not key or not stored:
        return ""
    return _b64(_mac(key, password, stored))


def verify_password(password: str, stored: str, *, check: str = "", key: bytes = b"") -> bool:
    """Does `password` match the scrypt hash `stored`? `check` and `key`: the stored check
    (password_check) and the key it was made under, which prove it without scrypt."""
    if not stored:
        return False  # no password (a seat given up): nothing matches
    if verified_at_once(password, stored, check=check, key=key):
        return True
    if _scrypt_matches(password, stored):
        _VERIFIED.add(password, stored)
        return True
    return False


def verified_at_once(password: str, stored: str, *, check: str = "", key: bytes = b"") -> bool:
    """Does `password` match `stored` by what costs an HMAC: the stored check, or this
    process's memory of a check passed? False for a hash, says only that scrypt would have to
    tell; an empty hash (no password) is matched by nothing."""
    if not stored:
        return False
    if check and key:
        made = password_check(password, stored, key).encode()
        if hmac.compare_digest(check.encode("utf-8", "replace"), made):
            return True
    return _VERIFIED.holds(password, stored)


def _scrypt_matches(password: str, stored: str) -> bool:
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
    except ValueError:
        return False
    if scheme != "scrypt":
        return False
    expected = base64.b64decode(digest)
    actual = _scrypt(password, base64.b64decode(salt), int(n), int(r), int(p))
    return hmac.compare_digest(actual, expected)


def rehashed(password: str, stored: str, *, cost: int) -> str | None:
    """The hash to store instead of `stored` once `password` was verified against it: made
    at `cost` when `stored` was made at another; None when it is as it should be."""
    try:
        n = int(stored.split("$")[1])
    except (IndexError, ValueError):
        n = 0
    return None if n == 2**cost else hash_password(password, cost=cost)


# A seat's password as a player can give it: SET PASSWORD takes one word, and '#' starts a
# comment on every line of a mail (pbem.mail.envelope), so a password with either could
# never be written on a GAME line.
SHORTEST, LONGEST = 6, 64
PASSWORD_RULE = (
    f"a password is {SHORTEST} to {LONGEST} characters, without spaces or # (# starts a "
    "comment in a mail)"
)


def password_problem(password: str) -> str:
    """PASSWORD_RULE when `password` cannot be a seat's password, '' when it can: for
    `pbem game new --seat NAME=ADDRESS:PASSWORD` as for SET PASSWORD."""
    fits = SHORTEST <= len(password) <= LONGEST
    if not fits or "#" in password or any(c.isspace() for c in password):
        return PASSWORD_RULE
    return ""


def new_password() -> str:
    """A password a person can type: 10 letters and digits without look-alikes."""
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
    return "".join(secrets.choice(alphabet) for _ in range(10))


def masked(password: str) -> str:
    """What a reply may show of a password: its first letter only."""
    return password[:1] + "*" * max(len(password) - 1, 3)


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    # scrypt needs about 128 * r * n bytes; OpenSSL refuses more than 32 MiB unless told, which
    # made every cost above 14 fail with "memory limit exceeded".
    maxmem = 128 * r * (n + p + 2) + (1 << 20)
    return hashlib.scrypt(password.encode(), salt=salt, n=n, r=r, p=p, maxmem=maxmem, dklen=32)


def _mac(key: bytes, password: str, stored: str) -> bytes:
    message = stored.encode() + b"\0" + password.encode("utf-8", "surrogatepass")
    return hmac.new(key, message, hashlib.sha256).digest()


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")
