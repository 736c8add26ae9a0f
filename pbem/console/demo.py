"""`pbem demo`: a game of bot seats played to its end through the real pipeline. The bots'
order mails are written into the inbox maildir as files, then polled, checked, resolved and
reported into the outbox maildir, exactly as players' mail would be.

The demo runs on a fixed clock (one hour a turn from a fixed start) and derives the passwords
from the seed, so the same --seed prints the same game."""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

from engine import get_ruleset
from pbem.config import MaildirSettings, SecuritySettings, Settings
from pbem.errors import PbemError
from pbem.games.games import pending_turn
from pbem.games.lifecycle import GameSpec, SeatSpec, create_game
from pbem.games.outbox import as_message
from pbem.games.service import Service
from pbem.intake.poll import PollReport, poll_once
from pbem.mail.maildir import MaildirInbox, MaildirSender
from pbem.store import (
    MailStatus,
    OutboxKind,
    loads,
    make_engine,
)

GAME_ID = "demo"
NAMES = ("alice", "bruno", "chen", "dana", "emil", "fatou", "gwen", "hiro")
START = datetime(2026, 1, 1, tzinfo=UTC)
TURN_STEP = timedelta(hours=1)
MAX_TURNS = 400  # a guard: the rulesets end their games long before this
MARKER = ".pbem-demo"


class DemoError(PbemError, ValueError):
    pass


def run_demo(
    ruleset_name: str, *, seats: int, seed: int, folder: Path, out: Callable[[str], None] = print
) -> int:
    ruleset = get_ruleset(ruleset_name)
    if not ruleset.min_seats <= seats <= min(ruleset.max_seats, len(NAMES)):
        raise DemoError(f"{ruleset.id} plays with {ruleset.min_seats} to {ruleset.max_seats} seats")
    _fresh_folder(folder)
    service = Service(make_engine(f"sqlite:///{folder / 'pbem.db'}"), _settings(folder))
    service.store.upgrade()
    inbox = MaildirInbox(folder / "inbox")
    sender = MaildirSender(folder / "outbox")
    names = NAMES[:seats]
    passwords = {name: _password(seed, name) for name in names}
    spec = GameSpec(
        id=GAME_ID,
        ruleset=ruleset.id,
        seats=[SeatSpec(name, _address(name), passwords[name]) for name in names],
        seed=seed,
    )
    now = START
    with service.store.transaction() as work:
        create_game(work, service.settings, spec, now=now)
    out(f"demo: {ruleset.title}, {seats} bot seats ({', '.join(names)}), seed {seed}")
    poll_once(service, inbox, sender, now=now)
    for _ in range(MAX_TURNS):
        waiting = _mail_bot_orders(service, inbox, passwords, seed, now)
        if waiting is None:
            break
        report = poll_once(service, inbox, sender, now=now)
        out(_progress(waiting, report))
        now += TURN_STEP
    _finish(service, folder, out)
    return 0


def _settings(folder: Path) -> Settings:
    # A throwaway database: a cheaper password hash keeps the demo quick.
    return replace(
        Settings(),
        maildir=MaildirSettings(inbox=str(folder / "inbox"), outbox=str(folder / "outbox")),
        security=SecuritySettings(password_cost=10),
    )


def _fresh_folder(folder: Path) -> None:
    """Wipe `folder` for the demo, but never a folder that a demo did not make."""
    if folder.exists():
        if any(folder.iterdir()) and not (folder / MARKER).exists():
            raise DemoError(f"{folder} is not empty and not a demo folder; choose another --dir")
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    (folder / MARKER).write_text("made by pbem demo; wiped by the next one\n")


def _password(seed: int, name: str) -> str:
    return hashlib.sha256(f"demo\x1f{seed}\x1f{name}".encode()).hexdigest()[:10]


def _address(name: str) -> str:
    return f"{name}@demo.invalid"


def _mail_bot_orders(
    service: Service, inbox: MaildirInbox, passwords: dict[str, str], seed: int, now: datetime
) -> list[str] | None:
    """Write each waiting bot's order mail into the inbox; None when the game is over."""
    with service.store.transaction() as work:
        game = work.games.game_named(GAME_ID)
        turn = pending_turn(work, game) if game else None
        if game is None or turn is None:
            return None
        ruleset = get_ruleset(game.ruleset)
        state = loads(turn.state_before)
        waiting = ruleset.seats_to_order(state)
        for seat in waiting:
            text = ruleset.bot_orders(state, seat, seed)
            inbox.deliver(_order_mail(seat, passwords[seat], turn.number, text, now))
        return [f"{turn.number}", *waiting]


def _order_mail(seat: str, password: str, turn: int, text: str, now: datetime) -> bytes:
    message = EmailMessage()
    message["From"] = f"{seat.title()} <{_address(seat)}>"
    message["To"] = "moderator@pbem.localhost"
    message["Subject"] = f"{GAME_ID} turn {turn} orders"
    message["Message-ID"] = f"<{GAME_ID}-{turn}-{seat}@demo.invalid>"
    message["Date"] = now.strftime("%a, %d %b %Y %H:%M:%S +0000")
    body = f"GAME {GAME_ID} SEAT {seat} PASSWORD {password}\nTURN {turn}\n{text.strip()}\nEND\n"
    message.set_content(body)
    return message.as_bytes()


def _progress(waiting: list[str], report: PollReport) -> str:
    number, *seats = waiting
    accepted = report.statuses.get(MailStatus.ACCEPTED, 0)
    line = f"turn {number:>3}: {len(seats)} order mails, {accepted} accepted"
    for turn in report.turns:
        line += f"; resolved, {turn.events} events"
        if turn.ended:
            line += " - game over"
    return line + f"; {report.drained.sent} mails out"


def _finish(service: Service, folder: Path, out: Callable[[str], None]) -> None:
    with service.store.transaction() as work:
        game = work.games.game_named(GAME_ID)
        assert game is not None
        last = work.games.turn_of(GAME_ID, game.turn)
        assert last is not None
        ruleset = get_ruleset(game.ruleset)
        state = loads(last.state_after or last.state_before)
        outcome = ruleset.outcome(state)
        viewer = (
            outcome.winners[0] if outcome and outcome.winners else ruleset.seats_to_order(state)[0]
        )
    out("")
    out(f"final map (as {viewer} sees it):")
    out(ruleset.render_map(state, viewer))
    out("")
    out(ruleset.public_summary(state))
    if outcome:
        out(f"winner: {', '.join(outcome.winners) or 'none'} - {outcome.reason}")
        out(f"turns played: {last.number}")
    else:
        out(f"stopped after {MAX_TURNS} turns without a result")
    outbox = folder / "outbox"
    count = sum(1 for sub in ("new", "cur") for _ in (outbox / sub).iterdir())
    out(f"mail: bots' order mails in {folder / 'inbox'}, {count} mails out in {outbox}")
    pictures = _save_pictures(service, folder, _address(viewer))
    if pictures:
        out(f"pictures of {viewer}'s game-end mail: {', '.join(map(str, pictures))}")
    out(f"database: {folder / 'pbem.db'}")


def _save_pictures(service: Service, folder: Path, address: str) -> list[Path]:
    """The pictures attached to `address`'s game-end mail, written beside the database for a
    newcomer to open."""
    with service.store.transaction() as work:
        row = work.outbox.first_of_kind_to(OutboxKind.GAME_END, address)
        raw = row.raw if row is not None else b""
    saved = []
    for part in as_message(raw).iter_attachments() if raw else ():
        name = Path(str(part.get_filename())).name
        if name.endswith(".png"):
            (folder / name).write_bytes(part.get_content())
            saved.append(folder / name)
    return saved
