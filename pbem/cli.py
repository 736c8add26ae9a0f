"""The `pbem` command line. Each subcommand is a small function over the pipeline."""

from __future__ import annotations

import argparse
import os
import select
import sys
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from functools import partial
from importlib import metadata
from pathlib import Path

from engine import all_rulesets, get_ruleset
from engine.registry import UnknownRuleset, plugin_errors
from engine.ruleset import EditError, OptionError, OptionSpec
from pbem import balance
from pbem.clock.forced import Forced
from pbem.clock.turns import resolve_turn
from pbem.config import Settings, WebSettings, load_settings
from pbem.console import chart as chart_cli
from pbem.console import clock as clock_cli
from pbem.console import proof as proof_cli
from pbem.console import referee as referee_cli
from pbem.console import stops as stops_cli
from pbem.console.demo import run_demo
from pbem.daemon import command as serve_command
from pbem.daemon.transport import PacedSender, WaitingInbox, open_transport
from pbem.deadlines.stored import describe
from pbem.errors import PbemError, UsageError
from pbem.games.commitment import new_seed
from pbem.games.games import awaited, orders_line, pending_turn
from pbem.games.lifecycle import (
    RESIGN_CHOICES,
    GameError,
    GameSpec,
    PressOptions,
    ReportOptions,
    SeatSpec,
    create_game,
    seat_count,
)
from pbem.games.outbox import as_message, drain
from pbem.games.outbox_prune import described, prunable, prune
from pbem.games.service import Service
from pbem.games.site_links import site_secret
from pbem.games.stops import is_stopped
from pbem.intake.intake import receive, replay
from pbem.intake.quarantine import entries, entry
from pbem.intake.reasons import ATTENTION, UNANSWERED
from pbem.mail.compose import text_of
from pbem.passwords import new_password, password_problem
from pbem.referee.roles import give_passwords
from pbem.store import (
    Game,
    MailStatus,
    loads,
    make_engine,
    upgrade,
    utc,
    utcnow,
)
from pbem.store.migrate import check_present, check_reachable
from pbem.web import command as web_cli
from pbem.web.archive import archive_on_change, write_logged, write_site

Handler = Callable[[argparse.Namespace], int]


# The exit status of a command line tool killed by SIGPIPE (128 + 13), as a shell reports it.
PIPE_CLOSED = 141


def main(argv: Sequence[str] | None = None) -> int:
    """Every command, its errors said in one line; and stopped quietly when the reader of
    its output has gone (`pbem rulesets | head`), whichever command it is."""
    try:
        try:
            return _main(argv)
        finally:
            sys.stdout.flush()  # here, not at exit, so that a reader gone is met below
    except BrokenPipeError:
        if not _output_gone():
            raise  # a socket's, not standard output's: a bug's traceback
        # The interpreter flushes standard output again as it exits: let that go nowhere.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return PIPE_CLOSED


def _output_gone() -> bool:
    """Whether standard output's reader has gone (poll says so of a pipe, or a socket, whose
    other end closed); not a socket of the command's own (SMTP, IMAP) that broke."""
    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & (select.POLLERR | select.POLLHUP) for _, events in poller.poll(0))
    except (AttributeError, OSError, ValueError):  # no poll (Windows), or no file under it
        return False


def _main(argv: Sequence[str] | None) -> int:
    args = parser().parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args)
    except UnknownRuleset as error:
        print(f"pbem: {error.args[0]}", file=sys.stderr)
        return 2
    except (PbemError, EditError, OptionError) as error:
        # The project's own errors only: anything else is a bug and keeps its traceback.
        print(f"pbem: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        if error.filename is None:
            raise  # no file of the person's (a socket, say): keep the traceback
        # A file given or configured that cannot be read or written: `pbem check x.eml`.
        print(f"pbem: {error.filename}: {error.strerror}", file=sys.stderr)
        return 2


GLOBAL_OPTIONS = (
    ("--config", "a TOML config file (default: $PBEM_CONFIG, else built-in)"),
    ("--db", "database URL, overriding the config (e.g. sqlite:///pbem.db)"),
    ("--now", "the time to act at, ISO 8601 UTC (tests and replays)"),
)


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="pbem", description="A play-by-email game moderator.")
    top.add_argument("--version", action="version", version=f"pbem {_version()}")
    for flag, text in GLOBAL_OPTIONS:
        top.add_argument(flag, help=text)
    sub = top.add_subparsers(dest="command", required=True)
    _simple(sub, "init", "create or upgrade the database", _init)
    _simple(sub, "rulesets", "list the rulesets and their game options", _rulesets)
    _game_commands(sub)
    poll = _simple(sub, "poll", "one pass of `pbem serve --once` (kept for cron lines)", _poll)
    poll.add_argument("--once", action="store_true", required=True, help="one pass, then exit")
    serve_command.add_parser(sub, _serve)
    turn = sub.add_parser("turn", help="turn commands").add_subparsers(dest="turn", required=True)
    run = _simple(turn, "run", "resolve a game's pending turn now", _turn_run)
    run.add_argument("game")
    run.add_argument("--reason", default="", help="before its deadline: why, for the reports")
    check = _simple(sub, "check", "print the reply an order mail would get", _check)
    check.add_argument("file", type=Path)
    outbox = sub.add_parser("outbox", help="outbox commands")
    outbox_sub = outbox.add_subparsers(dest="outbox", required=True)
    _simple(outbox_sub, "flush", "send every unsent mail", _outbox_flush)
    listing = _simple(outbox_sub, "list", "list mail waiting, bounced or dropped", _outbox_list)
    listing.add_argument("--all", action="store_true", help="sent mail too")
    text = "drop the bytes of mail sent more than [outbox] keep_sent_days ago, keeping its row"
    pruning = _simple(outbox_sub, "prune", text, _outbox_prune)
    pruning.add_argument("--dry-run", action="store_true", help="only say what would be dropped")
    _quarantine_commands(sub)
    referee_cli.add_parser(sub, _referee)
    stops_cli.add_parser(sub, _unstop)
    proof_cli.add_verify_parser(sub)
    balance.add_parser(sub, _balance)
    web_cli.add_parser(sub, _web_build, _web_serve)
    demo = _simple(sub, "demo", "play a bot game through the real pipeline", _demo)
    demo.add_argument("--ruleset", default="temples-and-swords", help="a ruleset id or alias")
    demo.add_argument("--seats", type=int, default=4, help="how many bot seats")
    demo.add_argument("--seed", type=int, default=7, help="the game's seed")
    demo.add_argument("--dir", type=Path, default=Path("demo"), help="where the mail goes")
    _take_global_options(top)
    return top


def _take_global_options(parser: argparse.ArgumentParser) -> None:
    """Let every subcommand take the global options after its name too (`pbem serve --config
    FILE`, as a unit file writes it). SUPPRESS: an option not given there leaves the one given
    before the subcommand."""
    for action in parser._actions:
        if not isinstance(action, argparse._SubParsersAction):
            continue
        for command in action.choices.values():
            taken = {flag for known in command._actions for flag in known.option_strings}
            for flag, text in GLOBAL_OPTIONS:
                if flag not in taken:
                    command.add_argument(flag, default=argparse.SUPPRESS, help=text)
            _take_global_options(command)


def _version() -> str:
    try:
        return metadata.version("pbem")
    except metadata.PackageNotFoundError:  # run from a checkout without installing
        return "unknown"


def _simple(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], name: str, text: str, run: Handler
) -> argparse.ArgumentParser:
    command = sub.add_parser(name, help=text, description=text)
    command.set_defaults(handler=run)
    return command


def _game_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    game = sub.add_parser("game", help="game commands").add_subparsers(dest="game", required=True)
    new = _simple(game, "new", "create a game", _game_new)
    new.epilog = (
        "Each ruleset's game options (--option NAME=VALUE), with their defaults and what they "
        "do: `pbem rulesets`, and docs/rules/<ruleset>.md."
    )
    new.add_argument("id", help="the game's id, as players write it on their GAME line")
    new.add_argument("--ruleset", required=True, help="a ruleset id or alias (`pbem rulesets`)")
    new.add_argument(
        "--seat",
        action="append",
        default=[],
        metavar="NAME=ADDRESS[:PASSWORD]",
        help="a seat and its player's address; a password (6 to 64 characters, no spaces or "
        "#) is made up when none is given",
    )
    new.add_argument("--open", type=int, default=0, metavar="N", help="N more seats by JOIN")
    new.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option of the ruleset (see `pbem rulesets`), or of the moderator: "
        "announce_referee_actions, press, grey_press, press_to_referees, press_after_end, "
        "pictures, report_data (yes or no), chart_every (turns; 0: only at the end) "
        "(docs/referee.md)",
    )
    new.add_argument("--deadline", help="deadline policy, e.g. interval:48h or none")
    new.add_argument(
        "--seed", type=int, help="the game's seed (default: 128 random bits; docs/dice.md)"
    )
    proof_cli.add_show_seed(new)
    new.add_argument(
        "--referee", action="append", default=[], metavar="ADDRESS", help="a referee's address"
    )
    new.add_argument("--no-early", action="store_true", help="wait for the deadline always")
    new.add_argument("--address-check", action="store_true", help="orders only from seat address")
    new.add_argument(
        "--resign",
        choices=RESIGN_CHOICES,
        help="what a player's RESIGN does to the seat (default: [games] resign, replace)",
    )
    clock_cli.add_new_arguments(new)
    _simple(game, "list", "list the games", _game_list)
    show = _simple(game, "show", "show one game", _game_show)
    show.add_argument("id", help="the game's id")
    proof_cli.add_show_seed(show)
    proof_cli.add_export_parser(game, _game_export)
    chart_cli.add_chart_parser(game, _game_chart)
    for which, text in (("pause", "stop a game's clock"), ("resume", "start it again")):
        command = _simple(
            game, which, f"{text} (the referee command {which}, by the operator)", _game_clock
        )
        command.set_defaults(name=which)
        command.add_argument("game", help="the game's id")
        command.add_argument(
            "--reason",
            default=f"{which}d by the operator",
            help="told to the players and kept in the log",
        )


def _quarantine_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    quarantine = sub.add_parser("quarantine", help="mail that could not be applied")
    qsub = quarantine.add_subparsers(dest="quarantine", required=True)
    listing = _simple(qsub, "list", "list quarantined mail", _quarantine_list)
    listing.add_argument("--all", action="store_true", help="replayed entries too")
    listing.add_argument("--reason", help="only entries of this reason (e.g. password, error)")
    listing.add_argument(
        "--attention",
        action="store_true",
        help="only what needs an operator (crashes, mail nobody could be answered); the rest "
        "were refused with a reply to the player",
    )
    _simple(qsub, "show", "show one entry and its mail", _quarantine_show).add_argument(
        "id", type=int, help="the entry's number in the list"
    )
    _simple(qsub, "replay", "handle a quarantined mail again", _quarantine_replay).add_argument(
        "id", type=int, help="the entry's number in the list"
    )


def _settings(args: argparse.Namespace) -> Settings:
    settings = load_settings(args.config)
    if args.db:
        settings = replace(settings, database=replace(settings.database, url=args.db))
    return settings


def _service(args: argparse.Namespace) -> Service:
    """The service on a database that is there and up to date; `pbem init` makes it so."""
    settings = _settings(args)
    check_present(settings.database.url)
    service = Service.from_settings(settings)
    service.store.check_reachable()
    pending = service.store.pending_revisions()
    if pending:
        raise service.store.not_ready(service.settings.database.url, pending)
    archive_on_change(service)  # the web archive follows every change players are told of
    return service


def _now(args: argparse.Namespace) -> datetime:
    return utc(datetime.fromisoformat(args.now)) if args.now else utcnow()


def _init(args: argparse.Namespace) -> int:
    settings = _settings(args)
    engine = make_engine(settings.database.url)
    check_reachable(engine)
    upgrade(engine)
    print(f"database ready: {settings.database.url}")
    if settings.web.enabled:
        site_secret(settings.web)  # the web archive's links are made from it
    return 0


def _rulesets(args: argparse.Namespace) -> int:
    rulesets = all_rulesets()
    aliases = {ruleset.id: ", ".join(ruleset.aliases) or "-" for ruleset in rulesets}
    # Columns as wide as their longest entry, so that a long alias list (Classical's) does
    # not run into the title.
    id_width = max((len(ruleset.id) + 1 for ruleset in rulesets), default=0)
    alias_width = max((len(listed) + 2 for listed in aliases.values()), default=0)
    for ruleset in rulesets:
        listed = aliases[ruleset.id]
        print(f"{ruleset.id:<{id_width}} aliases: {listed:<{alias_width}}{ruleset.title}")
        for option in ruleset.options:
            print(f"    {option.name} = {_shown(option.default)}  ({_allowed(option)})")
            print(textwrap.fill(option.help, 96, initial_indent=" " * 8, subsequent_indent=" " * 8))
    print("\nSet one with `pbem game new ... --option NAME=VALUE`; docs/rules/<id>.md says more.")
    broken = plugin_errors()
    for error in broken:
        print(error, file=sys.stderr)
    return 1 if broken else 0


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _allowed(option: OptionSpec) -> str:
    if option.choices:
        return "one of " + ", ".join(map(_shown, option.choices))
    if isinstance(option.default, bool):
        return "yes or no"
    if option.minimum is not None and option.maximum is not None:
        return f"a whole number from {option.minimum} to {option.maximum}"
    if option.minimum is not None:
        return f"a whole number from {option.minimum}"
    if option.maximum is not None:
        return f"a whole number up to {option.maximum}"
    return f"a {type(option.default).__name__}"


def _game_new(args: argparse.Namespace) -> int:
    service = _service(args)
    seats, passwords = _seat_specs(args.seat)
    options = dict(_pair(option, "=") for option in args.option)
    announce = _service_option(options, "announce_referee_actions", default=True)
    press = PressOptions(
        allowed=_service_option(options, "press", default=True),
        grey=_service_option(options, "grey_press", default=False),
        to_referees=_service_option(options, "press_to_referees", default=False),
        after_end=_service_option(options, "press_after_end", default=False),
    )
    spec = GameSpec(
        id=args.id,
        ruleset=args.ruleset,
        seats=seats,
        seed=args.seed if args.seed is not None else new_seed(),
        options=options,
        deadline_policy=args.deadline or service.settings.games.deadline_policy,
        early_processing=not args.no_early and service.settings.games.early_processing,
        address_check=args.address_check or service.settings.games.address_check,
        signup_seats=args.open,
        referees=args.referee,
        announce_referee_actions=announce,
        clock=clock_cli.options_from(args, service.settings),
        resign=args.resign or service.settings.games.resign,
        press=press,
        reports=ReportOptions(
            pictures=_service_option(options, "pictures", default=True),
            data=_service_option(options, "report_data", default=True),
            chart_every=_count_option(options, "chart_every", default=10),
        ),
    )
    with service.store.transaction() as work:
        game = create_game(work, service.settings, spec, now=_now(args))
        give_passwords(work, service.settings, game, now=_now(args))
        print(f"game {game.id} created ({game.ruleset}, {game.status})")
        if args.show_seed:
            print(f"  {proof_cli.dice_line(game, show_seed=True)}")
        edge = _seat_edge_line(game)
        if edge:
            print(f"  {edge}")
        referees = {address.lower(): is_stopped(work, address) for address in args.referee}
    for name, password in passwords:
        print(f"  seat {name}: password {password}  (give it to the player; it is not mailed)")
    for address, stopped in referees.items():
        print(f"  referee {address}: {_referee_password_fate(stopped)}")
    return 0


def _referee_password_fate(stopped: bool) -> str:
    """What became of a new referee's password: mail to an address that sent STOP is dropped,
    never sent (pbem.games.stops)."""
    if not stopped:
        return "password mailed to them (once)"
    return (
        "password NOT sent: the address asked for no more mail (STOP); "
        "that referee can act on the command line only (pbem referee)"
    )


def _seat_edge_line(game: Game) -> str:
    """A line for the referee when the ruleset says its first seat wins well over its share
    and the game was made without the option that evens it out; '' otherwise. The figures
    are the ruleset's, measured in its bot games."""
    ruleset = get_ruleset(game.ruleset)
    options = loads(game.options)
    edge = ruleset.seat_edge(options)
    if edge is None:
        return ""
    # Whose choice the first seat is: the referee's listing, or the setup's roll, when the
    # order in which the seats were given does not matter at all.
    matters = (
        "Playing first matters: who plays first is rolled at setup, and"
        if ruleset.order_drawn(options)
        else "Seat order matters: the first seat listed plays first every round, and"
    )
    return (
        f"{matters} in {edge.seats}-seat bot games the first seat wins {edge.share:.0%} of "
        f"{ruleset.title} games; --option {edge.option}={edge.value} evens it "
        f"({edge.evened:.0%})."
    )


def _service_option(options: dict[str, str], name: str, *, default: bool) -> bool:
    """A game option of the service, not of the ruleset: taken out before the ruleset sees
    the others."""
    if name not in options:
        return default
    value = options.pop(name).lower()
    if value not in ("yes", "true", "on", "1", "no", "false", "off", "0"):
        raise UsageError(f"option {name} takes yes or no, not {value!r}")
    return value in ("yes", "true", "on", "1")


def _count_option(options: dict[str, str], name: str, *, default: int) -> int:
    """A whole-number game option of the service (see _service_option)."""
    if name not in options:
        return default
    value = options.pop(name)
    if not value.isdigit():
        raise UsageError(f"option {name} takes a whole number from 0, not {value!r}")
    return int(value)


def _game_clock(args: argparse.Namespace) -> int:
    """`pbem game pause|resume GAME`: the referee command of that name, run by the operator,
    so that it is audited and told to the players as any referee's is."""
    args.args, args.actor = [], ""
    return _referee(args)


def _seat_specs(given: list[str]) -> tuple[list[SeatSpec], list[tuple[str, str]]]:
    seats, generated = [], []
    for text in given:
        name, address = _pair(text, "=")
        address, _, password = address.partition(":")
        if not password:
            password = new_password()
            generated.append((name.lower(), password))
        elif password_problem(password):
            raise UsageError(f"seat {name.lower()}: {password_problem(password)}")
        seats.append(SeatSpec(name, address, password))
    return seats, generated


def _pair(text: str, sep: str) -> tuple[str, str]:
    left, found, right = text.partition(sep)
    if not found or not left or not right:
        raise UsageError(f"expected NAME{sep}VALUE, not {text!r}")
    return left.strip(), right.strip()


def _game_list(args: argparse.Namespace) -> int:
    service = _service(args)
    with service.store.transaction() as work:
        games = work.games.all_games()
        for game in games:
            seats = seat_count(len(work.games.seats_of(game.id)), game.signup_seats)
            print(f"{game.id:<20} {game.ruleset:<20} {game.status:<8} turn {game.turn:<4} {seats}")
        if not games:
            print("no games")
    return 0


def _game_show(args: argparse.Namespace) -> int:
    service = _service(args)
    with service.store.transaction() as work:
        game = work.games.game_named(args.id)
        if game is None:
            raise GameError(f"there is no game {args.id}")
        print(f"game {game.id}: {game.ruleset}, {game.status}")
        print(proof_cli.dice_line(game, show_seed=args.show_seed))
        print(f"options: {game.options}")
        print(
            f"deadline policy: {game.deadline_policy}; early processing "
            f"{'on' if game.early_processing else 'off'}; address check "
            f"{'on' if game.address_check else 'off'}"
        )
        print(clock_cli.describe(game))
        turn = pending_turn(work, game)
        if turn is not None:
            turn_waits = awaited(work, game, turn, now=_now(args))
            away = f"; away, not waited for: {', '.join(turn_waits.away)}"
            print(
                f"turn {turn.number}, deadline {describe(turn.deadline, game.timezone)}, "
                f"waiting for: {', '.join(turn_waits.waiting) or 'nobody'}"
                + (away if turn_waits.away else "")
            )
            print(orders_line(work, game, turn, turn_waits))
        if game.result:
            print(f"result: {loads(game.result)['reason']}")
        for seat in work.games.seats_of(game.id):
            # A seat whose player sent STOP gets no mail: say so, or `active` misleads.
            mail = "  mail stopped (STOP)" if is_stopped(work, seat.address) else ""
            print(f"  seat {seat.name:<12} {seat.address:<32} {seat.status}{mail}")
        for referee in work.games.referees_of(game.id):
            # A referee without a password cannot act by mail yet (docs/referee.md).
            can = "" if referee.password_hash else "  (no password yet: cannot act by mail)"
            # A referee who sent STOP gets no mail either: no result, no notice of a seat.
            mail = "  mail stopped (STOP)" if is_stopped(work, referee.address) else ""
            print(f"  referee {referee.address}{can}{mail}")
    return 0


def _transport(settings: Settings) -> tuple[WaitingInbox, PacedSender]:
    return open_transport(settings)  # [service] transport: maildir or mail


def _poll(args: argparse.Namespace) -> int:
    """`pbem poll --once` is `pbem serve --once`: one pass, the same code and output."""
    args.once = True
    return _serve(args)


def _serve(args: argparse.Namespace) -> int:
    """The database is looked at by serve itself: it waits for one that does not answer yet,
    and brings one that is behind up to date (pbem.daemon.start)."""
    now = _now(args) if args.now else None
    service = Service.from_settings(_settings(args))
    if args.once or not service.settings.web.enabled:
        archive_on_change(service)  # the web archive follows every change players are told of
        return serve_command.serve(service, once=args.once, now=now)
    # The daemon writes the archive in a runner of its own, off the turns' and replies' way.
    archive = partial(write_logged, service)
    return serve_command.serve(service, once=False, now=now, archive=archive)


def _turn_run(args: argparse.Namespace) -> int:
    service = _service(args)
    with service.store.transaction() as work:
        # By hand: before the deadline a forced turn, which charges no missed turn.
        forced = Forced("cli", args.reason)
        game = args.game.lower()
        summary = resolve_turn(work, service.settings, game, now=_now(args), forced=forced)
    assert summary is not None
    print(
        f"resolved {summary.game} turn {summary.turn}: {summary.orders} orders, "
        f"{summary.events} events" + (" - game over" if summary.ended else "")
    )
    return 0


def _check(args: argparse.Namespace) -> int:
    service = _service(args)
    receipt = receive(service, args.file.read_bytes(), now=_now(args), commit=False)
    # Nothing is kept, whatever the outcome says the mail would do.
    print("a check only: nothing was stored, nothing is sent")
    print(f"as a real mail: {receipt.status} ({receipt.outcome})")
    if receipt.status == MailStatus.DUPLICATE:
        print(_first_received(service, receipt.message_id))
    for row in receipt.replies:
        message = as_message(row.raw)
        print(f"\nTo: {message['To']}\nSubject: {message['Subject']}\n")
        print(text_of(message), end="")
    if not receipt.replies:
        print("no reply")
    return 0


def _first_received(service: Service, message_id: str) -> str:
    """What a duplicate repeats: the mail of its Message-ID, when it came and what became
    of it."""
    with service.store.transaction() as work:
        first = work.inbound.first_recorded(message_id)
        if first is None:  # recorded by another daemon meanwhile, and rolled back since
            return f"a duplicate of the mail {message_id}"
        when = describe(first.received_at, "UTC")
        return (
            f"a duplicate of the mail {message_id} from {first.sender}, received {when}: "
            f"{first.status} ({first.outcome})"
        )


def _outbox_flush(args: argparse.Namespace) -> int:
    service = _service(args)
    _, sender = _transport(service.settings)
    try:
        report = drain(service, sender, now=_now(args))
    finally:
        sender.close()
    with service.store.transaction() as work:
        waiting = work.outbox.count_unsent()
    print(
        f"{report.sent} sent, {report.failed} failed, {report.bounced} bounced, {waiting} waiting"
    )
    return 0 if not report.failed else 1


def _outbox_list(args: argparse.Namespace) -> int:
    for line in serve_command.outbox_lines(_service(args), include_sent=args.all):
        print(line)
    return 0


def _outbox_prune(args: argparse.Namespace) -> int:
    """What the daemon's clocks do every few minutes, all at once (after an upgrade, say)."""
    service = _service(args)
    days = service.settings.outbox.keep_sent_days
    if not days:
        print("[outbox] keep_sent_days is 0: sent mail is kept for ever; nothing pruned")
        return 0
    now = _now(args)
    if args.dry_run:
        found = prunable(service, now)
        print(f"{found.mails} sent mail(s) older than {days} days would be pruned, "
              f"{found.size / 1e6:.1f} MB of their bytes")  # fmt: skip
        return 0
    print(described(prune(service, now)))
    return 0


def _quarantine_list(args: argparse.Namespace) -> int:
    service = _service(args)
    with service.store.transaction() as work:
        found = entries(work, include_released=args.all)
    shown = [
        item
        for item in found
        if (not args.reason or item.reason == args.reason)
        and (not args.attention or item.reason in ATTENTION)
    ]
    # Columns as wide as the longest reason and sender shown: a fixed width let
    # "referee-password" push its row's sender and error out of line.
    reason_width = max((len(item.reason) for item in shown), default=0)
    sender_width = max((len(item.sender or "-") for item in shown), default=0)
    for item in shown:
        replayed = " (replayed)" if item.released_at else ""
        error = item.error.strip().splitlines()[-1] if item.error.strip() else ""
        print(
            f"{item.id:>5} {item.created_at:%Y-%m-%d %H:%M} {item.reason:<{reason_width}} "
            f"{item.sender or '-':<{sender_width}} {error[:60]}{replayed}"
        )
    if not found:
        print("the quarantine is empty")
        return 0
    waiting = [item for item in found if not item.released_at]
    attention = sum(item.reason in ATTENTION for item in waiting)
    unanswered = sum(item.reason in UNANSWERED for item in waiting)
    print(
        f"{attention} need attention ({', '.join(sorted(ATTENTION))}); "
        f"{len(waiting) - attention - unanswered} were refused and answered; "
        f"{unanswered} set aside unanswered (stopped: the sender sent STOP)"
    )
    return 0


def _quarantine_show(args: argparse.Namespace) -> int:
    service = _service(args)
    with service.store.transaction() as work:
        item, raw = entry(work, args.id)
    print(f"entry {item.id}: {item.reason}, {item.created_at:%Y-%m-%d %H:%M} UTC")
    print(f"message: {item.message_id}\nfrom: {item.sender}\nsubject: {item.subject}")
    print(f"error: {item.error}\n")
    print(raw[:20000].decode("utf-8", "replace"))
    return 0


def _quarantine_replay(args: argparse.Namespace) -> int:
    service = _service(args)
    receipt = replay(service, args.id, now=_now(args))
    print(f"replayed: {receipt.status} ({receipt.outcome}), {len(receipt.replies)} replies queued")
    return 0


def _referee(args: argparse.Namespace) -> int:
    print(referee_cli.run(_service(args), args, _now(args)))
    return 0


def _unstop(args: argparse.Namespace) -> int:
    print(stops_cli.run(_service(args), args, _now(args)))
    return 0


def _balance(args: argparse.Namespace) -> int:
    return balance.run(args, dict(_pair(option, "=") for option in args.option))


def _game_export(args: argparse.Namespace) -> int:
    return proof_cli.run_export(_service(args), args)


def _game_chart(args: argparse.Namespace) -> int:
    return chart_cli.run_chart(_service(args), args)


def _demo(args: argparse.Namespace) -> int:
    done = run_demo(args.ruleset, seats=args.seats, seed=args.seed, folder=args.dir)
    # The game's web archive beside its mail (docs/web.md), its secret in the demo's folder.
    settings = replace(
        _settings(args),
        web=WebSettings(folder=str(args.dir / "web"), secret_file=str(args.dir / "web-secret")),
    )
    service = Service(make_engine(f"sqlite:///{args.dir / 'pbem.db'}"), settings)
    folder = write_site(service)
    print(f"web archive: open {folder / 'index.html'} (or: pbem web serve --dir {folder})")
    return done


def _web_build(args: argparse.Namespace) -> int:
    return web_cli.build(_service(args), args.out)


def _web_serve(args: argparse.Namespace) -> int:
    folder = args.dir if args.dir is not None else Path(_settings(args).web.folder)
    return web_cli.serve(folder, args.host, args.port)


if __name__ == "__main__":
    sys.exit(main())
