"""The kinds of value a record's keys may hold, and the bounds on a record's sizes.

A small schema language: each kind is a predicate (:data:`Check`) that never raises, whatever
the value; a :class:`Part` is a typed value with the :class:`Key` list of its JSON object, each
key's kind, what it must be, and how its value is read and written;
:func:`shape_problem` / :func:`each_problem` give the first key that fails as a one-line
reason. :mod:`~zole_arena.records.schema` declares the records in it.

A part's functions (``decode``, ``encode``, ``fits``) are compiled from its keys when it is
declared, as :mod:`dataclasses` compiles an ``__init__``: a reader builds some sixty parts a
deal, and a loop over the keys would cost every reader of a log a good part of its time. The
kinds that have an expression (:func:`inline`) are written into the checks of a list's items (a
deal's moves and tricks) with no call.
"""

from __future__ import annotations

import dataclasses
import re
import reprlib
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, Generic, TypeVar

from zole_arena.errors import FaultKind, printable
from zole_arena.game.actions import Contract
from zole_arena.game.cards import CARDS
from zole_arena.game.scoring import Band, Pules
from zole_arena.records.model import ABSENT, Termination

__all__ = [
    "Key",
    "Part",
    "is_absent",
    "is_none",
    "BANDS",
    "CARD_NAMES",
    "CONTRACTS",
    "Check",
    "FAULT_KINDS",
    "INTS3",
    "MAX_ARGUMENT",
    "MAX_ARGUMENTS",
    "MAX_CONCURRENCY",
    "MAX_DEALS",
    "MAX_DERIVED_TABLES",
    "MAX_ENTRANTS",
    "MAX_MATCH_ID",
    "MAX_NAME",
    "MAX_OPTIONS",
    "MAX_OPTION_TEXT",
    "MAX_PATHS",
    "MAX_MS",
    "MAX_SCORE",
    "MAX_TABLES",
    "ON_FAULT",
    "SCORES3",
    "SCORES4",
    "INLINE_NAMES",
    "Shape",
    "TERMINATIONS",
    "at_least",
    "from_to",
    "each_problem",
    "inline",
    "is_card",
    "is_clock",
    "is_ms",
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
#: Deals of a match's or a table's seed (a billion: days of play at the fastest pace; a
#: reader sizes its schedule and its sheets by it).
MAX_DEALS: Final = 1_000_000_000
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


#: Checks that can be written as an expression over a name, ``{0}`` (:func:`inline`): a compiled
#: check of a record's parts (:mod:`~zole_arena.records.schema`) tests a move's keys with no
#: call. Each is exactly as strict as its check, for every value JSON decodes to.
_INLINE: Final[weakref.WeakKeyDictionary[Check, str]] = weakref.WeakKeyDictionary()
#: The names those expressions, and those of a :class:`Key`'s ``read`` and ``write``, use.
INLINE_NAMES: Final[dict[str, object]] = {
    "CARD_NAMES": CARD_NAMES,
    "_C": {str(card): card for card in CARDS},
    "_N": tuple(str(card) for card in CARDS),
    "_Pules": Pules,
    "_printable": printable,
}


def inline(check: Check) -> str | None:
    """The expression of ``check`` over ``{0}`` (a name), or None: called, not inlined."""
    return _INLINE.get(check)


def _inlined(check: Check, expression: str | None) -> Check:
    if expression is not None:
        _INLINE[check] = expression
    return check


def is_whole(value: Any) -> bool:
    return type(value) is int  # not a bool, not a float


def at_least(least: int) -> Check:
    return _inlined(
        lambda value: is_whole(value) and value >= least,
        f"(type({{0}}) is int and {{0}} >= {least})",
    )


def from_to(least: int, most: int) -> Check:
    """A whole number from ``least`` to ``most``: a crafted log's number of a thousand digits
    is refused, not carried into every figure made of it."""
    return _inlined(
        lambda value: is_whole(value) and least <= value <= most,
        f"(type({{0}}) is int and {least} <= {{0}} <= {most})",
    )


def is_seat(value: Any) -> bool:
    return is_whole(value) and 0 <= value <= 2


def is_text(value: Any) -> bool:
    return isinstance(value, str)


def is_name(value: Any) -> bool:
    return name_problem(value) is None


def optional(check: Check) -> Check:
    part = inline(check)
    return _inlined(
        lambda value: value is None or check(value),
        None if part is None else f"({{0}} is None or {part})",
    )


def is_number(value: Any) -> bool:
    return type(value) in (int, float)  # not a bool


#: No time of a real decision or clock comes near this: a larger one is forged, and would
#: overflow the floats that figures are computed in.
MAX_MS: Final = 10**12


def is_ms(value: Any) -> bool:
    return type(value) in (int, float) and abs(value) <= MAX_MS


def is_clock(value: Any) -> bool:
    return type(value) is int and 0 <= value <= MAX_MS


def one_of(names: frozenset[str]) -> Check:
    return lambda value: isinstance(value, str) and value in names


def listed(names: frozenset[str]) -> str:
    return ", ".join(sorted(names))


def list_of(check: Check, size: int | None = None) -> Check:
    item = inline(check)
    sized = "" if size is None else f" and len({{0}}) == {size}"
    return _inlined(
        lambda value: (
            isinstance(value, list)
            and (size is None or len(value) == size)
            and all(check(item) for item in value)
        ),
        None
        if item is None
        else f"(type({{0}}) is list{sized} and all({item.format('_i')} for _i in {{0}}))",
    )


def is_card(value: Any) -> bool:
    return isinstance(value, str) and value in CARD_NAMES


def is_player4(value: Any) -> bool:
    return type(value) is int and 0 <= value <= 3


_INLINE.update(
    {
        is_whole: "type({0}) is int",
        is_seat: "(type({0}) is int and 0 <= {0} <= 2)",
        is_player4: "(type({0}) is int and 0 <= {0} <= 3)",
        is_text: "type({0}) is str",
        is_number: "type({0}) in (int, float)",
        is_card: "(type({0}) is str and {0} in CARD_NAMES)",
        is_ms: f"(type({{0}}) in (int, float) and -{MAX_MS} <= {{0}} <= {MAX_MS})",
        is_clock: f"(type({{0}}) is int and 0 <= {{0}} <= {MAX_MS})",
    }
)

_FROM_0: Final = at_least(0)
_SEATS: Final = list_of(is_seat)
_PLAYERS: Final = list_of(is_player4)
_PLAYERS3: Final = list_of(is_player4, 3)


def is_pules(value: Any) -> bool:
    return (
        isinstance(value, dict) and _FROM_0(value.get("common")) and _SEATS(value.get("personal"))
    )


def is_seating(value: Any) -> bool:
    """Three players in the deal's seats: of three (0–2), or of a table of four (0–3; the
    ``table`` part then says which three)."""
    return _PLAYERS3(value) and len(set(value)) == 3


def is_pules4(value: Any) -> bool:
    return (
        isinstance(value, dict) and _FROM_0(value.get("common")) and _PLAYERS(value.get("personal"))
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


# -- record parts ----------------------------------------------------------------------------

T = TypeVar("T")

_NO: Final = object()


@dataclasses.dataclass(frozen=True)
class Key:
    """One key of a record part: the JSON key, and the attribute of the typed value it fills."""

    name: str
    check: Check | None = None
    """What its value must be (None: not checked; the reader takes what it can read)."""
    what: str = ""
    """What the check wants, for a problem line: ``deal 3: seat is 7, not a seat``."""
    read: Callable[[Any], Any] | str | None = None
    """The attribute made of a checked JSON value: a function, or an expression of it,
    ``{0}`` (compiled in with no call; ``_C`` maps card names to cards, ``_N`` cards to
    names); None: the value as it is."""
    write: Callable[[Any], Any] | str | None = None
    """The JSON value made of the attribute, as :attr:`read` (None: the attribute as it is)."""
    null: bool = False
    """null is None both ways, and ``read`` and ``write`` see only the other values."""
    later: bool = False
    """Added after the first logs: checked when present, read as :attr:`missing` when not."""
    missing: Any = None
    omit: Callable[[Any], bool] | None = None
    """The key is written only when this is false of the attribute (``stray`` when all zero)."""
    derived: bool = False
    """Written from a property of the value (a tournament's ``tournament_id``), never read."""


class Part(Generic[T]):
    """A record part: its typed value's class and its keys, with the functions compiled of
    them."""

    def __init__(
        self, kind: type[T], keys: Sequence[Key], *, head: Mapping[str, object] | None = None
    ) -> None:
        """:param head: keys every object of the part begins with, of fixed values (a record's
        ``format``, ``format_version`` and ``type``)."""
        self.kind = kind
        self.keys = tuple(keys)
        self.shape: Shape = tuple(
            (k.name, k.check, k.what) for k in keys if k.check and not k.later
        )
        """The checked keys every object has, in order (:func:`~zole_arena.records.kinds.
        shape_problem`)."""
        self.later: Shape = tuple((k.name, k.check, k.what) for k in keys if k.check and k.later)
        """The checked keys of later logs."""
        compiled = _compile(kind, self.keys, dict(head or {}))
        self.decode: Callable[[Mapping[str, Any]], T] = compiled["decode"]
        """The value of an object that passed the checks."""
        self.decode_each: Callable[[Sequence[Mapping[str, Any]]], tuple[T, ...]] = compiled[
            "decode_each"
        ]
        self.encode: Callable[[T], dict[str, Any]] = compiled["encode"]
        """The JSON object of a value, plain JSON values all through, keys in order."""
        self.encode_each: Callable[[Sequence[T]], list[dict[str, Any]]] = compiled["encode_each"]
        self.fits: Callable[[Sequence[Any]], bool] = compiled["fits"]
        """Whether every item of a list is an object of this part's shape (the fast test; when
        it fails, :func:`~zole_arena.records.kinds.each_problem` says which and why)."""


def is_none(value: object) -> bool:
    """Whether a value is None (a key's :attr:`~Key.omit` that compiles to no call)."""
    return value is None


def is_absent(value: object) -> bool:
    """Whether a value is :data:`~zole_arena.records.model.ABSENT` (a header of a log written
    before its key was added)."""
    return value is ABSENT


def _compile(kind: type, keys: tuple[Key, ...], head: dict[str, object]) -> dict[str, Any]:
    """The part's functions, as Python source made of its keys and run once."""
    names: dict[str, object] = {"_kind": kind, "_new": tuple.__new__, "_NO": _NO, **INLINE_NAMES}
    named = issubclass(kind, tuple)  # a named tuple: built and read by position
    fields: tuple[str, ...] = kind._fields if named else ()  # type: ignore[attr-defined]

    def read(key: Key, number: int) -> str:
        value = f"v[{key.name!r}]"
        if key.read is not None:
            value = _applied(key.read, value, key.null, f"_r{number}", names)
        if not key.later:
            return value
        if key.missing is None and key.read is None:
            return f"v.get({key.name!r})"
        names[f"_m{number}"] = key.missing
        missing = f"dict(_m{number})" if isinstance(key.missing, dict) else f"_m{number}"
        return f"({value} if {key.name!r} in v else {missing})"

    def attribute(key: Key) -> str:  # a named tuple's fields are unpacked: _f0, _f1, …
        return f"_f{fields.index(key.name)}" if named else f"o.{key.name}"

    def write(key: Key, number: int) -> str:
        value = attribute(key)
        if key.write is None:
            return value
        return _applied(key.write, value, key.null, f"_w{number}", names)

    def omitted(key: Key, number: int) -> str:
        if key.omit is is_none:
            return f"{attribute(key)} is None"
        names[f"_o{number}"] = key.omit
        return f"_o{number}({attribute(key)})"

    reads = {key.name: read(key, n) for n, key in enumerate(keys) if not key.derived}
    if named:
        built = "_new(_kind, (" + "".join(f"{reads[f]}, " for f in fields) + "))"
    else:
        built = "_kind(" + ", ".join(f"{name}={value}" for name, value in reads.items()) + ")"
    fixed = "".join(f"{name!r}: {value!r}, " for name, value in head.items())
    first = next((n for n, key in enumerate(keys) if key.omit is not None), len(keys))
    leading = "".join(f"{k.name!r}: {write(k, n)}, " for n, k in enumerate(keys[:first]))
    literal = "{" + fixed + leading + "}"
    unpacked = "(" + "".join(f"_f{n}, " for n in range(len(fields))) + ")" if named else "o"
    encode = [f"def encode(o):\n    {unpacked} = o\n    d = {literal}\n"]
    for n, key in enumerate(keys[first:], start=first):  # in order, some only sometimes
        line = f"d[{key.name!r}] = {write(key, n)}\n"
        encode.append(
            f"    if not {omitted(key, n)}:\n        {line}" if key.omit else f"    {line}"
        )
    encode.append("    return d\n")
    if first == len(keys):
        each = f"[{literal} for {unpacked} in items]"
    elif first == len(keys) - 1:  # one key at the end only sometimes (a move's clock): inline
        key, n = keys[first], first
        whole = "{" + fixed + leading + f"{key.name!r}: {write(key, n)}" + "}"
        each = f"[{literal} if {omitted(key, n)} else {whole} for {unpacked} in items]"
    else:
        each = "[encode(o) for o in items]"
    source = (
        f"def decode(v):\n    return {built}\n"
        f"def decode_each(items):\n    return tuple([{built} for v in items])\n"
        + "".join(encode)
        + f"def encode_each(items):\n    return {each}\n"
        + _fits(keys, names)
    )
    exec(compile(source, f"<record part {kind.__name__}>", "exec"), names)
    return names


def _applied(
    how: Callable[[Any], Any] | str, value: str, null: bool, name: str, names: dict[str, object]
) -> str:
    """The source of ``how`` applied to ``value`` (a subscript or an attribute, cheap to read
    again): a call of the function, or the expression written in (``{0}``: the value)."""
    if null:
        made = _applied(how, f"_t{name}", False, name, names)
        return f"(None if (_t{name} := {value}) is None else {made})"
    if isinstance(how, str):
        return "(" + how.format(value) + ")"
    names[name] = how
    return f"{name}({value})"


def _fits(keys: tuple[Key, ...], names: dict[str, object]) -> str:
    """The source of ``fits(items)``: every item an object whose checked keys pass."""
    lines = ["def fits(items):\n    for v in items:\n        if type(v) is not dict:\n"
             "            return False\n"]  # fmt: skip
    for number, key in enumerate(keys):
        if key.check is None:
            continue
        expression = inline(key.check)
        if expression is None:
            names[f"_c{number}"] = key.check
            test = f"_c{number}(x)"
        else:
            test = expression.format("x")
        lines.append(f"        x = v.get({key.name!r}, _NO)\n")
        if key.later:
            lines.append(f"        if x is not _NO and not {test}:\n            return False\n")
        else:
            lines.append(f"        if x is _NO or not {test}:\n            return False\n")
    lines.append("    return True\n")
    return "".join(lines)
