"""What the storage guard (test_storage_stays_in_the_store.py) looks for in a module's source.

Read from the syntax tree, so that a query, a lock or a commit mode is found whatever it is
called next to, and a word in a comment or a docstring is not taken for one."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path


class Kind(StrEnum):
    QUERY = "query"  # a statement built or run: select(...), session.exec(...), .where(...)
    LOCK = "lock"  # a row lock: with_for_update, skip_locked, nowait
    DIALECT = "dialect"  # which database this is, by its name or by an engine only one has
    COMMIT = "commit"  # how or when a transaction commits, begun or ended by hand
    ENGINE = "engine"  # an engine named: transaction(service.db), service.db
    # A session passed around or written through: a parameter typed Session, session.add(...),
    # .delete(...), .flush(...). The domain is handed a Work (pbem.store.work) instead.
    SESSION = "session"


# Statement builders (sqlmodel, sqlalchemy), called by their bare names.
_BUILDERS = {"select", "update", "delete", "insert"}
# Methods that run or build a statement whatever they are called on.
_STATEMENT_METHODS = {"where", "filter", "filter_by", "with_for_update"}
# Methods that run a statement on a session or a connection (a receiver so named).
# (Not `add` and `delete`: an entity handed to the session's unit of work, not a statement.)
_SESSION_METHODS = {"exec", "execute", "get", "scalar", "scalars", "query"}
_SESSIONS = {"session", "connection", "conn"}
_LOCKS = {"with_for_update", "skip_locked", "nowait", "populate_existing"}
# A database named: its dialect, its URL's backend.
_DIALECTS = {"dialect", "get_backend_name", "get_dialect"}
_COMMITS = {"commit", "rollback", "begin", "begin_nested"}
# What those are called on: a session, a connection, a transaction, an engine.
_TRANSACTIONS = _SESSIONS | {"tx", "transaction", "db", "engine"}
_COMMIT_WORDS = ("synchronous_commit", "isolation_level", "autocommit")
# What opens a unit of work on the engine it is given (pbem.store.db, sqlmodel): outside the
# store it is opened by the service's store, which is given none (`service.store.transaction()`).
_UNITS = {"transaction", "reading", "reading_rows", "new_session", "Session"}
# The service's engine, by name: the service's `db`.
_ENGINES = {("service", "db")}
# What writes through a session by hand: a Work's aggregates add, remove and flush instead.
_WRITES = {"add", "add_all", "delete", "flush"}


@dataclass(frozen=True)
class Found:
    path: str
    line: int
    kind: Kind
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.kind}: {self.what}"


def _receiver(node: ast.expr) -> str | None:
    """The last name of what a method is called on: `context.session` -> "session"."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


class _Reader(ast.NodeVisitor):
    def __init__(self, path: str) -> None:
        self.path = path
        self.found: list[Found] = []

    def _add(self, node: ast.AST, kind: Kind, what: str) -> None:
        self.found.append(Found(self.path, getattr(node, "lineno", 0), kind, what))

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Name) and func.id in _BUILDERS:
            self._add(node, Kind.QUERY, f"{func.id}(")
        if isinstance(func, ast.Attribute):
            if func.attr in _STATEMENT_METHODS:
                self._add(node, Kind.QUERY, f".{func.attr}(")
            elif func.attr in _SESSION_METHODS and _receiver(func.value) in _SESSIONS:
                self._add(node, Kind.QUERY, f"{_receiver(func.value)}.{func.attr}(")
            if func.attr in _COMMITS and _receiver(func.value) in _TRANSACTIONS:
                self._add(node, Kind.COMMIT, f".{func.attr}(")
            if func.attr in _WRITES and _receiver(func.value) in _SESSIONS:
                self._add(node, Kind.SESSION, f"{_receiver(func.value)}.{func.attr}(")
        if isinstance(func, ast.Name) and func.id in _COMMITS:
            self._add(node, Kind.COMMIT, f"{func.id}(")
        unit = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if unit in _UNITS and (node.args or any(k.arg == "bind" for k in node.keywords)):
            self._add(node, Kind.ENGINE, f"{unit}(")
        for keyword in node.keywords:
            if keyword.arg in _LOCKS:
                self._add(node, Kind.LOCK, f"{keyword.arg}=")
            if keyword.arg in _DIALECTS:
                self._add(node, Kind.DIALECT, f"{keyword.arg}=")
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr in _LOCKS:
            self._add(node, Kind.LOCK, f".{node.attr}")
        if node.attr in _DIALECTS:
            self._add(node, Kind.DIALECT, f".{node.attr}")
        if (_receiver(node.value), node.attr) in _ENGINES:
            self._add(node, Kind.ENGINE, f"{_receiver(node.value)}.{node.attr}")
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if node.id in _DIALECTS:
            self._add(node, Kind.DIALECT, node.id)
        self.generic_visit(node)

    def visit_arg(self, node: ast.arg) -> None:
        if node.arg in _DIALECTS:
            self._add(node, Kind.DIALECT, f"parameter {node.arg}")
        if node.annotation is not None and _receiver(node.annotation) == "Session":
            self._add(node, Kind.SESSION, f"parameter {node.arg}: Session")
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        text = node.value
        # Not a docstring's words (one that explains what the store does): a statement's.
        if isinstance(text, str) and "\n" not in text and any(w in text for w in _COMMIT_WORDS):
            self._add(node, Kind.COMMIT, repr(text))
        self.generic_visit(node)


def read_source(source: str, path: str) -> list[Found]:
    """What `source` (the module at `path`) does that only the store may do."""
    reader = _Reader(path)
    reader.visit(ast.parse(source, filename=path))
    return reader.found


def read_package(root: Path, allowed: tuple[str, ...]) -> list[Found]:
    """Every finding of every module under `root`, but those under the `allowed` folders."""
    found: list[Found] = []
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root)
        if relative.parts[0] in allowed:
            continue
        found += read_source(path.read_text(encoding="utf-8"), relative.as_posix())
    return found
