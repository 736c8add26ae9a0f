"""Games changed in a way their players are told of, handed on once the change is committed.

The domain notes a game in its unit of work (`work.games.note_changed(game_id)`): every mail
about a game to its players, as the outbox queues it (`pbem.games.outbox.queue`), and a
seat's new password or address, answered by a plain reply (`note_seat_changed`). After the
transaction commits, each watcher of the session's database is called with every game noted
in it: the web archive (pbem.web) rewrites them. Never inside the transaction, and a
watcher's failure is logged, never raised: the turn and its mail stand whatever becomes of
the archive. A rolled back transaction hands on nothing.

The watchers are registered by whoever runs the service (the command line, for `pbem serve`
and the operator's commands) through its store (`service.store.watch_changes`), by database:
a process that registered none (a test, a bench) pays a dictionary look-up a mail.
"""

from __future__ import annotations

import logging
import threading
import weakref
from collections.abc import Callable
from typing import Any

from sqlalchemy import Engine, event
from sqlalchemy.orm import Session, object_session

from pbem.store.models import Seat

log = logging.getLogger(__name__)

Watcher = Callable[[str], None]  # called with a game's id after a commit that changed it
# By database, held weakly: a watcher keeps no engine (nor its connections) alive.
_WATCHERS: weakref.WeakKeyDictionary[Engine, list[Watcher]] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()
_NOTED = "pbem_changed_games"  # in a session's info: the games noted since its last commit
_LISTENING = "pbem_changed_listening"


def watch(engine: Engine, watcher: Watcher) -> None:
    """Call `watcher(game_id)` after every commit on `engine` that noted a game. The watcher
    must not hold the engine itself (a weak reference to what holds it)."""
    with _LOCK:
        _WATCHERS.setdefault(engine, []).append(watcher)


def unwatch(engine: Engine) -> None:
    """Forget every watcher of `engine`."""
    with _LOCK:
        _WATCHERS.pop(engine, None)


def note_seat_changed(seat: Seat) -> None:
    """The seat's game changed in the transaction of the session the seat was read in (its
    password given or taken): nothing if it is in none."""
    session = object_session(seat)
    if session is not None:
        note_changed(session, seat.game_id)


def note_changed(session: Session, game_id: str) -> None:
    """The game changed in this session's transaction: tell the watchers after its commit."""
    if not _WATCHERS or not game_id:
        return
    if not _watchers_of(session):
        return
    noted: set[str] = session.info.setdefault(_NOTED, set())
    noted.add(game_id)
    if not session.info.get(_LISTENING):
        session.info[_LISTENING] = True
        event.listen(session, "after_commit", _after_commit)
        event.listen(session, "after_rollback", _after_rollback)


def _watchers_of(session: Session) -> list[Watcher]:
    bind: Any = session.get_bind()
    engine = getattr(bind, "engine", bind)
    try:
        return list(_WATCHERS.get(engine, ()))
    except TypeError:  # not an engine: nothing watches it
        return []


def _after_commit(session: Session) -> None:
    # SQLAlchemy fires after_commit at a SAVEPOINT's release too (a referee mail runs each
    # command in one): the change is not committed yet, and a watcher then drew the game as
    # it was before it (the referee mail's REPLACE left the old seat's pages readable).
    if session.in_nested_transaction():
        return
    noted: set[str] = session.info.pop(_NOTED, set())
    if not noted:
        return
    watchers = _watchers_of(session)
    for game_id in sorted(noted):
        for watcher in watchers:
            try:
                watcher(game_id)
            except Exception:  # nothing a watcher does may fail the change
                # The watchers log their own failures with the game's context
                # (pbem.web.archive.write_logged): this is the last resort.
                log.exception("after the change of game %s", game_id)


def _after_rollback(session: Session) -> None:
    # A SAVEPOINT rolled back (a refused referee command) leaves the games the commands
    # before it changed noted: at worst a game is written again unchanged.
    if not session.in_nested_transaction():
        session.info.pop(_NOTED, None)
