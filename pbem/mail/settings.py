"""Settings of the real-mail transport: the IMAP inbox and the SMTP sender.

Frozen dataclasses in the style of pbem.config, so they can become its [imap] and [smtp]
sections as they are: every field has a default, numbers are ints (the config loader checks
types strictly), and a port of 0 means the usual port for the chosen security.

The password itself may be given three ways (see pbem.mail.secrets): inline, by the name of an
environment variable, or by the path of a file. Only one of the three may be set.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field

# How the connection is protected. "plain" sends the password in the clear: it exists for
# loopback test servers and must be chosen explicitly.
SECURITY_MODES = ("tls", "starttls", "plain")

_IMAP_PORTS = {"tls": 993, "starttls": 143, "plain": 143}
_SMTP_PORTS = {"tls": 465, "starttls": 587, "plain": 25}


class TransportSettingsError(ValueError):
    """A transport setting that cannot work (unknown security mode, bad number)."""


@dataclass(frozen=True)
class ImapSettings:
    host: str = "localhost"
    port: int = 0  # 0: 993 for tls, 143 for starttls and plain
    security: str = "tls"  # tls | starttls | plain
    user: str = ""
    password: str = field(default="", repr=False)  # never in a repr, so never in a log
    password_env: str = ""  # name of an environment variable holding the password
    password_file: str = ""  # path of a file holding the password
    ca_file: str = ""  # extra CA certificates to trust (a private or self-signed server)
    folder: str = "INBOX"  # where order mail arrives
    # Done messages are moved here (created when missing). Empty: they stay in `folder` and get
    # `done_flag` instead; then nothing else (a person's mail client) may set that flag there.
    processed_folder: str = "Processed"
    done_flag: str = "\\Flagged"  # a system flag (\Seen, \Flagged, ...) or a keyword
    idle: bool = True  # use IMAP IDLE when the server offers it
    poll_seconds: int = 60  # how often to look when IDLE is off or not offered
    timeout_seconds: int = 30  # network timeout of one connect or command
    backoff_first_seconds: int = 1  # reconnect delays double from here ...
    backoff_max_seconds: int = 120  # ... up to this cap

    def __post_init__(self) -> None:
        _check_security("imap", self.security)
        _check_positive(
            "imap",
            poll_seconds=self.poll_seconds,
            timeout_seconds=self.timeout_seconds,
            backoff_first_seconds=self.backoff_first_seconds,
        )
        if not self.processed_folder and not self.done_flag:
            raise TransportSettingsError("imap: set processed_folder or done_flag")

    @property
    def effective_port(self) -> int:
        return self.port or _IMAP_PORTS[self.security]


@dataclass(frozen=True)
class SmtpSettings:
    host: str = "localhost"
    port: int = 0  # 0: 465 for tls, 587 for starttls, 25 for plain
    security: str = "starttls"  # tls | starttls | plain
    user: str = ""  # empty: no AUTH
    password: str = field(default="", repr=False)  # never in a repr, so never in a log
    password_env: str = ""
    password_file: str = ""
    ca_file: str = ""
    timeout_seconds: int = 30
    envelope_from: str = ""  # MAIL FROM; empty: the address in the message's From
    helo_name: str = ""  # our name in EHLO; empty: this machine's fully qualified name
    rate_per_minute: int = 30  # at most this many messages a minute; 0: no limit
    # While the server is unreachable (or refuses us as a whole) the sender does not try again
    # before a delay that doubles from backoff_first_seconds up to backoff_max_seconds.
    backoff_first_seconds: int = 5
    backoff_max_seconds: int = 60  # so mail flows again at most a minute after an outage

    def __post_init__(self) -> None:
        _check_security("smtp", self.security)
        _check_positive(
            "smtp",
            timeout_seconds=self.timeout_seconds,
            backoff_first_seconds=self.backoff_first_seconds,
        )
        if self.rate_per_minute < 0:
            raise TransportSettingsError("smtp: rate_per_minute must be 0 or more")

    @property
    def effective_port(self) -> int:
        return self.port or _SMTP_PORTS[self.security]


def _check_security(section: str, security: str) -> None:
    if security not in SECURITY_MODES:
        choices = ", ".join(SECURITY_MODES)
        raise TransportSettingsError(f"{section}: security must be one of {choices}")


def _check_positive(section: str, **values: int) -> None:
    for name, value in values.items():
        if value <= 0:
            raise TransportSettingsError(f"{section}: {name} must be more than 0")


def is_loopback(host: str) -> bool:
    """Whether `host` names this machine, where "plain" is acceptable."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
