"""A mail's press blocks (PRESS TO ... END PRESS), cut out of its text before its orders are
read: the text alone, no game and no database (pbem.intake.press relays them)."""

from __future__ import annotations

import re
from dataclasses import dataclass

_START = re.compile(r"^\s*press\s+to\s+(.+?)\s*$", re.I)
_END = re.compile(r"^\s*end(\s+press)?\s*$", re.I)
ANONYMOUS = "anonymous"


@dataclass(frozen=True)
class Block:
    line: int  # the PRESS line's number in the mail; 0: a reply to relayed press, no line
    to: tuple[str, ...]  # seat names, lower-cased; ("all",) for every seat
    anonymous: bool
    text: str
    to_unnamed: bool = False  # a reply to anonymous press: its one recipient is never named

    @property
    def place(self) -> str:
        """Where the block is, as its confirmation names it."""
        return f"line {self.line}" if self.line else "your reply"


def cut_press(text: str) -> tuple[list[Block], str]:
    """The press blocks of a mail's text, and the text without them (their lines blank)."""
    lines = text.split("\n")
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        found = _START.match(lines[i])
        if found is None:
            i += 1
            continue
        end = next((j for j in range(i + 1, len(lines)) if _END.match(lines[j])), len(lines))
        words = [w for w in re.split(r"[\s,]+", found.group(1).lower()) if w]
        anonymous = ANONYMOUS in words
        to = tuple(w for w in words if w != ANONYMOUS)
        body = "\n".join(lines[i + 1 : end]).strip("\n")
        blocks.append(Block(i + 1, to, anonymous, body))
        for k in range(i, min(end + 1, len(lines))):
            lines[k] = ""
        i = end + 1
    return blocks, "\n".join(lines)
