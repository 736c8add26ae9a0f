"""An SMTP server that accepts connections and never says a word: no greeting, no reply.
The client waits until its own timeout; a daemon must not wait with it."""

from __future__ import annotations

import socket
import threading

from tests.servers.dovecot import free_port


class HangingSmtp:
    def __init__(self) -> None:
        self.port = free_port()
        self._listener = socket.create_server(("127.0.0.1", self.port))
        self._listener.settimeout(0.2)
        self._held: list[socket.socket] = []
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._accept, name="hanging-smtp", daemon=True)
        self._thread.start()

    @property
    def connections(self) -> int:
        """How many connections it has taken (and left unanswered)."""
        return len(self._held)

    def _accept(self) -> None:
        while not self._stopping.is_set():
            try:
                connection, _address = self._listener.accept()
            except TimeoutError:
                continue
            self._held.append(connection)  # kept open, never read or written

    def close(self) -> None:
        self._stopping.set()
        self._thread.join(timeout=5)
        self._listener.close()
        for connection in self._held:
            connection.close()
