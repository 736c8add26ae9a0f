"""Logging for the daemon: stdlib logging, with the game and the Message-ID a line concerns on
every line, as text or as one JSON object a line.

The pipeline says what it works on with `log_context(game=..., message=...)`; a filter copies
the current values onto every record, so a line logged deep inside (the transport, the store)
carries them too without being passed anything. Context variables rather than a LoggerAdapter
for that reason, and because they stay right should the daemon ever use threads or asyncio.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import TextIO

from pbem.config import LoggingSettings

_game: ContextVar[str] = ContextVar("pbem_log_game", default="-")
_message: ContextVar[str] = ContextVar("pbem_log_message", default="-")

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s [game=%(game)s msg=%(message_id)s] %(message)s"
# Our handlers carry this name, so configuring again replaces them instead of adding more.
_HANDLER_NAME = "pbem"


@contextmanager
def log_context(*, game: str | None = None, message: str | None = None) -> Iterator[None]:
    """Within the block, log lines name this game and/or message (None: leave as it is)."""
    tokens = []
    if game is not None:
        tokens.append((_game, _game.set(game)))
    if message is not None:
        tokens.append((_message, _message.set(message)))
    try:
        yield
    finally:
        for var, token in reversed(tokens):
            var.reset(token)


class ContextFilter(logging.Filter):
    """Puts the current game and message id on the record (as `game` and `message_id`)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.game = _game.get()
        record.message_id = _message.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, game, message id, message (and the
    traceback, if any)."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "game": getattr(record, "game", "-"),
            "message_id": getattr(record, "message_id", "-"),
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["traceback"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def configure_logging(settings: LoggingSettings, *, stream: TextIO | None = None) -> None:
    """Send log lines to [logging] file (or stderr) in the configured format.

    The level applies to pbem's own loggers. Other libraries log warnings and errors only:
    their debug output can hold protocol exchanges, and an AUTH exchange holds a password.
    """
    handler: logging.Handler
    if settings.file:
        handler = logging.FileHandler(settings.file, encoding="utf-8")
    else:
        handler = logging.StreamHandler(stream or sys.stderr)
    handler.set_name(_HANDLER_NAME)
    handler.addFilter(ContextFilter())
    if settings.format == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter(TEXT_FORMAT))
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.get_name() == _HANDLER_NAME]:
        root.removeHandler(old)
        old.close()
    root.addHandler(handler)
    root.setLevel(logging.WARNING)
    logging.getLogger("pbem").setLevel(settings.level.upper())


class Progress:
    """How far a long command is ("web build: 120/1000 games, 36 s"), on stderr so that its
    output stays clean: a line at most every `every` seconds, and one at the end. For the
    commands that take minutes at a big site (`pbem balance`, `pbem web build`)."""

    def __init__(
        self,
        what: str,
        total: int,
        unit: str,
        *,
        every: float = 5.0,
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.what, self.total, self.unit, self.every = what, total, unit, every
        self.stream, self.clock = stream, clock
        self.done = 0
        self.start = self.last = clock()

    def step(self, count: int = 1) -> None:
        self.done += count
        now = self.clock()
        if self.done >= self.total or now - self.last >= self.every:
            self.last = now
            share = f" ({self.done / self.total:.0%})" if self.total else ""
            print(
                f"{self.what}: {self.done}/{self.total} {self.unit}{share}, "
                f"{now - self.start:.0f} s",
                file=self.stream or sys.stderr,
                flush=True,
            )
