"""The unguessable links of the web archive (pbem.web, docs/web.md): a seat's own pages and
each referee's desk, each a folder named by a token.

A token is an HMAC-SHA256, under the site secret (`[web] secret_file`, made when missing), of
what it opens: a seat's token of its game, its name, its holder's address and its password
hash, so that a new holder, a new address or a new password gives a new link (and the archive
deletes the old folder at its next write); a desk's of its referee's address alone, so that a
referee of two games has one desk with both and nobody's desk shows another's games. Here,
below the reports and the referees' mails, because a seat's report mail carries its link and
a new referee's password mail their desk's.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from functools import cache
from pathlib import Path

from pbem.config import Settings, WebSettings
from pbem.errors import PbemError

TOKEN_CHARS = 32  # hex: 128 bits
SECRET_BYTES = 32


class SiteSecretError(PbemError, ValueError):
    """The site secret's file cannot be read or made, or is too short to be a secret."""


def site_secret(web: WebSettings) -> bytes:
    """The secret of `[web] secret_file`, made (32 random bytes, hex, mode 600) if missing."""
    return _secret(str(Path(web.secret_file).absolute()))


@cache
def _secret(path: str) -> bytes:
    place = Path(path)
    try:
        place.parent.mkdir(parents=True, exist_ok=True)
        handle = os.open(place, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    except OSError as error:
        raise SiteSecretError(
            f"[web] secret_file {path}: cannot make it ({error.strerror})"
        ) from None
    else:
        with os.fdopen(handle, "w") as made:
            made.write(secrets.token_hex(SECRET_BYTES) + "\n")
    try:
        text = place.read_text().strip()
    except OSError as error:
        raise SiteSecretError(
            f"[web] secret_file {path}: cannot read it ({error.strerror})"
        ) from None
    if len(text) < SECRET_BYTES:
        raise SiteSecretError(
            f"[web] secret_file {path}: {len(text)} characters; it needs at least "
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
