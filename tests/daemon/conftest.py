"""A working folder for the daemon's commands: a config file with a cheap password cost and
a log file, the folder the current one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.servers.moderated import logging_restored


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    (tmp_path / "pbem.toml").write_text(
        '[security]\npassword_cost = 4\n[logging]\nfile = "pbem.log"\n'
    )
    with logging_restored():
        yield tmp_path
