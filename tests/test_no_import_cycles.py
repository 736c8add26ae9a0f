"""No module of pbem/ takes part in an import cycle (issue 44, point 2). The layer contracts
of lint-imports see packages, not the modules inside one: intake/ had a cycle of seven
modules held apart by imports inside functions. grimp (which import-linter ships) reads
every import, those inside functions and under TYPE_CHECKING included."""

from __future__ import annotations

import grimp
import pytest


def in_cycles(graph: grimp.ImportGraph, package: str) -> list[str]:
    """The modules of `package` that import themselves through the modules they import."""
    modules = sorted(m for m in graph.modules if m == package or m.startswith(package + "."))
    return [
        module
        for module in modules
        if any(
            graph.chain_exists(importer=imported, imported=module)
            for imported in graph.find_modules_directly_imported_by(module)
        )
    ]


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("pbem", "engine", cache_dir=None)  # never a stale graph


@pytest.mark.parametrize("package", ["pbem", "engine"])
def test_no_module_imports_itself_through_others(graph: grimp.ImportGraph, package: str) -> None:
    assert in_cycles(graph, package) == []


def test_the_cycle_finder_finds_a_cycle(graph: grimp.ImportGraph) -> None:
    """The test above can fail: one import added back from the command table's side."""
    graph.add_import(
        importer="pbem.intake.context",
        imported="pbem.intake.dispatch",
        line_number=1,
        line_contents="from pbem.intake.dispatch import handle",
    )
    try:
        found = in_cycles(graph, "pbem.intake")
    finally:
        graph.remove_import(importer="pbem.intake.context", imported="pbem.intake.dispatch")
    assert {"pbem.intake.context", "pbem.intake.dispatch"} <= set(found)
