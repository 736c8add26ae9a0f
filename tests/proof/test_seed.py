"""A game's randomness (issue 42, point 7): a new game's seed has 128 random bits, stored
whole on SQLite and PostgreSQL, committed to at the start, revealed at the end and verified as
a small one is; `pbem game new` and `game show` do not print it while the game runs unless
asked (`--show-seed`, with a warning); a seed given (the demo's, the tests') is kept as it is."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from pathlib import Path

import pytest

from engine.dice import Dice
from pbem.cli import main
from pbem.games.commitment import commitment
from pbem.games.service import Service
from pbem.proof.verify import verify
from pbem.store import Game, transaction
from pbem.web.archive import write_site
from tests.proof.test_verify import SEATS, _export
from tests.referee.support import referee_game
from tests.referee.test_rollback import _play
from tests.support.games import body, game_row, new_game, outbox
from tests.web.support import web_settings

BIG = 2**128 - 12345  # a 128-bit seed, and 39 digits


def _pbem(service: Service, now: datetime, *argv: str) -> int:
    url = service.db.url.render_as_string(hide_password=False)
    return main(["--db", url, "--now", now.isoformat(), *argv])


def _new(service: Service, now: datetime, game: str, *more: str) -> int:
    seats = ["--seat", "ann=ann@example.org:pw-ann-1", "--seat", "bob=bob@example.org:pw-bob-1"]
    return _pbem(service, now, "game", "new", game, "--ruleset", "counting", *seats, *more)


def test_a_new_game_has_a_seed_of_128_random_bits(
    service: Service, now: datetime, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _new(service, now, "g1") == 0 and _new(service, now, "g2") == 0
    capsys.readouterr()
    seeds = [game_row(service, game).seed for game in ("g1", "g2")]
    # Below 2**96 by chance once in 2**32 games; the seeds of 31 bits were always below.
    assert all(seed.bit_length() > 96 for seed in seeds), seeds
    assert seeds[0] != seeds[1]


def test_a_128_bit_seed_is_stored_whole_and_a_given_seed_kept(
    service: Service, now: datetime
) -> None:
    new_game(service, now, game="big", seed=BIG, seed_salt="ab" * 16)
    new_game(service, now, game="small", seed=7)
    new_game(service, now, game="negative", seed=-5)
    assert game_row(service, "big").seed == BIG
    assert game_row(service, "small").seed == 7  # the demo's, the tests' and the bench's
    assert game_row(service, "negative").seed == -5
    # The dice and the commitment of a stored seed are those of the number made.
    stored = game_row(service, "big").seed
    assert Dice(stored, 3, "ann", "tech").roll(6) == Dice(BIG, 3, "ann", "tech").roll(6)
    assert (
        commitment(stored, "ab" * 16) == hashlib.sha256(f"{BIG} {'ab' * 16}".encode()).hexdigest()
    )


def test_a_seed_of_too_many_digits_is_refused(
    service: Service, now: datetime, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _new(service, now, "g1", "--seed", "9" * 41) == 2
    assert "a seed has at most 40 digits, not 41" in capsys.readouterr().err
    with transaction(service.db) as session:
        assert session.get(Game, "g1") is None


def test_game_new_and_show_print_no_seed_while_the_game_runs_unless_asked(
    service: Service, now: datetime, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _new(service, now, "g1", "--seed", "123456789") == 0
    created = capsys.readouterr()
    assert "123456789" not in created.out + created.err
    assert _pbem(service, now, "game", "show", "g1") == 0
    shown = capsys.readouterr()
    game = game_row(service, "g1")
    assert "123456789" not in shown.out + shown.err and game.seed_salt not in shown.out
    assert f"dice: commitment {commitment(game.seed, game.seed_salt)}; the seed is secret" in (
        shown.out
    )
    assert _pbem(service, now, "game", "show", "g1", "--show-seed") == 0
    asked = capsys.readouterr()
    assert f"seed 123456789, salt {game.seed_salt}" in asked.out
    assert "warning: game g1 has not ended: whoever knows its seed" in asked.err
    assert _new(service, now, "g2", "--show-seed") == 0
    made = capsys.readouterr()
    assert f"seed {game_row(service, 'g2').seed}," in made.out and "warning" in made.err


def test_a_game_with_a_128_bit_seed_reveals_it_and_verifies(
    service: Service, now: datetime, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    referee_game(service, now, ruleset="temples-and-swords", seats=SEATS, seed=BIG,
                 options={"turn_limit": 2})  # fmt: skip
    _play(service, now, 2)
    game = game_row(service)
    assert game.status == "ended"
    end = body(outbox(service, "game-end")[0])
    assert f"The game's hidden seed was {BIG},\nwith the salt {game.seed_salt}." in end
    assert all(len(line) <= 72 for line in end.splitlines())
    assert _pbem(service, now, "game", "show", "g1") == 0
    shown = capsys.readouterr()
    assert f"seed {BIG}, salt" in shown.out and "warning" not in shown.err  # public now
    site = write_site(Service(service.db, web_settings(service.settings, tmp_path)))
    overview = (site / "games" / "g1" / "index.html").read_text()
    assert f'seed <code class="hash">{BIG}</code>' in overview  # revealed whole on the web
    assert commitment(BIG, game.seed_salt) in overview
    document = json.loads(_export(service, tmp_path, capsys).read_text())
    assert document["seed"] == BIG
    assert verify(document).ok
    document["seed"] = BIG + 1
    assert not verify(document).ok
