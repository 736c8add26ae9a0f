"""The tables' constraints and types behave the same on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import datetime

import pytest
from sqlalchemy import Engine
from sqlalchemy.exc import IntegrityError

from pbem.store import InboundMessage, dumps, loads, transaction


def _message(message_id: str, now: datetime, raw: bytes = b"raw") -> InboundMessage:
    return InboundMessage(message_id=message_id, raw=raw, received_at=now)


def test_a_message_id_is_recorded_once(db: Engine, now: datetime) -> None:
    with transaction(db) as session:
        session.add(_message("a@x", now))
    with pytest.raises(IntegrityError), transaction(db) as session:
        session.add(_message("a@x", now))
    with transaction(db) as session:
        assert session.get(InboundMessage, 1) is not None
        assert session.get(InboundMessage, 2) is None


def test_raw_bytes_and_times_come_back_as_stored(db: Engine, now: datetime) -> None:
    raw = bytes(range(256)) * 4
    with transaction(db) as session:
        session.add(_message("b@x", now, raw))
    with transaction(db) as session:
        row = session.get(InboundMessage, 1)
        assert row is not None
        assert row.raw == raw
        assert row.received_at == now


def test_json_is_canonical() -> None:
    assert dumps({"b": [1, {"d": 1, "c": 2}], "a": "é"}) == '{"a":"é","b":[1,{"c":2,"d":1}]}'
    assert loads(dumps({"x": [1, 2]})) == {"x": [1, 2]}
