"""Claims on work that several daemons see at once, so that each piece is done by one of them.

Every daemon reads the same inbox and so fetches the same waiting mail. Before it takes a mail
in, a daemon claims the mail's key with a PostgreSQL advisory lock (`pg_try_advisory_lock`):
it does the work only if the claim was free, and lets go once the mail is recorded and marked
done. A mail claimed by another daemon is left alone (not marked: the other marks it). Two
daemons going down the same batch therefore leapfrog, each taking the next free mail, instead
of both handling every mail and one losing at the commit.

The locks live on a connection of the claimer's own, outside any transaction, so they last
across the mail's transactions; a daemon that dies loses its connection and its claims with
it. A claim only shares work out: the unique Message-ID still guarantees a mail is applied
once. On SQLite (one daemon: pbem.store.daemon_lock) every claim is granted at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import TracebackType

from sqlalchemy import Connection, Engine, text

# Keys are hashed into the lock's 64-bit space with this prefix, so that they can meet no
# other advisory lock taken on the same database.
_NAMESPACE = "pbem-claim:"


class Claims:
    """A daemon's claims, on a connection of their own (a context manager: leaving it lets go
    of every claim). Not thread-safe: one claimer per thread."""

    def __init__(self, db: Engine) -> None:
        self._db = db
        self._connection: Connection | None = None
        self._held: set[str] = set()

    def __enter__(self) -> Claims:
        return self

    def __exit__(
        self,
        _type: type[BaseException] | None,
        _error: BaseException | None,
        _trace: TracebackType | None,
    ) -> None:
        self.close()

    def take(self, key: str) -> bool:
        """Claim `key`: True if it is now ours (or already was), False if another holds it."""
        return key in self.take_all([key])

    def take_all(self, keys: Sequence[str]) -> set[str]:
        """Claim each of `keys`, in one statement: those now ours (or ours already). Mail is
        claimed a block at a time (pbem.intake.ahead): a claim a mail was one round trip."""
        if self._db.dialect.name != "postgresql":
            return set(keys)
        wanted = [key for key in keys if key not in self._held]
        if wanted:
            # The lock is tried for every key (the function is volatile: once a row).
            query = text(
                "SELECT key FROM unnest(CAST(:keys AS text[])) AS key "
                "WHERE pg_try_advisory_lock(hashtextextended(:namespace || key, 0))"
            )
            rows = self._connected().execute(query, {"keys": wanted, "namespace": _NAMESPACE})
            self._held.update(rows.scalars())
        return {key for key in keys if key in self._held}

    def release(self, key: str) -> None:
        if key not in self._held or self._connection is None:
            return
        self._held.discard(key)
        query = text("SELECT pg_advisory_unlock(hashtextextended(:key, 0))")
        self._connection.execute(query, {"key": _NAMESPACE + key})

    def close(self) -> None:
        """Let go of every claim. A pooled connection keeps its session's locks when it goes
        back to the pool, so they are let go of first; a connection that cannot is discarded
        (the server then ends its locks with it)."""
        connection, self._connection = self._connection, None
        held, self._held = self._held, set()
        if connection is None:
            return
        try:
            if held:
                connection.execute(text("SELECT pg_advisory_unlock_all()"))
        except Exception:  # noqa: BLE001 - connection lost: discarding it ends its locks
            connection.invalidate()
        finally:
            connection.close()

    def _connected(self) -> Connection:
        if self._connection is None:
            # Autocommit: the connection must not sit idle in a transaction between claims.
            self._connection = self._db.connect().execution_options(isolation_level="AUTOCOMMIT")
        return self._connection
