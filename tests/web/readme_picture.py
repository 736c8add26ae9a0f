"""The README's picture of the web archive: a turn page of `make demo`'s game, as headless
Chromium shows it. Not a test; run it again when the pages change:

    .venv/bin/python -m tests.web.readme_picture [--turn 12] [--out docs/images/archive-turn.png]

It plays the demo (`pbem demo`, its default ruleset, seats and seed) into a folder of its own,
which writes its web archive, and takes the screenshot of that turn's public page.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import tempfile
from pathlib import Path

from PIL import Image

from pbem.cli import main as pbem
from tests.web.browser import browser, file_url

SIZE = (960, 1200)  # CSS pixels: the map and the standings, as on a laptop


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turn", type=int, default=12)
    parser.add_argument("--out", type=Path, default=Path("docs/images/archive-turn.png"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        demo = Path(folder) / "demo"
        with contextlib.redirect_stdout(io.StringIO()):
            assert pbem(["demo", "--dir", str(demo)]) == 0
        page = demo / "web" / "games" / "demo" / f"turn-{args.turn}.html"
        with browser() as chromium:
            chromium.driver.set_window_size(*SIZE)
            width, height = chromium.run("return [window.innerWidth, window.innerHeight];")
            chromium.driver.set_window_size(2 * SIZE[0] - width, 2 * SIZE[1] - height)
            chromium.open(file_url(page))
            assert all(image["naturalWidth"] > 0 for image in chromium.images())
            shot = chromium.screenshot(Path(folder) / "shot.png")
        picture = Image.open(shot).convert("RGB")
        # Few colours: a palette keeps the README's picture small.
        picture.quantize(colors=128, dither=Image.Dither.NONE).save(args.out, optimize=True)
    print(f"{args.out}: {picture.size[0]}x{picture.size[1]}, turn {args.turn} of the demo game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
