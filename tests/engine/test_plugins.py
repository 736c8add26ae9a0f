"""A ruleset in another installed package registers itself through the entry point group
pbem.rulesets. The fixture package tests/fixtures/toy_ruleset is installed for real (pip, from
the folder, no network) and looked up in a fresh interpreter; its two broken entry points are
reported and leave the built-ins and the toy alone."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from engine import all_rulesets, registry, rulesets
from tests.support.ruleset_registration import TEST_RULESETS

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "toy_ruleset"
ROOT = Path(__file__).resolve().parents[2]
LOOK_UP = """
import json
from engine import all_rulesets, get_ruleset
from engine.playthrough import bot_game
from engine.registry import plugin_errors
toy = get_ruleset("toy")
game = list(bot_game("toy", ["ann", "bob"], 1))
print(json.dumps({
    "ids": [r.id for r in all_rulesets()],
    "title": toy.title,
    "outcome": game[-1].resolution.outcome.reason,
    "errors": [str(e) for e in plugin_errors()],
}))
"""


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The toy package installed into a folder of its own (built from a copy, so that the
    build leaves nothing in the source tree)."""
    work = tmp_path_factory.mktemp("toy")
    source, target = work / "source", work / "site"
    shutil.copytree(FIXTURE, source)
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index"]
    command += ["--no-build-isolation", "--target", str(target), str(source)]
    subprocess.run(command, check=True, capture_output=True, timeout=300)
    return target


# The built-in rulesets as this process has them, less the tests' own doubles.
BUILT_IN = [r.id for r in all_rulesets() if r not in TEST_RULESETS]


def _run(site: Path, script: str) -> subprocess.CompletedProcess[str]:
    """`script` in a fresh interpreter that finds the installed toy package."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(ROOT)]))
    command = [sys.executable, "-c", script]
    return subprocess.run(
        command, env=env, capture_output=True, text=True, timeout=120, check=False
    )


def _look_up(site: Path) -> dict[str, object]:
    done = _run(site, LOOK_UP)
    assert done.returncode == 0, done.stderr
    found: dict[str, object] = json.loads(done.stdout)
    return found


def test_an_installed_plugin_ruleset_is_found_and_plays(installed: Path) -> None:
    found = _look_up(installed)
    assert found["ids"] == sorted([*BUILT_IN, "toy"])
    assert found["title"] == "Toy (a plugin test ruleset)"
    assert found["outcome"] == "highest total"


def test_a_broken_plugin_is_reported_and_stops_nothing(installed: Path) -> None:
    errors = _look_up(installed)["errors"]
    assert isinstance(errors, list)
    assert sorted(errors) == [
        "ruleset plugin clash = toy_ruleset:CLASH left out: "
        "ruleset name already registered: temples-and-swords",
        "ruleset plugin missing = toy_ruleset:NoSuchRuleset left out: "
        "AttributeError: module 'toy_ruleset' has no attribute 'NoSuchRuleset'",
    ]


def test_pbem_rulesets_lists_the_plugin_and_shows_the_broken_ones(installed: Path) -> None:
    done = _run(installed, "from pbem.cli import main; raise SystemExit(main(['rulesets']))")
    assert done.returncode == 1
    assert re.search(r"^toy +aliases: - +\S", done.stdout, re.MULTILINE)
    assert "temples-and-swords" in done.stdout
    assert "ruleset plugin missing = toy_ruleset:NoSuchRuleset left out" in done.stderr


def test_threads_that_look_up_rulesets_at_once_wait_for_the_registry_to_be_filled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The daemon's intake and clocks may look a ruleset up first at the same moment: the
    second waits for the first to register them all, never finds the registry half filled
    (it answered "no ruleset 'temples-and-swords'; known: " to a mail)."""
    monkeypatch.setattr(registry, "_BY_NAME", {})
    monkeypatch.setattr(registry, "_BY_ID", {})
    monkeypatch.setattr(registry, "_loaded", False)
    slow = list(rulesets.BUILT_IN)

    class Slowly(list):  # type: ignore[type-arg]
        def __iter__(self):  # type: ignore[no-untyped-def]
            for ruleset in slow:
                time.sleep(0.02)  # registering takes a while: the others come meanwhile
                yield ruleset

    monkeypatch.setattr(rulesets, "BUILT_IN", Slowly(slow))
    found: list[str] = []
    failed: list[BaseException] = []

    def look_up() -> None:
        try:
            found.append(registry.get_ruleset(slow[-1].id).id)
        except BaseException as error:  # reported by the assertion below
            failed.append(error)

    threads = [threading.Thread(target=look_up) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert failed == [] and found == [slow[-1].id] * 8
