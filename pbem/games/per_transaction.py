"""What a transaction has queued so far, for a later command of the same transaction to
revise before anyone could send it: the clock notices a referee mail's RESUME then DEADLINE
would each queue (pbem.clock.notices.queue_news), the welcome of a REPLACE whose deadline a
later command moves (pbem.referee.welcomes). Kept by the session's root transaction and held
weakly: it is gone with its transaction, committed or rolled back, so nothing of one
transaction's mail reaches the next."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Generic, TypeVar

from sqlalchemy.orm import SessionTransaction
from sqlmodel import Session

T = TypeVar("T")


class PerTransaction(Generic[T]):
    """A value of each root transaction, made by `make` when first asked for."""

    def __init__(self, make: Callable[[], T]) -> None:
        self._make = make
        self._values: weakref.WeakKeyDictionary[SessionTransaction, T] = weakref.WeakKeyDictionary()

    def of(self, session: Session) -> T:
        """The value of the session's transaction; outside one, a new value kept by nobody
        (what is put in it is forgotten: there is no transaction to revise)."""
        transaction = session.get_transaction()
        if transaction is None:
            return self._make()
        if transaction not in self._values:
            self._values[transaction] = self._make()
        return self._values[transaction]
