"""Matching a player's word against a vocabulary: exact spellings first, then unique prefixes,
else the nearest spelling offered as "did you mean".

Shared by every ruleset's order parser so that 'sold', 'SOLDIERS' and 'soldier' all read the same,
's' is reported as ambiguous instead of guessed, and 'tempel' is answered with "did you mean
temple?" instead of the whole vocabulary.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping

from engine.problems import ambiguous, syntax

# How alike a mistyped word and a spelling must be (difflib's ratio) to be offered as "did you
# mean": 'atack'/'attack' is 0.91, 'tempel'/'temple' 0.83, 'please'/'losses' 0.5.
NEAR = 0.75
# Punctuation a player puts between arguments ("LABOR D4, 1", "ATTACK: bob;") and that means
# nothing there.
SEPARATORS = ",;:"


def normal(word: str) -> str:
    """Case, spaces, hyphens, apostrophes and punctuation do not matter."""
    lower = word.lower()
    # Most words are letters and digits alone: read once, not a character at a time.
    return lower if lower.isalnum() else "".join(ch for ch in lower if ch.isalnum())


def words_of(text: str) -> list[str]:
    """The words of an order line's arguments, with the commas, colons and semicolons between
    them (and a full stop at the end) taken off: 'D4, 1.' -> ['D4', '1']."""
    words = [word.strip(SEPARATORS) for word in text.split()]
    if words:
        words[-1] = words[-1].rstrip(".").strip(SEPARATORS)
    return [word for word in words if word]


def match_word(word: str, spellings: Mapping[str, str], what: str, example: str) -> str:
    """The canonical name `word` stands for. `spellings` maps every accepted spelling
    (already normalised) to its canonical name. Raises a syntax or ambiguous OrderError;
    a word near a known spelling is answered with that one ("did you mean")."""
    key = normal(word)
    if key in spellings:
        return spellings[key]
    found = prefixed(key, spellings)
    if len(found) == 1:
        return found[0]
    if found:
        raise ambiguous(f"'{shown(word)}' could be more than one {what}", tuple(found))
    near = nearest(key, spellings)
    if near:
        raise syntax(f"'{shown(word)}' is not {article(what)}; did you mean {near}?", example)
    known = ", ".join(sorted(set(spellings.values())))
    raise syntax(f"'{shown(word)}' is not {article(what)} (one of: {known})", example)


def prefixed(key: str, spellings: Mapping[str, str]) -> list[str]:
    """The canonical names with a spelling that starts with the normalised `key`."""
    return sorted(
        {name for spelling, name in spellings.items() if key and spelling.startswith(key)}
    )


def nearest(key: str, spellings: Mapping[str, str]) -> str:
    """The canonical name whose spelling is nearest the normalised `key`, if one is near."""
    close = difflib.get_close_matches(key, list(spellings), n=1, cutoff=NEAR)
    return spellings[close[0]] if close else ""


def spellings_of(names: Mapping[str, tuple[str, ...]]) -> dict[str, str]:
    """{canonical: (other spellings...)} -> {normalised spelling: canonical}."""
    table: dict[str, str] = {}
    for name, others in names.items():
        for spelling in (name, *others):
            table[normal(spelling)] = name
    return table


def match_seat(word: str, seats: Iterable[tuple[str, str]], example: str) -> str:
    """The seat a player's word names, from (name, letter) pairs. Names come first (exactly,
    then by unique prefix): 'c' is cat even if bob's letter is C. A seat letter is read only
    when no seat's name starts with it."""
    pairs = list(seats)
    names = {normal(name): name for name, _ in pairs}
    key = normal(word)
    if key in names or prefixed(key, names):
        return match_word(word, names, "seat", example)
    letters = {normal(letter): name for name, letter in pairs if letter}
    if key in letters:
        return letters[key]
    return match_word(word, names, "seat", example)


MAX_DIGITS = 6  # no count in any game comes near a million


def parse_count(word: str, what: str, example: str) -> int:
    """A whole number written in ASCII digits ('²' is a digit to str.isdigit, not to int);
    punctuation around it ('1.', '2,') does not matter."""
    digits = word.strip(SEPARATORS + ".")
    if not (digits.isascii() and digits.isdigit()) or len(digits) > MAX_DIGITS:
        raise syntax(f"expected a number of {what}, found '{shown(word)}'", example)
    return int(digits)


def shown(word: str, limit: int = 30) -> str:
    """A player's word as quoted back in a reply: a pasted novel is cut short."""
    return word if len(word) <= limit else word[: limit - 3] + "..."


def article(noun: str) -> str:
    """'a temple', 'an advance'; plural nouns ('walls') stand alone."""
    if noun.endswith("walls"):
        return noun
    vowel = noun[:1].lower() in "aeiou" and not noun.lower().startswith("uni")  # 'a unit'
    return f"{'an' if vowel else 'a'} {noun}"


def plural(count: int, word: str, many: str = "") -> str:
    """'1 roll', '2 rolls'; `many` for irregular plurals."""
    return f"{count} {word if count == 1 else (many or word + 's')}"
