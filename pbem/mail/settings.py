"""Settings of the real-mail transport: the IMAP inbox and the SMTP sender.

Sections of pbem.config ([imap], [smtp]), validated by pydantic as they are made: every field
has a default, a port of 0 means the usual port for the chosen security, and a value that
cannot work is refused with its key and why.

The password itself may be given three ways (see pbem.mail.secrets): inline, by the name of an
environment variable, or by the path of a file. Only one of the three may be set.
"""

from __future__ import annotations

import ipaddress
from dataclasses import field
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BeforeValidator, ConfigDict, Field, model_validator
from pydantic.dataclasses import dataclass

from pbem.mail.addresses import address_problem


def _no_bool(value: Any) -> Any:
    # TOML's true is a bool, which pydantic would take for the number 1.
    if isinstance(value, bool):
        raise ValueError("a whole number, not true or false")
    return value


def _an_address(value: str) -> str:
    problem = address_problem(value)
    if problem:
        raise ValueError(f"not a mail address: {problem}")
    return value  # as written: it is our From, shown to players


def _address_or_none(value: str) -> str:
    return _an_address(value) if value else value


# How the connection is protected. "plain" sends the password in the clear: it exists for
# loopback test servers and must be chosen explicitly.
Security = Literal["tls", "starttls", "plain"]
WholeNumber = Annotated[int, BeforeValidator(_no_bool)]
Positive = Annotated[WholeNumber, Field(gt=0)]
NonNegative = Annotated[WholeNumber, Field(ge=0)]
Port = Annotated[WholeNumber, Field(ge=0, le=65535)]
Address = Annotated[str, AfterValidator(_an_address)]  # one address (pbem.mail.addresses)
OptionalAddress = Annotated[str, AfterValidator(_address_or_none)]  # or '' for none


def first_within_last(first: str, last: str, values: object) -> None:
    """Delays that double from `first` up to `last`: the first may not be the longer."""
    shortest, longest = getattr(values, first), getattr(values, last)
    if shortest > longest:
        raise ValueError(
            f"{first} ({shortest}) is longer than {last} ({longest}): the delays double from "
            "the first up to the last"
        )


# Unknown keys are refused: a typo must not pass for a setting.
SECTION = ConfigDict(extra="forbid")

_IMAP_PORTS = {"tls": 993, "starttls": 143, "plain": 143}
_SMTP_PORTS = {"tls": 465, "starttls": 587, "plain": 25}


@dataclass(frozen=True, config=SECTION)
class ImapSettings:
    host: str = "localhost"
    port: Port = 0  # 0: 993 for tls, 143 for starttls and plain
    security: Security = "tls"
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
    poll_seconds: Positive = 60  # how often to look when IDLE is off or not offered
    timeout_seconds: Positive = 30  # network timeout of one connect or command
    backoff_first_seconds: Positive = 1  # reconnect delays double from here ...
    backoff_max_seconds: Positive = 120  # ... up to this cap

    @model_validator(mode="after")
    def _somewhere_to_mark_done(self) -> ImapSettings:
        if not self.processed_folder and not self.done_flag:
            raise ValueError("set processed_folder or done_flag")
        first_within_last("backoff_first_seconds", "backoff_max_seconds", self)
        return self

    @property
    def effective_port(self) -> int:
        return self.port or _IMAP_PORTS[self.security]


@dataclass(frozen=True, config=SECTION)
class SmtpSettings:
    host: str = "localhost"
    port: Port = 0  # 0: 465 for tls, 587 for starttls, 25 for plain
    security: Security = "starttls"
    user: str = ""  # empty: no AUTH
    password: str = field(default="", repr=False)  # never in a repr, so never in a log
    password_env: str = ""
    password_file: str = ""
    ca_file: str = ""
    timeout_seconds: Positive = 30
    envelope_from: OptionalAddress = ""  # MAIL FROM; empty: the address in the message's From
    helo_name: str = ""  # our name in EHLO; empty: this machine's fully qualified name
    rate_per_minute: NonNegative = 30  # at most this many messages a minute; 0: no limit
    # SMTP connections the courier sends on at once, each kept from mail to mail: a server
    # takes a mail in a round trip of its own (its queue written to disk), and several in
    # flight overlap those waits. Providers bound a client's connections: a few at most.
    connections: Annotated[WholeNumber, Field(gt=0, le=20)] = 4
    # While the server is unreachable (or refuses us as a whole) the sender does not try again
    # before a delay that doubles from backoff_first_seconds up to backoff_max_seconds.
    backoff_first_seconds: Positive = 5
    backoff_max_seconds: Positive = 60  # so mail flows again at most a minute after an outage

    @model_validator(mode="after")
    def _first_within_last(self) -> SmtpSettings:
        first_within_last("backoff_first_seconds", "backoff_max_seconds", self)
        return self

    @property
    def effective_port(self) -> int:
        return self.port or _SMTP_PORTS[self.security]


def is_loopback(host: str) -> bool:
    """Whether `host` names this machine, where "plain" is acceptable."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
