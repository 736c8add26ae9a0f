"""Settings that read but cannot work are refused at start, with [section] key and why: an
address that is none, a yes/no where a number belongs, a first delay longer than the last."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.config import ConfigError, load_settings, settings_from_dict


def refusal(data: dict[str, object]) -> str:
    with pytest.raises(ConfigError) as refused:
        settings_from_dict(data)  # type: ignore[arg-type]
    return str(refused.value)


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (
            {"mail": {"address": "not an address"}},
            "config: [mail] address: not a mail address: it holds ' ': give one address, like "
            "ann@example.org (given 'not an address')",
        ),
        (
            {"mail": {"other_addresses": ["gm@example.org", "gm2@"]}},
            "config: [mail] other_addresses: not a mail address: nothing comes after the @ "
            "(given 'gm2@')",
        ),
        (
            {"smtp": {"envelope_from": "bounces-at-example.org"}},
            "config: [smtp] envelope_from: not a mail address: it needs exactly one @, like "
            "ann@example.org (given 'bounces-at-example.org')",
        ),
    ],
)
def test_an_address_that_is_none_is_refused(data: dict[str, object], said: str) -> None:
    assert refusal(data) == said


def test_addresses_that_are_addresses_pass() -> None:
    settings = settings_from_dict(
        {"mail": {"address": "GM@Example.org", "other_addresses": ["pbem@example.org"]}}
    )
    assert settings.mail.address == "GM@Example.org"  # our From, as the operator wrote it
    assert settings_from_dict({"smtp": {"envelope_from": ""}}).smtp.envelope_from == ""


@pytest.mark.parametrize(
    ("section", "key"),
    [("mail", "max_bytes"), ("limits", "max_mail_lines"), ("games", "abandon_after"),
     ("smtp", "port"), ("security", "password_cost"), ("outbox", "give_up_hours"),
     ("outbox", "keep_sent_days")],
)  # fmt: skip
def test_yes_or_no_is_no_number(section: str, key: str) -> None:
    # TOML's true is a bool, and pydantic would have taken it for the number 1.
    assert refusal({section: {key: True}}) == (
        f"config: [{section}] {key}: a whole number, not true or false (given True)"
    )


@pytest.mark.parametrize(
    ("section", "first", "last"),
    [
        ("outbox", "retry_first_seconds", "retry_max_seconds"),
        ("smtp", "backoff_first_seconds", "backoff_max_seconds"),
        ("imap", "backoff_first_seconds", "backoff_max_seconds"),
    ],
)
def test_a_first_delay_longer_than_the_last_is_refused(section: str, first: str, last: str) -> None:
    assert refusal({section: {first: 7200, last: 3600}}) == (
        f"config: [{section}]: {first} (7200) is longer than {last} (3600): the delays "
        "double from the first up to the last"
    )
    settings_from_dict({section: {first: 3600, last: 3600}})  # equal: every delay the same


def test_the_environment_is_checked_as_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    monkeypatch.setenv("PBEM_MAIL__ADDRESS", "moderator")
    with pytest.raises(ConfigError, match=r"^settings: \[mail\] address: not a mail address"):
        load_settings()
    monkeypatch.setenv("PBEM_MAIL__ADDRESS", "moderator@example.org")
    monkeypatch.setenv("PBEM_MAIL__MAX_BYTES", "1000")  # a number as the environment gives it
    assert load_settings().mail.max_bytes == 1000
