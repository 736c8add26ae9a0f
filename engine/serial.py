"""Typed engine state to plain JSON and back, once for every ruleset.

A ruleset's state is a tree of dataclasses with full type hints. `to_json` writes it as plain
JSON (dicts, lists, strings, numbers, booleans, None) and `from_json` reads it back into the
same types, so no ruleset writes a converter by hand. What it understands:

- dataclasses (fields in declaration order; a field marked `sparse` is left out while it equals
  its default, a field marked `stored_as` is written under another key; a class with
  `json_inline = True` and one field is written as that field's value), and `Serialisable`
  subclasses, which may also carry constant tag keys (`json_tag`, e.g. the ruleset id);
- int, float, str, bool, None, `X | None`, `list[X]`, `tuple[X, ...]`, `dict[str, X]`, enums
  (by value) and `Any` (plain JSON, copied as it is).

Dict keys are written sorted, as the service stores them (`sort_keys`), so a state that went
through the database and one that did not are the same in memory. A class whose dict order
carries meaning restores it in `__post_init__`.

Stored JSON that does not fit its type is refused with `StateFormatError`, naming the path of
the field (`seats[2].gold: expected a whole number, found 'x'`).
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable
from functools import cache
from typing import Any, ClassVar, Self, TypeVar

T = TypeVar("T")

_SPARSE = "pbem.sparse"
_KEY = "pbem.key"
_MISSING = dataclasses.MISSING


class StateFormatError(ValueError):
    """Stored JSON that does not fit the state's types; the message names the field."""


def sparse(
    default: Any = _MISSING, default_factory: Any = _MISSING, *, key: str | None = None
) -> Any:
    """A dataclass field left out of the JSON while it equals its default (read back as the
    default when absent). Keeps a state small where most records are mostly empty."""
    metadata: dict[str, Any] = {_SPARSE: True}
    if key:
        metadata[_KEY] = key
    return _field(metadata, default, default_factory)


def stored_as(key: str, default: Any = _MISSING, default_factory: Any = _MISSING) -> Any:
    """A dataclass field written under another JSON key (for states stored before a rename)."""
    return _field({_KEY: key}, default, default_factory)


def _field(metadata: dict[str, Any], default: Any, default_factory: Any) -> Any:
    if default_factory is not _MISSING:
        return dataclasses.field(default_factory=default_factory, metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


class Serialisable:
    """Mix into a dataclass: `to_json()` and `from_json(data)` by the generic mechanism.
    `json_tag` holds constant keys written first and checked when read (the ruleset id)."""

    json_tag: ClassVar[dict[str, str]] = {}

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = to_json(self)
        return data

    @classmethod
    def from_json(cls, data: Any) -> Self:
        return from_json(cls, data)


def to_json(value: Any) -> Any:
    """`value` as plain JSON."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    write = _WRITERS.get(kind)
    if write is not None:
        return write(value)
    if kind is list or kind is tuple:
        return [to_json(item) for item in value]
    if kind is dict:
        return {key: to_json(value[key]) for key in sorted(value)}
    if dataclasses.is_dataclass(value):
        write = _WRITERS[kind] = _writer(kind)
        return write(value)
    if isinstance(value, enum.Enum):
        return value.value
    raise TypeError(f"cannot write a {kind.__name__} as JSON")


def from_json(cls: type[T], data: Any) -> T:
    """The `cls` that `data` describes; StateFormatError naming the field when it does not fit."""
    try:
        result: T = _reader(cls)(data)  # type: ignore[arg-type]  # a class is hashable
    except _Misfit as misfit:
        raise StateFormatError(str(misfit)) from None
    return result


_PLAIN = frozenset({int, float, str, bool, type(None)})

# -- writing ----------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _FieldPlan:
    name: str
    key: str
    sparse: bool
    default: Any  # the default value, or a factory's result; _MISSING if none
    type_: Any


@cache
def _plan(cls: type) -> tuple[_FieldPlan, ...]:
    hints = typing.get_type_hints(cls)
    plans = []
    for spec in dataclasses.fields(cls):
        if not spec.init:
            continue
        factory = spec.default_factory
        default = factory() if factory is not _MISSING else spec.default
        plans.append(
            _FieldPlan(
                spec.name,
                spec.metadata.get(_KEY, spec.name),
                bool(spec.metadata.get(_SPARSE)),
                default,
                hints[spec.name],
            )
        )
    return tuple(plans)


def _inline(cls: type) -> _FieldPlan | None:
    """The one field of a class written as that field's value, if it is such a class."""
    if not getattr(cls, "json_inline", False):
        return None
    plans = _plan(cls)
    if len(plans) != 1:
        raise TypeError(f"{cls.__name__}: json_inline needs exactly one field")
    return plans[0]


_WRITERS: dict[type, Callable[[Any], Any]] = {}  # by dataclass, made on first use


def _writer(cls: type) -> Callable[[Any], Any]:
    inline = _inline(cls)
    if inline is not None:
        name = inline.name
        return lambda obj: to_json(getattr(obj, name))
    plans = _plan(cls)
    tag = dict(getattr(cls, "json_tag", {}))

    fields = [(plan.name, plan.key, plan.sparse, plan.default) for plan in plans]

    def write(obj: Any) -> dict[str, Any]:
        data: dict[str, Any] = dict(tag)
        for name, key, is_sparse, default in fields:
            value = getattr(obj, name)
            if is_sparse and value == default:
                continue
            data[key] = value if type(value) in _PLAIN else to_json(value)
        return data

    return write


# -- reading ----------------------------------------------------------------------------------
# A reader takes the JSON and returns the object. The path of a field that does not fit is put
# together only on the way out of a failure (StateFormatError.within), so reading a good state
# costs no string work.

Reader = Callable[[Any], Any]


class _Misfit(StateFormatError):
    """A failure on its way out, collecting the path of the field it happened in."""

    def __init__(self, expected: str, data: Any) -> None:
        found = repr(data)
        self.reason = (
            f"expected {expected}, found {found if len(found) <= 40 else found[:37] + '...'}"
        )
        self.path = ""
        super().__init__(self.reason)

    def within(self, step: str) -> _Misfit:
        joiner = "" if self.path.startswith("[") or not self.path else "."
        self.path = f"{step}{joiner}{self.path}"
        self.args = (f"{self.path}: {self.reason}",)
        return self


@cache
def _reader(type_: Any) -> Reader:
    """A function reading JSON into `type_`, built once per type."""
    if type_ is Any:
        return _read_any
    if type_ in _SCALAR_KINDS:
        return _read_scalar(_SCALAR_KINDS[type_])
    origin, args = typing.get_origin(type_), typing.get_args(type_)
    if origin in (types.UnionType, typing.Union):
        return _read_union(args)
    if origin is list:
        return _read_list(args[0])
    if origin is tuple:
        return _read_tuple(args)
    if origin is dict:
        return _read_dict(args)
    if isinstance(type_, type) and issubclass(type_, enum.Enum):
        return _read_enum(type_)
    if isinstance(type_, type) and dataclasses.is_dataclass(type_):
        return _read_dataclass(type_)
    raise TypeError(f"the state type {type_!r} has no JSON form")


# bool is an int to Python, but never a number in a state.
_SCALAR_KINDS: dict[Any, tuple[frozenset[type], str]] = {
    int: (frozenset({int}), "a whole number"),
    float: (frozenset({float, int}), "a number"),
    str: (frozenset({str}), "a string"),
    bool: (frozenset({bool}), "true or false"),
    type(None): (frozenset({type(None)}), "null"),
}


def _read_scalar(kind: tuple[frozenset[type], str]) -> Reader:
    allowed, expected = kind

    def read(data: Any) -> Any:
        if type(data) not in allowed:
            raise _Misfit(expected, data)
        return data

    return read


def _read_any(data: Any) -> Any:
    """Plain JSON, copied so that the state read never shares lists or dicts with its input."""
    kind = type(data)
    if kind is list:
        return [_read_any(item) for item in data]
    if kind is dict:
        return {key: _read_any(value) for key, value in data.items()}
    if kind in _PLAIN:
        return data
    raise _Misfit("plain JSON", data)


def _read_union(args: tuple[Any, ...]) -> Reader:
    others = [arg for arg in args if arg is not type(None)]
    if len(others) != 1 or len(args) != 2:
        raise TypeError(f"only `X | None` unions have a JSON form, not {args!r}")
    inner = _reader(others[0])
    return lambda data: None if data is None else inner(data)


def _read_list(item_type: Any) -> Reader:
    read_item = _reader(item_type)
    scalar = _SCALAR_KINDS.get(item_type)

    def read(data: Any) -> list[Any]:
        if type(data) is not list:
            raise _Misfit("a list", data)
        if scalar and all(type(item) in scalar[0] for item in data):
            return list(data)
        index = 0
        try:
            items = []
            for index, item in enumerate(data):  # noqa: B007  # the index names a misfit
                items.append(read_item(item))
            return items
        except _Misfit as misfit:
            raise misfit.within(f"[{index}]") from None

    return read


def _read_tuple(args: tuple[Any, ...]) -> Reader:
    if len(args) == 2 and args[1] is Ellipsis:
        each = _read_list(args[0])
        return lambda data: tuple(each(data))
    readers = [_reader(arg) for arg in args]

    def read(data: Any) -> tuple[Any, ...]:
        if type(data) is not list or len(data) != len(readers):
            raise _Misfit(f"a list of {len(readers)}", data)
        items = []
        for index, (read_item, item) in enumerate(zip(readers, data, strict=True)):
            try:
                items.append(read_item(item))
            except _Misfit as misfit:
                raise misfit.within(f"[{index}]") from None
        return tuple(items)

    return read


def _read_dict(args: tuple[Any, ...]) -> Reader:
    if args[0] is not str:
        raise TypeError(f"state dicts are keyed by str, not {args[0]!r}")
    read_value = _reader(args[1])
    scalar = _SCALAR_KINDS.get(args[1])

    def read(data: Any) -> dict[str, Any]:
        if type(data) is not dict:
            raise _Misfit("an object", data)
        if scalar and all(type(value) in scalar[0] for value in data.values()):
            return dict(data)
        key = ""
        try:
            values = {}
            for key, value in data.items():  # the key names a misfit
                values[key] = read_value(value)
            return values
        except _Misfit as misfit:
            raise misfit.within(key) from None

    return read


def _read_enum(cls: type[enum.Enum]) -> Reader:
    def read(data: Any) -> Any:
        try:
            return cls(data)
        except ValueError:
            raise _Misfit(f"one of {', '.join(repr(m.value) for m in cls)}", data) from None

    return read


def _read_dataclass(cls: type) -> Reader:  # noqa: C901 - the state reader's hot path, inlined
    inline = _inline(cls)
    if inline is not None:
        name, type_ = inline.name, inline.type_
        return lambda data: cls(**{name: _reader(type_)(data)})
    plans = _plan(cls)
    tag = dict(getattr(cls, "json_tag", {}))
    known = frozenset({plan.key for plan in plans} | set(tag))
    # (attribute, key, scalar types or None, reader or None, required); readers of nested
    # types are found on first use, so that a class may refer to itself.
    fields: list[tuple[str, str, frozenset[type] | None, str, bool]] = [
        (
            plan.name,
            plan.key,
            _SCALAR_KINDS[plan.type_][0] if plan.type_ in _SCALAR_KINDS else None,
            _SCALAR_KINDS[plan.type_][1] if plan.type_ in _SCALAR_KINDS else "",
            plan.default is _MISSING,
        )
        for plan in plans
    ]
    types_ = {plan.key: plan.type_ for plan in plans}
    readers: dict[str, Reader] = {}

    def read(data: Any) -> Any:
        if type(data) is not dict:
            raise _Misfit(f"an object ({cls.__name__})", data)
        for key, value in tag.items():
            if key in data and data[key] != value:
                raise _Misfit(repr(value), data[key]).within(key)
        if not known.issuperset(data):
            unknown = ", ".join(sorted(set(data) - known))
            raise StateFormatError(f"unknown field {unknown} in {cls.__name__}")
        values = {}
        for name, key, allowed, expected, required in fields:
            if key not in data:
                if required:
                    raise StateFormatError(f"missing field {key} in {cls.__name__}")
                continue
            value = data[key]
            if allowed is None:
                read_field = readers.get(key)
                if read_field is None:
                    read_field = readers[key] = _reader(types_[key])
                try:
                    value = read_field(value)
                except _Misfit as misfit:
                    raise misfit.within(key) from None
            elif type(value) not in allowed:
                raise _Misfit(expected, value).within(key)
            values[name] = value
        return cls(**values)

    return read
