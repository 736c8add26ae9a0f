"""The intake's decisions import nothing that holds a session, a query or the mail's context:
they are made from what was read, and tested without a database (tests/intake)."""

from __future__ import annotations

import grimp
import pytest

PURE = ("pbem.intake.decide", "pbem.intake.referee_check", "pbem.intake.command_plan")
HELD = ("pbem.store", "pbem.intake.context", "pbem.games", "sqlalchemy", "sqlmodel")


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("pbem", "engine", include_external_packages=True, cache_dir=None)


@pytest.mark.parametrize("module", PURE)
def test_the_decision_reads_no_database(graph: grimp.ImportGraph, module: str) -> None:
    reached = graph.find_upstream_modules(module)
    assert sorted(found for found in reached if found.startswith(HELD)) == []
