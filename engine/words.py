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
        raise ambiguous(f"'{word}' could be more than one {what}", tuple(found))
    known = ", ".join(sorted(set(spellings.values())))
    raise syntax(f"'{word}' is not {article(what)} (one of: {known})", example)


def spellings_of(names: Mapping[str, tuple[str, ...]]) -> dict[str, str]:
    """{canonical: (other spellings...)} -> {normalised spelling: canonical}."""
    table: dict[str, str] = {}
    for name, others in names.items():
        for spelling in (name, *others):
            table[normal(spelling)] = name
    return table


def parse_count(word: str, what: str, example: str) -> int:
    if not word.isdigit():
        raise syntax(f"expected a number of {what}, found '{word}'", example)
    return int(word)


def article(noun: str) -> str:
    """'a temple', 'an advance'; plural nouns ('walls') stand alone."""
    if noun.endswith("walls"):
        return noun
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def plural(count: int, word: str, many: str = "") -> str:
    """'1 roll', '2 rolls'; `many` for irregular plurals."""
    return f"{count} {word if count == 1 else (many or word + 's')}"
