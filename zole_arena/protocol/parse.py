"""Reading what a bot writes: its lines, as typed messages (``protocol/README.md`` §4).

Lenient, as the page promises: unknown messages become :class:`UnknownLine` (ignored and
recorded by the session), blank lines give None, and an ``action`` whose id is not a number
is still an :class:`ActionReply` (one that can answer no request). Pure text, no I/O.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TypeAlias

from zole_arena.protocol.encode import PROTOCOL_VERSION

__all__ = [
    "ActionReply",
    "BotLine",
    "IdLine",
    "InfoLine",
    "OptionDecl",
    "ReadyOk",
    "UnknownLine",
    "ZoleOk",
    "parse_bot_line",
    "plays_at",
    "tables_said",
]


@dataclasses.dataclass(frozen=True)
class IdLine:
    """``id name|author|version <text>``."""

    key: str
    value: str


@dataclasses.dataclass(frozen=True)
class OptionDecl:
    """``option name <name> type <type> default <value> [min <n> max <n>] [var <v>]…``."""

    name: str
    """Matched exactly, case included, by ``setoption`` and ``--option``."""
    type: str
    default: str
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()

    def check_value(self, value: str) -> str:
        """The value normalised for ``setoption``: ``true``/``false`` for a ``check`` (given
        in any case), the integer for a ``spin``; a ``combo`` value must be one of its
        choices exactly, and a ``string`` is taken as it is.

        :raises ValueError: the value does not fit the option's type.
        """
        if self.type == "check":
            if value.lower() not in ("true", "false"):
                raise ValueError(f"option {self.name} takes true or false, not {value!r}")
            return value.lower()
        if self.type == "spin":
            try:
                number = int(value)
            except ValueError:
                raise ValueError(
                    f"option {self.name} takes a whole number, not {value!r}"
                ) from None
            if (self.min is not None and number < self.min) or (
                self.max is not None and number > self.max
            ):
                raise ValueError(f"option {self.name} takes {self.min} to {self.max}, not {number}")
            return str(number)
        if self.type == "combo" and value not in self.choices:
            raise ValueError(
                f"option {self.name} takes one of {', '.join(self.choices)}, not {value!r}"
            )
        return value


@dataclasses.dataclass(frozen=True)
class ZoleOk:
    """``zoleok [<version>]``: the end of the handshake."""

    version: int


@dataclasses.dataclass(frozen=True)
class ReadyOk:
    """``readyok``."""


@dataclasses.dataclass(frozen=True)
class ActionReply:
    """``action <id> <answer…>``; the answer is read later, against the open request
    (:func:`~zole_arena.protocol.answers.parse_answer`)."""

    request_id: int | None
    """None when the id is not a number (the reply can then answer no request)."""
    words: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class InfoLine:
    """``info <text>``: diagnostics, recorded, never an answer."""

    text: str


@dataclasses.dataclass(frozen=True)
class UnknownLine:
    """A line whose first token is no bot message: ignored (and recorded)."""

    text: str


BotLine: TypeAlias = IdLine | OptionDecl | ZoleOk | ReadyOk | ActionReply | InfoLine | UnknownLine

_OPTION_KEYS = frozenset({"name", "type", "default", "min", "max", "var"})


def _parse_option(words: list[str], line: str) -> OptionDecl | UnknownLine:
    fields: dict[str, str] = {}
    choices: list[str] = []
    key: str | None = None
    for word in words[1:]:
        if word in _OPTION_KEYS:
            key = word
            if word == "var":
                choices.append("")
            continue
        if key is None:
            continue
        if key == "var":
            choices[-1] = f"{choices[-1]} {word}".strip()
        else:
            fields[key] = f"{fields[key]} {word}" if key in fields else word
    if "name" not in fields or "type" not in fields:
        return UnknownLine(line)
    try:
        low = int(fields["min"]) if "min" in fields else None
        high = int(fields["max"]) if "max" in fields else None
    except ValueError:
        return UnknownLine(line)
    return OptionDecl(
        name=fields["name"],
        type=fields["type"],
        default=fields.get("default", ""),
        min=low,
        max=high,
        choices=tuple(choices),
    )


#: The table sizes an arena seats bots at (``id tables`` lists some of them).
TABLE_SIZES = ("3", "4")


def tables_said(ids: Mapping[str, str]) -> tuple[int, ...]:
    """The table sizes a bot said it plays at, in its handshake's ``id tables`` (``ids``: its
    ``id`` lines by key; sizes separated by commas or spaces). Tokens that are no table size
    are ignored, as every unknown token is; none at all: the bot said nothing (it plays at
    every size)."""
    said = ids.get("tables", "").replace(",", " ").split()
    return tuple(sorted({int(word) for word in said if word in TABLE_SIZES}))


def plays_at(ids: Mapping[str, str], size: int) -> bool:
    """Whether a bot plays at a table of ``size``, by its handshake (:func:`tables_said`:
    protocol §3, *At a table of four*)."""
    said = tables_said(ids)
    return not said or size in said


def parse_bot_line(line: str) -> BotLine | None:
    """Parse one line from a bot (without its line end). Blank lines give None."""
    words = line.split()
    if not words:
        return None
    head = words[0]
    if head == "action":
        request_id: int | None
        try:
            request_id = int(words[1]) if len(words) > 1 else None
        except ValueError:
            request_id = None
        return ActionReply(request_id, tuple(words[2:]))
    if head == "readyok":
        return ReadyOk()
    if head == "info":
        return InfoLine(line.strip()[4:].strip())
    if head == "id" and len(words) >= 2:
        return IdLine(words[1], " ".join(words[2:]))
    if head == "option":
        return _parse_option(words, line)
    if head == "zoleok":
        try:
            version = int(words[1]) if len(words) > 1 else PROTOCOL_VERSION
        except ValueError:
            version = PROTOCOL_VERSION
        return ZoleOk(version)
    return UnknownLine(line)
