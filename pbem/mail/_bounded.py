"""The email package's parser, given bounded work: every header value cut to MAX_VALUE
characters as it is read (and a Content-Type or Content-Disposition to MAX_PARAMETERS
parameters), and the parse stopped (TooMany) at more than MAX_PARTS parts or MAX_FIELDS
header fields.

Unbounded, a header value costs the package work that grows with the square of its size
when it is read (50,000 parameters of a Content-Type took 0.4 s at 200 kB, 40 s at 2 MB;
encoded words likewise), and every MIME part costs it Python work (400,000 empty parts in
2 MB took 6 s). No mail a person writes comes near these caps.
"""

from __future__ import annotations

import email
import email.message
from email.policy import Compat32, compat32
from typing import Any

MAX_VALUE = 16_000  # characters of a header value (a long References or To is 10,000)
MAX_PARTS = 500  # MIME parts of one mail, nested ones included
MAX_FIELDS = 5_000  # header fields of one mail, those of its parts included
# Parameters of a Content-Type or Content-Disposition: the package parses them again at each
# question (type, charset, filename), at a cost of their number times their length.
MAX_PARAMETERS = 100
_PARAMETERISED = frozenset({"content-type", "content-disposition"})


class TooMany(Exception):
    """The mail has more parts or header fields than pbem reads."""

    def __init__(self, what: str, limit: int) -> None:
        super().__init__(f"more than {limit} {what}")
        self.what, self.limit = what, limit


class _Counting(Compat32):
    """Compat32, as message_from_bytes uses by default, but cutting each header value and
    counting the fields. A policy is immutable: the count is kept in a list set once."""

    def __init__(self, fields: int, **kw: Any) -> None:
        super().__init__(**kw)
        object.__setattr__(self, "_left", [fields])

    def header_source_parse(self, sourcelines: list[str]) -> tuple[str, str]:
        left: list[int] = self._left  # type: ignore[attr-defined]
        left[0] -= 1
        if left[0] < 0:
            raise TooMany("header fields", MAX_FIELDS)
        name, value = super().header_source_parse(sourcelines)
        value = value[:MAX_VALUE]
        if name.lower() in _PARAMETERISED:
            value = ";".join(value.split(";", MAX_PARAMETERS + 1)[: MAX_PARAMETERS + 1])
        return name, value


def bounded_parse(raw: bytes, *, fields: int = MAX_FIELDS) -> email.message.Message:
    """message_from_bytes, with the caps above; raises TooMany past one of them."""
    parts = [MAX_PARTS + 1]  # the parser makes one message to try the factory out

    # Called with the policy: the parser tries that first (typeshed knows only the old way).
    def factory(policy: Compat32 = compat32) -> email.message.Message:
        parts[0] -= 1
        if parts[0] < 0:
            raise TooMany("MIME parts", MAX_PARTS)
        return email.message.Message(policy)

    return email.message_from_bytes(raw, _class=factory, policy=_Counting(fields))


def cut(value: str, limit: int) -> str:
    """`value`, or its first `limit` characters and '…' when it is longer."""
    return value if len(value) <= limit else value[: limit - 1].rstrip() + "…"
