"""README's "Trying it by hand" works as written: its order mail file, checked with `pbem
check` and then put into the local inbox, is read, answered, and the answer is in the
outbox folder it names."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.pipeline.test_cli import pbem, workdir

__all__ = ["workdir"]  # the fixture, shared with test_cli

README = Path(__file__).resolve().parents[2] / "README.md"


def _order_mail_file() -> str:
    """The block that follows README's sentence naming `order-mail.eml`."""
    text = README.read_text()
    after = text.split("`order-mail.eml`", 1)[1]
    match = re.search(r"```\n(.*?)```", after, flags=re.S)
    assert match, "README shows no order mail file"
    return match.group(1)


def test_the_readme_order_mail_is_checked_and_answered(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    example = _order_mail_file()
    password = re.search(r"PASSWORD (\S+)", example)
    assert password
    pbem(capsys, "init")
    seats = ["--seat", f"ann=ann@example.org:{password.group(1)}", "--seat", "bob=bob@example.org"]
    pbem(capsys, "game", "new", "g1", "--ruleset", "tns", "--deadline", "interval:48h", *seats)
    (workdir / "order-mail.eml").write_text(example)
    checked = pbem(capsys, "check", "order-mail.eml")
    assert "as a real mail: accepted (orders stored for ann, turn 1: 1 accepted" in checked
    pbem(capsys, "serve", "--once")  # makes the folders (and sends the start mails)
    shutil.copy(workdir / "order-mail.eml", workdir / "var/mail/inbox/new")
    assert pbem(capsys, "serve", "--once").startswith("mail in: 1 (1 accepted)")
    assert [path.name for path in (workdir / "var/mail/inbox/cur").iterdir()] == [
        "order-mail.eml:2,S"
    ]
    sent = [path.read_text() for path in (workdir / "var/mail/outbox/new").iterdir()]
    assert any("Subject: Re: my orders" in mail for mail in sent)
