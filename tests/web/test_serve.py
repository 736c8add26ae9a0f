"""`pbem web serve` over HTTP on a loopback port, in a process of its own: it serves what the
nginx example (deploy/nginx.conf.example) serves, with the same headers."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from email.message import Message
from pathlib import Path

import pytest

from pbem.cli import main
from tests.web.browser import served
from tests.web.support import game_on_the_command_line

NGINX = Path(__file__).parents[2] / "deploy" / "nginx.conf.example"
WEB_DOC = Path(__file__).parents[2] / "docs" / "web.md"


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A built archive of one game in `tmp_path / 'site'`, and a file outside it."""
    monkeypatch.chdir(tmp_path)
    for name in ("PBEM_CONFIG", "PBEM_WEB__FOLDER", "PBEM_WEB__SECRET_FILE"):
        monkeypatch.delenv(name, raising=False)
    game_on_the_command_line(tmp_path, "counting")
    assert main(["--config", "pbem.toml", "web", "build"]) == 0
    (tmp_path / "outside.html").write_text("<p>the operator's own file</p>")
    yield tmp_path / "site"


def nginx_headers() -> dict[str, str]:
    """The `add_header NAME "VALUE" always;` lines of the nginx example."""
    found = re.findall(r'^\s*add_header\s+(\S+)\s+"([^"]*)"\s+always;', NGINX.read_text(), re.M)
    return dict(found)


def get(url: str) -> tuple[int, Message]:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return answer.status, answer.headers
    except urllib.error.HTTPError as error:
        return error.code, error.headers


def test_serve_answers_with_the_nginx_examples_headers(site: Path) -> None:
    """Every answer, a page or a refusal, carries Referrer-Policy: no-referrer (a seat's link
    is a secret), X-Content-Type-Options: nosniff and X-Robots-Tag, as the nginx example."""
    headers = nginx_headers()
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["X-Content-Type-Options"] == "nosniff"
    with served(["web", "serve", "--dir", str(site)], cwd=site.parent) as server:
        for path, status in (("", 200), ("games/g1/", 200), ("style.css", 200), ("nothing", 404)):
            code, sent = get(server.url + path)
            assert code == status, path
            for name, value in headers.items():
                assert sent[name] == value, (path, name)
        # And the pages say it themselves, for a server that sends no header.
        seat = next((site / "games" / "g1" / "seats").iterdir()).name
        for page in ("", "games/g1/", f"games/g1/seats/{seat}/"):
            with urllib.request.urlopen(server.url + page, timeout=5) as answer:
                assert '<meta name="referrer" content="no-referrer">' in answer.read().decode()


def test_serve_refuses_what_nginx_denies(site: Path) -> None:
    """No manifest, no dot-file (a page being written), no symbolic link out of the folder or
    within it (nginx's disable_symlinks), no folder listing; the pages themselves are served."""
    (site / ".index.html.123-4.writing").write_text("half a page")
    (site / "games" / "g1" / "leak.html").symlink_to(site.parent / "outside.html")
    (site / "games" / "out").symlink_to(site.parent, target_is_directory=True)
    (site / "again.html").symlink_to(site / "index.html")
    assert (site / "games" / "g1" / "archive.json").exists()
    refused = [
        "games/g1/archive.json",
        ".index.html.123-4.writing",
        "games/g1/leak.html",
        "games/out/outside.html",
        "games/out/pbem.toml",
        "games/out/secret",
        "again.html",
        "games/g1/seats/",
        "games/",
        "games/g1/archive.json%00",  # a NUL: a clear 404, not a dropped connection
        "index.html%00.png",
    ]
    with served(["web", "serve", "--dir", str(site)], cwd=site.parent) as server:
        assert get(server.url + "games/g1/index.html")[0] == 200
        for path in refused:
            assert get(server.url + path)[0] == 404, path


def test_the_docs_show_the_nginx_example_as_it_is() -> None:
    """docs/web.md's nginx block is deploy/nginx.conf.example's location block, word for word."""
    example = NGINX.read_text()
    block = example[example.index("location /archive/ {") :].strip()
    assert f"```nginx\n{block}\n```" in WEB_DOC.read_text()
