"""The tests run on several pytest-xdist workers at once (`make test`): what one worker
writes outside its tmp_path must be its own."""

from __future__ import annotations

import os

from tests import conftest


def test_the_web_archive_of_the_command_line_goes_to_this_process_own_folder() -> None:
    """A worker inherits the environment of the pytest that started it, web folder included:
    the worker's tests must write their archive into the folder this process made."""
    assert os.environ["PBEM_WEB__FOLDER"] == str(conftest._WEB / "web")
    assert os.environ["PBEM_WEB__SECRET_FILE"] == str(conftest._WEB / "web-secret")
