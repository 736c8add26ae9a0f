"""The campaign: each ruleset's game, made as a referee makes it, and the script every game is
played through, from the start mails to the game-over mails.

Turn 1: a HELP and a STATUS mail without a GAME line, orders under a wrong password, orders
with a typo in every line (which must not count: the turn waits), then the start mail
answered with its template filled in inside the quote. Turn 2: the referee pauses (a player
asks for his ORDERS meanwhile), resumes and extends the deadline; a template quoted back
unfilled and a plain reply to the report; then everybody's orders. Turn 3: the referee rolls
turn 2 back and reruns it, gives a seat to a new player (the old one still writes with his
old password; the new one asks for the REPORT), and forces the turn while one seat has sent
nothing. Turn 4: an out-of-office reply, three commands in one mail, and the deadline passes
without that seat's orders. Then ordinary turns (with a typo now and then, and NO ORDERS) to
the game's end, or to the bounds given.

Secrets are planted on the way (planted.py): the addresses and passwords, in turn 2 a thread
of anonymous press and press to one seat, a comment in turn-2 orders (asked for back, while
the others ask for STATUS, FORECAST, HISTORY and LIST MINE), in turn 3 a private event in
the report the newcomer asks for, and a stranger asks for STATUS, LIST and HELP. After the
end the archive is written and its public pages read, for the checks of privacy."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.campaign import planted
from tests.campaign.players import Bot
from tests.campaign.record import Record
from tests.campaign.referee import Referee, password_in
from tests.campaign.table import Table
from tests.servers.world import MailWorld
from tests.web.public import page_bytes, public_files

SEATS = ("ann", "bob", "cy")
SEED = 5


@dataclass(frozen=True)
class Setup:
    """A ruleset's game: its id, deadline policy, the zone it is meant to show deadlines in
    (a weekly policy's own zone, or --timezone), its options, and how a turn is forced."""

    ruleset: str
    game: str
    deadline: str
    zone: str = "UTC"
    timezone: str = ""  # --timezone, when given
    options: dict[str, str] = field(default_factory=dict)
    turn_run: bool = False  # force with `pbem turn run` rather than the referee's `process`


SETUPS = {
    setup.ruleset: setup
    for setup in (
        # The zone only in the policy: the game's deadlines are Berlin's.
        Setup(
            "temples-and-swords", "tns", "weekly:mon,thu@18:00 Europe/Berlin", zone="Europe/Berlin"
        ),
        Setup(
            "classical", "cls", "interval:48h", zone="America/New_York", timezone="America/New_York"
        ),
        Setup("culture-and-conquest", "cnc", "interval:72h", turn_run=True),
        Setup("tribes", "tribes", "weekly:tue,fri@20:00", zone="Asia/Tokyo", timezone="Asia/Tokyo"),
        Setup("medieval-micromanager", "mm", "interval:48h", turn_run=True),
    )
}


@dataclass
class Cast:
    table: Table
    referee: Referee
    bots: dict[str, Bot]  # by seat: the seat's player now

    def everyone(self) -> list[Bot]:
        return [self.bots[seat] for seat in SEATS]


def play_campaign(
    world: MailWorld, folder: Path, ruleset: str, *, turns: int, seconds: float
) -> tuple[Record, Table]:
    """One whole campaign of `ruleset`, its game limited to `turns` rounds; the ordinary
    turns stop early after `seconds` of wall time, or if the game outlasts its limit."""
    setup = SETUPS[ruleset]
    record = Record(setup.game, ruleset, setup.zone, {}, "referee", {s: s for s in SEATS})
    table = Table(world, folder, record)
    cast = _seated(table, world, setup, turns)
    started = time.monotonic()
    _first_turn(cast)
    _second_turn(cast)
    _third_turn(cast, world, setup)
    _fourth_turn(cast)
    number = 0
    while not _ended(record) and number <= turns and time.monotonic() - started < seconds:
        number += 1
        _ordinary_turn(cast, number)
    web = folder / "web"  # the daemon's archive runner writes it, `serve --once` does not
    table.cli("web", "build", "--out", str(web))
    record.pages = {p.relative_to(web).as_posix(): page_bytes(p) for p in public_files(web)}
    return record, table


def _seated(table: Table, world: MailWorld, setup: Setup, turns: int) -> Cast:
    """The game made on the command line, with the referee's address; the start mails."""
    bots = {seat: Bot(table, seat, world.player(seat), seat, f"pw-{seat}-{SEED}") for seat in SEATS}
    referee = Referee(table, "referee", world.player("referee"))
    argv = ["game", "new", setup.game, "--ruleset", setup.ruleset, "--seed", str(SEED)]
    argv += ["--referee", referee.address, "--deadline", setup.deadline]
    argv += ["--option", f"turn_limit={turns}", "--option", "grey_press=yes"]
    argv += [f"--seat={seat}={bot.address}:{bot.password}" for seat, bot in bots.items()]
    argv += [f"--option={name}={value}" for name, value in setup.options.items()]
    argv += ["--timezone", setup.timezone] if setup.timezone else []
    table.cli(*argv)
    table.serve()
    referee.learn_password()
    planted.identities(table.record, bots.values(), referee)
    return Cast(table, referee, bots)


def _first_turn(cast: Cast) -> None:
    table, ann, bob, cy = cast.table, *cast.everyone()
    ann.command("HELP", game_line=False)
    cy.command(f"STATUS {table.game}", game_line=False)
    bob.wrong_password()
    table.serve()
    ann.typo_orders()  # nothing of it counts: the turn must wait for ann
    bob.orders()
    cy.orders()
    table.serve()
    ann.quoted_filled(ann.last("game begins"))
    table.serve()


def _second_turn(cast: Cast) -> None:
    table, referee, (ann, bob, cy) = cast.table, cast.referee, cast.everyone()
    planted.anonymous_thread(table, bob, cy, ann)
    referee.pause("the referee is away for the weekend")
    table.serve()
    bob.command("ORDERS")
    table.serve()
    referee.resume_and_extend(24, "back; a day more for the lost weekend")
    table.serve()
    cy.quoted_template(cy.last(r"turn 1 report"))
    bob.reply_to_report(bob.last(r"turn 1 report"))
    table.serve()
    planted.pending_orders(table, ann, (bob, cy))
    for bot in (bob, cy):
        bot.orders()
    table.serve()


def _third_turn(cast: Cast, world: MailWorld, setup: Setup) -> None:
    table, referee, (ann, _, cy) = cast.table, cast.referee, cast.everyone()
    referee.rollback(2, "bob's turn-2 orders were read against the wrong position")
    table.serve()
    referee.rerun("replayed as stored")
    table.serve()
    newcomer = referee.replace(cy, world.player("cy2"), "cy has left for a long journey")
    table.serve()
    newcomer.password = password_in(newcomer.last("you now play").view.text)
    planted.player(table.record, newcomer, told=True)
    cast.bots["cy"] = newcomer
    cy.wrong_password(cy.password)  # the old player, with the old password
    planted.private_event(table, newcomer)
    newcomer.command("REPORT")
    planted.outsider(table, Bot(table, "stranger", world.player("stranger"), "", ""))
    table.serve()
    ann.orders()
    newcomer.orders()
    table.serve()
    referee.force("everyone but bob is in; bob agreed", turn_run=setup.turn_run)
    table.serve()


def _fourth_turn(cast: Cast) -> None:
    table, (ann, bob, cy) = cast.table, cast.everyone()
    if _ended(table.record):
        return
    ann.auto_reply(ann.last(r"turn \d+ report"))
    bob.command("STATUS", "ORDERS", "REPORT")  # bob looks, and forgets his orders
    ann.orders()
    cy.orders()
    table.serve()
    table.serve(to_deadline=True)  # bob misses the turn: one miss, the forced turn none


def _ordinary_turn(cast: Cast, number: int) -> None:
    table, (ann, bob, cy) = cast.table, cast.everyone()
    if number % 4 == 1:
        bob.typo_orders()  # corrected in the same step, before the turn is played
    for bot in (ann, bob):
        bot.orders()
    if number % 3 == 2:
        cy.no_orders()
    else:
        cy.orders()
    table.serve()


def _ended(record: Record) -> bool:
    return any(event.kind == "ended" for event in record.events)
