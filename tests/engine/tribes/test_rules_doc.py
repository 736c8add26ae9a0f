"""docs/rules/tribes.md keeps its promise: "**Completion:** marks every rule the project added,
with its reason." """

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[3] / "docs" / "rules" / "tribes.md"
MARK = re.compile(r"\*\*[^*\n]*completion[^*\n]*\*\*", re.IGNORECASE)
# A reason is the doc's "*Reason:*" (or "*reason:*"), a table column headed "reason", or a
# link to the section that gives it.
REASON = re.compile(r"\*reason|\breason\b.*\|$|\]\(#", re.IGNORECASE | re.MULTILINE)
LIST_ITEM = re.compile(r"^(?:- |\d+\. )")


def _blocks(text: str) -> list[str]:
    """Headings, paragraphs, list items, and table rows, each row with its table's header."""
    blocks: list[str] = []
    header = ""
    for line in text.splitlines():
        if line.startswith("|"):
            header = header or line
            blocks.append(f"{header}\n{line}")
            continue
        header = ""
        if not line.strip():
            blocks.append("")
        elif line.startswith("#") or LIST_ITEM.match(line) or not blocks or not blocks[-1]:
            blocks.append(line)
        else:
            blocks[-1] += "\n" + line
    return [block for block in blocks if block]


def _unreasoned(blocks: list[str]) -> list[str]:
    """Marks with no reason in their block or in the blocks after it, up to the next mark or
    heading."""
    missing = []
    for at, block in enumerate(blocks):
        if not MARK.search(block) or block.startswith("#"):
            continue
        span = [block]
        for later in blocks[at + 1 :]:
            if later.startswith("#") or MARK.search(later):
                break
            span.append(later)
        if not any(REASON.search(part) for part in span):
            missing.append(block)
    return missing


def test_every_completion_mark_gives_its_reason() -> None:
    """ "**Completion:** marks every rule the project added, with its reason." Among them the
    battle's rounds, "one work in its hex" and the fortress, stables and refinery costs."""
    text = DOC.read_text(encoding="utf-8")
    rules = text[text.index("\n## ") :]  # the legend above the first section marks nothing
    assert _unreasoned(_blocks(rules)) == []
