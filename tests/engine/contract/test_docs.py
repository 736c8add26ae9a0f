"""Every ruleset has its rules and its order reference in docs/, the rules name every option,
and every example block of orders in docs/orders/<id>.md (fenced ```orders, or
```orders <variant> for ruleset.example_position(variant)) parses without a problem, one order
a line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import Ruleset

from .games import RULESETS

DOCS = Path(__file__).resolve().parents[3] / "docs"
FENCE = re.compile(r"^```orders[ \t]*(\S*)[ \t]*\n(.*?)^```", re.S | re.M)


def examples(ruleset: Ruleset) -> list[tuple[str, str]]:
    """(variant, block) of every example of orders in the order reference."""
    text = (DOCS / "orders" / f"{ruleset.id}.md").read_text(encoding="utf-8")
    return [(match[1], match[2]) for match in FENCE.finditer(text)]


EXAMPLES = [
    (ruleset, variant, block)
    for ruleset in RULESETS
    if (DOCS / "orders" / f"{ruleset.id}.md").exists()
    for variant, block in examples(ruleset)
]


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.id)
def test_the_rules_and_the_order_reference_exist(ruleset: Ruleset) -> None:
    for kind in ("rules", "orders"):
        path = DOCS / kind / f"{ruleset.id}.md"
        assert path.exists(), f"write {path.relative_to(DOCS.parent)} for {ruleset.title}"


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.id)
def test_the_rules_name_every_option(ruleset: Ruleset) -> None:
    rules = (DOCS / "rules" / f"{ruleset.id}.md").read_text(encoding="utf-8")
    missing = [spec.name for spec in ruleset.options if f"`{spec.name}`" not in rules]
    assert missing == [], f"docs/rules/{ruleset.id}.md does not name these options in backticks"


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.id)
def test_the_order_reference_has_examples_of_orders(ruleset: Ruleset) -> None:
    assert examples(ruleset), (
        f"docs/orders/{ruleset.id}.md has no example fenced ```orders: fence the examples "
        f"of orders so that they are checked on {type(ruleset).__name__}.example_position()"
    )


@pytest.mark.parametrize(
    ("ruleset", "variant", "block"),
    EXAMPLES,
    ids=[f"{r.id}-{v or 'default'}-{b.split(chr(10))[0][:30]}" for r, v, b in EXAMPLES],
)
def test_every_example_of_orders_parses_without_a_problem(
    ruleset: Ruleset, variant: str, block: str
) -> None:
    position = ruleset.example_position(variant)
    parsed = ruleset.parse_orders(position, ruleset.example_seat, block)
    assert [p.describe() for p in parsed.problems] == []
    lines = [
        line for line in block.splitlines() if line.strip() and not line.lstrip().startswith("#")
    ]
    assert len(parsed.orders) == len(lines)
