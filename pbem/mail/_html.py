"""HTML mail to plain text, with only html.parser: enough to read orders typed in a web mailer.

Blocks become lines, <blockquote> lines get a '> ' prefix (so the envelope ignores quoted
reports exactly as in plain-text replies), scripts and styles vanish, entities are unescaped.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

_SKIP = frozenset({"script", "style", "title", "template"})
_BLOCK = frozenset(
    {
        "p", "div", "tr", "li", "ul", "ol", "dl", "dt", "dd", "table", "pre", "hr", "blockquote",
        "h1", "h2", "h3", "h4", "h5", "h6", "section", "article", "header", "footer", "form",
        "center", "address",
    }
)  # fmt: skip
_CELL = frozenset({"td", "th"})
_SPACES = re.compile(r"\s+")


class _TextExtractor(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self._line: list[str] = []
        self._line_quote = 0
        self._skip = 0
        self._quote = 0
        self._pre = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP:
            self._skip += 1
        elif tag == "br":
            self.line_break()
        elif tag in _CELL:
            self._add(" ")
        elif tag in _BLOCK:
            self.block_break()
            self._quote += tag == "blockquote"
            self._pre += tag == "pre"

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self._skip = max(0, self._skip - 1)
        elif tag in _BLOCK:
            self.block_break()
            if tag == "blockquote":
                self._quote = max(0, self._quote - 1)
            if tag == "pre":
                self._pre = max(0, self._pre - 1)

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        if not self._pre:
            self._add(_SPACES.sub(" ", data))
            return
        first, *rest = data.replace("\r\n", "\n").split("\n")
        self._add(first)
        for piece in rest:
            self.line_break()
            self._add(piece)

    def _add(self, text: str) -> None:
        if not self._line:
            self._line_quote = self._quote
        self._line.append(text)

    def block_break(self) -> None:
        """End the line at a block edge; unlike <br>, never makes an empty line of its own."""
        if "".join(self._line).strip():
            self.line_break()
        else:
            self._line = []

    def line_break(self) -> None:
        joined = "".join(self._line)
        # Outside <pre>, runs of spaces (and &nbsp;) are layout, not content.
        line = joined.rstrip() if self._pre else " ".join(joined.split())
        self.lines.append("> " * self._line_quote + line if line.strip() else "")
        self._line = []


def html_to_text(html: str) -> str:
    """Readable text of an HTML document: one line per block, at most one blank line in a row."""
    parser = _TextExtractor()
    try:
        parser.feed(html)
        parser.close()
    except Exception:  # noqa: BLE001 - html.parser is lenient; this is only a last guard
        pass
    parser.line_break()
    return _squeeze(parser.lines)


def _squeeze(lines: list[str]) -> str:
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    while out and not out[-1]:
        out.pop()
    return "\n".join(out)
