"""A wheel of pbem, installed elsewhere than a checkout (as `pip install --user` or a container
does), finds its mail templates and the handbook HELP mails are drawn from: they are package
data, found through importlib.resources, not looked up under sys.prefix."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import pbem, pbem.templates, pbem.handbook
print(pbem.__file__)
print(pbem.templates.render("help_topic", moderator="M", topic="X", text="", topics=[])[:40])
print(len(pbem.handbook.document("players.md")) > 1000)
print(len(pbem.handbook.document("rules/classical.md")) > 1000)
"""


def test_an_installed_wheel_finds_its_templates_and_handbook(tmp_path: Path) -> None:
    # Built from a copy, so that setuptools' build/ folder never lands in the checkout.
    source = tmp_path / "source"
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        (source / name).parent.mkdir(exist_ok=True)
        shutil.copy(ROOT / name, source / name)
    for name in ("engine", "pbem", "mail_templates", "docs"):
        ignore = shutil.ignore_patterns("__pycache__")
        shutil.copytree(ROOT / name, source / name, symlinks=True, ignore=ignore)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    build = [*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", str(tmp_path), str(source)]
    subprocess.run(build, check=True, capture_output=True)
    [wheel] = tmp_path.glob("pbem-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "pbem/mail_templates/help.txt" in names
    assert "pbem/docs/players.md" in names
    assert any(name.endswith("licenses/LICENSE") for name in names)
    target = tmp_path / "site"
    install = [*pip, "install", "--no-deps", "--target", str(target), str(wheel)]
    subprocess.run(install, check=True, capture_output=True)
    env = {**os.environ, "PYTHONPATH": str(target)}
    ran = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    where, rendered, players, rules = ran.stdout.splitlines()
    assert where.startswith(str(target))  # the installed copy, not the checkout
    assert rendered.strip() and players == "True" and rules == "True"
