"""Mail bodies rendered from Jinja2 text templates in mail_templates/.

Templates only lay out what the pipeline hands them; no game logic lives there. Rendering is
deterministic: the same context gives the same text.
"""

from __future__ import annotations

import textwrap
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2


def _template_dir() -> Path:
    """pbem/mail_templates (a link to the top-level mail_templates/ in a checkout, a copy in a
    wheel), found through the package wherever it is installed."""
    return Path(str(resources.files("pbem") / "mail_templates"))


TEMPLATE_DIR = _template_dir()


@cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATE_DIR),
        undefined=jinja2.StrictUndefined,  # a missing value is a bug, not a blank
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,  # plain text mail
        # The templates ship with the code, and a new release restarts the daemon: not a
        # stat of the template file for every mail of a deadline wave.
        auto_reload=False,
    )
    env.filters["wrap"] = wrap
    env.filters["quote"] = quote
    env.filters["game_form"] = game_form
    return env


_GAME_BREAKS = (" SEAT ", " REFEREE ", " PASSWORD ")


def game_form(line: str, indent: str = "", width: int = 72) -> str:
    """A GAME line to fill in ("GAME g1 SEAT bob PASSWORD <your password>"), after `indent`:
    one line if it fits `width`, else broken before SEAT, REFEREE or PASSWORD as the reader
    of mail takes it back (pbem.mail.envelope: a GAME line goes on over such lines), each
    line indented if that fits: a long game id or seat name never widens the mail."""
    if len(indent + line) <= width:
        return indent + line
    lines = [line]
    for mark in _GAME_BREAKS:
        head, found, rest = lines[-1].partition(mark)
        if found and len(indent + lines[-1]) > width:
            lines[-1:] = [head, mark.strip() + " " + rest]
    return "\n".join(indent + part if len(indent + part) <= width else part for part in lines)


def render(name: str, **context: Any) -> str:
    """The body of the mail kind `name` (mail_templates/<name>.txt), tidied for sending."""
    text = environment().get_template(f"{name}.txt").render(**context)
    return tidy(text)


def tidy(text: str) -> str:
    """No trailing blanks (but the signature mark "-- "), no runs of empty lines, one final
    newline."""
    lines = [line if line == "-- " else line.rstrip() for line in text.splitlines()]
    kept: list[str] = []
    for line in lines:
        if line or (kept and kept[-1]):
            kept.append(line)
    while kept and not kept[-1]:
        kept.pop()
    return "\n".join(kept) + "\n"


# Characters of a line of the player's mail a reply quotes ("> line 3: ..."): with the "> "
# before it, the reply's 72 columns, whatever the mail held (a line of 390,000 words).
QUOTED = 70


def quote(text: str, width: int = QUOTED) -> str:
    """A line of a mail as a reply quotes it: cut to `width` characters, the cut marked."""
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


def wrap(text: str, width: int = 72, indent: str = "    ") -> str:
    """Each line of `text` wrapped at `width` columns with a hanging indent."""
    lines = [
        textwrap.fill(
            line, width, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False
        )
        if len(line) > width
        else line
        for line in text.splitlines()
    ]
    return "\n".join(lines) + ("\n" if text.endswith("\n") else "")
