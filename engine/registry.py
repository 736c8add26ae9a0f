"""Rulesets registered by id, found by id or alias."""

from __future__ import annotations

from engine.ruleset import Ruleset

_BY_NAME: dict[str, Ruleset] = {}
_BY_ID: dict[str, Ruleset] = {}


class UnknownRuleset(KeyError):
    pass


def register(ruleset: Ruleset) -> Ruleset:
    """Add a ruleset. A name (id or alias) that is already taken is an error."""
    names = (ruleset.id, *ruleset.aliases)
    if not ruleset.id:
        raise ValueError("a ruleset needs an id")
    taken = [name for name in names if name.lower() in _BY_NAME]
    if taken:
        raise ValueError(f"ruleset name already registered: {', '.join(taken)}")
    for name in names:
        _BY_NAME[name.lower()] = ruleset
    _BY_ID[ruleset.id] = ruleset
    return ruleset


def get_ruleset(name: str) -> Ruleset:
    _load_builtin()
    try:
        return _BY_NAME[name.lower()]
    except KeyError:
        known = ", ".join(sorted(_BY_ID))
        raise UnknownRuleset(f"no ruleset {name!r}; known: {known}") from None


def all_rulesets() -> list[Ruleset]:
    _load_builtin()
    return [_BY_ID[key] for key in sorted(_BY_ID)]


def _load_builtin() -> None:
    # Importing the package registers every built-in ruleset exactly once.
    import engine.rulesets  # noqa: F401
