"""Settings: every setting has an embedded default, so no file is needed; a TOML file overrides
what it names, and `PBEM_<SECTION>__<KEY>` environment variables override both (pydantic-
settings' nested delimiter: `PBEM_SMTP__HOST=mail.example.org`). Each section is a frozen
pydantic dataclass: a value that cannot work is refused when the settings are read, with the
file, the section and key, and the reason.

config.example.toml lists every setting with its default; a test keeps the two in step.
"""

from __future__ import annotations

import logging
import os
import tomllib
from dataclasses import field, fields, replace
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BeforeValidator, Field, ValidationError, model_validator
from pydantic.dataclasses import dataclass
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from pbem.deadlines.policy import check_zone, parse_duration, parse_policy
from pbem.errors import PbemError
from pbem.mail.delivery import RetryPolicy
from pbem.mail.settings import (
    SECTION,
    Address,
    ImapSettings,
    NonNegative,
    Positive,
    SmtpSettings,
    WholeNumber,
    first_within_last,
)
from pbem.passwords import DEFAULT_COST, MAX_COST, MIN_COST
from pbem.store.db import anchored_url

log = logging.getLogger(__name__)

CONFIG_ENV = "PBEM_CONFIG"
ENV_PREFIX = "PBEM_"


class ConfigError(PbemError, ValueError):
    """A config file with an unknown section or setting, or a value that cannot work."""


def _duration_text(value: Any) -> Any:
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


def _valid_duration(value: str) -> str:
    parse_duration(value)  # PolicyError, a ValueError: "'1 week' is not a duration ..."
    return value


def _valid_policy(value: str) -> str:
    parse_policy(value)
    return value


# "2h", "30m", "1d12h"; a whole number of none ("0") is taken as written.
Duration = Annotated[str, BeforeValidator(_duration_text), AfterValidator(_valid_duration)]
Zone = Annotated[str, AfterValidator(check_zone)]
DeadlinePolicy = Annotated[str, AfterValidator(_valid_policy)]
Level = Annotated[
    Literal["DEBUG", "INFO", "WARNING", "ERROR"],
    BeforeValidator(lambda v: v.upper() if isinstance(v, str) else v),
]


@dataclass(frozen=True, config=SECTION)
class DatabaseSettings:
    url: str = "sqlite:///pbem.db"
    # `pbem serve` and a database behind the code: "auto" applies the pending migrations at
    # start (what an upgrade needs), "refuse" stops with a message to run `pbem init`.
    migrate: Literal["auto", "refuse"] = "auto"
    # SQLite: how long a connection waits for another's write lock before the pass fails
    # (and the daemon backs off and tries again). PostgreSQL locks rows and ignores it.
    busy_seconds: Annotated[float, Field(gt=0)] = 30.0


@dataclass(frozen=True, config=SECTION)
class MailSettings:
    address: Address = "moderator@pbem.localhost"  # our From, and never answered
    name: str = "PBEM Moderator"
    domain: str = "pbem.localhost"  # right-hand side of our Message-IDs
    loop_token: str = "pbem.localhost"  # our X-Loop value; mail carrying it is our own
    max_bytes: Positive = 2_000_000  # larger mails get a short refusal
    other_addresses: tuple[Address, ...] = ()  # further addresses of ours, never answered


@dataclass(frozen=True, config=SECTION)
class MaildirSettings:
    inbox: str = "var/mail/inbox"
    outbox: str = "var/mail/outbox"


@dataclass(frozen=True, config=SECTION)
class LimitSettings:
    replies_per_sender: Positive = 30  # replies to one address within the window below
    reply_window_minutes: Positive = 60
    # A mail of more lines, its quoted lines not counted, is refused unread (over it with
    # them, the quoted lines are left out unread: pbem.intake.finding.within_lines); one
    # with more order lines is refused before the ruleset reads them. Both bound the work
    # one mail can make, so that it cannot hold up the replies to everyone else.
    max_mail_lines: Positive = 5000
    max_order_lines: Positive = 1000
    # A mail of commands runs at most this many; the lines after them are answered in one
    # line as not run. Each command reads the database, so this bounds a mail's work.
    max_commands: Positive = 20
    # A check reply lists at most this many rejected lines (and this many accepted ones
    # times five), then "and N more".
    max_problems_shown: Positive = 30


@dataclass(frozen=True, config=SECTION)
class GameSettings:
    deadline_policy: DeadlinePolicy = "interval:48h"  # "interval:<n>[mhd]", "weekly:...", "none"
    early_processing: bool = True  # resolve as soon as every seat's orders are in
    address_check: bool = False  # accept orders only from the seat's registered address
    timezone: Zone = "UTC"  # the game's zone: weekly deadlines and absence dates
    grace: Duration = "0"  # a turn resolves this long after its deadline, e.g. "2h"
    reminders: tuple[Duration, ...] = ("24h",)  # remind seats without orders this long before
    nmr: Literal["no-orders", "standing", "bot"] = "no-orders"  # what a missing seat plays
    abandon_after: NonNegative = 3  # misses in a row before a seat is abandoned; 0: never
    wait_for_absent: bool = False  # turns wait while a seat is absent (SET ABSENCE)
    # What RESIGN does to a seat: "replace" (civil disorder while the referees find a new
    # player), "disorder" (civil disorder for good) or "bot" (the ruleset's bot plays it).
    resign: Literal["replace", "disorder", "bot"] = "replace"


@dataclass(frozen=True, config=SECTION)
class OutboxSettings:
    # A mail the transport defers (an SMTP 4xx for it alone) is tried again after
    # retry_first_seconds, the delay doubling up to retry_max_seconds, and bounced when still
    # deferred give_up_hours after it was queued. For every transport, not SMTP's alone.
    retry_first_seconds: Positive = 60
    retry_max_seconds: Positive = 3600
    give_up_hours: Positive = 120
    # A sent mail's bytes (its text and attachments) are dropped this many days after it was
    # sent, its row kept (pbem.games.outbox_prune); 0: kept for ever. A report asked again
    # is drawn again from the stored turn, so nothing needs the bytes of an old mail.
    keep_sent_days: NonNegative = 30

    @model_validator(mode="after")
    def _first_within_last(self) -> OutboxSettings:
        first_within_last("retry_first_seconds", "retry_max_seconds", self)
        return self

    @property
    def retry(self) -> RetryPolicy:
        return RetryPolicy(self.retry_first_seconds, self.retry_max_seconds, self.give_up_hours)


@dataclass(frozen=True, config=SECTION)
class ClockSettings:
    outage_threshold: Duration = "1h"  # a deadline missed by more than this was an outage
    outage_grace: Duration = "24h"  # such a deadline moves to this long after the restart
    max_absence_days: Positive = 60  # SET ABSENCE reaches at most this many days ahead


@dataclass(frozen=True, config=SECTION)
class SecuritySettings:
    # scrypt cost as log2(n) for password hashes (MAX_COST takes 1 GiB a check); an older hash
    # is made anew at this cost the next time its password is used.
    password_cost: Annotated[WholeNumber, Field(ge=MIN_COST, le=MAX_COST)] = DEFAULT_COST
    # The check key (pbem.games.seat_passwords), from an environment variable or a file: at
    # most one. Unset: a verified password is remembered only until the daemon stops.
    check_key_env: str = ""
    check_key_file: str = ""


@dataclass(frozen=True, config=SECTION)
class ServiceSettings:
    # maildir: the [maildir] folders; mail: [imap] and [smtp]
    transport: Literal["maildir", "mail"] = "maildir"
    max_wait_seconds: Positive = 60  # the daemon looks at the clock and the outbox this often

    @model_validator(mode="before")
    @classmethod
    def _retired(cls, data: Any) -> Any:
        """`courier` chose a process or a thread for the courier; it is always a thread now.
        Read and ignored for one release, so that an existing file or environment still
        starts the daemon."""
        if isinstance(data, dict) and "courier" in data:
            log.warning("[service] courier is retired (the courier is a thread): remove it")
            return {key: value for key, value in data.items() if key != "courier"}
        return data


@dataclass(frozen=True, config=SECTION)
class WebSettings:
    # The static web archive (pbem.web, docs/web.md): written after every turn and every change
    # the players are told of, into `folder` (relative: to the configuration file's folder, as
    # every path of the settings, `anchored`), for any web server to serve.
    enabled: bool = True
    folder: str = "web"
    # When set (https://pbem.example.org/archive), each seat's report mail carries the link to
    # its own pages; empty: no link in the mail.
    base_url: str = ""
    # The site secret the unguessable links of the seats' pages and the referees' desk are
    # derived from; made (mode 600) when missing. Another secret: every link changes.
    secret_file: str = "web-secret"


@dataclass(frozen=True, config=SECTION)
class LoggingSettings:
    level: Level = "INFO"
    format: Literal["text", "json"] = "text"  # json: one object a line
    file: str = ""  # empty: standard error (the journal, under systemd)


@dataclass(frozen=True, config=SECTION)
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
    web: WebSettings = field(default_factory=WebSettings)

    def our_addresses(self) -> tuple[str, ...]:
        return (self.mail.address, *self.mail.other_addresses)


class _Sources(BaseSettings):
    """Reads the sections: the file's values (given as init values), under the environment's
    PBEM_<SECTION>__<KEY>. Only the loader: the service uses Settings, a plain value."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, env_nested_delimiter="__", extra="forbid", frozen=True
    )
    database: DatabaseSettings = Field(default_factory=DatabaseSettings)
    mail: MailSettings = Field(default_factory=MailSettings)
    maildir: MaildirSettings = Field(default_factory=MaildirSettings)
    limits: LimitSettings = Field(default_factory=LimitSettings)
    games: GameSettings = Field(default_factory=GameSettings)
    security: SecuritySettings = Field(default_factory=SecuritySettings)
    clock: ClockSettings = Field(default_factory=ClockSettings)
    service: ServiceSettings = Field(default_factory=ServiceSettings)
    imap: ImapSettings = Field(default_factory=ImapSettings)
    smtp: SmtpSettings = Field(default_factory=SmtpSettings)
    outbox: OutboxSettings = Field(default_factory=OutboxSettings)
    logging: LoggingSettings = Field(default_factory=LoggingSettings)
    web: WebSettings = Field(default_factory=WebSettings)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return env_settings, init_settings  # the environment over the file


def load_settings(path: str | Path | None = None) -> Settings:
    """The embedded defaults, overridden by the TOML file at `path` (or $PBEM_CONFIG) if any,
    and by PBEM_<SECTION>__<KEY> environment variables. With a file, every relative path of
    the settings is read from the file's folder (`anchored`)."""
    chosen = path if path is not None else os.environ.get(CONFIG_ENV)
    data: dict[str, Any] = {}
    if chosen:
        try:
            with open(chosen, "rb") as handle:
                data = tomllib.load(handle)
        except OSError as error:
            raise ConfigError(f"config {chosen}: cannot read it ({error.strerror})") from None
        except tomllib.TOMLDecodeError as error:
            raise ConfigError(f"config {chosen}: not TOML ({error})") from None
    settings = _validated(data, f"config {chosen}" if chosen else "settings", environment=True)
    return anchored(settings, Path(os.path.abspath(chosen)).parent) if chosen else settings


# The settings that name a file or a folder, besides [database] url (a SQLite file's).
PATH_SETTINGS = (
    ("maildir", "inbox"),
    ("maildir", "outbox"),
    ("web", "folder"),
    ("web", "secret_file"),
    ("logging", "file"),
    ("security", "check_key_file"),
    ("imap", "password_file"),
    ("imap", "ca_file"),
    ("smtp", "password_file"),
    ("smtp", "ca_file"),
)


def anchored(settings: Settings, folder: Path) -> Settings:
    """`settings` with each relative path (given or default) made one in `folder`, the
    configuration file's: every command then finds the same database, secret and web folder
    from wherever it runs (`pbem game new` in one folder and `pbem web build` in another
    made two site secrets). Empty paths ("none") stay empty."""
    changed: dict[str, Any] = {}
    for section, key in PATH_SETTINGS:
        value = getattr(getattr(settings, section), key)
        if value and not Path(value).is_absolute():
            place = changed.get(section, getattr(settings, section))
            changed[section] = replace(place, **{key: str(folder / value)})
    url = anchored_url(settings.database.url, folder)
    if url != settings.database.url:
        changed["database"] = replace(settings.database, url=url)
    return replace(settings, **changed)


def settings_from_dict(data: dict[str, Any]) -> Settings:
    """Settings from `data` (a parsed TOML file) over the defaults; no environment."""
    return _validated(data, "config", environment=False)


def _validated(data: dict[str, Any], origin: str, *, environment: bool) -> Settings:
    _check_sections(data, origin)
    try:
        if environment:
            read = _Sources(**data)
            return Settings(**{f.name: getattr(read, f.name) for f in fields(Settings)})
        return Settings(**data)
    except ValidationError as error:
        raise ConfigError(f"{origin}: " + "; ".join(_reasons(error))) from None


# Settings that were [smtp]'s until the outbox's retries were made transport-neutral.
_MOVED_TO_OUTBOX = frozenset({"retry_first_seconds", "retry_max_seconds", "give_up_hours"})


def _check_sections(data: dict[str, Any], origin: str) -> None:
    sections = {f.name for f in fields(Settings)}
    for name, values in data.items():
        if name not in sections or not isinstance(values, dict):
            raise ConfigError(f"{origin}: unknown section [{name}]")
    moved = _MOVED_TO_OUTBOX & set(data.get("smtp", {}))
    if moved:
        key = sorted(moved)[0]
        raise ConfigError(
            f"{origin}: [smtp] {key} is now [outbox] {key}: write it under [outbox] (it "
            "applies to every transport)"
        )


def _reasons(error: ValidationError) -> list[str]:
    """Each refused value as `[section] key: why (given ...)`, in words an operator reads."""
    reasons = []
    for item in error.errors():
        where = [str(part) for part in item["loc"] if not isinstance(part, int)]
        section, key = where[0] if where else "", ".".join(where[1:])
        why = item["msg"].removeprefix("Value error, ")
        given = item.get("input")
        if item["type"] in ("extra_forbidden", "unexpected_keyword_argument"):
            why, given = "unknown setting", None
        shown = f" (given {given!r})" if isinstance(given, str | int | float | list) else ""
        reasons.append(f"[{section}]{' ' + key if key else ''}: {why}{shown}")
    return reasons
