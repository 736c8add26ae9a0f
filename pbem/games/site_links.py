"""The unguessable links of the web archive (pbem.web, docs/web.md): a seat's own pages and
each referee's desk, each a folder named by a token.

A token is an HMAC-SHA256, under the site secret (`[web] secret_file`, made when missing, and
read again by every process whenever the file changes), of what it opens: a seat's token of
its game, its name, its holder's address and its password hash, so that a new holder, a new
address or a new password gives a new link (and the archive deletes the old folder at its
next write); a desk's of its referee's address alone, so that a referee of two games has one
desk with both and nobody's desk shows another's games. Here, below the reports and the
referees' mails, because a seat's report mail carries its link and a new referee's password
mail their desk's.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
import threading
from pathlib import Path

from pbem.config import Settings, WebSettings
from pbem.errors import PbemError

log = logging.getLogger(__name__)

TOKEN_CHARS = 32  # hex: 128 bits
SECRET_BYTES = 32


class SiteSecretError(PbemError, ValueError):
    """The site secret's file cannot be read or made, or is too short to be a secret."""


def site_secret(web: WebSettings) -> bytes:
    """The secret of `[web] secret_file` as the file holds it now: every process (the daemon,
    `pbem web build`, a referee command) reads the same file, and reads it again when it is
    another file (a new inode, size or time), so that none keeps a secret the others no longer
    use. Made (32 random bytes, hex, mode 600) when missing, by one process alone (`_make`);
    one that other users may read is made private, with a warning (`_private`)."""
    return _secret(os.path.abspath(web.secret_file))


_known: dict[str, tuple[tuple[int, ...], bytes]] = {}  # path: (the file's identity, secret)
_knowing = threading.Lock()


def _secret(path: str) -> bytes:
    place = Path(path)
    try:
        found = os.stat(path)  # one system call a link, the file unchanged
    except (FileNotFoundError, NotADirectoryError):  # not there, and to be made
        _make(place, again=path in _known)
        found = _stat(place)
    except OSError:
        found = _stat(place)  # again, to say why in a SiteSecretError
    identity = (found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns)
    with _knowing:
        known = _known.get(path)
    if known is not None and known[0] == identity:
        return known[1]
    _private(place, found.st_mode)
    secret = _read(place)
    if known is not None and known[1] != secret:  # made again, here or by another process
        log.warning(
            "web archive: the site secret %s is another: every seat's and the desk's link changes",
            place,
        )
    with _knowing:
        _known[path] = (identity, secret)
    return secret


def _stat(place: Path) -> os.stat_result:
    try:
        return place.stat()
    except OSError as error:
        raise SiteSecretError(
            f"[web] secret_file {place}: cannot read it ({error.strerror})"
        ) from None


def _make(place: Path, *, again: bool) -> None:
    """A new secret at `place`, whole or not at all, and only if none is there: written to a
    file of this process's own and linked to its name, which fails if another process was
    first (whose secret every process then reads). Logged: a secret made again while one was
    in use changes every seat's and the desk's link."""
    try:
        place.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        draft = place.with_name(f".{place.name}.{os.getpid()}-{threading.get_ident()}.new")
        handle = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(handle, "w") as made:
            made.write(secrets.token_hex(SECRET_BYTES) + "\n")
            made.flush()
            os.fsync(made.fileno())
        try:
            os.link(draft, place)
        except FileExistsError:
            return  # another process made it first: its secret is the one
        finally:
            draft.unlink()
    except OSError as error:
        raise SiteSecretError(
            f"[web] secret_file {place}: cannot make it ({error.strerror})"
        ) from None
    log.log(
        logging.WARNING if again else logging.INFO,
        "web archive: the site secret %s %s made",
        place,
        "was gone: a new one is" if again else "is",
    )


def _private(place: Path, mode: int) -> None:
    """A secret other users may read is made the owner's alone (chmod 600), with a warning;
    refused when it cannot be."""
    if not mode & 0o077:
        return
    try:
        os.chmod(place, 0o600)
    except OSError as error:
        raise SiteSecretError(
            f"[web] secret_file {place}: other users may read it, and it cannot be made "
            f"private ({error.strerror}): chmod 600 it"
        ) from None
    log.warning(
        "web archive: the site secret %s was readable by other users (mode %o): made private "
        "(600); if anyone else may have read it, delete it and every link changes",
        place,
        mode & 0o777,
    )


def _read(place: Path) -> bytes:
    try:
        text = place.read_text().strip()
    except OSError as error:
        raise SiteSecretError(
            f"[web] secret_file {place}: cannot read it ({error.strerror})"
        ) from None
    if len(text) < SECRET_BYTES:
        raise SiteSecretError(
            f"[web] secret_file {place}: {len(text)} characters; it needs at least "
            f"{SECRET_BYTES} (delete it and one is made)"
        )
    return hashlib.sha256(b"pbem web archive\0" + text.encode()).digest()


def _token(secret: bytes, *parts: str) -> str:
    message = "\0".join(parts).encode()
    return hmac.new(secret, message, hashlib.sha256).hexdigest()[:TOKEN_CHARS]


def seat_token(secret: bytes, game_id: str, seat: str, address: str, password_hash: str) -> str:
    return _token(secret, "seat", game_id, seat, address.strip().lower(), password_hash)


def desk_token(secret: bytes, referee_address: str) -> str:
    """The token of one referee's desk: of their address, whichever games they referee."""
    return _token(secret, "desk", referee_address.strip().lower())


def desk_folder(token: str) -> str:
    """A referee's desk in the archive, relative to its top, with a final slash."""
    return f"desk/{token}/"


def seat_folder(game_id: str, token: str) -> str:
    """A seat's folder in the archive, relative to its top, with a final slash."""
    return f"games/{game_id}/seats/{token}/"


def seat_link(settings: Settings, game_id: str, seat: str, address: str, password_hash: str) -> str:
    """The full link to a seat's pages for its report mail; '' without `[web] base_url`, with
    the archive off, or for a seat nobody holds."""
    web = settings.web
    if not (web.enabled and web.base_url and address and password_hash):
        return ""
    token = seat_token(site_secret(web), game_id, seat, address, password_hash)
    return web.base_url.rstrip("/") + "/" + seat_folder(game_id, token)


def desk_link(settings: Settings, referee_address: str) -> str:
    """The full link to a referee's desk for the mail that makes them a referee; '' without
    `[web] base_url` or with the archive off."""
    web = settings.web
    if not (web.enabled and web.base_url and referee_address):
        return ""
    token = desk_token(site_secret(web), referee_address)
    return web.base_url.rstrip("/") + "/" + desk_folder(token)
