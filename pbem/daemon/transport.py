"""The daemon's transports: the pipeline's Inbox and Sender, plus what a loop needs to sleep
well (wait_for_mail, close, ready_in). [service] transport chooses: "mail" is IMAP and SMTP,
"maildir" the embedded folders, watched by looking once a second."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from pbem.config import Settings
from pbem.games.protocols import Inbox, Sender
from pbem.mail.bell import Bell, rung
from pbem.mail.imap import ImapInbox
from pbem.mail.maildir import MaildirInbox, MaildirSender
from pbem.mail.smtp import SmtpSender

log = logging.getLogger(__name__)


class WaitingInbox(Inbox, Protocol):
    def wait_for_mail(self, timeout: float, bell: Bell | None = None) -> bool:
        """Block until mail may be waiting (True) or `timeout` seconds passed (False); also
        True as soon as `bell` rings (there is other work)."""
        ...

    def close(self) -> None: ...


class PacedSender(Sender, Protocol):
    @property
    def connections(self) -> int:
        """How many mails it may be given at once, from as many threads (the courier's
        lanes: pbem.games.lanes)."""
        ...

    def ready_in(self) -> float:
        """Seconds until send() may be tried again (backoff, rate limit); 0.0: now."""
        ...

    def close(self) -> None:
        """Let go of what the sender keeps open (the SMTP connection)."""
        ...


class MaildirWatch(MaildirInbox):
    """The inbox maildir, for a loop: it has no way to be told of new mail, so it looks."""

    LOOK_EVERY = 1.0  # seconds; a directory listing costs next to nothing

    def __init__(
        self,
        path: Path,
        *,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(path)
        self._sleep = sleep
        self._clock = clock

    def wait_for_mail(self, timeout: float, bell: Bell | None = None) -> bool:
        deadline = self._clock() + timeout
        while not self.pending():
            left = deadline - self._clock()
            if left <= 0:
                return False
            self._sleep(min(self.LOOK_EVERY, left))  # the folder and the bell, once a second
            if rung(bell):
                return True
        return True

    def close(self) -> None:
        pass  # nothing held open


class MaildirPost(MaildirSender):
    """The outbox maildir never needs pacing: a failed write is retried like a deferral.
    One mail at a time: a file written takes no round trip to wait for."""

    connections = 1

    def ready_in(self) -> float:
        return 0.0

    def close(self) -> None:
        pass  # nothing held open


def open_transport(settings: Settings) -> tuple[WaitingInbox, PacedSender]:
    """The inbox and sender [service] transport names. Mail passwords are read here, so a
    missing secret stops the start with a clear error instead of failing every pass."""
    if settings.service.transport == "mail":
        imap, smtp = settings.imap, settings.smtp
        inbox = ImapInbox(imap)
        log.info(
            "transport: imap %s@%s:%d (%s), folder %s; smtp %s:%d (%s)",
            imap.user,
            imap.host,
            imap.effective_port,
            imap.security,
            imap.folder,
            smtp.host,
            smtp.effective_port,
            smtp.security,
        )
        return inbox, open_sender(settings)
    inbox_path, outbox_path = Path(settings.maildir.inbox), Path(settings.maildir.outbox)
    log.info("transport: maildir, in %s, out %s", inbox_path, outbox_path)
    return MaildirWatch(inbox_path), open_sender(settings)


def open_sender(settings: Settings) -> PacedSender:
    """The sender the configuration names."""
    if settings.service.transport == "mail":
        return SmtpSender(settings.smtp)
    return MaildirPost(Path(settings.maildir.outbox))
