"""The kinds of value a record's keys may hold, and the bounds on a record's sizes.

A small schema language: each kind is a predicate (:data:`Check`) that never raises, whatever
the value; a :data:`Shape` lists a part's keys with their kinds and what each must be, and
:func:`shape_problem` / :func:`each_problem` give the first key that fails as a one-line
reason. :mod:`~zole_arena.records.checks` declares the records' shapes in it.
"""

from __future__ import annotations

import re
import reprlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from zole_arena.errors import FaultKind
from zole_arena.game.actions import Contract
from zole_arena.game.cards import CARDS
from zole_arena.game.scoring import Band
from zole_arena.records.model import Termination

__all__ = [
    "BANDS",
    "CARD_NAMES",
    "CONTRACTS",
    "Check",
    "FAULT_KINDS",
    "INTS3",
    "MAX_ARGUMENT",
    "MAX_ARGUMENTS",
    "MAX_CONCURRENCY",
    "MAX_DERIVED_TABLES",
    "MAX_ENTRANTS",
    "MAX_MATCH_ID",
    "MAX_NAME",
    "MAX_OPTIONS",
    "MAX_OPTION_TEXT",
    "MAX_PATHS",
    "MAX_SCORE",
    "MAX_TABLES",
    "ON_FAULT",
    "SCORES3",
    "SCORES4",
    "Shape",
    "TERMINATIONS",
    "at_least",
    "each_problem",
    "is_card",
    "is_command",
    "is_contract",
    "is_folder",
    "is_name",
    "is_number",
    "is_player4",
    "is_pules",
    "is_pules4",
    "is_seat",
    "is_seating",
    "is_text",
    "is_text_map",
    "is_whole",
    "list_of",
    "listed",
    "match_id_problem",
    "name_problem",
    "one_of",
    "optional",
    "shape_problem",
    "short",
]

# -- bounds -----------------------------------------------------------------------------------
#
# A reader builds structures from a header's numbers: a round-robin's tables from its entrants
# (C(n, 3) of them), a table's state from each table, the standings from each name. A forged
# header may ask for any of them, so each is bounded before anything is built from it, far
# above what a real event needs (protocol/records.md says what each bound is and why).

#: Entrants of a tournament (a balanced field of a few hundred bots is the largest the
#: 1 MiB header line holds with its tables).
MAX_ENTRANTS: Final = 1_000
#: Tables a balanced tournament's header lists.
MAX_TABLES: Final = 100_000
#: Tables of a round-robin or a gauntlet, which every reader computes again from the
#: entrants in an order that costs the square of their number (5,000: a round-robin of 32
#: bots, a gauntlet of 101; bigger fields play ``--format balanced``).
MAX_DERIVED_TABLES: Final = 5_000
#: Tables played at once.
MAX_CONCURRENCY: Final = 4_096
#: Characters of a bot's display name (a file name's 255 bytes, and a ``#2`` to tell it apart).
MAX_NAME: Final = 300
#: Characters of a match id (the arena writes 12 hex digits, and ``-t<table>`` for a table).
MAX_MATCH_ID: Final = 128
#: Arguments of a bot's command, and characters of each (Linux takes 128 KiB an argument).
MAX_ARGUMENTS: Final = 1_000
MAX_ARGUMENT: Final = 131_072
#: Options of a bot, and characters of each option's name and value.
MAX_OPTIONS: Final = 1_000
MAX_OPTION_TEXT: Final = 4_096
#: Paths in the sandbox's ``readable`` and ``hidden`` lists, each.
MAX_PATHS: Final = 1_000

#: What a match id is: what the arena writes (``3f2a9c1b7d4e``, ``3f2a9c1b7d4e-t12``), and what
#: a library caller may choose, in letters, digits, ``-``, ``_`` and ``.``.
_MATCH_ID: Final = re.compile(rf"[A-Za-z0-9][A-Za-z0-9._-]{{0,{MAX_MATCH_ID - 1}}}")

#: The ``on_fault`` values of a header's settings.
ON_FAULT: Final = ("forfeit", "random")

CARD_NAMES: Final = frozenset(str(card) for card in CARDS)
CONTRACTS: Final = frozenset(contract.value for contract in Contract)
BANDS: Final = frozenset(band.value for band in Band)
FAULT_KINDS: Final = frozenset(kind.value for kind in FaultKind)
TERMINATIONS: Final = frozenset(end.value for end in Termination)
_REPR: Final = reprlib.Repr()
_REPR.maxstring = 40
_REPR.maxother = 40
_REPR.maxlist = _REPR.maxdict = 6
_REPR.maxlevel = 3


def short(value: object) -> str:
    """A value as a problem line shows it: a repr cut short (a forged log's values may be
    megabytes long, or nested thousands deep)."""
    try:
        return _REPR.repr(value)
    except (RecursionError, ValueError):
        return "(unprintable)"


def name_problem(value: object) -> str | None:
    """Why ``value`` is not a bot's display name, or None.

    A name is 1 to :data:`MAX_NAME` characters, each one that shows as itself: no control
    character, no direction override, no zero-width or other invisible mark (what
    :meth:`str.isprintable` allows: every name the command line gives — ``NAME=`` takes
    letters, digits and ``_ . # + -``, a program's file name anything printable — and a config
    file's names). A name that would act on a terminal, or pass for another, is no name.
    """
    if not isinstance(value, str) or not value:
        return f"{short(value)} is not a name"
    if len(value) > MAX_NAME:
        return f"a name of {len(value):,} characters is longer than {MAX_NAME}"
    if not value.isprintable():
        return f"{short(value)} is not a name: it holds control or invisible characters"
    return None


def match_id_problem(value: object) -> str | None:
    """Why ``value`` is not a match id, or None: one is 1 to :data:`MAX_MATCH_ID` letters,
    digits, ``-``, ``_`` and ``.``, the first a letter or digit (the arena writes 12 hex
    digits, with ``-t<table>`` for a tournament's table)."""
    if isinstance(value, str) and _MATCH_ID.fullmatch(value):
        return None
    return f"match_id {short(value)} is not a match id (letters, digits, - _ . only)"


# -- value kinds ----------------------------------------------------------------------------------

Check = Callable[[Any], bool]
#: (key, check, what it must be) for each key of a part of a record.
Shape = Sequence[tuple[str, Check, str]]


def is_whole(value: Any) -> bool:
    return type(value) is int  # not a bool, not a float


def at_least(least: int) -> Check:
    return lambda value: is_whole(value) and value >= least


def is_seat(value: Any) -> bool:
    return is_whole(value) and 0 <= value <= 2


def is_text(value: Any) -> bool:
    return isinstance(value, str)


def is_name(value: Any) -> bool:
    return name_problem(value) is None


def optional(check: Check) -> Check:
    return lambda value: value is None or check(value)


def is_number(value: Any) -> bool:
    return type(value) in (int, float)  # not a bool


def one_of(names: frozenset[str]) -> Check:
    return lambda value: isinstance(value, str) and value in names


def listed(names: frozenset[str]) -> str:
    return ", ".join(sorted(names))


def list_of(check: Check, size: int | None = None) -> Check:
    return lambda value: (
        isinstance(value, list)
        and (size is None or len(value) == size)
        and all(check(item) for item in value)
    )


def is_card(value: Any) -> bool:
    return isinstance(value, str) and value in CARD_NAMES


def is_pules(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and at_least(0)(value.get("common"))
        and list_of(is_seat)(value.get("personal"))
    )


def is_seating(value: Any) -> bool:
    """Three players in the deal's seats: of three (0–2), or of a table of four (0–3; the
    ``table`` part then says which three)."""
    return list_of(is_player4, 3)(value) and len(set(value)) == 3


def is_player4(value: Any) -> bool:
    return type(value) is int and 0 <= value <= 3


def is_pules4(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and at_least(0)(value.get("common"))
        and list_of(is_player4)(value.get("personal"))
    )


def is_contract(value: Any) -> bool:
    return value is None or (isinstance(value, str) and value in CONTRACTS)


def is_text_map(value: Any) -> bool:
    """A bot's options: at most :data:`MAX_OPTIONS` names with their values, all text of at
    most :data:`MAX_OPTION_TEXT` characters."""
    return (
        isinstance(value, dict)
        and len(value) <= MAX_OPTIONS
        and all(
            isinstance(k, str)
            and isinstance(v, str)
            and len(k) <= MAX_OPTION_TEXT
            and len(v) <= MAX_OPTION_TEXT
            for k, v in value.items()
        )
    )


def is_argument(value: Any) -> bool:
    return isinstance(value, str) and len(value) <= MAX_ARGUMENT and "\0" not in value


def is_command(value: Any) -> bool:
    """An argument list a bot could be started with: 1 to :data:`MAX_ARGUMENTS` arguments."""
    return (
        isinstance(value, list) and 0 < len(value) <= MAX_ARGUMENTS and all(map(is_argument, value))
    )


def is_folder(value: Any) -> bool:
    """A folder a bot could run in: an absolute path the system can take (what the arena
    writes is ``os.getcwd()``)."""
    if not isinstance(value, str) or not value.startswith("/") or "\0" in value:
        return False
    data = value.encode(errors="surrogateescape")
    return len(data) < 4096 and all(len(part) <= 255 for part in data.split(b"/"))


INTS3: Final = list_of(is_whole, 3)
#: No score or running total of a real match comes near this (a deal moves a few dozen points):
#: a larger one is forged, and would overflow the floats that figures are computed in.
MAX_SCORE: Final = 10**12
SCORES3: Final = list_of(lambda value: is_whole(value) and abs(value) <= MAX_SCORE, 3)
SCORES4: Final = list_of(lambda value: is_whole(value) and abs(value) <= MAX_SCORE, 4)


def shape_problem(
    data: Mapping[str, Any], shape: Shape, where: str, later: Shape = ()
) -> str | None:
    for key, check, what in shape:
        if key not in data:
            return f"{where}{key} is missing"
        if not check(data[key]):
            return f"{where}{key} is {short(data[key])}, not {what}"
    for key, check, what in later:
        if key in data and not check(data[key]):
            return f"{where}{key} is {short(data[key])}, not {what}"
    return None


def each_problem(items: Sequence[Any], shape: Shape, where: str, later: Shape = ()) -> str | None:
    """:func:`shape_problem` of each of ``items`` (each an object), numbered from 1."""
    for number, item in enumerate(items, start=1):
        if not isinstance(item, dict):
            return f"{where} {number} is {short(item)}, not an object"
        problem = shape_problem(item, shape, f"{where} {number}: ", later)
        if problem is not None:
            return problem
    return None
