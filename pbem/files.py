"""Files and folders that hold secrets (the database, the maildir folders, the site secret, the
web archive's private folders) are made private whatever the umask: pbem may be run by hand
under a shell's umask 022, which leaves what it creates readable by every local user.

What pbem creates is its user's alone (folders 0700, files 0600); what it finds already there
and open to every user is the operator's doing, and is said once a process (a warning), not
changed. Open to its group alone is not said: the unit's umask (deploy/pbem.service, 0027)
gives the pbem group what it made before, and a group may be given a database to back it up,
or a delivery agent a maildir. (The site secret is stricter: pbem.games.site_links.)"""

from __future__ import annotations

import logging
import os
import threading
from pathlib import Path

log = logging.getLogger(__name__)

PRIVATE_FOLDER = 0o700
PRIVATE_FILE = 0o600
# A folder others may pass through, to a name they know (the web server, to a seat's link),
# but not list.
UNLISTED_FOLDER = 0o711

_told: set[str] = set()
_telling = threading.Lock()


def private_folder(path: Path, what: str) -> None:
    """Make the folder `path` (its missing parents as the umask says) its user's alone; one
    already there and open to others is said once (`shared`)."""
    try:
        path.mkdir(mode=PRIVATE_FOLDER, parents=True)
    except FileExistsError:
        shared(path, what)
        return
    os.chmod(path, PRIVATE_FOLDER)  # whatever the umask took away or left


def private_file(path: Path) -> int:
    """A new file at `path`, its user's alone, open for writing; FileExistsError if there."""
    return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, PRIVATE_FILE)


def unlisted(path: Path) -> None:
    """The folder `path`, when there, not listable by others (UNLISTED_FOLDER)."""
    try:
        if path.stat().st_mode & 0o777 != UNLISTED_FOLDER:
            os.chmod(path, UNLISTED_FOLDER)
    except FileNotFoundError:
        pass


def shared(path: Path | str, what: str) -> bool:
    """Whether every user may read `path`; said in a warning, once a process a path."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    if not mode & 0o007:
        return False
    key = os.path.abspath(path)
    with _telling:
        if key in _told:
            return True
        _told.add(key)
    log.warning(
        "%s %s is open to other users (mode %o), and may hold players' addresses and "
        "passwords: chmod %o it",
        what,
        path,
        mode & 0o777,
        PRIVATE_FOLDER if os.path.isdir(path) else PRIVATE_FILE,
    )
    return True
