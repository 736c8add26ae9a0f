"""The service's database: one engine, and the units of work the domain opens on it.

The domain opens its units of work here, naming no engine: `transaction()` and `reading()`,
each a Work (pbem.store.work). Every commit is synchronous: a mail is marked done in the
inbox only after its commit returned, so it is on disk by then."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass

from sqlalchemy import Engine

from pbem.errors import DatabaseNotReady
from pbem.store import changes, daemon_lock, migrate, site_key
from pbem.store.claims import Claims
from pbem.store.db import make_engine, reading, transaction
from pbem.store.work import Work, work_of


@dataclass(frozen=True)
class Databases:
    db: Engine

    @classmethod
    def open(cls, url: str, *, busy_seconds: float = 30.0) -> Databases:
        return cls(make_engine(url, busy_seconds=busy_seconds))

    @contextmanager
    def transaction(self, *, keep: bool = True) -> Iterator[Work]:
        """One unit of work, in one transaction: committed if the block ends normally, else
        rolled back; always rolled back with keep=False (`pbem check`: nothing kept)."""
        with transaction(self.db, keep=keep) as session:
            yield work_of(session)

    @contextmanager
    def reading(self) -> Iterator[Work]:
        """A unit of work that only reads: it takes no write lock, nor waits for one."""
        with reading(self.db) as session:
            yield work_of(session)

    def watch_changes(self, watcher: changes.Watcher) -> None:
        """Call `watcher(game_id)` after each commit that changed a game its players are told
        of (pbem.store.changes)."""
        changes.watch(self.db, watcher)

    def unwatch_changes(self) -> None:
        changes.unwatch(self.db)

    def site_key(self, name: str) -> bytes:
        """The site's key `name` (pbem.store.site_key), read (or made) in a short transaction
        of its own if not remembered: for the courier, which sends with no session open."""
        found = site_key.remembered(self.db, name)
        if found is None:
            with self.transaction() as work:
                found = work.site.site_key(name)
        return found

    def claims(self) -> Claims:
        """The inbox's claims between daemons, for one pass (pbem.store.claims)."""
        return Claims(self.db)

    # The database as a whole: whether it answers, its schema (pbem.store.migrate), and the
    # one daemon a SQLite file takes (pbem.store.daemon_lock).

    def why_unreachable(self) -> str:
        return migrate.why_unreachable(self.db)

    def check_reachable(self) -> None:
        migrate.check_reachable(self.db)

    def pending_revisions(self) -> set[str]:
        return migrate.pending_revisions(self.db)

    def not_ready(self, url: str, pending: set[str]) -> DatabaseNotReady:
        return migrate.not_ready(url, pending, self.db)

    def upgrade(self) -> None:
        migrate.upgrade(self.db)

    def only_daemon(self) -> AbstractContextManager[None]:
        return daemon_lock.only_daemon(self.db)
