"""Games changed in a way their players are told of, handed on once the change is committed.

Every mail about a game to its players goes through the outbox (`pbem.games.outbox.queue`),
which notes the game here; a seat's new password or address, answered by a plain reply, is
noted where it is set. After the transaction commits, each watcher of the session's database
is called with every game noted in it: the web archive (pbem.web) rewrites them. Never inside
the transaction, and a watcher's failure is logged, never raised: the turn and its mail
stand whatever becomes of the archive. A rolled back transaction hands on nothing.

The watchers are registered by whoever runs the service (the command line, for `pbem serve`
and the operator's commands), by database: a process that registered none (a test, a bench)
pays a dictionary look-up a mail.
"""

from __future__ import annotations

import logging
import threading
import weakref
from collections.abc import Callable
from typing import Any

from sqlalchemy import Engine, event
from sqlmodel import Session

from pbem.logs import log_context
from pbem.store.statuses import OutboxKind

log = logging.getLogger(__name__)

Watcher = Callable[[str], None]  # called with a game's id after a commit that changed it
# By database, held weakly: a watcher keeps no engine (nor its connections) alive.
_WATCHERS: weakref.WeakKeyDictionary[Engine, list[Watcher]] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()
_NOTED = "pbem_changed_games"  # in a session's info: the games noted since its last commit
_LISTENING = "pbem_changed_listening"
# Outbox kinds that change nothing a player is told of: replies to their own mail, press
# relayed between seats, bounce notices to referees.
QUIET_KINDS = frozenset({OutboxKind.REPLY, OutboxKind.PRESS, OutboxKind.BOUNCE})


def watch(engines: tuple[Engine | None, ...], watcher: Watcher) -> None:
    """Call `watcher(game_id)` after every commit, on any of `engines`, that noted a game.
    The watcher must not hold the engines itself (a weak reference to what holds them)."""
    with _LOCK:
        for engine in engines:
            if engine is not None:
                _WATCHERS.setdefault(engine, []).append(watcher)


def unwatch(engines: tuple[Engine | None, ...]) -> None:
    """Forget every watcher of `engines`."""
    with _LOCK:
        for engine in engines:
            if engine is not None:
                _WATCHERS.pop(engine, None)


def note_changed(session: Session | None, game_id: str) -> None:
    """The game changed in this session's transaction: tell the watchers after its commit."""
    if session is None or not _WATCHERS or not game_id:
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
                with log_context(game=game_id):
                    log.exception("after the change of game %s", game_id)


def _after_rollback(session: Session) -> None:
    # A SAVEPOINT rolled back (a refused referee command) leaves the games the commands
    # before it changed noted: at worst a game is written again unchanged.
    if not session.in_nested_transaction():
        session.info.pop(_NOTED, None)
