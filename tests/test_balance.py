"""`pbem balance`: seeded bot games on every core, the figures a referee chooses options by,
win share by starting choice where the ruleset has one, and the chart."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from engine import get_ruleset
from pbem.balance import play_one, report, run_balance
from pbem.cli import main
from pbem.logs import Progress


def test_the_balance_command_prints_the_figures_and_draws_the_chart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chart = tmp_path / "tns.png"
    argv = ["balance", "--ruleset", "tns", "--games", "6", "--seats", "3", "--processes", "2"]
    assert main([*argv, "--option", "victory_points=10", "--chart", str(chart)]) == 0
    out, err = capsys.readouterr()
    # Issue 43, point 14: minutes at 1,000 games with no sign of progress; it goes to stderr.
    assert err.splitlines()[-1].startswith("balance temples-and-swords: 6/6 games (100%), ")
    head = "temples-and-swords, 6 games of 3 seats, options {'victory_points': '10'}"
    assert out.startswith(head)
    assert "  ended by the rules: 6 (100.0%)" in out
    assert "  win share by position in the order of play: 1: " in out
    assert "wins by starting choice" not in out  # Temples and Swords has none
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_same_seeds_give_the_same_figures() -> None:
    first = run_balance("temples-and-swords", 4, 2, {}, processes=2)
    again = run_balance("temples-and-swords", 4, 2, {}, processes=1)
    assert first.games == again.games
    # What the report says is what the games say.
    positions = first.position_shares()
    assert sum(positions) == pytest.approx(1.0)
    winners = [p for g in first.games for p in g.winner_positions]
    assert positions[0] == winners.count(0) / len(winners)
    assert "4 games of 2 seats" in report(first)


def test_wins_by_starting_choice_where_the_ruleset_has_one() -> None:
    ruleset = get_ruleset("culture-and-conquest")
    state = ruleset.new_game(["ann", "bob"], {}, 5)
    cultures = {seat["name"]: seat["culture"] for seat in state["seats"]}
    assert ruleset.seat_profile(state, "bob") == cultures["bob"]
    summary = play_one(("culture-and-conquest", 5, 2, {}, 500))
    assert sorted(summary.profiles) == sorted(cultures.values())
    assert summary.ended and len(summary.winner_profiles) == len(summary.winner_positions)
    assert get_ruleset("tns").seat_profile(state, "ann") == ""


def test_bad_arguments_are_refused_clearly(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["balance", "--ruleset", "tns", "--games", "2", "--option", "nope=1"]) == 2
    assert "temples-and-swords has no option nope" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["balance", "--ruleset", "tns", "--games", "0"])
    assert "a whole number above 0" in capsys.readouterr().err


def test_a_choice_made_in_play_is_read_once_made() -> None:
    """Classical's civilizations are chosen in its setup turn, not at new_game."""
    summary = play_one(("classical", 2, 3, {}, 2))
    assert len(summary.profiles) == 3 and all(summary.profiles)
    assert not summary.ended and summary.winner_profiles == []


def test_progress_is_told_at_most_every_few_seconds_and_at_the_end() -> None:
    ticks = iter([0.0, 1.0, 6.0, 7.0, 8.0])
    stream = io.StringIO()
    progress = Progress(
        "web build", 4, "games", every=5.0, stream=stream, clock=lambda: next(ticks)
    )
    for _ in range(4):
        progress.step()
    assert stream.getvalue() == (
        "web build: 2/4 games (50%), 6 s\nweb build: 4/4 games (100%), 8 s\n"
    )
