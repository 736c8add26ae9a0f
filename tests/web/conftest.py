"""One headless Chromium for all the web archive's tests (it takes a second or two to start)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.web.browser import Browser, browser


@pytest.fixture(scope="session")
def chromium() -> Iterator[Browser]:
    with browser() as opened:
        yield opened
