"""The inbox on a real IMAP server, for the daemon: the Inbox protocol plus wait_for_mail.

A message is pending while it sits in the watched folder (and, in flag mode, lacks the done
flag). mark_done moves it to the processed folder or sets the flag; the pipeline calls it only
after the message's transaction committed, so a crash in between means the message comes again
on the next start, and the store's unique Message-ID keeps it from being applied twice.

Keys are "<UIDVALIDITY>:<UID>". A UID alone is not stable: when a server rebuilds a folder it
renumbers it and announces that with a new UIDVALIDITY, and the old UID may then name another
message. mark_done with a key of an older UIDVALIDITY therefore does nothing; the message shows
up again under its new key and is marked then.

Connection trouble never blocks the caller for long: pending() and mark_done() reconnect at
once if the old connection went stale, and otherwise raise ImapUnavailable. The waiting between
attempts (exponential backoff with a cap) happens in wait_for_mail, the daemon's idle point, and
never beyond the timeout it was given, so deadlines and the outbox keep running while the IMAP
server is away.
"""

from __future__ import annotations

import imaplib
import logging
import re
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from imap_tools import BaseMailBox, MailBox, MailBoxStartTls, MailBoxUnencrypted
from imap_tools.errors import ImapToolsError

from pbem.mail.backoff import Backoff
from pbem.mail.bell import Bell, ready
from pbem.mail.secrets import resolve_secret
from pbem.mail.settings import ImapSettings, is_loopback

log = logging.getLogger(__name__)

T = TypeVar("T")

# What "the server or the network failed" looks like from imaplib and imap_tools. Anything else
# is a bug of ours and is left to propagate.
NETWORK_ERRORS: tuple[type[Exception], ...] = (OSError, imaplib.IMAP4.error, ImapToolsError)

# RFC 2177: re-issue IDLE at least every 29 minutes or the server may log us out.
_IDLE_SLICE_SECONDS = 25 * 60
_UID = re.compile(rb"UID (\d+)")
_FLAG = re.compile(r"\\?[A-Za-z0-9$_.\-]+")
# SEARCH keys that select messages *without* a system flag.
_WITHOUT_SYSTEM_FLAG = {
    "\\seen": "UNSEEN",
    "\\flagged": "UNFLAGGED",
    "\\answered": "UNANSWERED",
    "\\draft": "UNDRAFT",
}


class ImapUnavailable(ConnectionError):
    """The IMAP server cannot be reached or keeps failing; try again later (wait_for_mail
    waits out the backoff)."""


@dataclass(frozen=True)
class ImapItem:
    """One waiting message: "<uidvalidity>:<uid>" and its bytes exactly as stored."""

    key: str
    raw: bytes


@dataclass
class _Session:
    box: BaseMailBox
    uidvalidity: str
    idle: bool  # the server offers IDLE and the settings allow it


class ImapInbox:
    """The Inbox protocol on one IMAP folder, with one connection kept open between calls.
    Not thread-safe: one IMAP connection carries one command at a time."""

    def __init__(
        self,
        settings: ImapSettings,
        *,
        batch_size: int = 100,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings
        self.batch_size = batch_size  # pending() returns at most this many; the rest next time
        self._sleep = sleep
        self._clock = clock
        self._password = resolve_secret(
            value=settings.password,
            env=settings.password_env,
            file=settings.password_file,
            what="imap password",
        )
        self._criteria = _pending_criteria(settings)
        self._session: _Session | None = None
        self._backoff = Backoff(
            settings.backoff_first_seconds, settings.backoff_max_seconds, clock=clock
        )
        if settings.security == "plain" and not is_loopback(settings.host):
            log.warning("imap: plain (unencrypted) connection to %s", settings.host)

    @property
    def mode(self) -> str:
        """How wait_for_mail waits while connected ("idle" or "poll"), or "disconnected"."""
        if self._session is None:
            return "disconnected"
        return "idle" if self._session.idle else "poll"

    # -- the Inbox protocol -------------------------------------------------------------------

    def pending(self) -> list[ImapItem]:
        """Messages not yet done, oldest (lowest UID) first, at most batch_size of them.
        Fetched with BODY.PEEK, so reading does not set \\Seen."""
        return self._call(self._fetch_pending)

    def mark_done(self, *keys: str) -> None:
        """Move the messages to the processed folder, or set the done flag, in one command (a
        round trip a mail weighs in a deadline wave's intake). Idempotent: a message
        already moved, or gone, is left alone. KeyError for a key that is not ours, before
        any is marked."""
        parsed = [_parse_key(key) for key in keys]
        if parsed:
            self._call(lambda session: self._mark(session, parsed))

    # -- waiting ------------------------------------------------------------------------------

    def wait_for_mail(self, timeout: float, bell: Bell | None = None) -> bool:
        """Block until mail may be waiting (True) or `timeout` seconds passed (False).

        Uses IDLE when offered, else sleeps the poll interval. While the server is away it
        sleeps out the reconnect backoff, never longer than `timeout`. True is a hint, not a
        promise: the caller then calls pending(), which may well be empty. `bell`, if given,
        is listened to beside the server: when it rings (other work) the wait ends with True
        too, at once.
        """
        deadline = self._clock() + timeout
        while True:
            try:
                session = self._connected()
                break
            except ImapUnavailable:
                left = deadline - self._clock()
                if left <= 0:
                    return False
                self._sleep(min(self._backoff.remaining(), left))
        try:
            if self._has_pending(session):
                return True
            if session.idle:
                return self._idle(session, deadline, bell)
            poll_end = min(self._clock() + float(self.settings.poll_seconds), deadline)
            while (left := poll_end - self._clock()) > 0:
                if bell is None:
                    self._sleep(left)
                elif ready(bell, None, left):
                    return True
            return self._has_pending(session)
        except NETWORK_ERRORS as error:
            # Let pending() reconnect and tell; a dropped IDLE is what a server restart looks like.
            self._drop(error)
            return True

    def close(self) -> None:
        """Log out politely; the next call connects again."""
        session, self._session = self._session, None
        if session is not None:
            _close(session.box, logout=True)

    def __enter__(self) -> ImapInbox:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- connection management ----------------------------------------------------------------

    def _call(self, operation: Callable[[_Session], T]) -> T:
        """Run `operation` on the connection. A connection that went stale since the last call
        (server timeout, restart) is replaced at once and the operation tried once more."""
        reused = self._session is not None
        session = self._connected()
        try:
            return operation(session)
        except NETWORK_ERRORS as error:
            self._drop(error)
            if not reused:
                self._backoff.failed()
                raise ImapUnavailable(f"imap: {type(error).__name__}: {error}") from error
        session = self._connected()
        try:
            return operation(session)
        except NETWORK_ERRORS as error:
            self._drop(error)
            self._backoff.failed()
            raise ImapUnavailable(f"imap: {type(error).__name__}: {error}") from error

    def _connected(self) -> _Session:
        if self._session is not None:
            return self._session
        wait = self._backoff.remaining()
        if wait > 0:
            raise ImapUnavailable(f"imap: waiting {wait:.0f}s before reconnecting")
        try:
            self._session = self._connect()
        except NETWORK_ERRORS as error:
            delay = self._backoff.failed()
            log.warning(
                "imap: cannot connect to %s: %s; next try in %.0fs", self._where(), error, delay
            )
            raise ImapUnavailable(f"imap: {type(error).__name__}: {error}") from error
        self._backoff.succeeded()
        return self._session

    def _connect(self) -> _Session:
        settings = self.settings
        log.info("imap: connecting to %s as %s", self._where(), settings.user)
        box = _open_mailbox(settings)
        try:
            # Never pass the password to a log call or an exception message.
            box.login(settings.user, self._password, initial_folder=None)
            capabilities = _refresh_capabilities(box)
            if settings.processed_folder and not box.folder.exists(settings.processed_folder):
                box.folder.create(settings.processed_folder)
                log.info("imap: created folder %s", settings.processed_folder)
            box.folder.set(settings.folder)
            uidvalidity = _uidvalidity(box)
        except BaseException:
            _close(box, logout=False)
            raise
        idle = settings.idle and "IDLE" in capabilities
        log.info("imap: connected, folder %s, %s", settings.folder, "IDLE" if idle else "polling")
        return _Session(box, uidvalidity, idle)

    def _drop(self, error: BaseException) -> None:
        log.info("imap: connection to %s lost: %s", self._where(), error)
        session, self._session = self._session, None
        if session is not None:
            _close(session.box, logout=False)

    def _where(self) -> str:
        return f"{self.settings.host}:{self.settings.effective_port} ({self.settings.security})"

    # -- the IMAP work ------------------------------------------------------------------------

    def _pending_uids(self, session: _Session) -> list[int]:
        # imaplib keeps every untagged response until asked for it; in a months-long session
        # the EXISTS and RECENT lists would only grow.
        session.box.client.untagged_responses.clear()
        # Dovecot (like most servers) shows a session new mail only when it syncs the mailbox
        # view, which NOOP asks for and SEARCH does not: without it, a second pending() on the
        # same connection would not see mail that arrived since the first.
        session.box.client.noop()
        return sorted(int(uid) for uid in session.box.uids(self._criteria, charset=None))

    def _has_pending(self, session: _Session) -> bool:
        return bool(self._pending_uids(session))

    def _fetch_pending(self, session: _Session) -> list[ImapItem]:
        uids = self._pending_uids(session)[: self.batch_size]
        if not uids:
            return []
        typ, data = session.box.client.uid("FETCH", ",".join(map(str, uids)), "(UID BODY.PEEK[])")
        if typ != "OK":
            raise imaplib.IMAP4.error(f"FETCH failed: {typ} {data!r}")
        by_uid: dict[int, bytes] = {}
        for part in data:
            # A message comes as (b'n (UID u BODY[] {size}', raw); flag updates and the closing
            # b')' come as plain bytes and are skipped.
            if isinstance(part, tuple) and (match := _UID.search(part[0])):
                by_uid[int(match.group(1))] = part[1]
        # A UID missing here was expunged meanwhile by someone else; it is gone, not pending.
        return [
            ImapItem(f"{session.uidvalidity}:{uid}", by_uid[uid]) for uid in uids if uid in by_uid
        ]

    def _mark(self, session: _Session, keys: list[tuple[str, str]]) -> None:
        for uidvalidity, uid in keys:
            if uidvalidity != session.uidvalidity:
                log.warning(
                    "imap: %s was renumbered (UIDVALIDITY %s, now %s); message %s will come again",
                    self.settings.folder,
                    uidvalidity,
                    session.uidvalidity,
                    uid,
                )
        uids = ",".join(uid for uidvalidity, uid in keys if uidvalidity == session.uidvalidity)
        if not uids:
            return
        box = session.box
        if self.settings.processed_folder:
            box.move(uids, self.settings.processed_folder)
        else:
            # STORE directly: imap_tools' flag() also EXPUNGEs, which is not ours to do.
            flags = f"({self.settings.done_flag})"
            typ, data = box.client.uid("STORE", uids, "+FLAGS.SILENT", flags)
            if typ != "OK":
                raise imaplib.IMAP4.error(f"STORE failed: {typ} {data!r}")

    def _idle(self, session: _Session, deadline: float, bell: Bell | None) -> bool:
        """IDLE until new mail or the bell (True) or the deadline (False): the server's socket
        and the bell listened to together. Caller handles network errors."""
        idle = session.box.idle
        idle.start()  # type: ignore[no-untyped-call]  # imap_tools leaves IdleManager untyped
        woke = _announced_unseen(session.box)
        try:
            while not woke:
                remaining = deadline - self._clock()
                if remaining <= 0:
                    break
                heard = ready(bell, session.box.client.sock, min(remaining, _IDLE_SLICE_SECONDS))
                if bell is not None and bell in heard:
                    woke = True
                elif heard:
                    lines = idle.poll(timeout=0)
                    # A readable socket with no line in it is the end of the connection: the
                    # server went away. Go look (pending() reconnects and tells).
                    woke = not lines or _announces_mail(lines) or _announced_unseen(session.box)
        finally:
            _result, responses = idle.stop()  # type: ignore[no-untyped-call]  # as start()
        return woke or _announces_mail(responses)


def _open_mailbox(settings: ImapSettings) -> BaseMailBox:
    host, port, timeout = settings.host, settings.effective_port, settings.timeout_seconds
    if settings.security == "plain":
        return MailBoxUnencrypted(host, port, timeout=timeout)
    context = ssl.create_default_context(cafile=settings.ca_file or None)
    if settings.security == "starttls":
        return MailBoxStartTls(host, port, timeout=timeout, ssl_context=context)
    return MailBox(host, port, timeout=timeout, ssl_context=context)


def _refresh_capabilities(box: BaseMailBox) -> tuple[str, ...]:
    # imaplib keeps the capabilities from before login; servers add MOVE and more after it,
    # and imap_tools' move() decides on server-side MOVE by looking at them.
    typ, data = box.client.capability()
    if typ == "OK" and data and data[-1]:
        box.client.capabilities = tuple(data[-1].decode("ascii", "replace").upper().split())
    return tuple(box.client.capabilities)


def _uidvalidity(box: BaseMailBox) -> str:
    _name, values = box.client.response("UIDVALIDITY")
    if not values or values[-1] is None:
        raise imaplib.IMAP4.error("server sent no UIDVALIDITY on SELECT")
    return str(values[-1].decode("ascii"))


def _close(box: BaseMailBox, *, logout: bool) -> None:
    try:
        if logout:
            box.logout()
        else:
            box.client.shutdown()
    except NETWORK_ERRORS:
        pass  # it is going away either way


def _announced_unseen(box: BaseMailBox) -> bool:
    """Whether the server announced new mail where idle.poll() cannot see it.

    Mail that arrives between our last SEARCH and the IDLE command is announced as IDLE
    starts ("* n EXISTS" next to "+ idling"). imaplib may take that line in with the
    continuation (into untagged_responses), or read it ahead into its buffer (or the TLS
    layer's); poll() waits on the socket with select(), which sees neither, and would sleep
    through it until the timeout.
    """
    client = box.client
    if client.untagged_responses.pop("EXISTS", None):
        return True
    return b" EXISTS\r\n" in _read_ahead(client)


def _read_ahead(client: imaplib.IMAP4) -> bytes:
    """What imaplib holds read but not yet parsed, without blocking."""
    peek = getattr(client.file, "peek", None)  # imaplib reads through a BufferedReader
    if peek is None:
        return b""
    sock = client.sock
    timeout = sock.gettimeout()
    sock.settimeout(0)  # peek() returns the buffer, or reads what is there (TLS: decrypted)
    try:
        return bytes(peek(1 << 16))
    except (OSError, ValueError):
        return b""  # nothing buffered, and nothing on the socket yet
    finally:
        sock.settimeout(timeout)


def _announces_mail(lines: list[bytes]) -> bool:
    return any(line.endswith(b" EXISTS") or line.startswith(b"* BYE") for line in lines)


def _pending_criteria(settings: ImapSettings) -> str:
    if settings.processed_folder:
        return "UNDELETED"  # done messages leave the folder
    flag = settings.done_flag
    if not _FLAG.fullmatch(flag):
        raise ValueError(f"imap: done_flag {flag!r} is not a flag name")
    without = _WITHOUT_SYSTEM_FLAG.get(flag.lower())
    if without is None:
        if flag.startswith("\\"):
            raise ValueError(f"imap: done_flag {flag} is not a flag we can search for")
        without = f"UNKEYWORD {flag}"
    return f"UNDELETED {without}"


def _parse_key(key: str) -> tuple[str, str]:
    uidvalidity, sep, uid = key.partition(":")
    if not sep or not uidvalidity.isdigit() or not uid.isdigit():
        raise KeyError(key)
    return uidvalidity, uid
