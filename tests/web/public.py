"""The public part of a written web archive, and every byte a reader could get from a page:
what the privacy tests search for planted secrets (tests/web/test_privacy.py, the campaign's
tests/campaign/checks_privacy.py)."""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from pathlib import Path

from PIL import Image


def png_text_chunks(path: Path) -> bytes:
    """What a PNG says of itself beyond its pixels (tEXt, zTXt, iTXt, eXIf), decompressed."""
    image = Image.open(path)
    said = [f"{key}={value}" for key, value in image.info.items() if isinstance(value, str)]
    said += [f"{key}={value}" for key, value in getattr(image, "text", {}).items()]
    raw = path.read_bytes()
    at = 8
    while at < len(raw):  # the compressed chunks' own bytes, whatever PIL makes of them
        length = int.from_bytes(raw[at : at + 4], "big")
        kind, data = raw[at + 4 : at + 8], raw[at + 8 : at + 8 + length]
        if kind == b"zTXt":
            said.append(zlib.decompress(data.split(b"\0", 1)[1][1:]).decode("latin-1"))
        at += 12 + length
    return "\n".join(said).encode()


def public_files(root: Path) -> Iterator[Path]:
    """Every file of the site but the referees' desk and the seats' own pages."""
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).parts
        if not path.is_file() or relative[0] == "desk":
            continue
        if len(relative) > 2 and relative[0] == "games" and relative[2] == "seats":
            continue
        yield path


def page_bytes(path: Path) -> bytes:
    """The file's bytes, lower-cased, and a PNG's text chunks."""
    data = path.read_bytes().lower()
    if path.suffix == ".png":
        data += b"\n" + png_text_chunks(path).lower()
    return data
