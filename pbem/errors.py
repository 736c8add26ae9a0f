"""The base of every error a person can act on: a bad setting, a game or seat that does not
exist, a refused referee command. The command line prints such an error as one line and exits
2; anything else is a bug, and keeps its traceback."""

from __future__ import annotations


class PbemError(Exception):
    """An error whose message says what is wrong and what to do."""


class UsageError(PbemError):
    """A command line used wrongly: a malformed NAME=VALUE, an option out of place."""


class DatabaseNotReady(PbemError):
    """The database has no tables yet, or migrations it has not had."""
