"""Mail commands: HELP, STATUS, ORDERS, REPORT, JOIN, and the short help for unknown ones."""

from __future__ import annotations

from datetime import date, datetime

from pbem.clock.control import pause
from pbem.clock.turns import resolve_due
from pbem.games.games import seats_of
from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.store import transaction
from pbem.store.work import work_of
from tests.support.games import body, game_row, new_game, outbox, quarantined
from tests.support.joins import join
from tests.support.mails import mail, order_mail


def test_help_answers_the_sender_with_the_games_orders(service: Service, now: datetime) -> None:
    new_game(service, now)
    receipt = receive(service, mail("HELP"), now=now)
    assert receipt.status == "answered"
    text = body(receipt.replies[0])
    assert text.startswith("How to play by mail with this moderator.\n")
    assert "JOIN <game> <seat> PASSWORD <password>" in text
    seat_help = receive(
        service,
        order_mail("g1", "bob", "pw-bob", "", message_id="h2@x").replace(
            b"PASSWORD pw-bob\n", b"PASSWORD pw-bob\nHELP\n"
        ),
        now=now,
    )
    assert "== Orders of Counting (a test ruleset) ==\nADD <1-3>" in body(seat_help.replies[0])


def test_a_mail_without_game_line_or_command_gets_short_help(
    service: Service, now: datetime
) -> None:
    receipt = receive(service, mail("Hello, how do I play?"), now=now)
    assert receipt.status == "quarantined"
    text = body(receipt.replies[0])
    assert text.startswith(
        "Your mail has no GAME line and no mail command, so nothing in it was\n"
        "read. I looked at: the text of the mail.\n"
    )
    assert "Orders of" not in text
    assert quarantined(service)[0].reason == "envelope"


def test_status_names_who_has_not_ordered(service: Service, now: datetime) -> None:
    new_game(service, now)
    receive(service, order_mail("g1", "bob", "pw-bob", "ADD 1\n"), now=now)
    receipt = receive(service, mail("STATUS g1", message_id="s@x", sender="x@y.example"), now=now)
    assert receipt.replies[0].recipient == "x@y.example"
    assert body(receipt.replies[0]).startswith(
        "Game g1 (Counting (a test ruleset)): running.\n"
        "Turn 1, orders due by 2026-03-03 12:00 UTC.\n"
        "Orders in from: bob\n"
        "Still to send orders: alice\n"
    )


def test_status_of_a_paused_game_with_a_seat_away(service: Service, now: datetime) -> None:
    new_game(service, now)
    with transaction(service.db) as session:
        alice = next(seat for seat in seats_of(session, "g1") if seat.name == "alice")
        alice.absent_until = date(2026, 3, 10)
        pause(
            work_of(session),
            service.settings,
            "g1",
            now=now,
            actor="ref@x",
            reason="x",
            notify=False,
        )
    receipt = receive(service, mail("STATUS g1", message_id="s@x", sender="x@y.example"), now=now)
    assert (receipt.status, receipt.outcome) == ("answered", "STATUS g1"), receipt
    assert body(receipt.replies[0]).startswith(
        "Game g1 (Counting (a test ruleset)): paused.\n"
        "Turn 1. The game is paused by a referee: orders sent now are kept for\n"
        "turn 1, and its deadline is set again, with the time that was left, when\n"
        "play resumes.\n"
        "Orders in from: nobody yet\n"
        "Still to send orders: bob\n"
        "Away: alice until 2026-03-10 (not waited for)\n"
    )


def test_orders_echoes_the_stored_orders_to_the_seat(service: Service, now: datetime) -> None:
    new_game(service, now)
    receive(service, order_mail("g1", "alice", "pw-alice", "ADD 2\nATTACK bob\n"), now=now)
    ask = mail(
        "GAME g1 SEAT alice PASSWORD pw-alice\nORDERS\n",
        message_id="o@x",
        sender="other@example.org",
    )
    receipt = receive(service, ask, now=now)
    assert receipt.replies[0].recipient == "alice@example.org"
    assert body(receipt.replies[0]).startswith(
        "Orders stored for alice in game g1, turn 1:\n"
        "(from mail m1@example.org, mail 1 this turn)\n\n"
        "ADD 2\nATTACK bob\n"
    )


def test_report_resends_a_turn_report(service: Service, now: datetime) -> None:
    new_game(service, now)
    receive(service, order_mail("g1", "alice", "pw-alice", "ADD 2\n"), now=now)
    receive(service, order_mail("g1", "bob", "pw-bob", "ADD 1\n", message_id="m2@x"), now=now)
    resolve_due(service, now=now)
    [first] = [
        row
        for row in outbox(service, "report")
        if "turn 1 report" in row.subject and row.recipient == "alice@example.org"
    ]
    ask = mail("GAME g1 SEAT alice PASSWORD pw-alice\nREPORT 1\n", message_id="r@x")
    receipt = receive(service, ask, now=now)
    assert receipt.status == "answered"
    assert body(receipt.replies[0]) == body(first)
    missing = receive(
        service,
        mail("GAME g1 SEAT alice PASSWORD pw-alice\nREPORT 9\n", message_id="r2@x"),
        now=now,
    )
    assert "there is no report of turn 9 yet" in body(missing.replies[0])


def test_join_fills_an_open_game_and_starts_it(service: Service, now: datetime) -> None:
    new_game(service, now, seats=(), signup_seats=2)
    first = join(service, now, "JOIN g1 zoe PASSWORD secret1", "zoe@example.org", "j1")
    assert first.status == "answered"
    assert body(first.replies[0]).startswith(
        "You have joined game g1 (Counting (a test ruleset)) as zoe.\n"
        "Your password is the one you chose when you sent JOIN; keep it, it is\n"
        "not mailed again.\n\n"
        "1 seat still free; the game begins when all are taken.\n"
    )
    taken = receive(
        service,
        mail("JOIN g1 zoe PASSWORD x", sender="yan@example.org", message_id="j2@x"),
        now=now,
    )
    assert "the seat name zoe is taken" in body(taken.replies[0])
    join(service, now, "JOIN g1 yan PASSWORD secret2", "yan@example.org", "j3")
    assert game_row(service).status == "running"
    with transaction(service.db) as session:
        assert [(s.name, s.address) for s in seats_of(session, "g1")] == [
            ("zoe", "zoe@example.org"),
            ("yan", "yan@example.org"),
        ]
    starts = outbox(service, "report")
    assert sorted(row.recipient for row in starts) == ["yan@example.org", "zoe@example.org"]
    assert all("secret" not in body(row) for row in outbox(service))
    late = receive(
        service,
        mail("JOIN g1 xia PASSWORD p", sender="xia@example.org", message_id="j4@x"),
        now=now,
    )
    assert "game g1 is not open to sign-up" in body(late.replies[0])


def test_list_names_the_games_open_to_join_and_nothing_private(
    service: Service, now: datetime
) -> None:
    new_game(service, now, game="g1", seats=(), signup_seats=2)
    new_game(service, now, game="g2")  # full and running: not listed
    join(service, now, "JOIN g1 zoe PASSWORD secret1", "zoe@example.org", "j1")
    listed = receive(service, mail("LIST", sender="yan@example.org", message_id="l1@x"), now=now)
    assert listed.status == "answered"
    text = body(listed.replies[0])
    assert listed.replies[0].recipient == "yan@example.org"
    assert "g1: Counting (a test ruleset), 1 seat free, deadlines" in text
    assert "g2" not in text
    assert "zoe" not in text and "secret1" not in text


def test_set_with_an_unknown_setting_lists_every_setting(service: Service, now: datetime) -> None:
    """Issue 43, point 7: SET BANANA used to be answered "SET knows two settings: ABSENCE and
    PASSWORD" while four more existed; the list comes from the one table of settings."""
    new_game(service, now)
    head = "GAME g1 SEAT alice PASSWORD pw-alice\n"
    banana = receive(service, mail(head + "SET BANANA ON\n", message_id="s1@x"), now=now)
    assert banana.status == "quarantined"
    said = " ".join(body(banana.replies[0]).split())
    assert (
        "SET knows 6 settings: PASSWORD, ADDRESS, ABSENCE, PRESS, PICTURES and DATA, not BANANA"
    ) in said
    assert "did you mean" not in said
    near = receive(service, mail(head + "SET PICTURE OFF\n", message_id="s2@x"), now=now)
    assert "not PICTURE; did you mean PICTURES?" in " ".join(body(near.replies[0]).split())
    assert {reply.recipient for reply in (*banana.replies, *near.replies)} == {"alice@example.org"}


def test_a_misspelt_game_id_gets_did_you_mean_only_from_someone_who_knows_it(
    service: Service, now: datetime
) -> None:
    """Issue 43, point 13: "GAME cmap1" got "there is no game cmap1". A player of camp1 is
    asked "did you mean camp1?"; a stranger is not told that a game camp1 exists."""
    new_game(service, now, game="camp1")
    player = receive(service, order_mail("cmap1", "alice", "pw-alice", "ADD 2\n"), now=now)
    assert body(player.replies[0]).count("there is no game cmap1; did you mean camp1?") == 1
    stranger = order_mail("cmap1", "x", "y", "ADD 2\n", message_id="s@x", sender="eve@x.org")
    answer = " ".join(body(receive(service, stranger, now=now).replies[0]).split())
    assert "there is no game cmap1" in answer and "camp1" not in answer.replace("cmap1", "")


def test_prose_after_a_greeting_is_named_not_the_greeting(service: Service, now: datetime) -> None:
    """A fresh-eyes tester's find: "Hello," + a line of prose + "STATUS g1" was answered
    "There is no mail command HELLO,": the greeting passed over was blamed, not the prose
    line that stopped the reading, and the command below it was not mentioned."""
    new_game(service, now)
    raw = mail("Hello,\nI would like to know how it goes\nSTATUS g1\n", message_id="hp@x")
    receipt = receive(service, raw, now=now)
    answer = " ".join(body(receipt.replies[0]).split())
    assert "HELLO" not in answer
    assert 'no mail command (line 2, "I would like to know how it goes", is neither)' in answer
    assert "so line 3 (STATUS g1) was not read; send it again as the first line" in answer
    assert "line 2" in receipt.outcome


def test_a_command_after_a_greeting_is_read(service: Service, now: datetime) -> None:
    """Issue 43, point 13: "Hi! JOIN tri1 ..." was read as a mail with nothing in it and
    answered with the whole handbook. A greeting's few words on the command's line, or a
    greeting line or two before it, are passed over; other prose still is not a command."""
    new_game(service, now, seats=(), signup_seats=3)
    texts = ("Hi! JOIN g1 zoe PASSWORD secret1", "Hello there,\nJOIN g1 yan PASSWORD secret2")
    for n, (text, who) in enumerate(zip(texts, ("zoe", "yan"), strict=True)):
        joined = receive(service, mail(text, sender=f"{who}@x.org", message_id=f"g{n}@x"), now=now)
        # The JOIN was read: its answer is the confirmation code (issue 42, 4), not the handbook.
        assert "CONFIRM " in body(joined.replies[0]), text
    prose = mail("I would like to JOIN g1 xia PASSWORD p", sender="xia@x.org", message_id="p@x")
    answer = body(receive(service, prose, now=now).replies[0])
    assert answer.startswith("Your mail has no GAME line and no mail command")


def test_orders_with_another_seats_name_says_that_only_your_own_are_shown(
    service: Service, now: datetime
) -> None:
    # A reply says what was understood: `ORDERS bob` from alice shows alice's orders, and
    # must say that the seat name was not read as asking for bob's.
    new_game(service, now)
    receive(service, order_mail("g1", "alice", "pw-alice", "ADD 2\n"), now=now)
    ask = mail("GAME g1 SEAT alice PASSWORD pw-alice\nORDERS bob\n", message_id="ob@x")
    text = " ".join(body(receive(service, ask, now=now).replies[0]).split())
    assert "ORDERS shows only your own seat's orders: bob was ignored" in text, text
