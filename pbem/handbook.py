"""The players' handbook (docs/players.md) and a game's order reference (docs/orders/<id>.md)
as mail: the HELP replies are drawn from these files, so what a player is mailed and what the
documentation says cannot drift apart.

Markdown becomes plain text of at most 72 columns: headings become "== Heading ==", links,
inline code and emphasis their text (read on a whole paragraph: markup runs over line ends),
paragraphs and list items are wrapped, code blocks are kept as they are (a line too long for
a mail wrapped with a hanging indent), table rows become one wrapped line each (their cells
split where no code or backslash holds the '|'), HTML comments are left out."""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

WIDTH = 72
HANDBOOK = "players.md"
# The sections of the handbook a plain HELP mails, in this order.
HELP_SECTIONS = ("An order mail", "Mail commands")

_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_CODE = re.compile(r"`([^`]*)`")  # its text stays as written, "2 * 3" too
_ASIDE = re.compile("\0([0-9]+)\0")  # where code stood while emphasis was read
_EMPHASIS = re.compile(r"\*\*([^*]+)\*\*|(?<![\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?![\w*])")
_CELL = re.compile(r"((?:`[^`]*`|\\\||[^|])*)")  # a table cell: a '|' in code or as '\|' is text
_ITEM = re.compile(r"^(\s*)([-*]|\d+\.)\s+")
_FILLER = frozenset({"a", "an", "the", "reading", "reaching", "your"})
_COMMENT = re.compile(r"^\s*<!--.*-->\s*$")
# Under each "##" heading of the handbook: the one word HELP <topic> names that part by.
_TOPIC = re.compile(r"^<!--\s*topic:\s*([A-Z]+)\s*-->$", re.M)
_RULE = re.compile(r"^\|?\s*:?-{3,}")


def _docs_dir() -> Path:
    """pbem/docs (a link to the top-level docs/ in a checkout; in a wheel a copy of the
    players' handbook, the order references and the rules), found through the package."""
    return Path(str(resources.files("pbem") / "docs"))


DOCS_DIR = _docs_dir()


@dataclass(frozen=True)
class Section:
    title: str  # the heading, as plain text
    level: int  # 2 for "##", 3 for "###"
    markdown: str  # the heading line and everything up to the next heading of its level

    def words(self) -> list[str]:
        return re.findall(r"[a-z0-9]+", self.title.lower())

    def topic(self) -> str:
        """The word its "<!-- topic: WORD -->" line gives it; '' without one. Chosen, not taken
        from the heading: "A new password" and "A new address" would both be NEW."""
        found = _TOPIC.search(self.markdown)
        return found.group(1) if found else ""

    def key(self) -> str:
        """The heading's first word that says what it is about ("referee" of "Reaching the
        referee")."""
        return next((w for w in self.words() if w not in _FILLER), "")


@cache
def document(name: str) -> str:
    """The Markdown of docs/<name>; '' when there is no such file."""
    path = DOCS_DIR / name
    return path.read_text(encoding="utf-8") if path.is_file() else ""


def sections(markdown: str) -> list[Section]:
    """Every "##" and "###" section of `markdown`; a "##" section holds its "###" ones."""
    lines = markdown.splitlines()
    heads = [(i, _level(line)) for i, line in enumerate(lines) if _level(line) in (2, 3)]
    heads = [(i, level) for i, level in heads if not _in_code(lines, i)]
    found = []
    for n, (start, level) in enumerate(heads):
        end = next((i for i, lv in heads[n + 1 :] if lv <= level), len(lines))
        title = _inline(lines[start].lstrip("#").strip())
        found.append(Section(title, level, "\n".join(lines[start:end])))
    return found


def find(documents: list[str], topic: str) -> Section | None:
    """The section `topic` names, looking in `documents` in order: first a section whose
    heading's first key word starts with it ("MOVE: move units", "Reaching the referee"),
    then one with any word that does ("Away: SET ABSENCE")."""
    topic = topic.lower().strip()
    if not topic:
        return None
    found = [s for markdown in documents for s in sections(markdown)]
    for section in found:
        if section.key().startswith(topic):
            return section
    for section in found:
        if any(word.startswith(topic) for word in section.words()):
            return section
    return None


def topics() -> list[str]:
    """The handbook's parts, by the word HELP <topic> finds each with."""
    return [part.topic() for part in _parts()]


def find_topic(topic: str) -> Section | None:
    """The handbook's part that is `topic` (HELP ABSENCE), by its topic word; an order of a
    game is never one (a test checks that no order is called like a topic)."""
    word = topic.strip().upper()
    return next((part for part in _parts() if part.topic() == word), None)


def _parts() -> list[Section]:
    return [s for s in sections(document(HANDBOOK)) if s.level == 2 and s.topic()]


def help_text() -> str:
    """The handbook's sections a plain HELP mails."""
    text = document(HANDBOOK)
    chosen = [find_title(text, title) for title in HELP_SECTIONS]
    return "\n\n".join(mail_text(section.markdown) for section in chosen if section)


# Under a "##" or "###" heading of a rules page: the section is for developers and
# operators (balance runs, the code's layout), not mailed by HELP RULES.
_NOT_MAILED = "<!-- mail: skip -->"
# "([report-json.md](../report-json.md))": a file a player cannot open, left out of the mail.
_FILE_LINK = re.compile(r" ?\(\[[\w.-]+\.md\]\([^)]*\)\)")


def rules_text(markdown: str) -> str:
    """A rules page (docs/rules/<id>.md) as HELP RULES mails it to a player: its sections
    from the first "##" on (the page's preface says where the code and the rule text are)
    without those marked `<!-- mail: skip -->` on the line under their heading (balance
    runs, contents), and without links to files, as plain mail text."""
    kept = [s.markdown for s in sections(markdown) if s.level == 2 and not _skipped(s)]
    text = "\n\n".join(_without_skipped(part) for part in kept)
    return mail_text(_FILE_LINK.sub("", text))


def _skipped(section: Section) -> bool:
    return section.markdown.split("\n")[1:2] == [_NOT_MAILED]


def _without_skipped(markdown: str) -> str:
    """A "##" section without its "###" sections marked not to be mailed."""
    for section in sections(markdown):
        if section.level == 3 and _skipped(section):
            markdown = markdown.replace(section.markdown, "")
    return markdown


def find_title(markdown: str, title: str) -> Section | None:
    return next((s for s in sections(markdown) if s.title == title), None)


def mail_text(markdown: str, width: int = WIDTH) -> str:
    """`markdown` as plain mail text (see the module docstring)."""
    out: list[str] = []
    block: list[str] = []  # the paragraph or list item being gathered
    prefix = ""  # the list item's bullet, for the hanging indent
    code = False

    def flush() -> None:
        nonlocal block, prefix
        if block:
            # Markup runs over a line's end ("**When the order's phase comes it is checked
            # again**"): read on the whole paragraph, not line by line.
            text = _inline(" ".join(block))
            indent = " " * len(prefix)
            out.append(
                textwrap.fill(
                    text,
                    width,
                    initial_indent=prefix,
                    subsequent_indent=indent,
                    break_long_words=False,
                    break_on_hyphens=False,
                )
            )
        block, prefix = [], ""

    for line in markdown.splitlines():
        if _COMMENT.match(line):
            continue  # a note for the docs' own checks, not for players
        if line.lstrip().startswith("```"):
            flush()
            code = not code
            continue
        if code:
            out.append(_fit(line, width))
            continue
        stripped = line.strip()
        if not stripped:
            flush()
            out.append("")
        elif _level(line):
            flush()
            out.append(_fit(f"== {_inline(stripped.lstrip('#').strip())} ==", width))
        elif stripped.startswith("|"):
            flush()
            if not _RULE.match(stripped):
                block, prefix = [" - ".join(_cells(stripped))], "  "
                flush()
        elif item := _ITEM.match(line):
            flush()
            indent, bullet = item.group(1), item.group(2)
            prefix = f"{indent}{bullet} "
            block = [line[item.end() :]]
        else:
            block.append(stripped)
    flush()
    return _squeeze("\n".join(out))


def _fit(line: str, width: int) -> str:
    """A line kept as it is when it fits, else wrapped with a hanging indent."""
    if len(line) <= width:
        return line
    return textwrap.fill(
        line, width, subsequent_indent="    ", break_long_words=False, break_on_hyphens=False
    )


def _level(line: str) -> int:
    match = re.match(r"^(#{1,6})\s", line)
    return len(match.group(1)) if match else 0


def _in_code(lines: list[str], index: int) -> bool:
    fences = sum(1 for line in lines[:index] if line.lstrip().startswith("```"))
    return fences % 2 == 1


def _inline(text: str) -> str:
    """Plain text of a paragraph's Markdown: links their text, code its text as written, and
    emphasis (`**strong**`, `*stressed*`, code in it too) outside code its words."""
    code: list[str] = []

    def aside(found: re.Match[str]) -> str:  # code is kept out of the emphasis's reach
        code.append(found.group(1))
        return f"\0{len(code) - 1}\0"

    plain = _EMPHASIS.sub(
        lambda found: found.group(1) or found.group(2),
        _CODE.sub(aside, _LINK.sub(r"\1", text)),
    )
    return _ASIDE.sub(lambda found: code[int(found.group(1))], plain)


def _cells(row: str) -> list[str]:
    """The non-empty cells of a table row, each as plain text."""
    cells = [cell.strip() for cell in _CELL.findall(row.strip().strip("|"))]
    return [_inline(cell.replace("\\|", "|")) for cell in cells if cell]


def _squeeze(text: str) -> str:
    """No runs of blank lines, none at either end."""
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n") + "\n"
