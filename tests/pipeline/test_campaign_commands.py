"""What a long campaign needs by mail: LIST MINE (the sender's own games), HISTORY (every
seat's standings turn by turn, as text) and CHART (the campaign chart, attached)."""

from __future__ import annotations

import io
from datetime import datetime, timedelta
from email.message import EmailMessage
from itertools import count

from PIL import Image

from engine import get_ruleset
from pbem.clock.turns import resolve_due
from pbem.deadlines.options import ClockOptions
from pbem.games.attachments import chart_png
from pbem.games.history_table import page, tables
from pbem.games.lifecycle import ReportOptions, SeatSpec
from pbem.games.outbox import as_message
from pbem.games.service import Service
from pbem.intake.intake import Receipt, receive
from pbem.pictures.chart import History
from pbem.store import Game, loads, transaction
from pbem.store.work import work_of
from tests.support.games import body, new_game, turns
from tests.support.joins import join
from tests.support.mails import mail, order_mail

TNS = "temples-and-swords"
ALICE = "GAME g1 SEAT alice PASSWORD pw-alice\n"
_IDS = count(1)


def _ask(service: Service, now: datetime, text: str, sender: str = "alice@example.org") -> Receipt:
    return receive(service, mail(text, sender=sender, message_id=f"c{next(_IDS)}@x"), now=now)


def _answer(receipt: Receipt, to: str = "alice@example.org") -> str:
    """The one reply, to `to` alone, no line of it past 72 columns."""
    [reply] = receipt.replies
    assert reply.recipient == to
    text = body(reply)
    assert max(len(line) for line in text.splitlines()) <= 72, text
    return text


def _play(service: Service, now: datetime, rounds: int) -> None:
    """Every seat of g1 (Temples and Swords) sends the bot's orders; the turn resolves."""
    ruleset = get_ruleset(TNS)
    for _ in range(rounds):
        state = loads(turns(service)[-1].state_before)
        for seat in ruleset.seats_to_order(state):
            text = ruleset.bot_orders(state, seat, 1)
            raw = order_mail(
                "g1",
                seat,
                f"pw-{seat}",
                text,
                message_id=f"o{next(_IDS)}@x",
                sender=f"{seat}@example.org",
            )
            receive(service, raw, now=now)
        resolve_due(service, now=now)


def test_list_mine_names_the_senders_games_with_turn_deadline_and_orders(
    service: Service, now: datetime
) -> None:
    berlin = ClockOptions(timezone="Europe/Berlin")
    new_game(service, now, game="g1", ruleset=TNS, clock=berlin)
    other = (SeatSpec("ann", "alice@example.org", "pw-ann"), SeatSpec("cy", "cy@x.org", "pw-cy"))
    new_game(service, now, game="g2", seats=other)
    new_game(service, now, game="g3", seats=other[1:], signup_seats=2)
    new_game(service, now, game="g4", seats=(SeatSpec("dan", "dan@x.org", "pw-dan"), *other[1:]))
    join(service, now, "JOIN g3 al PASSWORD secret1", "alice@example.org", "al")
    receive(service, order_mail("g2", "ann", "pw-ann", "ADD 1\n", message_id="o@x"), now=now)
    text = _answer(_ask(service, now, "LIST MINE"))
    assert text.startswith(
        "Your games: the seats registered with alice@example.org.\n\n"
        "g1 (Temples and Swords v1.1), seat alice: turn 1, orders due by\n"
        "  2026-03-03 12:00 UTC (2026-03-03 13:00 CET in Europe/Berlin). Your\n"
        "  orders are not in yet.\n\n"
        "g2 (Counting (a test ruleset)), seat ann: turn 1, orders due by\n"
        "  2026-03-03 12:00 UTC. Your orders are in.\n\n"
        "g3 (Counting (a test ruleset)), seat al: open to JOIN, 1 seat still\n"
        "  free.\n"
    ), text
    assert "g4" not in text and "cy" not in text and "bob" not in text


def test_list_mine_from_an_address_with_no_seat_says_how_seats_are_found(
    service: Service, now: datetime
) -> None:
    new_game(service, now)
    text = _answer(_ask(service, now, "LIST MINE", sender="zed@example.org"), "zed@example.org")
    assert text.startswith(
        "No seat of any game is registered with zed@example.org: your seats are\n"
        "found by the address they are registered with, so send LIST MINE from\n"
    ), text


def test_list_points_at_list_mine_and_refuses_a_word_it_does_not_take(
    service: Service, now: datetime
) -> None:
    new_game(service, now)
    assert "The games you play already, with their turns and deadlines: LIST MINE." in _answer(
        _ask(service, now, "LIST")
    )
    refused = _answer(_ask(service, now, "GAME g1 SEAT alice PASSWORD pw-alice\nLIST MNE"))
    assert "write LIST (the games open to join) or LIST MINE (your own games)" in refused


def test_a_sentence_that_begins_with_a_new_command_word_is_no_command(
    service: Service, now: datetime
) -> None:
    for sentence in ("History of my empire:", "Chart attached.", "List of my moves"):
        receipt = _ask(service, now, sentence)
        assert receipt.outcome.startswith("envelope:"), (sentence, receipt.outcome)
        assert "has no GAME line and no mail command" in _answer(receipt)


def test_history_mails_every_seats_standings_after_each_turn(
    service: Service, now: datetime
) -> None:
    new_game(service, now, ruleset=TNS)
    _play(service, now, 3)
    ruleset = get_ruleset(TNS)
    played = turns(service)[:3]
    standings = [ruleset.standings(loads(played[0].state_before))] + [
        ruleset.standings(loads(turn.state_after or "")) for turn in played
    ]
    # From bob's address, as the game does not check them: the answer goes to alice's seat.
    text = _answer(_ask(service, now, ALICE + "HISTORY", sender="bob@example.org"))
    assert text.startswith(
        "The standings of game g1 (Temples and Swords v1.1) after each turn, from\n"
        "the start to turn 3; 3 turns played.\n\n== VP ==\nturn   bob  alice\n"
    ), text
    for measure in ("VP", "cities", "population"):
        table = text.split(f"== {measure} ==\n", 1)[1].split("\n\n", 1)[0].splitlines()
        rows = [line.split() for line in table[1:]]
        assert [row[0] for row in rows] == ["start", "1", "2", "3"]
        assert [[int(v) for v in row[1:]] for row in rows] == [
            [table_[seat][measure] for seat in ("bob", "alice")] for table_ in standings
        ]
    assert "Earlier turns" not in text and "Later turns" not in text


def test_history_from_a_turn_and_what_it_refuses(service: Service, now: datetime) -> None:
    new_game(service, now, ruleset=TNS)
    new_game(service, now, game="g2")  # the test ruleset keeps no standings
    early = _answer(_ask(service, now, ALICE + "HISTORY"))
    assert "no turn of game g1 has been played yet: its history begins with turn 1" in early
    _play(service, now, 3)
    text = _answer(_ask(service, now, ALICE + "HISTORY 2"))
    assert "after each turn,\nturns 2 to 3; 3 turns played." in text, text
    assert "start" not in text and "Earlier turns: HISTORY 1" in text
    assert "g1 has played turns 1 to 3" in _answer(_ask(service, now, ALICE + "HISTORY 9"))
    assert "write HISTORY (the last 20 turns) or HISTORY <turn>" in _answer(
        _ask(service, now, ALICE + "HISTORY all")
    )
    resolve_due(service, now=now + timedelta(days=3))  # g2's first turn, at its deadline
    g2 = _answer(_ask(service, now, "GAME g2 SEAT alice PASSWORD pw-alice\nHISTORY"))
    assert "Counting (a test ruleset), the game of g2, keeps no standings to show" in g2


def _attached(receipt: Receipt) -> dict[str, bytes]:
    [reply] = receipt.replies
    message: EmailMessage = as_message(reply.raw)
    return {str(part.get_filename()): part.get_content() for part in message.iter_attachments()}


def test_chart_attaches_the_campaign_chart_even_to_a_seat_without_pictures(
    service: Service, now: datetime
) -> None:
    new_game(service, now, ruleset=TNS)
    _play(service, now, 2)
    _ask(service, now, ALICE + "SET PICTURES OFF")
    receipt = _ask(service, now, ALICE + "CHART")
    assert _answer(receipt) == (
        "The campaign chart of game g1 (Temples and Swords v1.1) is attached as\n"
        "chart-g1-2.png: every seat's standing from the start to turn 2.\n\n"
        "It comes although your seat takes no pictures with its reports (SET\n"
        "PICTURES OFF): you asked for this one.\n\n"
        "-- \nPBEM Moderator - send HELP for the mail commands.\n"
    )
    files = _attached(receipt)
    with transaction(service.db) as session:
        game = session.get(Game, "g1")
        assert game is not None
        assert files == {"chart-g1-2.png": chart_png(work_of(session), game, get_ruleset(TNS))}
    Image.open(io.BytesIO(files["chart-g1-2.png"])).load()


def test_chart_is_refused_where_the_game_sends_no_pictures(service: Service, now: datetime) -> None:
    new_game(service, now, ruleset=TNS, reports=ReportOptions(pictures=False))
    _play(service, now, 1)
    receipt = _ask(service, now, ALICE + "CHART")
    text = _answer(receipt)
    assert "game g1 sends no pictures (its referee turned them off); HISTORY" in text
    assert _attached(receipt) == {}


def test_a_long_campaign_comes_a_page_of_turns_a_mail_and_no_line_too_wide() -> None:
    seats = (*(f"seat{n:02}" for n in range(1, 12)), "x" * 64)  # 12 seats, one name very long
    standings = tuple(
        {seat: {"VP": turn * n, "cities": n} for n, seat in enumerate(seats, start=1)}
        for turn in range(46)
    )
    history = History("g1: a test", seats, tuple(range(46)), standings)
    last = page(history, None)
    assert (last.rows, last.earlier, last.later) == (range(26, 46), 6, None)
    first = page(history, 1)
    assert (first.rows, first.earlier, first.later) == (range(0, 20), None, 20)
    middle = page(history, 30)
    assert (middle.rows, middle.earlier, middle.later) == (range(30, 46), 10, None)
    text = tables(history, first.rows)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 72, text
    vp = text.split("== VP ==\n", 1)[1].split("== cities ==", 1)[0].strip().split("\n\n")
    assert len(vp) == 3, vp  # the seats in blocks beside the turn column
    heads = [block.splitlines()[0].split() for block in vp]
    assert [word for head in heads for word in head if word != "turn"] == list(seats)
    for block in vp:
        assert [line.split()[0] for line in block.splitlines()[1:]] == [
            "start",
            *map(str, range(1, 20)),
        ]
    assert vp[0].splitlines()[-1].split()[1:3] == ["19", "38"]  # seat01 and seat02 at turn 19
