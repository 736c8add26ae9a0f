"""Reading a seat's order text line by line, the same way in every ruleset.

Every line is read on its own, so one bad line never spoils the good ones: text after '#' is
a comment, blank lines are passed over, and a line whose reading raises OrderError becomes a
problem of that line while the others are still read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.problems import OrderError
from engine.records import ParsedOrders


def read_order_lines(text: str, read_line: Callable[[int, str], Any]) -> ParsedOrders:
    """The orders `read_line(line_no, line)` makes of each line (1-based, comment stripped),
    and the problems of the lines it refused."""
    result = ParsedOrders()
    for line_no, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            order = read_line(line_no, line)
        except OrderError as error:
            result.problems.append(error.at(line_no, raw.strip()))
            continue
        result.orders.append(order)
    return result
