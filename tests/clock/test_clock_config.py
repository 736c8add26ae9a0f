"""The [clock] settings and the clock defaults of [games] for `pbem game new`."""

from __future__ import annotations

import pytest

from pbem.config import ConfigError, settings_from_dict


def test_the_clock_settings_take_durations() -> None:
    settings = settings_from_dict({"clock": {"outage_threshold": "30m", "outage_grace": "2d"}})
    assert (settings.clock.outage_threshold, settings.clock.outage_grace) == ("30m", "2d")
    with pytest.raises(ConfigError, match=r"\[clock\] outage_grace: '1 week' is not a duration"):
        settings_from_dict({"clock": {"outage_grace": "1 week"}})


def test_the_game_defaults() -> None:
    games = settings_from_dict({"games": {"reminders": ["48h", "2h"], "nmr": "standing"}}).games
    assert (games.reminders, games.nmr, games.abandon_after, games.timezone) == (
        ("48h", "2h"),
        "standing",
        3,
        "UTC",
    )
