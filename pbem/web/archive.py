"""Writing the static web archive (docs/web.md says what it holds and how to serve it).

The folder (`[web] folder`, or `out`) holds:

    index.html                              the games of the site
    style.css
    games/<game>/index.html                 the game: rules and options played, the dice
                                            commitment (the seed after the end), the
                                            standings now, every turn
    games/<game>/turn-<n>.html, .png        a turn: the map, the standings, the public events
    games/<game>/chart.html, chart.svg      the campaign chart
    games/<game>/seats/<token>/index.html   a seat's own pages: its reports turn by turn and
    games/<game>/seats/<token>/turn-<n>.html  its orders as played (the map in its colours)
    desk/<token>/index.html                 a referee's desk: each game they referee, its
    desk/<token>/game-<game>.html           turn and deadline, whose orders are in, its
                                            quarantined mail, its audit log

Only what is stored is shown, and on the public pages only what every player's report shows
alike: never a pending turn's orders, a private report, an address or a password. The seats'
tokens (pbem.games.site_links) change when a seat changes hands, its address or its
password; a desk's is its referee's; the folders of old tokens are deleted at the next write.
The folders that hold the token folders (`games/<game>/seats/`, `desk/`) are mode 711: other
users of the machine, the web server among them, reach a token folder they know but cannot
list them.

`write_game` is incremental: a turn's pages once written are not drawn again unless the turn
was played again (a rollback, a rerun): `games/<game>/archive.json` keeps what each was drawn
from, and which turns it linked to as the one before and after. A turn whose neighbours
changed (the turn after it was just resolved, or rolled back) has its links in the page drawn
before made the new ones (drawn again, from the same picture, if that page is not as drawn).
Every file is written whole under another name and renamed over the old one, so that a web
server never serves half a page.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import threading
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple

import jinja2

from engine import Ruleset, get_ruleset
from engine.mapdata import Standings
from pbem.clock.due import running_facts, seats_asked
from pbem.deadlines.stored import describe
from pbem.files import unlisted
from pbem.games.attachments import history, map_picture
from pbem.games.audit import entry_lines
from pbem.games.commitment import commitment
from pbem.games.games import not_played, paused_turn, pending_turn, still_waiting
from pbem.games.played import played_of
from pbem.games.reports import event_text, report_body
from pbem.games.resolved import ResolvedTurn
from pbem.games.service import Service
from pbem.games.site_links import desk_folder, desk_token, seat_folder, seat_token, site_secret
from pbem.logs import Progress, log_context
from pbem.pictures import campaign_svg
from pbem.store import Game, Seat, Turn, loads, utc, utcnow
from pbem.store.work import Work

log = logging.getLogger(__name__)

# A new version draws every page again at the next write (the pages' templates changed).
ARCHIVE_VERSION = 1
MANIFEST = "archive.json"
AUDIT_SHOWN = 300  # a game's newest audit entries on its desk page
QUARANTINE_SHOWN = 200  # the newest quarantine entries waiting, on the desk
_MARK = "archive"  # the manifest's key that says a folder is the archive's own


def write_site(service: Service, out: Path | None = None) -> Path:
    """Write the whole site: the index, every game's pages and its seats', the desk, every
    page drawn again. The folder written (nothing with `[web] enabled = false`)."""
    root = _root(service, out)
    if not service.settings.web.enabled:
        return root
    with service.store.reading() as work:
        games = work.site.games_by_id()
        progress = Progress("web build", len(games), "games")  # minutes at 1,000 games
        for game in games:
            _write_game(work, service, root, game, full=True)
            progress.step()
        _drop_unknown_games(root, {game.id for game in games})
        _write_common(work, service, root, games)
    return root


def write_game(service: Service, game_id: str, out: Path | None = None) -> None:
    """(Re)write one game's pages after a change, only the turns not yet written (or played
    again); then the index and the desk."""
    root = _root(service, out)
    if not service.settings.web.enabled:
        return
    with service.store.reading() as work:
        game = work.site.game_by_id(game_id)
        if game is not None:
            _write_game(work, service, root, game, full=False)
        _write_common(work, service, root, None, game_id)


def seat_path(service: Service, game_id: str, seat: str) -> str:
    """The site-relative path of a seat's pages: games/<game>/seats/<token>/index.html;
    '' for a seat nobody holds (no address or no password): it has no pages."""
    with service.store.reading() as work:
        row = work.site.seat_by_name(game_id, seat)
        token = _seat_token(service, row) if row is not None else ""
    return seat_folder(game_id, token) + "index.html" if token else ""


def desk_path(service: Service, referee: str) -> str:
    """The site-relative path of a referee's desk: desk/<token>/index.html (written once
    they referee a game)."""
    return desk_folder(desk_token(site_secret(service.settings.web), referee)) + "index.html"


def desk_paths(service: Service) -> dict[str, str]:
    """Every referee of the site's games, and the site-relative path of their desk."""
    with service.store.reading() as work:
        return {referee: desk_path(service, referee) for referee in _referees(work)}


def archive_on_change(service: Service, hand_on: Callable[[str], None] | None = None) -> None:
    """Rewrite a game's pages after every committed change its players are told of
    (pbem.store.changes), on this service's database: at once, in the committing thread, or
    by `hand_on(game_id)` (the daemon's archive runner, which writes them in a thread of its
    own). Nothing with `[web] enabled = false`."""
    if not service.settings.web.enabled:
        return
    service.store.unwatch_changes()  # one watcher a database, however often a command asks
    if hand_on is not None:
        service.store.watch_changes(hand_on)
        return
    # Weakly: the watcher keeps neither the service nor its databases' connections alive.
    held = weakref.ref(service)

    def rewrite(game_id: str) -> None:
        found = held()
        if found is not None:
            write_logged(found, game_id)

    service.store.watch_changes(rewrite)


def write_logged(service: Service, game_id: str) -> None:
    """write_game, its failure logged and never raised: the turn and its mail stand whatever
    becomes of the archive."""
    try:
        write_game(service, game_id)
    except Exception:
        with log_context(game=game_id):
            log.exception("web archive: game %s not written", game_id)


# --- the folder ---------------------------------------------------------------------------


def _root(service: Service, out: Path | None) -> Path:
    return Path(out) if out is not None else Path(service.settings.web.folder)


def _write(path: Path, data: str | bytes) -> None:
    """Write `path` whole, or leave it: a reader sees the old file or the new one."""
    raw = data.encode() if isinstance(data, str) else data
    if path.exists() and path.stat().st_size == len(raw) and path.read_bytes() == raw:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    # A name of this writer's own: two processes may write one folder (several daemons).
    temporary = path.with_name(f".{path.name}.{os.getpid()}-{threading.get_ident()}.writing")
    temporary.write_bytes(raw)
    os.replace(temporary, path)


def _unlisted(folder: Path) -> None:
    """The folder of the seats' or the desk's token folders, made (or kept) so that other
    users of the machine cannot list it, whatever the umask: the web server passes through
    it to a link it is given, as a reader's browser does, but nobody learns a token from it."""
    folder.mkdir(parents=True, exist_ok=True)
    unlisted(folder)


def _remove(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path, ignore_errors=True)
    elif path.exists():
        path.unlink()


def _manifest(folder: Path) -> dict[str, Any]:
    try:
        found = json.loads((folder / MANIFEST).read_text())
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) and found.get("version") == ARCHIVE_VERSION else {}


def _drop_unknown_games(root: Path, known: set[str]) -> None:
    """Folders of games the database no longer has (the archive's own only)."""
    games = root / "games"
    for folder in games.iterdir() if games.is_dir() else ():
        if folder.name not in known and (folder / MANIFEST).exists():
            _remove(folder)


# --- the pages ----------------------------------------------------------------------------


@cache
def _environment() -> jinja2.Environment:
    folder = Path(str(resources.files("pbem.web") / "templates"))
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(folder),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
    )
    return env


@cache
def _template(name: str) -> jinja2.Template:
    return _environment().get_template(name)


def _page(name: str, **context: Any) -> str:
    return _template(name).render(**context)


def _macro(name: str, *args: Any) -> str:
    """A macro of macros.html drawn alone, as a page draws it."""
    return str(getattr(_template("macros.html").module, name)(*args))


def _style() -> str:
    return (Path(str(resources.files("pbem.web") / "templates")) / "style.css").read_text()


def _write_common(
    work: Work,
    service: Service,
    root: Path,
    games: Sequence[Game] | None,
    only: str | None = None,
) -> None:
    """The style sheet, the site's index and the desks. `games`: every game, when the caller
    has them already; else the desks read the ones they show (after one game's turn, the
    index of a big site is a column query, not a thousand games read whole)."""
    _write(root / "style.css", _style())
    rows = _drawn_rows(_game_rows(work))
    _write(root / "index.html", _page("index.html", root="", title="Games", games=rows))
    _write_desk(work, service, root, games, only)


@dataclass(frozen=True)
class _Turns:
    """A game's resolved turns, and which of them a write must draw."""

    all: list[Turn]
    keys: dict[int, str]  # what each turn's pages are drawn from, as a digest
    changed: list[Turn]  # not drawn yet, or drawn from something else
    gone: list[int]  # drawn once, no longer resolved (a rollback)
    links: dict[int, list[int | None]]  # each turn's previous and next turn
    relinked: list[Turn]  # drawn as they are, but their previous or next turn changed

    drawn_links: dict[str, list[int | None]]  # each turn's links as its pages were drawn

    def plan(self, whole: bool) -> tuple[list[Turn], list[Turn]]:
        """(the turns whose pages to draw, those whose pages only to link anew)."""
        return (self.all, []) if whole else (self.changed, self.relinked)

    def relink(self, page: Path, number: int) -> bool:
        """The turn's page drawn before, its links to the turns before and after it made the
        new ones; False if the page is not there as drawn (the caller draws it again). What
        else the page shows was drawn from the same turn: drawing it again (a text map a seat)
        took half of a write after a turn."""
        drawn = self.drawn_links.get(str(number))
        if drawn is None or not page.exists():
            return False
        html = page.read_text()
        before, after = (_turn_nav(number, *links) for links in (drawn, self.links[number]))
        if html.count(before) != 2:  # at the top of the page and at its foot
            return False
        _write(page, html.replace(before, after))
        return True


def _turns(work: Work, game: Game, drawn: dict[str, Any]) -> _Turns:
    turns = work.site.resolved_turns(game.id)
    keys = {turn.number: _turn_key(turn) for turn in turns}
    before: dict[str, str] = drawn.get("turns", {})
    changed = [turn for turn in turns if before.get(str(turn.number)) != keys[turn.number]]
    gone = sorted(int(number) for number in before if int(number) not in keys)
    numbers = [turn.number for turn in turns]
    links = {number: list(_neighbours(numbers, number).values()) for number in numbers}
    linked: dict[str, list[int | None]] = drawn.get("links", {})
    relinked = [
        turn
        for turn in turns
        if turn not in changed and linked.get(str(turn.number)) != links[turn.number]
    ]
    return _Turns(turns, keys, changed, gone, links, relinked, linked)


def _turn_key(turn: Turn) -> str:
    made = f"{utc(turn.resolved_at).isoformat() if turn.resolved_at else ''}\0{turn.record}"
    return hashlib.sha256(made.encode()).hexdigest()[:24]


def _write_game(work: Work, service: Service, root: Path, game: Game, *, full: bool) -> None:
    folder = root / "games" / game.id
    drawn = {} if full else _manifest(folder)
    turns = _turns(work, game, drawn)
    ruleset = get_ruleset(game.ruleset)
    views: dict[int, ResolvedTurn] = {}

    def view_of(turn: Turn) -> ResolvedTurn:
        if turn.number not in views:
            views[turn.number] = ResolvedTurn.load(work, game, turn)
        return views[turn.number]

    _drop_turns(folder, turns.gone)
    numbers = [turn.number for turn in turns.all]
    drawing, relinking = turns.plan(full)
    for turn in drawing:
        _write_turn(folder, game, view_of(turn), numbers)
    for turn in relinking:
        if not turns.relink(folder / f"turn-{turn.number}.html", turn.number):
            _write_turn(folder, game, view_of(turn), numbers, draw=False)
    seats = work.games.seats_of(game.id)
    tokens = {seat.name: _seat_token(service, seat) for seat in seats}
    _seat_folders(folder / "seats", set(tokens.values()) - {""})
    for seat in seats:
        token = tokens[seat.name]
        if not token:
            continue
        place = folder / "seats" / token
        _drop_turns(place, turns.gone)
        drawing, relinking = turns.plan(full or not (place / "index.html").exists())
        for turn in drawing:
            _write_seat_turn(place, service, game, seat, view_of(turn), numbers)
        for turn in relinking:
            if not turns.relink(place / f"turn-{turn.number}.html", turn.number):
                _write_seat_turn(place, service, game, seat, view_of(turn), numbers, draw=False)
        _write(place / "index.html", _seat_index(game, ruleset, seat, numbers))
    if full or turns.changed or turns.gone or not (folder / "chart.html").exists():
        _write_chart(work, folder, game, ruleset)
    _write(folder / "index.html", _game_page(work, game, ruleset, turns.all))
    manifest = {
        "version": ARCHIVE_VERSION,
        _MARK: "pbem web archive",
        "turns": {str(number): key for number, key in turns.keys.items()},
        "links": {str(number): linked for number, linked in turns.links.items()},
    }
    _write(folder / MANIFEST, json.dumps(manifest, sort_keys=True, indent=1) + "\n")


def _drop_turns(folder: Path, numbers: list[int]) -> None:
    """The pages of turns no longer resolved (a rollback)."""
    for number in numbers:
        for name in (f"turn-{number}.html", f"turn-{number}.png"):
            _remove(folder / name)


def _seat_token(service: Service, seat: Seat) -> str:
    """The seat's token; '' for a seat nobody holds, which has no pages."""
    if not (seat.address and seat.password_hash):
        return ""
    secret = site_secret(service.settings.web)
    return seat_token(secret, seat.game_id, seat.name, seat.address, seat.password_hash)


def _seat_folders(seats: Path, current: set[str]) -> None:
    """The seats' folder without the token folders of old, and unlisted for the current."""
    for folder in seats.iterdir() if seats.is_dir() else ():
        if folder.name not in current:
            _remove(folder)
    if current:
        _unlisted(seats)


def _turn_nav(number: int, previous: int | None, following: int | None) -> str:
    """The links of a turn's page to the turns before and after it, as its page draws them."""
    return _macro("turn_nav", previous, following, number)


def _neighbours(numbers: list[int], number: int) -> dict[str, int | None]:
    index = numbers.index(number)
    return {
        "previous": numbers[index - 1] if index > 0 else None,
        "next": numbers[index + 1] if index + 1 < len(numbers) else None,
    }


def _write_turn(
    folder: Path, game: Game, view: ResolvedTurn, numbers: list[int], *, draw: bool = True
) -> None:
    """The turn's public page, and its map unless `draw` is False (only its links changed:
    the picture drawn before stands)."""
    number = view.turn.number
    shown = _drawn(folder / f"turn-{number}.png", view, "", draw)
    outcome = view.resolution.outcome or view.ruleset.outcome(view.after)
    html = _page(
        "turn.html",
        root="../../",
        title=f"{game.id}: turn {number}",
        game=game.id,
        ruleset=view.ruleset.title,
        number=number,
        revision=view.revision,
        picture=shown,
        alt=f"Map of game {game.id} after turn {number}",
        standings=_standings(view.ruleset.standings(view.after)),
        events=[event_text(event, news=True) for event in view.resolution.events if event.public],
        referee_notes=list(view.referee_notes),
        bot_seats=list(view.bot_seats),
        outcome=_outcome(outcome),
        **_neighbours(numbers, number),
    )
    _write(folder / f"turn-{number}.html", html)


def _drawn(path: Path, view: ResolvedTurn, seat: str, draw: bool) -> str:
    """The map picture's file name for the page ('' for none), drawn as `seat` sees it into
    `path` if `draw`; else the one drawn before, if any."""
    if not draw:
        return path.name if path.exists() else ""
    picture = map_picture(view)
    if picture is None:
        _remove(path)
        return ""
    _write(path, picture.png(seat))
    return path.name


def _write_seat_turn(
    place: Path,
    service: Service,
    game: Game,
    seat: Seat,
    view: ResolvedTurn,
    numbers: list[int],
    *,
    draw: bool = True,
) -> None:
    number = view.turn.number
    shown = _drawn(place / f"turn-{number}.png", view, seat.name, draw)
    played = played_of(loads(view.turn.record or "{}")).get(seat.name)
    html = _page(
        "seat_turn.html",
        root="../../../../",
        private=True,
        title=f"{game.id}: {seat.name}, turn {number}",
        game=game.id,
        seat=seat.name,
        number=number,
        picture=shown,
        alt=f"Map of game {game.id} after turn {number}, as {seat.name} sees it",
        report=report_body(service.settings, view, seat, archived=True),
        played_by=played.by if played is not None else "",
        orders=played.text if played is not None else "",
        **_neighbours(numbers, number),
    )
    _write(place / f"turn-{number}.html", html)


def _seat_index(game: Game, ruleset: Ruleset, seat: Seat, numbers: list[int]) -> str:
    return _page(
        "seat.html",
        root="../../../../",
        private=True,
        title=f"{game.id}: {seat.name}'s pages",
        game=game.id,
        ruleset=ruleset.title,
        seat=seat.name,
        status=seat.status,
        turns=list(reversed(numbers)),
    )


def _write_chart(work: Work, folder: Path, game: Game, ruleset: Ruleset) -> None:
    # SVG, not the mails' PNG: a turn adds a point to every line, so the chart is drawn again
    # after each, and matplotlib's PNG cost three quarters of the write (pbem.pictures.chart_svg).
    found = history(work, game, ruleset)
    chart = campaign_svg(found) if found is not None else None
    _remove(folder / "chart.png")  # an archive written before the chart was SVG
    if chart is not None:
        _write(folder / "chart.svg", chart)
    else:
        _remove(folder / "chart.svg")
    html = _page(
        "chart.html",
        root="../../",
        title=f"{game.id}: the campaign",
        game=game.id,
        picture="chart.svg" if chart is not None else "",
        alt=f"Campaign chart of game {game.id}: each seat's standing after every turn",
    )
    _write(folder / "chart.html", html)


def _game_page(work: Work, game: Game, ruleset: Ruleset, turns: list[Turn]) -> str:
    last = turns[-1] if turns else None
    if last is not None:
        state = loads(last.state_after or last.state_before)
    else:
        first = work.games.first_turn(game.id)
        state = loads(first.state_before) if first is not None else None
    pending = _pending(work, game)
    ended = bool(game.result)  # a game ends with its result (pbem.clock.turns)
    return _page(
        "game.html",
        root="../../",
        title=f"{game.id}: {ruleset.title}",
        game=game.id,
        ruleset=ruleset.title,
        ruleset_id=ruleset.id,
        status=str(game.status),
        turn=game.turn,
        deadline=describe(pending.deadline, game.timezone) if pending is not None else "",
        options=_options(game, ruleset),
        commitment=commitment(game.seed, game.seed_salt),
        seed=game.seed if ended else None,
        salt=game.seed_salt if ended else "",
        standings=_standings(ruleset.standings(state)) if state is not None else None,
        standings_after=last.number if last is not None else None,
        outcome=_outcome(loads(game.result)) if game.result else None,
        turns=[turn.number for turn in reversed(turns)],
    )


def _pending(work: Work, game: Game) -> Turn | None:
    """The turn orders go to, running or paused; None before the start and after the end."""
    return pending_turn(work, game) or paused_turn(work, game)


def _options(game: Game, ruleset: Ruleset) -> list[tuple[str, str]]:
    """The rules and options the game is played with, as (name, value)."""
    chosen: dict[str, Any] = loads(game.options) if game.options else {}
    shown = [(spec.name, _shown(chosen.get(spec.name, spec.default))) for spec in ruleset.options]
    listed = {spec.name for spec in ruleset.options}
    shown += [(name, _shown(value)) for name, value in sorted(chosen.items()) if name not in listed]
    return [
        *shown,
        ("deadlines", game.deadline_policy),
        ("a turn resolves once every order is in", _shown(game.early_processing)),
        ("grace after the deadline", f"{game.grace_seconds // 60} minutes"),
        ("a missing seat plays", game.nmr),
        ("abandoned after missed turns in a row", str(game.abandon_after or "never")),
        ("orders only from the seat's address", _shown(game.address_check)),
        ("press between seats", _shown(game.press)),
        ("anonymous press", _shown(game.grey_press)),
        ("press after the end", _shown(game.press_after_end)),
        ("time zone", game.timezone),
    ]


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


@dataclass(frozen=True)
class _Table:
    measures: list[str]
    rows: list[tuple[str, dict[str, int]]]


def _standings(standings: Standings) -> _Table | None:
    if not standings:
        return None
    measures: list[str] = []
    for values in standings.values():
        measures += [measure for measure in values if measure not in measures]
    return _Table(measures, list(standings.items()))


def _outcome(result: Any) -> dict[str, Any] | None:
    if result is None:
        return None
    data = result.to_json() if hasattr(result, "to_json") else result
    if not isinstance(data, dict):
        return None
    return {"winners": list(data.get("winners", [])), "reason": str(data.get("reason", ""))}


# --- the index and the desk ---------------------------------------------------------------


class _IndexRow(NamedTuple):
    """A game's row on the site's index. Attributes, not a dict's keys: Jinja looks an
    attribute up first, and a thousand rows of dicts took twice as long to draw."""

    id: str
    ruleset: str
    status: str
    turn: int
    seats: int


def _game_rows(work: Work) -> list[_IndexRow]:
    """The index's rows: two queries, of the columns it shows and of every game's seats."""
    seats = work.site.seat_counts()
    titles: dict[str, str] = {}  # a ruleset looked up once, not once a game
    return [
        _IndexRow(
            game,
            titles.get(ruleset) or titles.setdefault(ruleset, get_ruleset(ruleset).title),
            str(status),
            turn,
            seats.get(game, 0),
        )
        for game, ruleset, status, turn in work.site.index_columns()
    ]


# Each game's index row as last drawn in this process, by the game's id: after one game's
# turn the index is its thousand rows read again (so that it shows what the database holds,
# whoever changed it) but only the rows that changed drawn again.
_rows_drawn: dict[str, tuple[_IndexRow, str]] = {}


def _drawn_rows(rows: list[_IndexRow]) -> str:
    """The index's rows as its table's body holds them, each escaped as the template
    escapes ('' for none: "No games yet")."""
    drawn: dict[str, tuple[_IndexRow, str]] = {}
    for row in rows:
        kept = _rows_drawn.get(row.id)
        drawn[row.id] = kept if kept is not None and kept[0] == row else (row, _row_html(row))
    # The games of now (one deleted is forgotten). A row is kept only while it is the same
    # row, so a write in another thread at the same time never shows a stale one.
    _rows_drawn.clear()
    _rows_drawn.update(drawn)
    return "".join(html for _, html in drawn.values())


def _row_html(row: _IndexRow) -> str:
    return _macro("index_row", row)


def _referees(work: Work) -> dict[str, set[str]]:
    """Every referee address of the site, and the games each referees."""
    found: dict[str, set[str]] = {}
    for address, game_id in work.site.referee_games():
        found.setdefault(address.strip().lower(), set()).add(game_id)
    return found


def _write_desk(
    work: Work,
    service: Service,
    root: Path,
    games: Sequence[Game] | None,
    only: str | None,
) -> None:
    """Each referee's desk: its index and the desk page of each of their games, and of no
    other game. After one game's change (`only`), the desks of that game's referees (and any
    not written yet); every desk when the site is written whole."""
    secret = site_secret(service.settings.web)
    referees = _referees(work)
    tokens = {address: desk_token(secret, address) for address in referees}
    desk = root / "desk"
    for folder in desk.iterdir() if desk.is_dir() else ():
        if folder.name not in tokens.values():
            _remove(folder)
    _unlisted(desk)
    written = []
    for address, mine in sorted(referees.items()):
        place = desk / tokens[address]
        # Also a desk that shows `only` no longer its referee's: the page goes.
        kept = (place / f"game-{only}.html").exists()
        if only is not None and only not in mine and (place / "index.html").exists() and not kept:
            continue
        written.append(address)
    if not written:
        return
    shown: set[str] = set().union(*(referees[address] for address in written))
    # Read once, for every desk this write draws, and only the games they show.
    shown_games = (
        [game for game in games if game.id in shown]
        if games is not None
        else work.site.games_by_id(shown)
    )
    rows = _desk_rows(work, shown_games)
    for address in written:
        own = [game for game in shown_games if game.id in referees[address]]
        _write_one_desk(work, desk / tokens[address], address, own, rows, only)


def _write_one_desk(
    work: Work,
    place: Path,
    address: str,
    games: Sequence[Game],
    rows: dict[str, dict[str, Any]],
    only: str | None,
) -> None:
    for game in games:
        if only is None or game.id == only or not (place / f"game-{game.id}.html").exists():
            html = _desk_game_page(work, game, rows[game.id])
            _write(place / f"game-{game.id}.html", html)
    names = {f"game-{game.id}.html" for game in games}
    for page in place.glob("game-*.html") if place.is_dir() else ():
        if page.name not in names:
            _remove(page)
    index = _page(
        "desk.html",
        root="../../",
        private=True,
        title="The referee's desk",
        referee=address,
        games=[rows[game.id] for game in games],
        quarantine=_quarantine(work, [game.id for game in games]),
    )
    _write(place / "index.html", index)


def _desk_rows(work: Work, games: Sequence[Game]) -> dict[str, dict[str, Any]]:
    """Each game's turn, deadline and whose orders are in: the running games read as the
    clock reads them every pass (pbem.clock.due.running_facts: four queries, the seats asked
    remembered by their state's digest), the paused ones one by one."""
    now = utcnow()
    running = {facts.game.id: facts for facts in running_facts(work, now)}
    rows = {}
    for game in games:
        facts = running.get(game.id)
        sent: list[str] = []
        unplayed: dict[str, str] = {}
        waiting: list[str] = []
        deadline = ""
        if facts is not None:
            asked = [seat.name for seat in facts.asked]
            # As resolution plays them (and the preview says): orders on file for a seat in
            # civil disorder, ejected or the bot's are not in, but on file and not played.
            unplayed = not_played(facts.ordered, facts.asked, asked)
            sent = [seat for seat in asked if seat in facts.ordered and seat not in unplayed]
            # As the clock, `game show` and the players' mail say (still_waiting): not a seat
            # nobody plays (civil disorder after a RESIGN, ejected, abandoned, the bot's),
            # nor one away unless the game waits for absent seats.
            waiting = [seat.name for seat in facts.required()]
            deadline = describe(facts.turn.deadline, game.timezone)
        else:
            pending = _pending(work, game)
            if pending is not None:
                expected = seats_asked(game.ruleset, pending.state_before)
                have = work.games.stored_orders(game.id, pending.number)
                seats = work.games.seats_of(game.id)
                unplayed = not_played(have, seats, expected)
                sent = [seat for seat in expected if seat in have and seat not in unplayed]
                waiting = still_waiting(expected, have, seats, game, now)
                deadline = describe(pending.deadline, game.timezone)
        rows[game.id] = {
            "id": game.id,
            "ruleset": get_ruleset(game.ruleset).title,
            "status": str(game.status),
            "turn": game.turn,
            "deadline": deadline,
            "sent": sent,
            "unplayed": unplayed,
            "waiting": waiting,
        }
    return rows


def _desk_game_page(work: Work, game: Game, row: dict[str, Any]) -> str:
    entries, total = work.audit.newest(game.id, AUDIT_SHOWN)
    seats = [
        {
            "name": seat.name,
            "status": str(seat.status),
            "address": seat.address,
            "missed": seat.missed,
            "absent_until": str(seat.absent_until or ""),
            "sent": seat.name in row["sent"],
            "unplayed": row["unplayed"].get(seat.name, ""),
        }
        for seat in work.games.seats_of(game.id)
    ]
    referees = work.site.referee_addresses(game.id)
    return _page(
        "desk_game.html",
        root="../../",
        private=True,
        title=f"The referees' desk: {game.id}",
        game=row,
        seats=seats,
        referees=sorted(referees),
        # Unwrapped: the page wraps each line at its own width (style.css), a phone's or a
        # wide window's, not at a mail's 72 columns.
        audit=["\n".join(entry_lines(entry, width=None)) for entry in entries],
        audit_total=total,
    )


def _quarantine(work: Work, game_ids: Sequence[str]) -> list[dict[str, Any]]:
    """The newest quarantine entries waiting of mail to these games (a referee's); of each
    mail only who sent it and its game, never the mail itself (it may hold a password). Mail
    of no game, or of another, is the operator's (`pbem quarantine list`)."""
    return [
        {
            "id": entry.id,
            "reason": entry.reason,
            "error": (entry.error.splitlines() or [""])[0][:200],
            "at": f"{utc(entry.created_at):%Y-%m-%d %H:%M} UTC",
            "sender": sender,
            "game": game or "",
        }
        for entry, sender, game in work.inbound.waiting_of_games(game_ids, QUARANTINE_SHOWN)
    ]
