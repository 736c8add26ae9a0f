"""The harness itself: what it reports of a page is what Chromium rendered, so a wide page, a
broken image or a missing alt text is caught (the archive's tests lean on each)."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from tests.web.browser import Browser, file_url

_HEAD = '<meta charset="utf-8"><meta name="viewport" content="width=device-width">'


def _page(folder: Path, name: str, body: str, head: str = _HEAD) -> Path:
    path = folder / name
    path.write_text(f"<!doctype html><html><head>{head}</head><body>{body}</body></html>")
    return path


def test_a_page_is_read_as_rendered_with_its_images_tables_and_screenshot(
    chromium: Browser, tmp_path: Path
) -> None:
    Image.new("RGB", (30, 20), "red").save(tmp_path / "dot.png")
    page = _page(
        tmp_path,
        "a.html",
        '<p>Hello <span style="display:none">hidden</span>reader</p>'
        '<img src="dot.png" alt="a red dot"><img src="missing.png">'
        "<table class=s><tr><th>seat</th><th>VP</th></tr><tr><td>ann</td><td>3</td></tr></table>"
        '<script>document.body.append("written by script")</script>',
    )
    dom = chromium.open(file_url(page))
    assert "written by script" in dom  # the DOM after the page's own JavaScript ran
    assert "Hello reader" in chromium.text()
    images = {image["src"]: image for image in chromium.images()}
    assert (images["dot.png"]["naturalWidth"], images["dot.png"]["alt"]) == (30, "a red dot")
    assert (images["missing.png"]["naturalWidth"], images["missing.png"]["alt"]) == (0, None)
    assert chromium.tables("table.s") == [[["seat", "VP"], ["ann", "3"]]]
    shot = Image.open(io.BytesIO(chromium.screenshot(tmp_path / "a.png").read_bytes()))
    assert shot.size[0] > 0 and shot.convert("RGB").getpixel((5, 5)) == (255, 255, 255)


def test_a_page_wider_than_a_phone_is_caught_and_one_that_fits_is_not(
    chromium: Browser, tmp_path: Path
) -> None:
    fits = _page(tmp_path, "fits.html", "<p>" + "word " * 200 + "</p>")
    wide = _page(tmp_path, "wide.html", '<div style="width: 800px">a wide table</div>')
    unscaled = _page(tmp_path, "unscaled.html", "<p>no viewport tag</p>", head="")
    with chromium.phone():
        chromium.open(file_url(fits))
        assert chromium.overflow() == 0
        assert chromium.run("return document.documentElement.clientWidth;") == 390
        chromium.open(file_url(wide))
        assert chromium.overflow() > 400
        chromium.open(file_url(unscaled))  # laid out 980 pixels wide, as a phone does
        assert chromium.run("return document.documentElement.clientWidth;") == 980
    chromium.open(file_url(wide))
    assert chromium.overflow() == 0  # the desktop window holds it
