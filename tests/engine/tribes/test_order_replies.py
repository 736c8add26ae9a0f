"""The check reply to a line that is not an order (docs/orders/tribes.md, "The check reply")."""

from __future__ import annotations

import pytest

from engine.rulesets.tribes.orders import EXAMPLES
from tests.engine.tribes.support import game, read


@pytest.mark.parametrize(
    ("line", "meant"),
    [("CONVRET C3 3 MELEE", "CONVERT"), ("ATACK C4 FROM C3", "ATTACK"), ("BRIBBE C4", "BRIBE")],
)
def test_a_misspelt_order_is_answered_with_its_own_example(line: str, meant: str) -> None:
    """ "A line that cannot be read is answered with an example": the example of the order the
    reply guesses, not another order's."""
    problems = read(game(), "ann", line).problems
    assert len(problems) == 1
    assert problems[0].message.endswith(f"did you mean {meant}?")
    assert problems[0].example == EXAMPLES[meant]
