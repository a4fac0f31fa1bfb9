"""Typed values as plain JSON data and back, for the messages between a tournament and its
workers: dataclasses, enums, tuples and rules by their declared types, nothing else — so
that a message can carry only what its type says, and never code."""

from __future__ import annotations

import collections.abc
import dataclasses
import enum
import json
import types
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from zole_arena.errors import ZoleError
from zole_arena.game.rules import Rules

__all__ = [
    "MessageError",
    "from_plain",
    "to_plain",
]


class MessageError(ZoleError):
    """A line that is not a valid message, or a message that does not fit what was asked."""


def _what(value: object) -> str:
    """A short description of a JSON value for a message (never the whole of a long one)."""
    text = json.dumps(value, ensure_ascii=True, default=repr)
    return text if len(text) <= 40 else f"{text[:37]}..."


def to_plain(value: object, where: str = "value") -> Any:
    """``value`` (a dataclass of settings, or a part of one) as JSON values.

    Rules go as their :meth:`~zole_arena.game.rules.Rules.to_dict` and source; a dataclass as an
    object of its fields; tuples, lists and frozensets as lists; a path as its text; an enum as
    its value.

    :raises TypeError: a value of another type (``where`` says which field): teach this
        function and :func:`from_plain` to carry it.
    """
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Rules):
        return {"rules": value.to_dict(), "source": value.source}
    if isinstance(value, enum.Enum):
        return to_plain(value.value, where)
    if isinstance(value, Path):
        return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            field.name: to_plain(getattr(value, field.name), f"{where}.{field.name}")
            for field in dataclasses.fields(value)
            if field.init
        }
    if isinstance(value, Mapping):
        if not all(isinstance(key, str) for key in value):
            raise TypeError(f"{where}: a mapping with keys other than strings")
        return {key: to_plain(item, f"{where}.{key}") for key, item in value.items()}
    if isinstance(value, tuple | list | frozenset):
        items = sorted(value) if isinstance(value, frozenset) else value
        return [to_plain(item, f"{where}[{index}]") for index, item in enumerate(items)]
    raise TypeError(
        f"{where}: a {type(value).__name__} cannot be sent to a tournament worker "
        "(teach zole_arena.events.messages.to_plain and from_plain to carry it)"
    )


_HINTS: Final[dict[type, dict[str, Any]]] = {}


def _hints(cls: type) -> dict[str, Any]:
    """The resolved types of a dataclass's fields (kept: resolving them takes a while)."""
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def from_plain(kind: Any, data: Any, where: str = "value") -> Any:
    """A value of type ``kind`` from the JSON values :func:`to_plain` made of it, checked
    against the type at every level (so that no value of another type gets through).

    :raises MessageError: the data does not fit the type (``where`` says which field), or the
        class refuses it.
    :raises TypeError: ``kind`` is a type this function does not know how to build.
    """
    origin = typing.get_origin(kind)
    args = typing.get_args(kind)
    if kind is Any:
        return data
    if origin is typing.Union or origin is types.UnionType:
        if data is None and type(None) in args:
            return None
        problems = []
        for arm in args:
            if arm is not type(None):
                try:
                    return from_plain(arm, data, where)
                except MessageError as exc:
                    problems.append(str(exc))
        raise MessageError(problems[0] if len(problems) == 1 else f"{where}: {_what(data)} fits "
                           f"none of {typing.get_args(kind)}")  # fmt: skip
    if origin is typing.Literal:
        if any(type(data) is type(arg) and data == arg for arg in args):
            return data
        raise MessageError(f"{where}: {_what(data)} is not one of {', '.join(map(repr, args))}")
    if origin in (tuple, list, frozenset, collections.abc.Sequence, collections.abc.Set):
        if not isinstance(data, list):
            raise MessageError(f"{where}: a list was due, not {_what(data)}")
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            if len(data) != len(args):
                raise MessageError(f"{where}: {len(args)} items were due, not {len(data)}")
            kinds = list(args)
        else:
            kinds = [args[0] if args else Any] * len(data)
        items = [
            from_plain(item_kind, item, f"{where}[{index}]")
            for index, (item_kind, item) in enumerate(zip(kinds, data, strict=True))
        ]
        if origin is list:
            return items
        return frozenset(items) if origin in (frozenset, collections.abc.Set) else tuple(items)
    if origin in (dict, collections.abc.Mapping):
        if not isinstance(data, dict):
            raise MessageError(f"{where}: an object was due, not {_what(data)}")
        key_kind, value_kind = args or (str, Any)
        if key_kind is not str:
            raise TypeError(f"{where}: only mappings with string keys can be carried")
        return {key: from_plain(value_kind, item, f"{where}.{key}") for key, item in data.items()}
    if kind is Rules:
        return _rules(data, where)
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return _dataclass(kind, data, where)
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        try:
            return kind(data)
        except ValueError:
            raise MessageError(f"{where}: {_what(data)} is not a {kind.__name__}") from None
    if kind is type(None):
        if data is None:
            return None
    elif kind is bool or kind is str:
        if isinstance(data, kind):
            return data
    elif kind is int:
        if type(data) is int:
            return data
    elif kind is float:
        if type(data) in (int, float):
            return float(data)
    elif kind is Path:
        if isinstance(data, str):
            return Path(data)
    else:
        raise TypeError(f"{where}: cannot build a {kind!r} from plain data")
    name = "null" if kind is type(None) else kind.__name__
    article = "an" if name[0] in "aeiou" else "a"
    raise MessageError(f"{where}: {article} {name} was due, not {_what(data)}")


def _rules(data: Any, where: str) -> Rules:
    if not isinstance(data, dict) or set(data) != {"rules", "source"}:
        raise MessageError(f"{where}: rules were due, not {_what(data)}")
    if not isinstance(data["source"], str) or not isinstance(data["rules"], dict):
        raise MessageError(f"{where}: malformed rules")
    try:
        return Rules.from_dict(data["rules"], source=data["source"])
    except ZoleError as exc:
        raise MessageError(f"{where}: {exc}") from None


def _dataclass(cls: type, data: Any, where: str) -> Any:
    if not isinstance(data, dict):
        raise MessageError(f"{where}: an object was due, not {_what(data)}")
    names = [field.name for field in dataclasses.fields(cls) if field.init]
    if set(data) != set(names):
        raise MessageError(f"{where}: the keys {', '.join(names)} were due, not {', '.join(data)}")
    hints = _hints(cls)
    values = {name: from_plain(hints[name], data[name], f"{where}.{name}") for name in names}
    try:
        return cls(**values)
    except (ValueError, TypeError, ZoleError) as exc:
        raise MessageError(f"{where}: {exc}") from None
