"""One unit of work as the domain sees it (pbem.store.work): its aggregates' methods are the
store's functions of its session, and a session has one Work."""

from __future__ import annotations

from datetime import UTC, datetime

from pbem.games.service import Service
from pbem.store import Game, Seat
from pbem.store.games import seats_of
from pbem.store.work import work_of


def _game(game_id: str) -> Game:
    made = datetime(2026, 1, 1, tzinfo=UTC)
    return Game(id=game_id, ruleset="tns", options="{}", seed=1, created_at=made)


def test_a_session_has_one_work(service: Service) -> None:
    with service.store.reading() as work, service.store.reading() as other:
        assert work_of(work.session) is work
        assert other is not work


def test_rows_added_through_the_aggregate_are_read_back_after_a_flush(service: Service) -> None:
    with service.store.transaction(keep=False) as work:
        work.games.add(_game("w1"))
        work.flush()  # the seat's row refers to the game's
        work.games.add(
            Seat(game_id="w1", name="north", position=0, address="n@example.org", password_hash="x")
        )
        assert work.games.seats_of("w1") == []  # not flushed yet: the session does not autoflush
        work.flush()
        assert [seat.name for seat in work.games.seats_of("w1")] == ["north"]
        assert work.games.seats_of("w1") == seats_of(work.session, "w1")
        assert work.games.game_named("W1") is not None


def test_a_row_removed_through_the_aggregate_is_gone_after_a_flush(service: Service) -> None:
    with service.store.transaction(keep=False) as work:
        work.games.add(_game("w2"))
        work.flush()
        seat = Seat(
            game_id="w2", name="south", position=0, address="s@example.org", password_hash="x"
        )
        work.games.add(seat)
        work.flush()
        work.games.remove(seat)
        work.flush()
        assert work.games.seats_of("w2") == []


def test_what_the_domain_keeps_lasts_the_unit_of_work(service: Service) -> None:
    with service.store.reading() as work:
        work.memo["kept"] = 1
        assert work.memo["kept"] == 1
    with service.store.reading() as work:
        assert "kept" not in work.memo
