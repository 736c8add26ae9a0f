"""Settings: embedded defaults, a TOML file over them, and config.example.toml in step."""

from __future__ import annotations

import tomllib
from datetime import timedelta
from pathlib import Path

import pytest

from pbem.config import ConfigError, Settings, load_settings, settings_from_dict

EXAMPLE = Path(__file__).resolve().parents[2] / "config.example.toml"


def test_no_file_means_the_embedded_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
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
    with pytest.raises(ConfigError, match=r"outbox\.retry_max_seconds must be more than 0"):
        settings_from_dict({"outbox": {"retry_max_seconds": 0}})


def test_the_old_smtp_retry_settings_say_where_they_went() -> None:
    with pytest.raises(ConfigError, match=r"smtp.give_up_hours is now outbox.give_up_hours"):
        settings_from_dict({"smtp": {"give_up_hours": 48}})


@pytest.mark.parametrize("cost", [3, 21, -1])
def test_a_password_cost_out_of_range_is_refused(cost: int) -> None:
    with pytest.raises(ConfigError, match=r"security\.password_cost must be from 4 to 20"):
        settings_from_dict({"security": {"password_cost": cost}})
