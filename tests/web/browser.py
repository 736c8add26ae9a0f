"""Headless Chromium for the web archive's tests: Debian's chromium, driven through Debian's
chromedriver by Selenium, so that a test reads a page as a reader's browser shows it (after
its images loaded, its styles applied), runs JavaScript in it and takes its screenshot.

Chromium is not optional here: .ci/apt-packages installs it for CI, and a machine without it
fails these tests with the command that installs it, rather than skipping them.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service as DriverService
from selenium.webdriver.support.ui import WebDriverWait

from tests.servers.dovecot import free_port

CHROMIUM = "chromium"
DRIVER = "chromedriver"
DESKTOP = (1280, 900)
PHONE = (390, 844)  # a common phone's CSS pixels

# Every image of the page loaded or failed, after the page itself: what a reader sees.
_SETTLED = """
return document.readyState === 'complete'
    && Array.from(document.images).every(image => image.complete);
"""

_IMAGES = """
return Array.from(document.images).map(image => ({
    src: image.getAttribute('src'),
    alt: image.getAttribute('alt'),
    naturalWidth: image.naturalWidth,
    naturalHeight: image.naturalHeight,
}));
"""

_TABLES = """
return Array.from(document.querySelectorAll(arguments[0])).map(table =>
    Array.from(table.rows).map(row =>
        Array.from(row.cells).map(cell => cell.innerText.trim())));
"""


def _binaries() -> tuple[str, str]:
    found = shutil.which(CHROMIUM), shutil.which(DRIVER)
    if None in found:
        pytest.fail(
            "the web archive's tests need Debian's chromium and chromium-driver "
            "(.ci/apt-packages): apt-get install chromium chromium-driver",
            pytrace=False,
        )
    return str(found[0]), str(found[1])


class Browser:
    """One headless Chromium, its window desktop-sized unless `phone()` says otherwise."""

    def __init__(self) -> None:
        chromium, driver = _binaries()
        options = webdriver.ChromeOptions()
        options.binary_location = chromium
        width, height = DESKTOP
        for argument in (
            "--headless=new",
            "--no-sandbox",  # CI runs as root, where Chromium's sandbox will not start
            "--disable-gpu",
            "--disable-dev-shm-usage",
            f"--window-size={width},{height}",
            "--hide-scrollbars",  # a screenshot shows the page, not the scrollbars
            "--allow-file-access-from-files",
        ):
            options.add_argument(argument)
        # Given the driver's path, Selenium fetches no driver of its own.
        self.driver = webdriver.Chrome(options=options, service=DriverService(driver))

    def open(self, url: str, *, timeout: float = 20.0) -> str:
        """Load `url` and wait until it and its images have loaded; the DOM as rendered."""
        self.driver.get(url)
        WebDriverWait(self.driver, timeout).until(lambda d: d.execute_script(_SETTLED))
        return str(self.driver.page_source)

    def run(self, script: str, *args: Any) -> Any:
        return self.driver.execute_script(script, *args)

    def text(self) -> str:
        """The page's text as a reader sees it (innerText: hidden parts left out)."""
        return str(self.run("return document.body.innerText;"))

    def images(self) -> list[dict[str, Any]]:
        """Every <img>: its src and alt attributes and its natural size once loaded (0 for
        an image the browser could not load)."""
        return list(self.run(_IMAGES))

    def tables(self, selector: str = "table") -> list[list[list[str]]]:
        """Each table matching `selector`, as rows of its cells' visible text."""
        return list(self.run(_TABLES, selector))

    def links(self) -> list[str]:
        """The href of every link, as written in the page."""
        return list(self.run("return Array.from(document.links, a => a.getAttribute('href'));"))

    def overflow(self) -> int:
        """How many CSS pixels the page is wider than the window: what a reader would have to
        scroll sideways (0 for none)."""
        return int(
            self.run(
                "const root = document.documentElement;"
                "return Math.max(root.scrollWidth, document.body.scrollWidth)"
                " - root.clientWidth;"
            )
        )

    def screenshot(self, path: Path) -> Path:
        """A PNG of the window as it shows the page now."""
        path.parent.mkdir(parents=True, exist_ok=True)
        assert self.driver.save_screenshot(str(path)), path
        return path

    @contextmanager
    def phone(self, width: int = PHONE[0], height: int = PHONE[1]) -> Iterator[None]:
        """Pages opened inside are laid out as on a phone: a viewport `width` CSS pixels wide,
        with a phone's rules (a page without a viewport meta tag is laid out 980 pixels wide
        and shrunk, as a phone does)."""
        metrics = {"width": width, "height": height, "deviceScaleFactor": 2, "mobile": True}
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
        try:
            yield
        finally:
            self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    def close(self) -> None:
        self.driver.quit()


@contextmanager
def browser() -> Iterator[Browser]:
    opened = Browser()
    try:
        yield opened
    finally:
        opened.close()


def file_url(path: Path) -> str:
    return path.resolve().as_uri()


@dataclass(frozen=True)
class Server:
    """`pbem web serve` running in a process of its own."""

    url: str
    process: subprocess.Popen[bytes]


@contextmanager
def served(argv: list[str], *, cwd: Path, timeout: float = 20.0) -> Iterator[Server]:
    """`pbem <argv> --port N` (argv such as ['--config', 'pbem.toml', 'web', 'serve']) on a
    free loopback port, until the block ends; its base URL once it answers."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    log = cwd / f"web-serve-{port}.log"
    with log.open("wb") as out:
        command = [sys.executable, "-m", "pbem", *argv, "--port", str(port)]
        process = subprocess.Popen(command, cwd=cwd, stdout=out, stderr=subprocess.STDOUT)
    try:
        _wait_for(url, process, log, timeout)
        yield Server(url, process)
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


def _wait_for(url: str, process: subprocess.Popen[bytes], log: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"pbem web serve stopped ({process.returncode}): {log.read_text()}")
        try:
            with urllib.request.urlopen(url, timeout=1):
                return
        except urllib.error.HTTPError:
            return  # it answers, if not with a page there
        except OSError:
            time.sleep(0.1)
    pytest.fail(f"pbem web serve did not answer at {url} in {timeout} s: {log.read_text()}")
