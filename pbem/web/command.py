"""`pbem web build` (the whole archive written again) and `pbem web serve` (the folder over
HTTP, read-only, to look at it locally)."""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pbem.errors import UsageError
from pbem.games.service import Service
from pbem.web.archive import MANIFEST, desk_paths, write_site

Handler = Callable[[argparse.Namespace], int]


def add_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], build: Handler, serve: Handler
) -> None:
    web = sub.add_parser("web", help="the static web archive (docs/web.md)")
    web_sub = web.add_subparsers(dest="web", required=True)
    text = "write the whole web archive again, and say which page to open"
    building = web_sub.add_parser("build", help=text, description=text)
    building.add_argument("--out", type=Path, help="another folder than [web] folder")
    building.set_defaults(handler=build)
    text = "serve the web archive's folder over HTTP, read-only, to look at it locally"
    serving = web_sub.add_parser("serve", help=text, description=text)
    serving.add_argument("--port", type=int, default=8000, help="default 8000")
    serving.add_argument("--host", default="127.0.0.1", help="default 127.0.0.1 (this machine)")
    serving.add_argument("--dir", type=Path, help="another folder than [web] folder")
    serving.set_defaults(handler=serve)


def build(service: Service, out: Path | None) -> int:
    if not service.settings.web.enabled:
        print("the web archive is off ([web] enabled = false): nothing written", file=sys.stderr)
        return 1
    folder = write_site(service, out)
    print(f"web archive written: {folder}")
    where = _where(service, folder, out)
    print(f"open {where('index.html')}")
    desks = desk_paths(service)
    for referee, path in sorted(desks.items()):  # each referee's own: hand each on alone
        print(f"the desk of {referee} (keep it to them): {where(path)}")
    if not desks:
        print("no game has a referee: no desk written")
    return 0


def _where(service: Service, folder: Path, out: Path | None) -> Callable[[str], str]:
    """How to name a page of the site: its link under `[web] base_url`, where the site is
    served, the folder being the configured one; else its file."""
    base = service.settings.web.base_url.rstrip("/")
    if not base or out is not None:
        return lambda path: str(folder / path)
    # A folder's index is its link without the file name, as the mails give it.
    return lambda path: f"{base}/{path.removesuffix('index.html')}"


# What every answer of `pbem web serve` carries, as deploy/nginx.conf.example adds them (a test
# keeps the two in step): a seat's link is a secret, so a page hands no link on to a site it
# links to (the pages say so too, in a <meta name="referrer">, for any server); a browser
# reads a file only as the type it is served as; search engines list no page.
HEADERS = {
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Robots-Tag": "noindex",
}


class _ReadOnly(http.server.SimpleHTTPRequestHandler):
    """GET and HEAD of the folder's files, nothing else (the standard handler answers any
    other method 501); no directory listings, so a seat's folder is found only by its link.
    What the nginx example denies is not served either: a dot-file (a page being written),
    `archive.json`, and anything a symbolic link leads to outside the folder."""

    def end_headers(self) -> None:
        for name, value in HEADERS.items():
            self.send_header(name, value)
        super().end_headers()

    def send_head(self) -> Any:
        if not servable(Path(self.directory), Path(self.translate_path(self.path))):
            self.send_error(404, "No such page")
            return None
        return super().send_head()

    def list_directory(self, path: str | os.PathLike[str]) -> None:
        self.send_error(404, "No such page")


def servable(root: Path, path: Path) -> bool:
    """May the file at `path` (a folder: its index.html) be served from the archive at `root`?
    Not a dot-file, not a manifest, and no symbolic link on the way below `root` (nginx's
    `disable_symlinks on from=`): only what pbem wrote there."""
    if "\0" in str(path) or not path.is_relative_to(root):  # no file's name holds a NUL
        return False
    inside = path.relative_to(root)
    if any(part.startswith(".") for part in inside.parts) or path.name == MANIFEST:
        return False
    target = path / "index.html" if path.is_dir() else path
    real = Path(os.path.realpath(root))
    return Path(os.path.realpath(target)) == real / target.relative_to(root)


def serve(folder: Path, host: str, port: int) -> int:
    if not (folder / "index.html").exists():
        raise UsageError(f"no web archive in {folder}: `pbem web build` writes it")
    handler = functools.partial(_ReadOnly, directory=str(folder.absolute()))
    with http.server.ThreadingHTTPServer((host, port), handler) as server:
        shown = f"[{host}]" if ":" in host else host
        print(f"serving {folder} at http://{shown}:{server.server_address[1]}/ (Ctrl-C stops)")
        sys.stdout.flush()
        with contextlib.suppress(KeyboardInterrupt):
            server.serve_forever()
    return 0
