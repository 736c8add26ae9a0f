"""Settings: embedded defaults, a TOML file over them, and config.example.toml in step."""

from __future__ import annotations

import logging
import re
import tomllib
from datetime import timedelta
from pathlib import Path

import pytest

from pbem.config import ConfigError, Settings, load_settings, settings_from_dict

EXAMPLE = Path(__file__).resolve().parents[2] / "config.example.toml"


def test_no_file_means_the_embedded_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    for name in ("PBEM_WEB__FOLDER", "PBEM_WEB__SECRET_FILE"):  # the test run's (conftest)
        monkeypatch.delenv(name, raising=False)
    settings = load_settings()
    assert settings == Settings()
    assert settings.database.url == "sqlite:///pbem.db"


def test_a_file_overrides_what_it_names(tmp_path: Path) -> None:
    path = tmp_path / "pbem.toml"
    path.write_text(
        '[database]\nurl = "postgresql+psycopg://x/y"\n[limits]\nreplies_per_sender = 3\n'
    )
    settings = load_settings(path)
    assert settings.database.url == "postgresql+psycopg://x/y"
    assert settings.limits.replies_per_sender == 3
    assert settings.mail == Settings().mail


def test_the_environment_names_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "pbem.toml"
    path.write_text('[mail]\naddress = "gm@example.org"\n')
    monkeypatch.setenv("PBEM_CONFIG", str(path))
    assert load_settings().mail.address == "gm@example.org"


@pytest.mark.parametrize(
    "data",
    [{"nosuch": {}}, {"mail": {"nosuch": 1}}, {"limits": {"replies_per_sender": "many"}}],
)
def test_unknown_or_mistyped_settings_are_refused(data: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        settings_from_dict(data)  # type: ignore[arg-type]


def test_the_example_lists_every_setting_with_its_default() -> None:
    with EXAMPLE.open("rb") as handle:
        data = tomllib.load(handle)
    assert settings_from_dict(data) == Settings()
    defaults = Settings()
    for section, values in vars(defaults).items():
        assert set(data[section]) == set(vars(values)), section


def test_outbox_retries_are_their_own_section() -> None:
    settings = settings_from_dict({"outbox": {"retry_first_seconds": 30, "give_up_hours": 48}})
    assert settings.outbox.retry.delay(2) == timedelta(seconds=60)
    assert settings.outbox.retry.give_up_after() == timedelta(hours=48)
    with pytest.raises(
        ConfigError, match=r"\[outbox\] retry_max_seconds: Input should be greater than 0"
    ):
        settings_from_dict({"outbox": {"retry_max_seconds": 0}})


def test_the_old_smtp_retry_settings_say_where_they_went() -> None:
    with pytest.raises(
        ConfigError, match=r"\[smtp\] give_up_hours is now \[outbox\] give_up_hours"
    ):
        settings_from_dict({"smtp": {"give_up_hours": 48}})


@pytest.mark.parametrize("value", ["process", "thread"])
def test_the_retired_courier_setting_is_read_and_ignored_with_a_warning(
    value: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """[service] courier chose the courier's process or thread; it is a thread now. A file or
    an environment that still sets it starts the daemon, and the log says to remove it."""
    path = tmp_path / "pbem.toml"
    path.write_text(f'[service]\ncourier = "{value}"\nmax_wait_seconds = 30\n')
    with caplog.at_level(logging.WARNING, logger="pbem.config"):
        assert load_settings(path).service.max_wait_seconds == 30
        monkeypatch.delenv("PBEM_CONFIG", raising=False)
        monkeypatch.setenv("PBEM_SERVICE__COURIER", value)
        assert load_settings().service == Settings().service
    retired = [r for r in caplog.records if "[service] courier is retired" in r.getMessage()]
    assert len(retired) == 2


@pytest.mark.parametrize("cost", [3, 21, -1])
def test_a_password_cost_out_of_range_is_refused(cost: int) -> None:
    with pytest.raises(
        ConfigError,
        match=r"\[security\] password_cost: Input should be (greater|less) than or equal to (4|20)",
    ):
        settings_from_dict({"security": {"password_cost": cost}})


@pytest.mark.parametrize(
    ("data", "refusal"),
    [
        ({"games": {"timezone": "Mars/Base"}}, "[games] timezone: unknown time zone 'Mars/Base'"),
        ({"games": {"nmr": "whatever"}}, "[games] nmr: Input should be 'no-orders', 'standing'"),
        ({"games": {"deadline_policy": "soon"}}, "[games] deadline_policy: "),
        ({"games": {"reminders": ["24h", "1 week"]}}, "[games] reminders: '1 week' is not a"),
        ({"limits": {"max_mail_lines": -5}}, "[limits] max_mail_lines: Input should be greater"),
        ({"games": {"abandon_after": -1}}, "[games] abandon_after: Input should be greater"),
        ({"mail": {"max_bytes": 0}}, "[mail] max_bytes: Input should be greater than 0"),
        ({"outbox": {"keep_sent_days": -1}}, "[outbox] keep_sent_days: Input should be greater"),
        ({"outbox": {"keep_sent_days": 1.5}}, "[outbox] keep_sent_days: Input should be a valid"),
        ({"mail": {"nosuch": 1}}, "[mail] nosuch: unknown setting"),
        ({"database": {"migrate": "maybe"}}, "[database] migrate: Input should be 'auto' or"),
    ],
)
def test_nonsense_is_refused_with_section_key_and_reason(
    data: dict[str, object], refusal: str
) -> None:
    with pytest.raises(ConfigError) as refused:
        settings_from_dict(data)  # type: ignore[arg-type]
    assert str(refused.value).startswith("config: " + refusal)


def test_a_file_names_itself_in_a_refusal(tmp_path: Path) -> None:
    path = tmp_path / "pbem.toml"
    path.write_text('[games]\ntimezone = "Mars/Base"\n')
    with pytest.raises(ConfigError, match=f"^config {re.escape(str(path))}: \\[games\\] timezone"):
        load_settings(path)


def test_a_grace_of_zero_is_a_duration() -> None:
    # It was refused ("takes a str"): TOML writes 0 as a number.
    assert settings_from_dict({"games": {"grace": 0}}).games.grace == "0"


def test_the_environment_overrides_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "pbem.toml"
    path.write_text('[smtp]\nhost = "file.example.org"\nport = 2525\n')
    monkeypatch.setenv("PBEM_SMTP__HOST", "env.example.org")
    monkeypatch.setenv("PBEM_LIMITS__MAX_MAIL_LINES", "77")
    settings = load_settings(path)
    assert (settings.smtp.host, settings.smtp.port) == ("env.example.org", 2525)
    assert settings.limits.max_mail_lines == 77
    monkeypatch.setenv("PBEM_GAMES__NMR", "whatever")
    with pytest.raises(ConfigError, match=r"\[games\] nmr: Input should be"):
        load_settings(path)
