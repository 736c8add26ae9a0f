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
    if kind is list or kind is tuple:
        return [to_json(item) for item in value]
    if kind is dict:
        return {key: to_json(value[key]) for key in sorted(value)}
    if dataclasses.is_dataclass(value):
        return _writer(kind)(value)  # type: ignore[arg-type]  # a class is hashable
    if isinstance(value, enum.Enum):
        return value.value
    raise TypeError(f"cannot write a {kind.__name__} as JSON")


def from_json(cls: type[T], data: Any) -> T:
    """The `cls` that `data` describes; StateFormatError naming the field when it does not fit."""
    result: T = _reader(cls)(data, "")  # type: ignore[arg-type]  # a class is hashable
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


@cache
def _writer(cls: type) -> Callable[[Any], Any]:
    inline = _inline(cls)
    if inline is not None:
        name = inline.name
        return lambda obj: to_json(getattr(obj, name))
    plans = _plan(cls)
    tag = dict(getattr(cls, "json_tag", {}))

    def write(obj: Any) -> dict[str, Any]:
        data: dict[str, Any] = dict(tag)
        for plan in plans:
            value = getattr(obj, plan.name)
            if plan.sparse and value == plan.default:
                continue
            data[plan.key] = to_json(value)
        return data

    return write


# -- reading ----------------------------------------------------------------------------------

Reader = Callable[[Any, str], Any]


@cache
def _reader(type_: Any) -> Reader:
    """A function reading JSON into `type_`, built once per type."""
    if type_ is Any:
        return _read_any
    if type_ in _SCALARS:
        return _SCALARS[type_]
    origin, args = typing.get_origin(type_), typing.get_args(type_)
    if origin in (types.UnionType, typing.Union):
        return _read_union(args)
    if origin is list:
        return _read_list(_reader(args[0]))
    if origin is tuple:
        return _read_tuple(args)
    if origin is dict:
        return _read_dict(args)
    if isinstance(type_, type) and issubclass(type_, enum.Enum):
        return _read_enum(type_)
    if isinstance(type_, type) and dataclasses.is_dataclass(type_):
        return _read_dataclass(type_)
    raise TypeError(f"the state type {type_!r} has no JSON form")


def _where(path: str) -> str:
    return path or "the state"


def _refuse(path: str, expected: str, data: Any) -> StateFormatError:
    found = repr(data)
    found = found if len(found) <= 40 else found[:37] + "..."
    return StateFormatError(f"{_where(path)}: expected {expected}, found {found}")


def _scalar(kinds: tuple[type, ...], expected: str) -> Reader:
    def read(data: Any, path: str) -> Any:
        # bool is an int to Python, but never a number in a state.
        if type(data) not in kinds:
            raise _refuse(path, expected, data)
        return data

    return read


_SCALARS: dict[Any, Reader] = {
    int: _scalar((int,), "a whole number"),
    float: _scalar((float, int), "a number"),
    str: _scalar((str,), "a string"),
    bool: _scalar((bool,), "true or false"),
    type(None): _scalar((type(None),), "null"),
}


def _read_any(data: Any, path: str) -> Any:
    """Plain JSON, copied so that the state read never shares lists or dicts with its input."""
    kind = type(data)
    if kind is list:
        return [_read_any(item, path) for item in data]
    if kind is dict:
        return {key: _read_any(value, path) for key, value in data.items()}
    if kind in _PLAIN:
        return data
    raise _refuse(path, "plain JSON", data)


def _read_union(args: tuple[Any, ...]) -> Reader:
    others = [arg for arg in args if arg is not type(None)]
    if len(others) != 1 or len(args) != 2:
        raise TypeError(f"only `X | None` unions have a JSON form, not {args!r}")
    inner = _reader(others[0])

    def read(data: Any, path: str) -> Any:
        return None if data is None else inner(data, path)

    return read


def _read_list(item: Reader) -> Reader:
    def read(data: Any, path: str) -> Any:
        if type(data) is not list:
            raise _refuse(path, "a list", data)
        return [item(value, f"{path}[{i}]") for i, value in enumerate(data)]

    return read


def _read_tuple(args: tuple[Any, ...]) -> Reader:
    if len(args) == 2 and args[1] is Ellipsis:
        each = _read_list(_reader(args[0]))
        return lambda data, path: tuple(each(data, path))
    readers = [_reader(arg) for arg in args]

    def read(data: Any, path: str) -> Any:
        if type(data) is not list or len(data) != len(readers):
            raise _refuse(path, f"a list of {len(readers)}", data)
        return tuple(
            r(v, f"{path}[{i}]") for i, (r, v) in enumerate(zip(readers, data, strict=True))
        )

    return read


def _read_dict(args: tuple[Any, ...]) -> Reader:
    if args[0] is not str:
        raise TypeError(f"state dicts are keyed by str, not {args[0]!r}")
    value_reader = _reader(args[1])

    def read(data: Any, path: str) -> Any:
        if type(data) is not dict:
            raise _refuse(path, "an object", data)
        return {key: value_reader(value, f"{path}.{key}") for key, value in data.items()}

    return read


def _read_enum(cls: type[enum.Enum]) -> Reader:
    def read(data: Any, path: str) -> Any:
        try:
            return cls(data)
        except ValueError:
            choices = ", ".join(repr(member.value) for member in cls)
            raise _refuse(path, f"one of {choices}", data) from None

    return read


def _read_dataclass(cls: type) -> Reader:
    inline = _inline(cls)
    if inline is not None:
        name, type_ = inline.name, inline.type_
        return lambda data, path: cls(**{name: _reader(type_)(data, path)})
    plans = _plan(cls)
    tag = dict(getattr(cls, "json_tag", {}))
    known = {plan.key for plan in plans} | set(tag)

    def read(data: Any, path: str) -> Any:
        if type(data) is not dict:
            raise _refuse(path, f"an object ({cls.__name__})", data)
        for key, value in tag.items():
            if data.get(key, value) != value:
                raise _refuse(f"{path}.{key}".lstrip("."), repr(value), data[key])
        unknown = sorted(set(data) - known)
        if unknown:
            raise StateFormatError(f"{_where(path)}: unknown field {', '.join(unknown)}")
        values = {}
        for plan in plans:
            if plan.key in data:
                inner = f"{path}.{plan.key}".lstrip(".")
                values[plan.name] = _reader(plan.type_)(data[plan.key], inner)
            elif plan.default is _MISSING:
                raise StateFormatError(f"{_where(path)}: missing field {plan.key}")
        return cls(**values)

    return read
