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

from pbem.errors import UsageError
from pbem.games.service import Service
from pbem.web.archive import desk_paths, write_site

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
    print(f"open {folder / 'index.html'}")
    desks = desk_paths(service)
    for referee, path in sorted(desks.items()):  # each referee's own: hand each on alone
        print(f"the desk of {referee} (keep it to them): {folder / path}")
    if not desks:
        print("no game has a referee: no desk written")
    return 0


class _ReadOnly(http.server.SimpleHTTPRequestHandler):
    """GET and HEAD of the folder's files, nothing else (the standard handler answers any
    other method 501); no directory listings, so a seat's folder is found only by its link."""

    def list_directory(self, path: str | os.PathLike[str]) -> None:
        self.send_error(404, "No such page")


def serve(folder: Path, host: str, port: int) -> int:
    if not (folder / "index.html").exists():
        raise UsageError(f"no web archive in {folder}: `pbem web build` writes it")
    handler = functools.partial(_ReadOnly, directory=str(folder))
    with http.server.ThreadingHTTPServer((host, port), handler) as server:
        shown = f"[{host}]" if ":" in host else host
        print(f"serving {folder} at http://{shown}:{server.server_address[1]}/ (Ctrl-C stops)")
        sys.stdout.flush()
        with contextlib.suppress(KeyboardInterrupt):
            server.serve_forever()
    return 0
