"""What a transaction has queued so far (pbem.store.work.PerTransaction), the one keeper of the
clock notices' and the welcomes' state: the same value through a command's SAVEPOINT, a new
one in the next transaction, none kept outside a transaction."""

from __future__ import annotations

from sqlalchemy import Engine
from sqlmodel import Session

from pbem.store import transaction
from pbem.store.work import PerTransaction, work_of


def test_a_value_lives_as_long_as_its_root_transaction(db: Engine) -> None:
    kept: PerTransaction[list[int]] = PerTransaction(list)
    with transaction(db) as session:
        kept.of(work_of(session)).append(1)
        with session.begin_nested():  # a referee command's SAVEPOINT: the same transaction
            kept.of(work_of(session)).append(2)
        assert kept.of(work_of(session)) == [1, 2]
    with transaction(db) as session:
        assert kept.of(work_of(session)) == []


def test_outside_a_transaction_nothing_is_kept(db: Engine) -> None:
    kept: PerTransaction[list[int]] = PerTransaction(list)
    with Session(db) as session:
        assert session.get_transaction() is None
        kept.of(work_of(session)).append(1)
        assert kept.of(work_of(session)) == []
