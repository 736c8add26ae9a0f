"""Line numbers as the player wrote them. A ruleset numbers the lines of the order text it is
given (1, 2, 3...); the player reads the line numbers of the mail they sent, where the GAME
line, TURN, comments and blank lines come first or between. Every number a reply or report
shows goes through here: the line a problem is on, and the lines its message refers to
("TECH was already given on line 1")."""

from __future__ import annotations

import re
from collections.abc import Sequence

_LINE_REF = re.compile(r"\b(lines?) (\d+)\b")


class MailLines:
    """The mail line of each line of an order text (`line_map[i]` for order line i + 1)."""

    def __init__(self, line_map: Sequence[int]) -> None:
        self.line_map = list(line_map)

    def of(self, number: int) -> int:
        """The mail line of order line `number` (the number itself when out of range)."""
        return self.line_map[number - 1] if 1 <= number <= len(self.line_map) else number

    def in_text(self, text: str) -> str:
        """`text` with every "line N" it mentions turned into the mail's line."""
        return _LINE_REF.sub(lambda m: f"{m.group(1)} {self.of(int(m.group(2)))}", text)
