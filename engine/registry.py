"""Rulesets registered by id, found by id or alias.

The built-in rulesets (engine.rulesets.BUILT_IN) are registered on the first look-up; the
registry imports them, they do not import the registry. A ruleset in another installed package
registers itself through the entry point group `pbem.rulesets`: each entry point names a
Ruleset subclass or instance, e.g. in that package's pyproject.toml

    [project.entry-points."pbem.rulesets"]
    toy = "toy_ruleset:ToyRuleset"

Plugins are loaded once, after the built-ins. A plugin that fails to load, or is no ruleset, or
takes a name already taken, is left out and kept in plugin_errors(); it never stops the others.
"""

from __future__ import annotations

import threading

# The one module of engine/ that reads installed package metadata: discovering installed
# plugins, as `import` itself does. It reads no game data and changes nothing.
from importlib.metadata import EntryPoint, entry_points

from engine.ruleset import Ruleset

ENTRY_POINT_GROUP = "pbem.rulesets"

_BY_NAME: dict[str, Ruleset] = {}
_BY_ID: dict[str, Ruleset] = {}
_PLUGIN_ERRORS: list[PluginError] = []
_loaded = False  # every ruleset registered
_loading = False  # being registered, by the thread that holds _LOCK
_LOCK = threading.RLock()


class UnknownRuleset(KeyError):
    pass


class PluginError(Exception):
    """A ruleset plugin that could not be registered; the message names it and says why."""

    def __init__(self, entry_point: str, reason: str) -> None:
        super().__init__(f"ruleset plugin {entry_point} left out: {reason}")
        self.entry_point = entry_point
        self.reason = reason


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
    _load()
    try:
        return _BY_NAME[name.lower()]
    except KeyError:
        known = ", ".join(sorted(_BY_ID))
        raise UnknownRuleset(f"no ruleset {name!r}; known: {known}") from None


def all_rulesets() -> list[Ruleset]:
    _load()
    return [_BY_ID[key] for key in sorted(_BY_ID)]


def plugin_errors() -> list[PluginError]:
    """The ruleset plugins that were left out, and why."""
    _load()
    return list(_PLUGIN_ERRORS)


def _load() -> None:
    global _loaded, _loading  # noqa: PLW0603 - the registry is one per process, loaded once
    if _loaded:
        return
    # A service looks rulesets up from several threads at once (intake, the clocks): the
    # others wait while one registers them, or they would find the registry half filled.
    with _LOCK:
        if _loaded or _loading:  # _loading: a plugin of this thread looks rulesets up
            return
        _loading = True
        try:
            _register_all()
        finally:
            _loading, _loaded = False, True


def _register_all() -> None:
    # Imported on first use, so that importing engine builds no ruleset yet.
    from engine.rulesets import BUILT_IN  # noqa: PLC0415 - on first use, as said above

    for ruleset in BUILT_IN:
        register(ruleset)

    for entry_point in entry_points(group=ENTRY_POINT_GROUP):
        try:
            _register_plugin(entry_point)
        except PluginError as error:
            _PLUGIN_ERRORS.append(error)


def _register_plugin(entry_point: EntryPoint) -> None:
    named = f"{entry_point.name} = {entry_point.value}"
    try:
        found = entry_point.load()
    except Exception as error:  # a plugin's import may fail in any way; report it, go on
        raise PluginError(named, f"{type(error).__name__}: {error}") from error
    try:
        ruleset = found() if isinstance(found, type) and issubclass(found, Ruleset) else found
    except Exception as error:
        raise PluginError(named, f"{type(error).__name__}: {error}") from error
    if not isinstance(ruleset, Ruleset):
        raise PluginError(named, f"{found!r} is neither a Ruleset subclass nor an instance")
    if _BY_ID.get(ruleset.id) is ruleset:
        return  # the plugin registered itself on import
    try:
        register(ruleset)
    except ValueError as error:
        raise PluginError(named, str(error)) from error
