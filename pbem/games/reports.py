"""Turn reports, start-of-game and end-of-game mails, rendered from what is stored (the
turn's state and record), so a resent report is the same text as the first."""

from __future__ import annotations

from dataclasses import dataclass

from engine import Event, OrderResult, get_ruleset
from pbem.config import Settings
from pbem.deadlines.stored import describe
from pbem.games.commitment import commitment
from pbem.games.lines import MailLines
from pbem.games.outbox import Letter
from pbem.games.paused import paused_line
from pbem.games.resolved import ResolvedTurn
from pbem.games.site_links import seat_link
from pbem.mail.compose import Attachment, stable_message_id
from pbem.store import Game, GameStatus, OutboxKind, Seat, Turn, loads
from pbem.templates import render, wrap


def report_letter(
    settings: Settings,
    view: ResolvedTurn,
    seat: Seat,
    attachments: tuple[Attachment, ...] = (),
) -> Letter:
    """The report of a resolved turn for `seat`, with its pictures and data
    (pbem.games.attachments)."""
    game, number = view.game.id, view.turn.number
    # A turn resolved again after a rollback gets new reports, with new Message-IDs.
    again = (f"rerun-{view.revision}",) if view.revision else ()
    parts = ("report", game, str(number), seat.name, *again)
    # A player who has the first report must see, before opening it, that this one counts.
    replaces = " (replaces the earlier report)" if view.revision else ""
    return Letter(
        OutboxKind.REPORT,
        seat.address,
        f"[{game}] turn {number} report{replaces}",
        report_body(settings, view, seat),
        stable_message_id(*parts, domain=settings.mail.domain),
        game_id=game,
        attachments=attachments,
    )


def report_body(
    settings: Settings,
    view: ResolvedTurn,
    seat: Seat,
    *,
    archived: bool = False,
    resent: bool = False,
) -> str:
    """The report of the turn for `seat`, as mailed; `archived` for the web archive's page of
    it, which leaves out the next turn's deadline: the deadline now is not the one mailed
    (moved since, or set anew when a rollback's rerun played the turns again), and an old page
    is not written again when it moves. The page says where the deadline now is. `resent`:
    sent again (RESEND, REPORT), so a rerun's report does not announce anew that it replaces
    the first one: it did so when it was mailed."""
    ruleset, after = view.ruleset, view.after
    events = view.resolution.events_for(seat.name)
    return render(
        "report",
        moderator=settings.mail.name,
        game=view.game.id,
        title=ruleset.title,
        seat=seat.name,
        turn=view.turn.number,
        revision=view.revision,
        resent=resent,
        played_since=view.played_since,
        **_due_facts(view, seat.name, archived=archived),
        archived=archived,
        events=[event_line(e) for e in events if concerns(e, seat.name)],
        results=_result_lines(view, seat),
        holdings=ruleset.holdings(after, seat.name),
        map=ruleset.render_map(after, seat.name),
        news=[event_line(e, news=True) for e in events if not concerns(e, seat.name)],
        summary=view.summary,
        referee_notes=list(view.referee_notes),
        # A seat that sent no orders is warned (pbem.clock.nmr), from what the turn stored.
        nmr=loads(view.turn.nmr or "{}").get(seat.name),
        by_bot=seat.name in view.bot_seats,
        bot_seats=[name for name in view.bot_seats if name != seat.name],
        abandon_after=view.game.abandon_after,
        # The seat's own pages in the web archive (pbem.web), with `[web] base_url` set.
        pages=seat_link(settings, view.game.id, seat.name, seat.address, seat.password_hash),
    )


def _due_facts(view: ResolvedTurn, seat: str, *, archived: bool) -> dict[str, object]:
    """What a report says of the turn orders are wanted for now: its number, deadline and
    order template. For an old report (a copy) the turn being played, not the long-past one
    after it; none while a rerun plays the next turn at once. A page of the archive is the
    report as first mailed (its template; the deadline is left out by the template)."""
    following = view.following
    due, copy = (following, False) if archived else (view.due, view.old)
    state = view.after if archived else view.due_state()
    return {
        "next_turn": following.number if following else None,
        "due_turn": due.number if due else None,
        "deadline": describe(due.deadline, view.game.timezone) if due else "",
        "paused": paused_line(view.game, due.number) if due and view.paused else "",
        "replayed_next": view.replayed_next and not archived,
        "copy": copy,
        "template": view.ruleset.order_template(state, seat) if due else "",
    }


def start_letter(
    settings: Settings,
    game: Game,
    seat: Seat,
    turn: Turn,
    attachments: tuple[Attachment, ...] = (),
    *,
    chose_password: bool = False,
    copy: StartCopy | None = None,
) -> Letter:
    """The start mail of a seat. `chose_password`: its player chose the password by JOIN
    (pbem.games.audit.joined_seats); otherwise the referee gave it to them. `copy`: sent
    again after its first turn was played (REPORT START)."""
    body = render(
        "game_start",
        chose_password=chose_password,
        copy=copy,
        moderator=settings.mail.name,
        game=game.id,
        title=get_ruleset(game.ruleset).title,
        seat=seat.name,
        turn=turn.number,
        deadline=describe(turn.deadline, game.timezone),
        # Sent again (REPORT) while paused with the first turn pending: no deadline stands.
        paused=paused_line(game, turn.number) if _paused_at(game, turn) else "",
        **position_facts(game, seat.name, turn),
        commitment=commitment(game.seed, game.seed_salt),
    )
    message_id = stable_message_id("start", game.id, seat.name, domain=settings.mail.domain)
    return Letter(
        OutboxKind.REPORT,
        seat.address,
        f"[{game.id}] game begins: you are {seat.name}",
        body,
        message_id,
        game_id=game.id,
        attachments=attachments,
    )


@dataclass(frozen=True)
class StartCopy:
    """The start mail sent again once its first turn has been played: it says it is a copy,
    and in place of the first turn's past deadline and order template, the turn being played
    now and its deadline (`due_turn` None: the game has ended), as a resent old report does."""

    played: str  # "turn 1 has" or "turns 1 to 3 have"
    due_turn: int | None
    deadline: str
    paused: str  # while paused no deadline stands: what the mail says instead


def start_copy(game: Game, due: Turn | None, last: int) -> StartCopy:
    """The copy's facts: the turns played (up to `last`) and the turn `due` now, if any."""
    played = "turn 1 has" if last == 1 else f"turns 1 to {last} have"
    if due is None:
        return StartCopy(played, None, "", "")
    paused = paused_line(game, due.number) if _paused_at(game, due) else ""
    return StartCopy(played, due.number, describe(due.deadline, game.timezone), paused)


def _paused_at(game: Game, turn: Turn) -> bool:
    return game.status == GameStatus.PAUSED and game.turn == turn.number


def position_facts(game: Game, seat: str, turn: Turn) -> dict[str, str]:
    """What `seat` sees of the position `turn` opens with, and its order template: for the
    start mail and for a seat's new player, who has had no report."""
    ruleset = get_ruleset(game.ruleset)
    state = loads(turn.state_before)
    return {
        "holdings": ruleset.holdings(state, seat),
        "map": ruleset.render_map(state, seat),
        "summary": ruleset.public_summary(state),
        "template": ruleset.order_template(state, seat),
    }


def end_letter(
    settings: Settings,
    game: Game,
    seat_name: str,
    to: str,
    turn: Turn,
    *,
    revision: int = 0,
    attachments: tuple[Attachment, ...] = (),
) -> Letter:
    ruleset = get_ruleset(game.ruleset)
    final = loads(turn.state_after or turn.state_before)
    outcome = ruleset.outcome(final)
    body = render(
        "game_end",
        moderator=settings.mail.name,
        game=game.id,
        title=ruleset.title,
        turn=turn.number,
        reason=outcome.reason if outcome else "the game was ended",
        winners=list(outcome.winners) if outcome else [],
        summary=ruleset.public_summary(final),
        map=ruleset.render_map(final, seat_name),
        seed=game.seed,
        salt=game.seed_salt,
        commitment=commitment(game.seed, game.seed_salt),
    )
    again = (f"rerun-{revision}",) if revision else ()
    message_id = stable_message_id("end", game.id, to, *again, domain=settings.mail.domain)
    subject = f"[{game.id}] game over"
    return Letter(
        OutboxKind.GAME_END, to, subject, body, message_id, game_id=game.id, attachments=attachments
    )


def concerns(event: Event, seat: str) -> bool:
    """Whether the event belongs under 'What happened' (it is about this seat, or about no
    seat in particular) rather than under 'News' (public news about other seats)."""
    return event.seat in ("", seat) or seat in event.also


def event_line(event: Event, news: bool = False) -> str:
    """An event as a report line, wrapped; as `news` (about another seat) it names that seat."""
    return wrap(event_text(event, news))


def event_text(event: Event, news: bool = False) -> str:
    """An event as one line of text, not yet wrapped (for a mail that puts more in front)."""
    # The dice are shown unless the ruleset's text already shows every one of them.
    text = event.news() if news else event.text
    shown = all(str(die) in text for die in event.dice)
    dice = "" if shown else f" (dice: {' '.join(map(str, event.dice))})"
    phase = f"[{event.phase}] " if event.phase else ""
    return f"{phase}{text}{dice}"


def _result_lines(view: ResolvedTurn, seat: Seat) -> list[str]:
    return result_lines(
        view.resolution.results.get(seat.name, []), view.line_maps.get(seat.name, [])
    )


def result_lines(results: list[OrderResult], line_map: list[int]) -> list[str]:
    """How each order went, numbered as the lines of the mail it came in."""
    mail = MailLines(line_map)
    lines = []
    for result in results:
        mail_no = mail.of(result.line_no)
        note = f": {mail.in_text(result.note)}" if result.note else ""
        lines.append(wrap(f"line {mail_no}: {result.order} - {result.status.value}{note}"))
    return lines
