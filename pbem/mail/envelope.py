"""The envelope of an order mail: who it is from (GAME line), which turn, which lines are orders.

Keywords are case-insensitive and may be followed by ':' ("GAME: g1"); game ids, seat names and
command arguments are lower-cased; passwords are kept as typed; a password in double quotes, as
Eressea players write it, may contain spaces (the quotes are removed). '#' starts a comment
on every line, so a password cannot contain '#'. Tabs, non-breaking and other odd spaces count
as spaces.

Order mail::

    GAME <game-id> SEAT <seat> PASSWORD <password>    one seat's orders
    GAME <game-id> REFEREE [PASSWORD] <password>       a referee's commands
    TURN <n>                  optional; before the first order (or on the GAME line itself)
    <orders, one per line>    returned as `lines`, with their line numbers in the mail
    END                       optional; everything after it is ignored

The GAME line may go on over two more lines that start with SEAT, PASSWORD or REFEREE
("GAME <game-id>", then "SEAT <seat> PASSWORD <password>"), as a mail writes its form when
one line would be wider than 72 columns.

Mail commands stand on the first line after the GAME line (which authenticates them) or, in a
mail without a GAME line, on its first line. Lines after a command line are returned in `lines`;
those that are commands too are read by `read_command` (pbem.intake.command_mail runs each and
answers the others as unprocessed):

    HELP [topic]                                        needs no GAME line
    STATUS [<game-id>]                                  without GAME line: public status
    REPORT [<turn>|START]                               resend a report; needs the GAME line
    ORDERS                                              echo the orders on file; needs GAME
    JOIN <game-id> <seat-name> [PASSWORD] <password>    SIGNUP is the same; no GAME line
    SET ABSENCE <YYYY-MM-DD>|NONE                       away through a day; needs GAME
    FORECAST                                            the turn on sample dice; needs GAME

These words, and GAME, TURN and END, are reserved: no ruleset may start an order with one.
Game ids and seat names are at most 64 characters (MAX_NAME).

Ignored, and summarised in `ignored` (one entry per block, with its first line number):
everything before the first well-formed GAME line (a player may paste a whole report back);
lines quoted with '>' anywhere, and the "On ... wrote:" line that introduces them; everything
after END, after a signature separator "-- ", from a phone's "Sent from my ..." line, after an
"-----Original Message-----" line or a line of underscores, from a "From: ..." line directly
followed by "Sent: ..." or "Date: ..." (Outlook's ways to append the original); a second GAME
line and everything after it (one mail per seat).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from engine.order_lines import PLEASANTRIES
from engine.words import normal
from pbem.mail.commands import PLAYER_WORDS

MAX_NAME = 64  # longest game id or seat name; the store keeps them in 64 characters
GAME_FORM = "GAME <game-id> SEAT <seat> PASSWORD <password>"
REFEREE_FORM = "GAME <game-id> REFEREE <password>"
JOIN_FORM = "JOIN <game-id> <seat-name> PASSWORD <password>"
_COMMANDS = PLAYER_WORDS
_KEYWORDS = frozenset({"GAME", "SEAT", "PASSWORD", "REFEREE", "TURN"})
_ATTEMPT = frozenset({"SEAT", "PASSWORD", "REFEREE"})
_KEY_COLON = re.compile(r"(?i)(?<!\S)(game|seat|password|referee|turn|join|signup)\s*:")
_INVISIBLE = dict.fromkeys(map(ord, "\ufeff\u200b\u200c\u200d\u2060\u00ad"), None)
_SPACE = re.compile(r"\s")
_TOKEN = re.compile(r'"[^"]*"|\S+')  # a double-quoted password may hold spaces
_NUMBER = re.compile(r"[0-9]{1,9}")
_ORIGINAL = re.compile(
    r"-{2,}\s*(original message|forwarded message|ursprüngliche nachricht|message d'origine)"
    r"\s*-{2,}",
    re.IGNORECASE,
)
_UNDERSCORES = re.compile(r"_{8,}")
_MOBILE_SIGNATURE = re.compile(r"(sent from my |get outlook for |von meinem .* gesendet)", re.I)
# A template's placeholder sent back as it was ("PASSWORD <your password>"): a space inside
# the brackets, or one of the forms the handbook writes, so a password such as "<p4ss>" stays
# a password.
_PLACEHOLDER = re.compile(r"<[^<>\s]+(?:\s[^<>]*)?>")
_PLACEHOLDER_WORDS = frozenset({"<game-id>", "<game>", "<seat>", "<password>"})
_ORIGINAL_BELOW = "original message below the reply"


@dataclass(frozen=True)
class Envelope:
    """The parsed envelope; see the module docstring for the forms."""

    game: str = ""  # lower-cased; '' when no GAME line (or JOIN / STATUS <game>) was found
    seat: str = ""  # lower-cased; '' for a referee or when there is none
    referee: bool = False
    password: str = ""  # as typed; always '' when `problem` is set
    turn: int | None = None
    lines: tuple[tuple[int, str], ...] = ()  # (line number, text) of each order/command line
    ignored: tuple[tuple[int, str], ...] = ()  # (first line number, reason) per ignored block
    command: str = ""  # HELP, STATUS, REPORT, ORDERS, JOIN, SET, FORECAST; '' for orders
    command_args: tuple[str, ...] = ()  # lower-cased words after the command (no password)
    # the same words as typed (SET PASSWORD keeps case); left out of comparisons
    command_words: tuple[str, ...] = field(default=(), compare=False)
    problem: str = ""  # why the mail cannot be taken as written; '' when fine
    game_line: int = field(default=0, compare=False)  # its line number; 0 when there is none
    # the command's line number and text (comment removed), to say what was understood
    command_line: int = field(default=0, compare=False)
    command_text: str = field(default="", compare=False)


class _Line(NamedTuple):
    no: int  # 1-based line number in the mail text
    text: str  # comment removed, trimmed, odd spaces made plain
    quoted: bool


def parse_envelope(text: str) -> Envelope:
    """Parse the envelope of a mail body. Never raises."""
    lines = _split(text)
    start = _find_game_line(lines)
    if start is None:
        return _without_game_line(lines)
    head, taken = _game_lines(lines, start)
    # A referee's lines are all referee commands (ORDERS, REPORT... included), read in full.
    body = _walk(lines, start + taken, commands=not head.referee)
    before = _block(lines[:start], "text before the GAME line")
    return replace(
        body,
        game=head.game,
        seat=head.seat,
        referee=head.referee,
        password="" if body.problem else head.password,
        turn=head.turn if body.turn is None else body.turn,
        ignored=before + body.ignored,
        game_line=lines[start].no,
    )


def _split(text: str) -> list[_Line]:
    raw_lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return [_clean(no, line) for no, line in enumerate(raw_lines, start=1)]


def _clean(no: int, line: str) -> _Line:
    plain = _SPACE.sub(" ", line.translate(_INVISIBLE)).strip()
    quoted = plain.startswith(">")
    return _Line(no, plain.split("#", 1)[0].strip(), quoted)


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(_KEY_COLON.sub(r"\1 ", text))


def _first_word(line: _Line) -> str:
    words = _tokens(line.text) if not line.quoted else []
    return words[0].upper() if words else ""


def _find_game_line(lines: list[_Line]) -> int | None:
    """Index of the first well-formed GAME line; a pasted report may hold malformed ones."""
    for i, line in enumerate(lines):
        if _first_word(line) == "GAME" and not _game_lines(lines, i)[0].problem:
            return i
    return None


# A GAME line may go on over the next lines, each starting with SEAT, PASSWORD or REFEREE: a
# mail's form of it is split so when one line would pass 72 columns (a long game id or seat
# name: pbem.templates.game_form), and it must read back as written.
GAME_LINES = 3


def _game_lines(lines: list[_Line], start: int) -> tuple[Envelope, int]:
    """The GAME line at `start` read with the lines that go on with it, and how many lines it
    took; the line alone (and its problem) when they do not make it well formed."""
    alone = _parse_game(lines[start])
    if not alone.problem:
        return alone, 1
    joined, taken = lines[start], 1
    while taken < GAME_LINES and start + taken < len(lines):
        following = lines[start + taken]
        if _first_word(following) not in _ATTEMPT:
            break
        joined = _Line(joined.no, f"{joined.text} {following.text}", False)
        taken += 1
        head = _parse_game(joined)
        if not head.problem:
            return head, taken
    return alone, 1


def _parse_game(line: _Line) -> Envelope:
    placeholder = _placeholder(line.text)
    if placeholder:
        return _game_problem(line, placeholder, Envelope())
    words = _tokens(line.text)[1:]
    if not words or words[0].upper() in _KEYWORDS:
        return _game_problem(line, "the game id is missing", Envelope())
    if len(words[0]) > MAX_NAME:
        return _game_problem(line, f"the game id is longer than {MAX_NAME} characters", Envelope())
    head = Envelope(game=words[0].lower())
    fields, detail = _key_values(words[1:])
    if detail:
        return _game_problem(line, detail, head)
    return _game_head(line, head, fields)


def _placeholder(text: str) -> str:
    """What to say of a placeholder left in a GAME line (a template sent back unfilled); ''
    when there is none. Its words would otherwise read as "'password>' is not expected"."""
    for found in _PLACEHOLDER.finditer(text):
        shown = found.group()
        if " " in shown or shown.lower() in _PLACEHOLDER_WORDS:
            if "password" in shown.lower():
                return (
                    f"replace {shown} with your password, as you chose it or the referee "
                    "mailed it to you"
                )
            return f"replace {shown} with what it stands for"
    return ""


def _key_values(words: list[str]) -> tuple[dict[str, str], str]:
    """SEAT/PASSWORD/REFEREE/TURN and their values; (fields, '') or ({}, what is wrong)."""
    fields: dict[str, str] = {}
    i = 0
    while i < len(words):
        key = words[i].upper()
        if key not in _KEYWORDS - {"GAME"}:
            return {}, f"'{words[i]}' is not expected there"
        if key in fields:
            return {}, f"{key} is given twice"
        if key == "REFEREE" and i + 1 < len(words) and words[i + 1].upper() == "PASSWORD":
            i += 1  # "REFEREE PASSWORD <pw>" reads as well as "REFEREE <pw>"
        if i + 1 >= len(words):
            return {}, f"{key} needs a value after it"
        fields[key] = words[i + 1]
        i += 2
    return fields, ""


def _game_head(line: _Line, head: Envelope, fields: dict[str, str]) -> Envelope:
    seat = fields.get("SEAT", "").lower()
    if len(seat) > MAX_NAME:
        return _game_problem(line, f"the seat name is longer than {MAX_NAME} characters", head)
    head = replace(head, seat=seat)
    if "REFEREE" in fields and "PASSWORD" in fields:
        return _game_problem(line, "give REFEREE <password> or PASSWORD, not both", head)
    if "REFEREE" in fields and seat:
        return _game_problem(line, "a referee mail has no SEAT", head)
    if "REFEREE" not in fields and not seat:
        return _game_problem(line, "SEAT <seat> is missing", head)
    password = _unquote(fields.get("REFEREE") or fields.get("PASSWORD", ""))
    if not password:
        return _game_problem(line, "PASSWORD <password> is missing", head)
    turn_word = fields.get("TURN")
    if turn_word is not None and not _NUMBER.fullmatch(turn_word):
        return _game_problem(line, f"TURN needs a number, not '{turn_word}'", head)
    turn = int(turn_word) if turn_word is not None else None
    return replace(head, referee="REFEREE" in fields, password=password, turn=turn)


def _unquote(password: str) -> str:
    if len(password) > 2 and password[0] == password[-1] == '"':
        return password[1:-1]
    return password


def _game_problem(line: _Line, detail: str, head: Envelope) -> Envelope:
    problem = (
        f"line {line.no}: {detail}. The GAME line needs: {GAME_FORM}"
        f" (a referee writes: {REFEREE_FORM})"
    )
    return replace(head, referee=False, password="", turn=None, problem=problem)


def _block(lines: list[_Line], reason: str) -> tuple[tuple[int, str], ...]:
    """One ignored entry for a block of lines, counting only its non-blank lines."""
    content = [line for line in lines if line.text or line.quoted]
    if not content:
        return ()
    count = len(content)
    return ((content[0].no, f"{reason} ({count} line{'s' if count != 1 else ''})"),)


def _without_game_line(lines: list[_Line]) -> Envelope:
    """A mail with no well-formed GAME line: a command on its first line (after a greeting,
    on that line or on a line or two of its own), or a problem."""
    found = _command_line(lines)
    if found is not None:
        first, command = found
        head = _command_without_game(command)
        body = _walk(lines, first + 1, commands=False)
        quoted = _block([line for line in lines[:first] if line.quoted], "quoted text")
        greeting = _block([line for line in lines[:first] if not line.quoted], "a greeting")
        return replace(head, lines=body.lines, ignored=quoted + greeting + body.ignored)
    head = _parse_game(bad) if (bad := _attempted_game_line(lines)) else Envelope()
    return replace(head, ignored=_block(lines, "text without a GAME line"))


# A greeting before a command ("Hi! JOIN tri1 ann PASSWORD tulip"): at most this many of its
# words on the command's line, or this many lines of it before the command's line.
GREETING_WORDS = 3
GREETING_LINES = 2


def _command_line(lines: list[_Line]) -> tuple[int, _Line] | None:
    """(index, the command's line without its greeting) of a mail's command: its first line
    read, or the first after a greeting line or two ("Hi!", "Hello Moderator,")."""
    said = [i for i, line in enumerate(lines) if line.text and not line.quoted]
    for i in said[: GREETING_LINES + 1]:
        command = _after_greeting(lines[i])
        if command is not None:
            return i, command
        if normal(_first_word(lines[i])) not in PLEASANTRIES:
            return None
    return None


def _after_greeting(line: _Line) -> _Line | None:
    """The line from its command word on, if it has one first or after a greeting's few
    words; else None."""
    words = _tokens(line.text)
    greeting = bool(words) and normal(words[0]) in PLEASANTRIES
    for count, word in enumerate(words[: GREETING_WORDS + 1] if greeting else words[:1]):
        if word.upper() in _COMMANDS:
            return _Line(line.no, " ".join(words[count:]), line.quoted)
    return None


def _attempted_game_line(lines: list[_Line]) -> _Line | None:
    """The malformed GAME line to explain: one that tries SEAT/PASSWORD/REFEREE, else the first.

    A pasted report's heading ("Game: temple1, turn 3") is a GAME line only by accident.
    """
    candidates = [line for line in lines if _first_word(line) == "GAME"]
    tried = [line for line in candidates if _ATTEMPT & {w.upper() for w in _tokens(line.text)}]
    chosen = tried or candidates
    return chosen[0] if chosen else None


def _command_without_game(line: _Line) -> Envelope:
    words = _tokens(line.text)
    command = _COMMANDS[words[0].upper()]
    args = tuple(word.lower() for word in words[1:])
    if command == "JOIN":
        head = _join(line, words[1:])
    elif command == "STATUS" and args and len(args[0]) <= MAX_NAME:
        head = Envelope(game=args[0], command=command, command_args=args)
    else:
        head = _command(line)
    return replace(head, command_line=line.no, command_text=line.text)


def _command(line: _Line) -> Envelope:
    """The command `line` begins with, as it reads after a GAME line."""
    words = tuple(_tokens(line.text)[1:])
    command = _COMMANDS[_first_word(line)]
    args = tuple(word.lower() for word in words)
    return Envelope(
        command=command,
        command_args=args,
        command_words=words,
        problem=_args_problem(line, command, args),
        command_line=line.no,
        command_text=line.text,
    )


def read_command(no: int, text: str, *, game_line: bool) -> Envelope | None:
    """The command on line `no` of a mail, read as if it stood first: after the mail's GAME
    line (`game_line`) or on its own (JOIN and STATUS then name their game). None when the
    line holds no command. `text` is a line as `lines` returns it."""
    line = _Line(no, text, quoted=False)
    if _first_word(line) not in _COMMANDS:
        return None
    return _command(line) if game_line else _command_without_game(line)


def _join(line: _Line, words: list[str]) -> Envelope:
    if len(words) == 4 and words[2].upper() == "PASSWORD":
        words = [words[0], words[1], words[3]]
    if (
        len(words) != 3
        or "PASSWORD" in (words[1].upper(), words[2].upper())
        or max(len(words[0]), len(words[1])) > MAX_NAME
    ):
        problem = f"line {line.no}: the JOIN line needs: {JOIN_FORM}"
        return Envelope(command="JOIN", problem=problem)
    game, seat = words[0].lower(), words[1].lower()
    password = _unquote(words[2])
    return Envelope(
        game=game, seat=seat, password=password, command="JOIN", command_args=(game, seat)
    )


def _args_problem(line: _Line, command: str, args: tuple[str, ...]) -> str:
    turn_or_start = not args or args[0] == "start" or _NUMBER.fullmatch(args[0])
    if command == "REPORT" and (len(args) > 1 or not turn_or_start):
        return (
            f"line {line.no}: REPORT takes at most a turn number or START: "
            "REPORT <turn>, REPORT START"
        )
    return ""


def _walk(lines: list[_Line], start: int, *, commands: bool = True) -> Envelope:
    """Order lines after the GAME (or command) line, up to END; TURN and a command up front."""
    state = _Walk(commands)
    i = start
    while i < len(lines):
        i = state.step(lines, i)
    return state.result()


class _Walk:
    """The state of one pass over the lines after the GAME line."""

    def __init__(self, commands: bool) -> None:
        self.at_start = True  # nothing but TURN seen yet: a command may still come
        self.commands = commands
        self.lines: list[tuple[int, str]] = []
        self.ignored: list[tuple[int, str]] = []
        self.turn: int | None = None
        self.head = Envelope()  # the command line's, if there is one
        self.problem = ""

    def step(self, lines: list[_Line], i: int) -> int:
        """Handle lines[i] (and perhaps a block after it); return the next index to look at."""
        line = lines[i]
        if not line.text and not line.quoted:
            return i + 1
        end = _quote_end(lines, i)
        if end > i:
            self.ignored += _block(lines[i:end], "quoted text")
            return end
        stop = _stop(lines, i)
        if stop:
            reason, first = stop
            self.ignored += _block(lines[first:], reason)
            return len(lines)
        self.take(line)
        return i + 1

    def take(self, line: _Line) -> None:
        word = _first_word(line)
        if self.at_start and word == "TURN":
            self.take_turn(line)
            return
        if self.at_start and self.commands and word in _COMMANDS:
            self.head = _command(line)
            self.problem = self.problem or self.head.problem
        else:
            self.lines.append((line.no, line.text))
        self.at_start = False

    def take_turn(self, line: _Line) -> None:
        words = _tokens(line.text)
        if len(words) == 2 and _NUMBER.fullmatch(words[1]):
            self.turn = int(words[1])
        else:
            self.problem = f"line {line.no}: the TURN line needs a number: TURN <n>"

    def result(self) -> Envelope:
        return replace(
            self.head,
            turn=self.turn,
            lines=tuple(self.lines),
            ignored=tuple(self.ignored),
            problem=self.problem,
        )


def _stop(lines: list[_Line], i: int) -> tuple[str, int] | None:
    """(why the orders end at lines[i], index of the first ignored line), or None."""
    line = lines[i]
    text = line.text
    if text.upper().rstrip(".") == "END":
        return "after END", i + 1
    if text == "--":
        return "signature", i + 1
    if _ORIGINAL.fullmatch(text) or _UNDERSCORES.fullmatch(text):
        return _ORIGINAL_BELOW, i + 1
    if _MOBILE_SIGNATURE.match(text) and len(text) < 60:
        return "signature", i
    if _is_header_block(lines, i):
        return _ORIGINAL_BELOW, i
    if _first_word(line) == "GAME":
        return "a second GAME line and what follows: send one mail per seat", i
    return None


def _is_header_block(lines: list[_Line], i: int) -> bool:
    """Outlook appends the original under a bare "From: ..." / "Sent: ..." header block."""
    if i + 1 >= len(lines) or not lines[i].text.lower().startswith("from:"):
        return False
    return lines[i + 1].text.lower().startswith(("sent:", "date:"))


def _quote_end(lines: list[_Line], i: int) -> int:
    """End of the quoted block starting at lines[i] (with its "... wrote:" line), else i."""
    lead = _attribution_length(lines, i)
    j = _next_content(lines, i + lead)
    if j is None or not lines[j].quoted:
        return i
    while j < len(lines) and (lines[j].quoted or not lines[j].text):
        j += 1
    return j


def _attribution_length(lines: list[_Line], i: int) -> int:
    """How many lines from i form an "On <date>, <who> wrote:" line (mailers wrap it in two)."""
    if _introduces_quote(lines, i):
        return 1
    # A wrapped attribution must start a paragraph, or we would swallow an order line.
    starts_paragraph = i == 0 or not (lines[i - 1].text or lines[i - 1].quoted)
    if starts_paragraph and not lines[i].quoted and _introduces_quote(lines, i + 1):
        return 2
    return 0


def _introduces_quote(lines: list[_Line], i: int) -> bool:
    """lines[i] ends with ':' and the next line with content is quoted."""
    if i >= len(lines) or lines[i].quoted or not lines[i].text.endswith(":"):
        return False
    nxt = _next_content(lines, i + 1)
    return nxt is not None and lines[nxt].quoted


def _next_content(lines: list[_Line], i: int) -> int | None:
    return next((j for j in range(i, len(lines)) if lines[j].text or lines[j].quoted), None)


def own_lines(text: str) -> tuple[tuple[int, str], ...]:
    """(line number, text) of each line of the mail's own, unquoted text that would be an
    order line under a GAME line: its quoted text, a signature and what follows left out."""
    return tuple(_walk(_split(text), 0, commands=False).lines)


def unquoted(text: str) -> str:
    """`text` with one level of '>' taken off its quoted lines and every other line blanked
    (so line numbers stay the mail's); '' when nothing is quoted. A player may fill in the
    order template inside the quoted report."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if not any(line.lstrip().startswith(">") for line in lines):
        return ""
    return "\n".join(_unquote_line(line.lstrip()) for line in lines)


def _unquote_line(line: str) -> str:
    if not line.startswith(">"):
        return ""
    return line[2:] if line.startswith("> ") else line[1:]
