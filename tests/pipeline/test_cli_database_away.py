"""The command line when PostgreSQL is not there (issue 43): a server not listening, a
database name it does not have, a database with no tables yet. Every command answers in one
line with what to do, and exits 2; none prints a traceback."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory

from pbem.cli import main
from pbem.store import make_engine
from pbem.store.migrate import alembic_config
from tests.servers.dovecot import free_port
from tests.support.databases import POSTGRES_ADMIN_URL, postgres_database

COMMANDS = [
    ["init"],
    ["game", "list"],
    ["game", "new", "g1", "--ruleset", "tns", "--seat", "a=a@example.org", "--seat", "b=b@x.org"],
    ["game", "show", "g1"],
    ["outbox", "list"],
    ["quarantine", "list"],
    ["web", "build"],
]


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    (tmp_path / "pbem.toml").write_text("[security]\npassword_cost = 4\n")
    yield tmp_path


def closed_port_url() -> str:
    """Nothing listens on the port (it was free a moment ago)."""
    return f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/pbem"


def missing_database_url() -> str:
    """The local server, which has no database of this name."""
    return POSTGRES_ADMIN_URL.rsplit("/", 1)[0] + f"/pbem_missing_{uuid.uuid4().hex[:8]}"


def answer(capsys: pytest.CaptureFixture[str], url: str, argv: list[str]) -> tuple[int, str]:
    code = main(["--config", "pbem.toml", "--db", url, *argv])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


@pytest.mark.parametrize("where", [closed_port_url, missing_database_url])
@pytest.mark.parametrize("argv", COMMANDS, ids=lambda argv: " ".join(argv[:2]))
def test_a_database_that_does_not_answer_is_one_line(
    workdir: Path, capsys: pytest.CaptureFixture[str], where: object, argv: list[str]
) -> None:
    assert callable(where)
    url = where()
    code, said = answer(capsys, url, argv)
    assert code == 2
    assert said.count("\n") == 1 and "Traceback" not in said, said
    assert said.startswith(f"pbem: the database {url} does not answer (")
    assert "start its server, create the database" in said


def test_a_missing_database_is_named(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = missing_database_url()
    _, said = answer(capsys, url, ["game", "list"])
    assert f'database "{url.rsplit("/", 1)[1]}" does not exist' in said


def test_an_empty_database_says_to_run_init_and_how_far_it_is_behind(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not the last of the migrations alone: that it has none, how many there are, and what
    to run. After `pbem init` the same command works."""
    script = ScriptDirectory.from_config(alembic_config(make_engine("sqlite://")))
    every = len(list(script.walk_revisions()))
    with postgres_database() as url:
        code, said = answer(capsys, url, ["game", "list"])
        assert code == 2 and said.count("\n") == 1, said
        assert f"it has no tables of pbem's yet: {every} migrations to apply" in said
        assert "run `pbem init`" in said
        assert answer(capsys, url, ["init"])[0] == 0
        assert answer(capsys, url, ["game", "list"]) == (0, "no games\n")
