"""Where a mail password comes from: the config itself, an environment variable, or a file.

Operators keep passwords out of the config file (which tends to end up in backups and version
control) by naming a variable or a file instead. Exactly one source may be set, so a stale
inline value can never silently win over the file the operator thinks is in use. Errors name
the source, never its content.
"""

from __future__ import annotations

import logging
import os
import stat
from collections.abc import Mapping
from pathlib import Path

from pbem.errors import PbemError

log = logging.getLogger(__name__)


class SecretError(PbemError, ValueError):
    """A password source that is ambiguous, missing or empty."""


def resolve_secret(
    *,
    value: str = "",
    env: str = "",
    file: str = "",
    what: str = "password",
    sources: str = "password, password_env, password_file",
    environ: Mapping[str, str] | None = None,
) -> str:
    """The secret from whichever one of value / env / file is set; "" when none is.

    `what` names the setting in error messages ("imap password"), `sources` its three keys. A
    file's trailing line break is dropped (editors add one); other whitespace is kept, it may
    belong to the secret.
    """
    given = [name for name, source in (("value", value), ("env", env), ("file", file)) if source]
    if len(given) > 1:
        raise SecretError(f"{what}: set only one of {sources}")
    if value:
        return value
    if env:
        return _from_env(env, what, os.environ if environ is None else environ)
    if file:
        return _from_file(Path(file), what)
    return ""


def _from_env(name: str, what: str, environ: Mapping[str, str]) -> str:
    secret = environ.get(name)
    if secret is None:
        raise SecretError(f"{what}: environment variable {name} is not set")
    if not secret:
        raise SecretError(f"{what}: environment variable {name} is empty")
    return secret


def _from_file(path: Path, what: str) -> str:
    try:
        text = path.read_text(encoding="utf-8")
        mode = path.stat().st_mode
    except OSError as error:
        raise SecretError(f"{what}: cannot read {path}: {error.strerror}") from None
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        # Readable by others is the operator's choice, but worth saying once per start.
        log.warning("%s: %s is readable by other users; chmod 600 it", what, path)
    secret = text.removesuffix("\n").removesuffix("\r")
    if not secret:
        raise SecretError(f"{what}: {path} is empty")
    return secret
