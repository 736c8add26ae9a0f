"""The transport's small parts, without servers: backoff, rate limiter, secrets, settings, and
how SMTP errors are sorted into temporary and permanent failures."""

from __future__ import annotations

import logging
import ssl
from datetime import timedelta
from pathlib import Path

import aiosmtplib
import pytest
from pydantic import ValidationError

from pbem.mail.backoff import Backoff, RateLimiter
from pbem.mail.delivery import PermanentFailure, RetryPolicy, TemporaryFailure
from pbem.mail.secrets import SecretError, resolve_secret
from pbem.mail.settings import ImapSettings, SmtpSettings, is_loopback
from pbem.mail.smtp import classify
from tests.servers.fake_time import FakeTime

# -- backoff and rate limit --------------------------------------------------------------------


def test_backoff_doubles_up_to_the_cap_and_resets() -> None:
    fake = FakeTime()
    backoff = Backoff(2, 30, clock=fake.clock)

    assert [backoff.failed() for _ in range(6)] == [2.0, 4.0, 8.0, 16.0, 30.0, 30.0]
    assert backoff.remaining() == 30.0
    fake.advance(12)
    assert backoff.remaining() == 18.0
    backoff.succeeded()
    assert (backoff.remaining(), backoff.failures) == (0.0, 0)
    assert backoff.failed() == 2.0


def test_backoff_stays_at_the_cap_through_a_long_outage() -> None:
    backoff = Backoff(1, 60, clock=FakeTime().clock)
    delays = [backoff.failed() for _ in range(5000)]  # 2.0 ** 1024 would overflow
    assert (delays[-1], backoff.failures) == (60.0, 5000)


def test_rate_limiter_allows_the_limit_within_any_minute() -> None:
    fake = FakeTime()
    limiter = RateLimiter(3, clock=fake.clock)

    assert [limiter.try_acquire() for _ in range(3)] == [True, True, True]
    assert limiter.try_acquire() is False
    assert limiter.delay() == 60.0
    fake.advance(59.5)
    assert (limiter.try_acquire(), limiter.delay()) == (False, 0.5)
    fake.advance(0.5)  # the first three leave the window together
    assert [limiter.try_acquire() for _ in range(4)] == [True, True, True, False]


def test_rate_limiter_is_a_sliding_window() -> None:
    fake = FakeTime()
    limiter = RateLimiter(2, clock=fake.clock)

    assert limiter.try_acquire() is True
    fake.advance(40)
    assert limiter.try_acquire() is True
    assert limiter.delay() == 20.0  # the first one leaves at 60 s, not at a minute boundary
    fake.advance(20)
    assert limiter.try_acquire() is True
    assert limiter.delay() == 40.0


def test_rate_limiter_acquire_sleeps_until_a_slot_is_free() -> None:
    fake = FakeTime()
    limiter = RateLimiter(2, clock=fake.clock)

    for _ in range(5):
        limiter.acquire(fake.sleep)

    assert fake.sleeps == [60.0, 60.0]
    assert fake.now == 1120.0


def test_rate_limiter_keeps_a_reserve_for_those_who_may_use_it() -> None:
    fake = FakeTime()
    limiter = RateLimiter(5, clock=fake.clock)

    assert [limiter.try_acquire(reserve=2) for _ in range(4)] == [True, True, True, False]
    assert limiter.delay(reserve=2) == 60.0
    fake.advance(30)
    assert [limiter.try_acquire() for _ in range(3)] == [True, True, False]
    fake.advance(30)  # the first three leave the window; the two of the reserve are still in it
    assert [limiter.try_acquire(reserve=2) for _ in range(2)] == [True, False]


def test_rate_limiter_zero_means_no_limit() -> None:
    limiter = RateLimiter(0, clock=FakeTime().clock)

    assert all(limiter.try_acquire() for _ in range(1000))
    assert limiter.delay() == 0.0
    with pytest.raises(ValueError):
        RateLimiter(-1)


# -- secrets -----------------------------------------------------------------------------------


def test_secret_inline() -> None:
    assert resolve_secret(value="s3cret") == "s3cret"
    assert resolve_secret() == ""


def test_secret_from_the_environment() -> None:
    environ = {"PBEM_SMTP_PASSWORD": "from env "}

    assert resolve_secret(env="PBEM_SMTP_PASSWORD", environ=environ) == "from env "
    with pytest.raises(SecretError) as unset:
        resolve_secret(env="NOPE", environ=environ, what="smtp password")
    with pytest.raises(SecretError) as empty:
        resolve_secret(env="E", environ={"E": ""})

    assert str(unset.value) == "smtp password: environment variable NOPE is not set"
    assert str(empty.value) == "password: environment variable E is empty"


def test_secret_from_a_file(tmp_path: Path) -> None:
    unix, dos, spaced = tmp_path / "unix", tmp_path / "dos", tmp_path / "spaced"
    unix.write_text("s3cret\n")
    dos.write_bytes(b"s3cret\r\n")
    spaced.write_text(" s3cret \n\n")
    for file in (unix, dos, spaced):
        file.chmod(0o600)

    assert resolve_secret(file=str(unix)) == "s3cret"
    assert resolve_secret(file=str(dos)) == "s3cret"
    assert resolve_secret(file=str(spaced)) == " s3cret \n"  # only the last line break goes


def test_secret_file_problems_name_the_file_not_the_content(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    empty, shared = tmp_path / "empty", tmp_path / "shared"
    empty.write_text("\n")
    shared.write_text("hunter2\n")
    empty.chmod(0o600)
    shared.chmod(0o644)

    with pytest.raises(SecretError) as blank:
        resolve_secret(file=str(empty), what="imap password")
    with pytest.raises(SecretError) as missing:
        resolve_secret(file=str(tmp_path / "missing"))
    with caplog.at_level(logging.WARNING):
        assert resolve_secret(file=str(shared)) == "hunter2"

    assert str(blank.value) == f"imap password: {empty} is empty"
    assert (
        str(missing.value) == f"password: cannot read {tmp_path}/missing: No such file or directory"
    )
    assert caplog.messages == [f"password: {shared} is readable by other users; chmod 600 it"]


def test_only_one_secret_source_may_be_set() -> None:
    with pytest.raises(SecretError, match="set only one of password, password_env"):
        resolve_secret(value="a", env="B")


# -- settings ----------------------------------------------------------------------------------


def test_ports_default_by_security() -> None:
    assert [ImapSettings(security=s).effective_port for s in ("tls", "starttls", "plain")] == [
        993,
        143,
        143,
    ]
    assert [SmtpSettings(security=s).effective_port for s in ("tls", "starttls", "plain")] == [
        465,
        587,
        25,
    ]
    assert SmtpSettings(port=2525).effective_port == 2525


def test_settings_refuse_what_cannot_work() -> None:
    # Made in code, a section refuses as pydantic does; read from a file, pbem.config words
    # the same refusal with its section and key (tests/store/test_config_daemon.py).
    with pytest.raises(ValidationError, match="Input should be 'tls', 'starttls' or 'plain'"):
        ImapSettings(security="ssl")  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="poll_seconds\n  Input should be greater than 0"):
        ImapSettings(poll_seconds=0)
    with pytest.raises(ValidationError, match="set processed_folder or done_flag"):
        ImapSettings(processed_folder="", done_flag="")
    with pytest.raises(ValidationError, match="rate_per_minute\n  Input should be greater than"):
        SmtpSettings(rate_per_minute=-1)


def test_loopback_hosts() -> None:
    assert [is_loopback(h) for h in ("localhost", "127.0.0.1", "::1", "mail.example.org")] == [
        True,
        True,
        True,
        False,
    ]


# -- SMTP failures -----------------------------------------------------------------------------


def refused(*codes: int) -> aiosmtplib.SMTPRecipientsRefused:
    return aiosmtplib.SMTPRecipientsRefused(
        [
            aiosmtplib.SMTPRecipientRefused(code, "no", f"r{n}@example.org")
            for n, code in enumerate(codes)
        ]
    )


@pytest.mark.parametrize(
    ("error", "kind", "code", "transport_down"),
    [
        (refused(550, 553), PermanentFailure, 550, None),
        (refused(550, 450), TemporaryFailure, 450, False),
        (aiosmtplib.SMTPDataError(552, "too big"), PermanentFailure, 552, None),
        (aiosmtplib.SMTPDataError(421, "closing"), TemporaryFailure, 421, False),
        (aiosmtplib.SMTPResponseException(-1, "Malformed"), TemporaryFailure, -1, True),
        (aiosmtplib.SMTPAuthenticationError(535, "bad"), TemporaryFailure, 535, True),
        (aiosmtplib.SMTPSenderRefused(553, "no", "me@x"), TemporaryFailure, 553, True),
        (aiosmtplib.SMTPConnectResponseError(554, "go away"), TemporaryFailure, 554, True),
        (aiosmtplib.SMTPConnectError("refused"), TemporaryFailure, None, True),
        (aiosmtplib.SMTPReadTimeoutError("slow"), TemporaryFailure, None, True),
        (aiosmtplib.SMTPServerDisconnected("gone"), TemporaryFailure, None, True),
        (aiosmtplib.SMTPException("STARTTLS not supported"), TemporaryFailure, None, True),
        (ssl.SSLCertVerificationError("bad cert"), TemporaryFailure, None, True),
        (ConnectionResetError("reset"), TemporaryFailure, None, True),
        (aiosmtplib.SMTPNotSupported("SMTPUTF8"), PermanentFailure, None, None),
        (ValueError("No recipient headers provided in message"), PermanentFailure, None, None),
    ],
)
def test_classify(
    error: Exception, kind: type, code: int | None, transport_down: bool | None
) -> None:
    failure = classify(error)

    assert type(failure) is kind
    assert failure.code == code
    if isinstance(failure, TemporaryFailure):
        assert failure.transport_down is transport_down


def test_classify_keeps_the_refused_recipients() -> None:
    failure = classify(refused(550, 551))

    assert isinstance(failure, PermanentFailure)
    assert failure.recipients == ("r0@example.org", "r1@example.org")
    assert str(failure) == "r0@example.org: 550 no; r1@example.org: 551 no"


def test_classify_leaves_our_own_bugs_alone() -> None:
    with pytest.raises(KeyError):
        classify(KeyError("a bug"))


def test_retry_delay_doubles_to_the_cap() -> None:
    retry = RetryPolicy(first_seconds=60, max_seconds=600, give_up_hours=48)

    assert [retry.delay(n).total_seconds() for n in range(1, 7)] == [
        60.0,
        120.0,
        240.0,
        480.0,
        600.0,
        600.0,
    ]
    assert retry.give_up_after() == timedelta(hours=48)
    # A mail deferred for weeks: the doubling is capped before 2.0 ** n can overflow.
    assert retry.delay(5000) == timedelta(seconds=600)


def test_passwords_stay_out_of_reprs() -> None:
    assert "hunter2" not in repr(ImapSettings(password="hunter2"))
    assert "hunter2" not in repr(SmtpSettings(password="hunter2"))
