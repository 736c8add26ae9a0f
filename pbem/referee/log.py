"""AUDIT: the game's audit log read back, the newest entries, for a referee by mail or on the
command line (`pbem referee GAME audit [N]`). It reads only: no reason needed, no audit row
of its own."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from pbem.games.audit import WIDTH, entry_lines
from pbem.referee.command import RefereeError
from pbem.referee.context import RefereeContext
from pbem.referee.words import number

NEWEST = 30  # entries shown unless asked for more: a reply a referee can read through
MOST = 500  # asked for more: a mail still of a sane size (6 lines an entry at most)
AUDIT_USAGE = "audit [N]"


def audit_log(ctx: RefereeContext, args: Sequence[str], reason: str) -> str:
    count = _count(args)
    entries, total = ctx.audit.newest(ctx.game.id, count)
    if not entries:
        return f"the audit log of game {ctx.game.id} is empty"
    shown = "all" if len(entries) == total else f"the newest {len(entries)} of"
    head = f"the audit log of game {ctx.game.id}: {shown} {total} entries, oldest first, in UTC"
    if len(entries) < total:
        head += f"; AUDIT <n> shows the newest n (up to {MOST})"
    lines = textwrap.wrap(head, WIDTH, subsequent_indent="    ")
    return "\n".join([*lines, *(line for entry in entries for line in entry_lines(entry))])


def _count(args: Sequence[str]) -> int:
    if len(args) > 1:
        raise RefereeError(f"expected at most 1 argument: {AUDIT_USAGE}")
    count = number(args[0], "how many entries") if args else NEWEST
    if not 1 <= count <= MOST:
        raise RefereeError(f"how many entries: 1 to {MOST}, not {count}")
    return count
