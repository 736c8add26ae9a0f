"""The daemon's settings: [service], [imap], [smtp] and [logging], checked when read."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.config import ConfigError, load_settings, settings_from_dict


def test_mail_transport_sections_are_read() -> None:
    settings = settings_from_dict(
        {
            "service": {"transport": "mail"},
            "imap": {"host": "imap.example.org", "security": "starttls", "user": "gm"},
            "smtp": {"host": "smtp.example.org", "port": 2525, "rate_per_minute": 10},
            "logging": {"format": "json", "level": "DEBUG"},
        }
    )
    assert settings.service.transport == "mail"
    assert (settings.imap.host, settings.imap.effective_port) == ("imap.example.org", 143)
    assert (settings.smtp.effective_port, settings.smtp.rate_per_minute) == (2525, 10)
    assert (settings.logging.format, settings.logging.level) == ("json", "DEBUG")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"imap": {"security": "ssl"}}, "[imap] security: Input should be 'tls', 'starttls'"),
        ({"smtp": {"rate_per_minute": -1}}, "[smtp] rate_per_minute: Input should be greater"),
        ({"imap": {"processed_folder": "", "done_flag": ""}}, "[imap]: set processed_folder or"),
        ({"service": {"transport": "pigeon"}}, "[service] transport: Input should be 'maildir'"),
        ({"service": {"max_wait_seconds": 0}}, "[service] max_wait_seconds: Input should be"),
        ({"logging": {"format": "xml"}}, "[logging] format: Input should be 'text' or 'json'"),
        ({"logging": {"level": "LOUD"}}, "[logging] level: Input should be 'DEBUG', 'INFO'"),
        ({"imap": {"port": "imaps"}}, "[imap] port: Input should be a valid integer"),
        ({"imap": {"port": 70000}}, "[imap] port: Input should be less than or equal to 65535"),
    ],
)
def test_settings_that_cannot_work_are_config_errors(data: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match="^config: " + re.escape(message)):
        settings_from_dict(data)  # type: ignore[arg-type]


def test_the_deploy_example_reads_as_a_mail_config() -> None:
    example = Path(__file__).resolve().parents[2] / "deploy" / "config.toml.example"
    settings = load_settings(example)
    assert (settings.service.transport, settings.imap.password_env) == (
        "mail",
        "PBEM_IMAP_PASSWORD",
    )
    assert (settings.imap.effective_port, settings.smtp.effective_port) == (993, 587)
    assert settings.security.check_key_file == "/etc/pbem/check-key"
