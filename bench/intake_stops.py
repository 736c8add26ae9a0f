"""The stops of one mail's path: how many functions of pbem/ and engine/ one order mail, and
one mail of commands, pass through on their way from `receive` (and, inside it, from the
dispatch's `handle`) to their answer, in how many files, and how many of those calls go back
into MailContext.

A counting game on a fresh SQLite database; one order mail of another seat first (imports,
caches), then the measured mail. The order mail: five order lines, two accepted, three
rejected. The command mail: a GAME line proving the seat, then STATUS and ORDERS. Counted with
sys.setprofile: every call of a function defined in a .py file of pbem/ or engine/
(comprehensions, generator expressions and lambdas left out). Issue 44 counts these.

    .venv/bin/python bench/intake_stops.py [--list] [--commands]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType
from typing import Any

_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from pbem.games.service import Service  # noqa: E402
from pbem.intake.intake import receive  # noqa: E402
from tests.conftest import quick_settings  # noqa: E402
from tests.support.databases import migrated_engine  # noqa: E402
from tests.support.games import new_game  # noqa: E402
from tests.support.mails import mail, order_mail  # noqa: E402

_ROOT = _HERE.parent
_WATCHED = (str(_ROOT / "pbem") + "/", str(_ROOT / "engine") + "/")
NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

Call = tuple[str, str]  # (file, qualified name)


ORDERS = order_mail(
    "g1", "alice", "pw-alice", "ADD 2\nATTACK bob\nADD 5\nA 1\nFLY\n", message_id="m2@x"
)
COMMANDS = mail("GAME g1 SEAT alice PASSWORD pw-alice\nSTATUS g1\nORDERS\n", message_id="m3@x")
WANTED = {ORDERS: "accepted", COMMANDS: "answered"}


def path_of_one_mail(mail: bytes) -> list[Call]:
    """Every watched call, in order, while one mail goes through receive."""
    folder = tempfile.mkdtemp(prefix="pbem-stops-")
    service = Service(migrated_engine(f"sqlite:///{folder}/pbem.db"), quick_settings())
    new_game(service, NOW)
    first = order_mail("g1", "bob", "pw-bob", "ADD 1\n", sender="bob@example.org")
    receive(service, first, now=NOW)
    calls: list[Call] = []

    def watch(frame: FrameType, event: str, _arg: Any) -> None:
        code = frame.f_code
        name = code.co_filename
        watched = name.startswith(_WATCHED) and name.endswith(".py")
        # No comprehension, generator expression or lambda: their names hold a "<".
        if event == "call" and watched and "<" not in code.co_qualname:
            calls.append((str(Path(name).relative_to(_ROOT)), code.co_qualname))

    sys.setprofile(watch)
    try:
        receipt = receive(service, mail, now=NOW)
    finally:
        sys.setprofile(None)
    if receipt.status != WANTED[mail]:
        raise SystemExit(f"the measured mail was not {WANTED[mail]}: {receipt}")
    return calls


def from_handle(calls: list[Call]) -> list[Call]:
    """The calls from the dispatch's handle to the end of the mail's handling."""
    start = calls.index(("pbem/intake/dispatch.py", "handle"))
    end = next((i for i, c in enumerate(calls) if c[1] == "_receipt"), len(calls))
    return calls[start:end]


def line(name: str, calls: list[Call]) -> str:
    files = {file for file, _ in calls}
    context = sum(1 for _, qualname in calls if qualname.startswith("MailContext."))
    return (
        f"{name}: {len(calls)} calls, {len(set(calls))} functions in {len(files)} files, "
        f"{context} calls into MailContext"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", action="store_true", help="every function from handle on")
    parser.add_argument("--commands", action="store_true", help="list the command mail's")
    args = parser.parse_args()
    paths = {"order mail": path_of_one_mail(ORDERS), "command mail": path_of_one_mail(COMMANDS)}
    for name, calls in paths.items():
        print(line(f"{name}, receive", calls))
        print(line(f"{name}, handle", from_handle(calls)))
    if args.list:
        listed = paths["command mail" if args.commands else "order mail"]
        for (file, qualname), count in Counter(from_handle(listed)).items():
            print(f"{count:3} {file} {qualname}")


if __name__ == "__main__":
    main()
