"""Counting scrypt: which passwords a test made the real scrypt run for."""

from __future__ import annotations

import pytest

from pbem import passwords


def counted_scrypt(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """From now on in this test, the passwords scrypt is run for, in order."""
    calls: list[str] = []
    real = passwords._scrypt

    def counted(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:
        calls.append(password)
        return real(password, salt, n, r, p)

    monkeypatch.setattr(passwords, "_scrypt", counted)
    return calls
