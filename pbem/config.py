"""Settings: TOML read with tomllib, every setting with an embedded default so no file is needed.

config.example.toml lists every setting with its default; keep the two in step.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from pbem.deadlines.policy import PolicyError, parse_duration
from pbem.mail.delivery import RetryPolicy
from pbem.mail.settings import ImapSettings, SmtpSettings, TransportSettingsError
from pbem.passwords import DEFAULT_COST, MAX_COST, MIN_COST

CONFIG_ENV = "PBEM_CONFIG"


@dataclass(frozen=True)
class DatabaseSettings:
    url: str = "sqlite:///pbem.db"


@dataclass(frozen=True)
class MailSettings:
    address: str = "moderator@pbem.localhost"  # our From, and never answered
    name: str = "PBEM Moderator"
    domain: str = "pbem.localhost"  # right-hand side of our Message-IDs
    loop_token: str = "pbem.localhost"  # our X-Loop value; mail carrying it is our own
    max_bytes: int = 2_000_000  # larger mails get a short refusal
    other_addresses: tuple[str, ...] = ()  # further addresses of ours, never answered


@dataclass(frozen=True)
class MaildirSettings:
    inbox: str = "var/mail/inbox"
    outbox: str = "var/mail/outbox"


@dataclass(frozen=True)
class LimitSettings:
    replies_per_sender: int = 30  # replies to one address within the window below
    reply_window_minutes: int = 60
    # A mail of more lines is refused unread (a quoted report and orders fit easily); one
    # with more order lines is refused before the ruleset reads them. Both bound the work
    # one mail can make, so that it cannot hold up the replies to everyone else.
    max_mail_lines: int = 5000
    max_order_lines: int = 1000
    # A check reply lists at most this many rejected lines (and this many accepted ones
    # times five), then "and N more".
    max_problems_shown: int = 30


@dataclass(frozen=True)
class GameSettings:
    deadline_policy: str = "interval:48h"  # "interval:<n>[mhd]" or "none"
    early_processing: bool = True  # resolve as soon as every seat's orders are in
    address_check: bool = False  # accept orders only from the seat's registered address
    timezone: str = "UTC"  # the game's zone: weekly deadlines and absence dates
    grace: str = "0"  # a turn resolves this long after its deadline, e.g. "2h"
    reminders: tuple[str, ...] = ("24h",)  # remind seats without orders this long before
    nmr: str = "no-orders"  # a missing seat: "no-orders", "standing" (last) orders, "bot"
    abandon_after: int = 3  # misses in a row before a seat is abandoned; 0: never
    wait_for_absent: bool = False  # turns wait while a seat is absent (SET ABSENCE)


@dataclass(frozen=True)
class OutboxSettings:
    # A mail the transport defers (an SMTP 4xx for it alone) is tried again after
    # retry_first_seconds, the delay doubling up to retry_max_seconds, and bounced when still
    # deferred give_up_hours after it was queued. For every transport, not SMTP's alone.
    retry_first_seconds: int = 60
    retry_max_seconds: int = 3600
    give_up_hours: int = 120

    def __post_init__(self) -> None:
        for key in ("retry_first_seconds", "retry_max_seconds", "give_up_hours"):
            if getattr(self, key) <= 0:
                raise ConfigError(f"outbox.{key} must be more than 0")

    @property
    def retry(self) -> RetryPolicy:
        return RetryPolicy(self.retry_first_seconds, self.retry_max_seconds, self.give_up_hours)


@dataclass(frozen=True)
class ClockSettings:
    outage_threshold: str = "1h"  # a deadline missed by more than this was an outage
    outage_grace: str = "24h"  # such a deadline moves to this long after the restart
    max_absence_days: int = 60  # SET ABSENCE reaches at most this many days ahead

    def __post_init__(self) -> None:
        for name in ("outage_threshold", "outage_grace"):
            try:
                parse_duration(getattr(self, name))
            except PolicyError as error:
                raise ConfigError(f"clock.{name}: {error}") from None


@dataclass(frozen=True)
class SecuritySettings:
    # scrypt cost as log2(n) for new password hashes; an older hash is made anew at this cost
    # the next time its password is used.
    password_cost: int = DEFAULT_COST

    def __post_init__(self) -> None:
        if not MIN_COST <= self.password_cost <= MAX_COST:
            raise ConfigError(
                f"security.password_cost must be from {MIN_COST} to {MAX_COST} (log2 of scrypt's "
                f"n; {MAX_COST} takes 1 GiB a check)"
            )


TRANSPORTS = ("maildir", "mail")  # maildir: the [maildir] folders; mail: [imap] and [smtp]
LOG_FORMATS = ("text", "json")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


@dataclass(frozen=True)
class ServiceSettings:
    transport: str = "maildir"
    max_wait_seconds: int = 60  # the daemon looks at the clock and the outbox at least this often

    def __post_init__(self) -> None:
        if self.transport not in TRANSPORTS:
            raise ConfigError(f"service.transport must be one of {', '.join(TRANSPORTS)}")
        if self.max_wait_seconds <= 0:
            raise ConfigError("service.max_wait_seconds must be more than 0")


@dataclass(frozen=True)
class LoggingSettings:
    level: str = "INFO"  # DEBUG | INFO | WARNING | ERROR
    format: str = "text"  # text | json (one object a line)
    file: str = ""  # empty: standard error (the journal, under systemd)

    def __post_init__(self) -> None:
        if self.level.upper() not in LOG_LEVELS:
            raise ConfigError(f"logging.level must be one of {', '.join(LOG_LEVELS)}")
        if self.format not in LOG_FORMATS:
            raise ConfigError(f"logging.format must be one of {', '.join(LOG_FORMATS)}")


@dataclass(frozen=True)
class Settings:
    database: DatabaseSettings = field(default_factory=DatabaseSettings)
    mail: MailSettings = field(default_factory=MailSettings)
    maildir: MaildirSettings = field(default_factory=MaildirSettings)
    limits: LimitSettings = field(default_factory=LimitSettings)
    games: GameSettings = field(default_factory=GameSettings)
    security: SecuritySettings = field(default_factory=SecuritySettings)
    clock: ClockSettings = field(default_factory=ClockSettings)
    service: ServiceSettings = field(default_factory=ServiceSettings)
    imap: ImapSettings = field(default_factory=ImapSettings)
    smtp: SmtpSettings = field(default_factory=SmtpSettings)
    outbox: OutboxSettings = field(default_factory=OutboxSettings)
    logging: LoggingSettings = field(default_factory=LoggingSettings)

    def our_addresses(self) -> tuple[str, ...]:
        return (self.mail.address, *self.mail.other_addresses)


class ConfigError(ValueError):
    """A config file with an unknown section or setting, or a value of the wrong type."""


def load_settings(path: str | Path | None = None) -> Settings:
    """The embedded defaults, overridden by the TOML file at `path` (or $PBEM_CONFIG) if any."""
    chosen = path if path is not None else os.environ.get(CONFIG_ENV)
    if not chosen:
        return Settings()
    with open(chosen, "rb") as handle:
        return settings_from_dict(tomllib.load(handle))


def settings_from_dict(data: dict[str, Any]) -> Settings:
    settings = Settings()
    sections = {f.name for f in fields(Settings)}
    for name, values in data.items():
        if name not in sections or not isinstance(values, dict):
            raise ConfigError(f"unknown config section [{name}]")
        current = getattr(settings, name)
        settings = replace(settings, **{name: _override(name, current, values)})
    return settings


# Settings that were [smtp]'s until the outbox's retries were made transport-neutral.
_MOVED_TO_OUTBOX = frozenset({"retry_first_seconds", "retry_max_seconds", "give_up_hours"})


def _override(section: str, current: Any, values: dict[str, Any]) -> Any:
    known = {f.name: f for f in fields(current)}
    changes: dict[str, Any] = {}
    for key, value in values.items():
        if section == "smtp" and key in _MOVED_TO_OUTBOX:
            raise ConfigError(
                f"smtp.{key} is now outbox.{key}: write it under [outbox] (it applies to every "
                "transport)"
            )
        if key not in known:
            raise ConfigError(f"unknown setting {section}.{key}")
        default = getattr(current, key)
        if isinstance(default, tuple):
            value = tuple(value)
        elif type(value) is not type(default):
            raise ConfigError(f"{section}.{key} takes a {type(default).__name__}")
        changes[key] = value
    try:
        return replace(current, **changes)
    except TransportSettingsError as error:  # the transport checks its own values
        raise ConfigError(str(error)) from None
