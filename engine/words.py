"""Matching a player's word against a vocabulary: exact spellings first, then unique prefixes.

Shared by every ruleset's order parser so that 'sold', 'SOLDIERS' and 'soldier' all read the same
and 's' is reported as ambiguous instead of guessed.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.problems import ambiguous, syntax


def normal(word: str) -> str:
    """Case, spaces, hyphens and apostrophes do not matter."""
    return "".join(ch for ch in word.lower() if ch.isalnum())


def match_word(word: str, spellings: Mapping[str, str], what: str, example: str) -> str:
    """The canonical name `word` stands for. `spellings` maps every accepted spelling
    (already normalised) to its canonical name. Raises a syntax or ambiguous OrderError."""
    key = normal(word)
    if key in spellings:
        return spellings[key]
    found = sorted(
        {name for spelling, name in spellings.items() if key and spelling.startswith(key)}
    )
    if len(found) == 1:
        return found[0]
    if found:
        raise ambiguous(f"'{shown(word)}' could be more than one {what}", tuple(found))
    known = ", ".join(sorted(set(spellings.values())))
    raise syntax(f"'{shown(word)}' is not {article(what)} (one of: {known})", example)


def spellings_of(names: Mapping[str, tuple[str, ...]]) -> dict[str, str]:
    """{canonical: (other spellings...)} -> {normalised spelling: canonical}."""
    table: dict[str, str] = {}
    for name, others in names.items():
        for spelling in (name, *others):
            table[normal(spelling)] = name
    return table


MAX_DIGITS = 6  # no count in any game comes near a million


def parse_count(word: str, what: str, example: str) -> int:
    """A whole number written in ASCII digits ('²' is a digit to str.isdigit, not to int)."""
    if not (word.isascii() and word.isdigit()) or len(word) > MAX_DIGITS:
        raise syntax(f"expected a number of {what}, found '{shown(word)}'", example)
    return int(word)


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
