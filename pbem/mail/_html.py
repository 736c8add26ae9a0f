"""HTML mail to plain text: enough to read orders typed in a web mailer.

Blocks become lines, <blockquote> lines get a '> ' prefix (so the envelope ignores quoted
reports exactly as in plain-text replies), scripts and styles vanish, entities are unescaped.

The parsing is libxml2's HTML parser (lxml), fed as a stream of events to the extractor
below. The standard library's html.parser was quadratic on unclosed constructs (`<a ` or
`<!--` repeated: 60 kB of it took 46 s); libxml2's is an HTML5 tokenizer in C, linear in
its input, and kept fuzzed for exactly such inputs. The work left in Python is bounded
too: the text arrives in pieces that are only appended (a C call) until a tag ends the
run, at most MAX_TAGS tags are read (no real mail has near that many), and a quote's
prefix is at most MAX_QUOTE levels deep.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

MAX_TAGS = 50_000  # start and end tags read; the rest of the document is left unread
MAX_QUOTE = 10  # '> ' levels shown; a deeper quote is as quoted as that
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


class _Enough(Exception):
    """Raised from the extractor to stop the parser at MAX_TAGS."""


@dataclass(frozen=True)
class HtmlText:
    text: str
    cut: bool  # the document had more than MAX_TAGS tags: the text stops there
    depth: int = 0  # elements open where the reading stopped (50,000 nested <div>: 50,000)


class _TextExtractor:
    """lxml's parser target: start/end per tag, `data` for every piece of text."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._line: list[str] = []
        self._line_quote = 0
        self._skip = 0
        self._quote = 0
        self._pre = 0
        self._tags = 0
        self.depth = 0  # elements open: libxml2 closes every element it opens, void ones too
        self._pieces: list[str] = []
        # A bound list.append, called by lxml for each piece of text: `&amp;` or a stray `<`
        # repeated makes a piece each, and a Python method for each was the slow part.
        self.data = self._pieces.append

    def start(self, tag: object, attrib: object) -> None:
        self._count()
        self.depth += 1
        name = _name(tag)
        self._flush()
        if name in _SKIP:
            self._skip += 1
        elif name == "br":
            self.line_break()
        elif name in _CELL:
            self._add(" ")
        elif name in _BLOCK:
            self.block_break()
            self._quote += name == "blockquote"
            self._pre += name == "pre"

    def end(self, tag: object) -> None:
        self._count()
        self.depth -= 1
        name = _name(tag)
        self._flush()
        if name in _SKIP:
            self._skip = max(0, self._skip - 1)
        elif name in _BLOCK:
            self.block_break()
            if name == "blockquote":
                self._quote = max(0, self._quote - 1)
            if name == "pre":
                self._pre = max(0, self._pre - 1)

    def close(self) -> None:
        self._flush()

    def _count(self) -> None:
        self._tags += 1
        if self._tags > MAX_TAGS:
            raise _Enough

    def _flush(self) -> None:
        """Hand the text read since the last tag to the line, as one piece."""
        if not self._pieces:
            return
        data = "".join(self._pieces)
        self._pieces.clear()
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
            self._line_quote = min(self._quote, MAX_QUOTE)
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


def _name(tag: object) -> str:
    return tag.lower() if isinstance(tag, str) else ""


def html_text(html: str) -> HtmlText:
    """Readable text of an HTML document: one line per block, at most one blank line in a
    row; `cut` if it had more than MAX_TAGS tags and the text stops at the last one read."""
    extractor = _TextExtractor()
    # Bytes, not str: lxml refuses a str with control characters or a lone surrogate.
    parser = etree.HTMLParser(
        target=extractor, encoding="utf-8", no_network=True, remove_comments=True
    )
    cut = False
    try:
        parser.feed(html.encode("utf-8", "replace"))
        parser.close()
    except _Enough:
        cut = True
    except Exception:  # noqa: BLE001 - libxml2 recovers from anything; this is only a last guard
        pass
    extractor.close()
    extractor.line_break()
    return HtmlText(_squeeze(extractor.lines), cut, extractor.depth if cut else 0)


def html_to_text(html: str) -> str:
    """html_text's text alone."""
    return html_text(html).text


def _squeeze(lines: list[str]) -> str:
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    while out and not out[-1]:
        out.pop()
    return "\n".join(out)
