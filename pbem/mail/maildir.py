"""The embedded transport: a Maildir folder as inbox and another as outbox.

We handle the files ourselves rather than through mailbox.Maildir: its add() does not fsync, so a
power cut can leave an empty "delivered" file, and setting a flag through it rewrites the message.
Here a delivery is written to tmp/ (mode 600, in folders of mode 700), fsynced and renamed into
new/ (the Maildir protocol), and marking done is a single rename into cur/ with the 'S' flag.
A key is the file name up to the ':2,' info part, so it stays the same across restarts and
across that rename.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import re
import secrets
import socket
import time
from email.message import EmailMessage
from pathlib import Path
from typing import NamedTuple

from pbem.files import PRIVATE_FOLDER, private_file, private_folder
from pbem.mail.delivery import TemporaryFailure, read_headers, with_date

_INFO = ":2,"
_DONE_FLAG = "S"
_counter = itertools.count()
_LEADING_NUMBER = re.compile(r"[0-9]+")


class InboxItem(NamedTuple):
    """One waiting message: its stable key and its bytes exactly as delivered."""

    key: str
    raw: bytes


class MaildirInbox:
    """Reads a Maildir folder; a message stays pending until mark_done after the DB commit.

    The folder belongs to the moderator: a mail client that sets the seen flag ('S') on a
    message would make it look processed.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        _ensure_dirs(self.path)

    def pending(self) -> list[InboxItem]:
        """Messages not yet marked done, oldest key first (delivery time, then name)."""
        items = []
        for key, file in sorted(self._pending_files().items(), key=lambda kv: _order(kv[0])):
            try:
                items.append(InboxItem(key, file.read_bytes()))
            except FileNotFoundError:
                continue  # taken by another process between listing and reading
        return items

    def mark_done(self, *keys: str) -> None:
        """Move each message to cur/ with the 'S' flag, then make the moves durable, once for
        them all. Idempotent; KeyError for an unknown key (the keys before it are marked)."""
        moved = False
        try:
            for key in keys:
                moved = self._mark(key) or moved
        finally:
            if moved:
                _fsync_dir(self.path / "cur")

    def _mark(self, key: str) -> bool:
        """Move one message to cur/ with the 'S' flag; False if it was there already."""
        for _attempt in range(3):
            file = self._find(key)
            if file is None:
                raise KeyError(key)
            target = self._done_name(key, file)
            if target is None:
                return False  # already done
            try:
                os.replace(file, target)
                return True
            except FileNotFoundError:
                continue  # another process moved it meanwhile; look again
        raise KeyError(key)

    def deliver(self, raw: bytes) -> str:
        """Put a message into new/ (demo bots, tests); returns its key."""
        return _deliver(self.path, raw)

    def _pending_files(self) -> dict[str, Path]:
        found: dict[str, Path] = {}
        for sub in ("new", "cur"):
            for file in _entries(self.path / sub):
                key, flags = _split_name(file.name)
                if sub == "new" or _DONE_FLAG not in flags:
                    found.setdefault(key, file)
        return found

    def _find(self, key: str) -> Path | None:
        if "/" in key or key.startswith("."):
            return None
        direct = self.path / "new" / key
        if direct.exists():
            return direct
        for sub in ("new", "cur"):
            for file in _entries(self.path / sub):
                if _split_name(file.name)[0] == key:
                    return file
        return None

    def _done_name(self, key: str, file: Path) -> Path | None:
        flags = _split_name(file.name)[1]
        if file.parent.name == "cur" and _DONE_FLAG in flags:
            return None
        # Maildir wants the flags in ASCII order.
        new_flags = "".join(sorted(set(flags) | {_DONE_FLAG}))
        return self.path / "cur" / f"{key}{_INFO}{new_flags}"


class MaildirSender:
    """'Sends' by delivering each message into one Maildir folder (the outbox)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._tags: set[str] | None = None  # Message-ID tags already in the folder
        _ensure_dirs(self.path)

    def send(self, message: EmailMessage) -> None:
        """Deliver it (see send_raw)."""
        self.send_raw(message.as_bytes())

    def send_raw(self, raw: bytes) -> None:
        """Deliver the mail as written, with a Date header added when it has none.

        A message whose Message-ID is already in the folder is not delivered again: a crash
        between this delivery and the commit that marks the outbox row sent makes the drainer
        send the same mail once more, and a real mail server would also see it once."""
        headers = read_headers(raw)
        message_id = str(headers["Message-ID"] or "").strip()
        tag = hashlib.sha256(message_id.encode()).hexdigest()[:24] if message_id else ""
        if tag and self._holds(tag):
            return
        try:
            _deliver(self.path, with_date(raw, headers), tag)
        except OSError as error:
            # The sender's contract (pbem.mail.delivery): a folder that cannot be written
            # (gone, full, read-only) is the transport away, not this mail's fault.
            raise TemporaryFailure(f"maildir: {error}", transport_down=True) from error
        if tag and self._tags is not None:
            self._tags.add(tag)

    def _holds(self, tag: str) -> bool:
        # The folder is read once per sender; later sends add their tags. A resend after a
        # crash comes from a new process, whose first look sees the earlier delivery, and the
        # outbox drain lets one process at a time send a given mail.
        if self._tags is None:
            self._tags = {
                _split_name(entry.name)[0].rpartition(".")[2]
                for sub in ("new", "cur")
                for entry in _entries(self.path / sub)
            }
        return tag in self._tags


def _ensure_dirs(path: Path) -> None:
    # Private whatever the umask: the inbox holds the players' passwords, the outbox the
    # passwords and seat links mailed to them (pbem.files).
    private_folder(path, "the maildir folder")
    for sub in ("tmp", "new", "cur"):
        (path / sub).mkdir(mode=PRIVATE_FOLDER, exist_ok=True)  # behind the folder's 700


def _entries(folder: Path) -> list[Path]:
    try:
        return [entry for entry in folder.iterdir() if not entry.name.startswith(".")]
    except FileNotFoundError:
        return []


def _split_name(name: str) -> tuple[str, str]:
    """(key, flags) of a Maildir file name 'key:2,FLAGS' (flags '' when there is no info)."""
    key, _, info = name.partition(":")
    flags = info[2:] if info.startswith("2,") else ""
    return key, flags


def _order(key: str) -> tuple[int, str]:
    # Keys start with the delivery time in seconds; compare it as a number, then the name.
    match = _LEADING_NUMBER.match(key)
    return (int(match.group()) if match else 0, key)


def _new_key() -> str:
    now = time.time()
    seconds, micros = int(now), int((now % 1) * 1_000_000)
    host = socket.gethostname().replace("/", r"\057").replace(":", r"\072") or "localhost"
    unique = f"M{micros:06d}P{os.getpid()}Q{next(_counter)}R{secrets.token_hex(4)}"
    return f"{seconds}.{unique}.{host}"


def _deliver(root: Path, raw: bytes, tag: str = "") -> str:
    """Write to tmp/, fsync, rename into new/: a crash leaves no partial file in new/.
    A `tag` ends the key, so that the message can be found by it later."""
    key = _new_key() + (f".{tag}" if tag else "")
    tmp = root / "tmp" / key
    with os.fdopen(private_file(tmp), "wb") as handle:
        handle.write(raw)
        handle.flush()
        os.fsync(handle.fileno())
    os.rename(tmp, root / "new" / key)
    _fsync_dir(root / "new")
    return key


def _fsync_dir(folder: Path) -> None:
    """Make a rename durable; some systems cannot open a directory, which is harmless here."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
