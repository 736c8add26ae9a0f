"""What a mail says of a paused game's pending turn in place of a deadline. While paused no
deadline stands: resuming sets it the time that was left after the resume (pbem.clock.control),
so the deadline stored now is no fact a player can act on, and mails name none."""

from __future__ import annotations

from datetime import timedelta

from pbem.deadlines.policy import format_duration
from pbem.store import Game


def paused_line(game: Game, turn: int) -> str:
    """One sentence for a seat's mail (a report, a new player's welcome), not wrapped: the
    game is paused, the orders sent meanwhile are kept (pbem.intake.orders), and when the
    deadline will be."""
    return (
        f"Game {game.id} is paused: orders you send are kept, and turn {turn} goes on when "
        f"the referee resumes the game; its deadline is set then{_left(game.paused_left)}."
    )


def _left(seconds: int | None) -> str:
    """The time the turn will have after the resume; nothing for a game without deadlines."""
    if seconds is None:
        return ""
    if seconds < 60:  # paused in its grace, past the deadline: due the moment it resumes
        return ", and the turn is due at once"
    return f", {format_duration(timedelta(seconds=seconds))} after the resume"


def after_resume(seconds: int | None) -> str:
    """The time a paused game's turn will have, as a changed deadline's notice names it in
    place of a moment (pbem.clock.notices)."""
    if seconds is None:
        return "none"
    if seconds < 60:
        return "due at once when the game resumes"
    return f"{format_duration(timedelta(seconds=seconds))} after the resume"
