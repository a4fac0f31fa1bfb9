"""Every kind of record, declared once: its keys in the order a log writes them, what each
must be, and how its value is read and written.

Each record and each part of one (a deal's moves, result and table, a header's settings and
players, …) is a :class:`~zole_arena.records.kinds.Part`: a typed value of
:mod:`~zole_arena.records.model` with the :class:`~zole_arena.records.kinds.Key` list of its
JSON object. From that one list come the object a log writes for a value (``encode``: the
writer, :mod:`~zole_arena.records.writer`), the value built from an object that passed its
checks (``decode``: :mod:`~zole_arena.records.parse`), and the keys, kinds and words the
checks go through (``shape``, ``later``, ``fits``: :mod:`~zole_arena.records.checks`, which
adds the rules between keys: a table's seating, a header's tables and bots). A new key is one
``Key`` here and its field in the model.

Text from a log that is only shown (a fault's message, a move, a bot's version, the rules'
names, …) is cleaned as it is read of what a terminal acts on
(:func:`~zole_arena.errors.printable`, as the protocol path cleans what a bot says), so that no
reader can print it raw; names and match ids are checked instead. What runs a bot (its
command, folder, options) is kept as written, and cleaned where it is shown.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Final

from zole_arena.errors import FaultKind, printable
from zole_arena.game.actions import Contract
from zole_arena.game.clock import TimeControl
from zole_arena.game.scoring import Band
from zole_arena.game.state import DealResult
from zole_arena.records.kinds import (
    BANDS,
    CONTRACTS,
    FAULT_KINDS,
    INTS3,
    MAX_DEALS,
    MAX_PATHS,
    MAX_SCORE,
    ON_FAULT,
    SCORES3,
    SCORES4,
    TERMINATIONS,
    Key,
    Part,
    at_least,
    from_to,
    is_absent,
    is_card,
    is_clock,
    is_contract,
    is_ms,
    is_name,
    is_none,
    is_number,
    is_player4,
    is_pules,
    is_pules4,
    is_seat,
    is_seating,
    is_text,
    is_whole,
    list_of,
    listed,
    one_of,
    optional,
)
from zole_arena.records.model import (
    ABSENT,
    FORMAT,
    FORMAT_VERSION,
    DealRecord,
    EntrantInfo,
    Fault,
    HeaderSettings,
    Identity,
    LoggedTrick,
    MatchHeader,
    Move,
    PlayerInfo,
    SandboxSettings,
    SettleRecord,
    SprtInfo,
    TableDeal,
    TableOf,
    Termination,
    TournamentHeader,
)

__all__ = [
    "DEAL",
    "FAULT",
    "MATCH",
    "SETTINGS",
    "SPRT",
    "TOURNAMENT",
    "IDENTITY",
    "MOVE",
    "RESULT",
    "SETTLE",
    "TABLE",
    "TRICK",
    "clean_rules",
    "shown",
    "text_or_none",
    "time_of",
    "time_text",
]

# -- reading and writing values ----------------------------------------------------------------


def shown(text: str) -> str:
    """Text from a log that is only shown, cleaned of control and direction characters as the
    protocol path cleans a bot's words (most text needs nothing: checked first, in C)."""
    return text if text.isprintable() else printable(text)


def _shown_value(value: Any) -> Any:
    if isinstance(value, str):
        return shown(value)
    if isinstance(value, list):
        return [_shown_value(item) for item in value]
    if isinstance(value, dict):
        return {key: _shown_value(item) for key, item in value.items()}
    return value


def _plain(value: Any) -> bool:
    """Whether a value of a record's rules holds no text that needs cleaning."""
    if isinstance(value, str):
        return value.isprintable()
    if isinstance(value, list):
        return all(map(_plain, value))
    if isinstance(value, dict):
        return all(map(_plain, value.values()))
    return True


def clean_rules(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """A record's rules with their text (``preset``, ``description``, the contracts' names)
    cleaned for showing; the same object when nothing needs it (nearly always: a few checks
    in C a record). Headers and deal records are cleaned alike, so that ``verify`` compares
    them as written."""
    if all(map(_plain, data.values())):
        return data
    return {key: _shown_value(value) for key, value in data.items()}


def time_of(text: object) -> datetime.datetime | None:
    """A record's time (``created``, ``finished``), or None when it has none it can read."""
    if not isinstance(text, str):
        return None
    try:
        return datetime.datetime.fromisoformat(text)
    except ValueError:
        return None


def time_text(when: datetime.datetime | None) -> str | None:
    """A record's time as logs write it."""
    return None if when is None else when.isoformat()


def text_or_none(value: object) -> str | None:
    """Text that is only shown, or None when the record holds something else there."""
    return shown(value) if isinstance(value, str) else None


# What the keys' values are made of, written into the compiled functions (``{0}``: the value).
_THREE: Final = "({0}[0], {0}[1], {0}[2])"
#: Text that is only shown, cleaned (:func:`shown`).
_SHOWN: Final = "({0} if {0}.isprintable() else _printable({0}))"
_SHOWN_EACH: Final = "tuple([_s if _s.isprintable() else _printable(_s) for _s in {0}])"
_TUPLE: Final = "tuple({0})"
_LIST: Final = "list({0})"
_VALUE: Final = "{0}.value"
_PULES_OF: Final = '_Pules({0}["common"], tuple({0}["personal"]))'
_TO_DICT: Final = "{0}.to_dict()"
_CARDS: Final = "tuple([_C[_c] for _c in {0}])"
_CARD_NAMES: Final = "[_N[_c] for _c in {0}]"
_TRICK_NAMES: Final = "[_N[{0}[0]], _N[{0}[1]], _N[{0}[2]]]"
_TRICK_CARDS: Final = "(_C[{0}[0]], _C[{0}[1]], _C[{0}[2]])"
_HANDS: Final = "tuple([tuple([_C[_c] for _c in _h]) for _h in {0}])"
_HAND_NAMES: Final = (
    "[[_N[_c] for _c in {0}[0]], [_N[_c] for _c in {0}[1]], [_N[_c] for _c in {0}[2]]]"
)


def _dict(rules: Mapping[str, Any]) -> dict[str, Any]:
    return rules if type(rules) is dict else dict(rules)


def _is_list(value: Any) -> bool:
    return isinstance(value, list)


def _is_object(value: Any) -> bool:
    return isinstance(value, dict)


def _counts3(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 3
        and all(is_whole(n) and 0 <= n <= 10**9 for n in value)
    )


def _scores34(value: Any) -> bool:
    return bool(SCORES3(value) or SCORES4(value))


_SEAT: Final = "a seat (0, 1 or 2)"
_PULES: Final = "{common, personal} pules"


# -- the records' parts -------------------------------------------------------------------------

#: A bot in a seat, as a deal record names it (and a table's sitter).
IDENTITY: Final = Part(Identity, (
    Key("name", is_name, "a name"),
    Key("version", is_text, "text", read=_SHOWN, later=True, missing=""),
    Key("command", list_of(is_text), "a list of text", read=lambda c: tuple(map(shown, c)),
        write=_LIST, later=True, missing=()),
))  # fmt: skip

FAULT: Final = Part(Fault, (
    Key("deal_no", is_whole, "a whole number"),
    Key("seat", is_seat, _SEAT),
    Key("player", is_player4, "a player index (0 to 3)"),
    Key("bot", is_name, "a name"),
    Key("kind", one_of(FAULT_KINDS), f"one of {listed(FAULT_KINDS)}",
        read={kind.value: kind for kind in FaultKind}.__getitem__, write=_VALUE),
    Key("message", is_text, "text", read=_SHOWN),
    Key("request", optional(is_text), "null or text", read=_SHOWN, null=True, later=True),
    Key("reply", optional(is_text), "null or text", read=_SHOWN, null=True, later=True),
))  # fmt: skip

MOVE: Final = Part(Move, (
    Key("seat", is_seat, _SEAT),
    Key("action", is_text, "text", read=_SHOWN),
    Key("request_id", optional(is_whole), "null or a whole number", later=True),
    # to the microsecond: finer digits are noise, and cost log space
    Key("think_ms", optional(is_ms), "null or a number",
        write="round({0}, 3)", null=True, later=True),
    # only under a game clock (then every move has one): logs without stay as they were
    Key("clock_ms", is_clock, "a whole number of milliseconds from 0", later=True,
        omit=is_none),
))  # fmt: skip

TRICK: Final = Part(LoggedTrick, (
    Key("leader", is_seat, _SEAT),
    Key("cards", list_of(is_card, 3), "three card names", read=_TRICK_CARDS, write=_TRICK_NAMES),
    Key("winner", is_seat, _SEAT),
    Key("points", is_whole, "a whole number"),
))  # fmt: skip

RESULT: Final = Part(DealResult, (
    Key("contract", is_contract, f"null or one of {', '.join(sorted(CONTRACTS))}",
        read={c.value: c for c in Contract}.__getitem__, write=_VALUE, null=True),
    Key("soloist", optional(is_seat), "null or a seat"),
    Key("scores", SCORES3, "three whole numbers of at most 10^12", read=_THREE, write=_LIST),
    Key("tricks", INTS3, "three whole numbers", read=_THREE, write=_LIST),
    Key("points", INTS3, "three whole numbers", read=_THREE, write=_LIST),
    Key("band", optional(one_of(BANDS)), f"null or one of {listed(BANDS)}",
        read={b.value: b for b in Band}.__getitem__, write=_VALUE, null=True),
    Key("soloist_points", optional(is_whole), "null or a whole number"),
    Key("soloist_tricks", optional(is_whole), "null or a whole number"),
    Key("losers", list_of(is_seat), "a list of seats", read=_TUPLE, write=_LIST),
    Key("pules", is_pules, _PULES, read=_PULES_OF, write=_TO_DICT),
    Key("pule_event", optional(is_text), "null or text", read=_SHOWN, null=True),
    Key("ended_early", lambda v: isinstance(v, bool), "true or false"),
    Key("forfeit", optional(is_seat), "null or a seat"),
))  # fmt: skip

#: A deal's part at a table of four (its own checks: :func:`~zole_arena.records.checks.
#: deal_shape_problem`).
TABLE: Final = Part(TableDeal, (
    Key("size", lambda v: is_whole(v) and v == 4, "4"),
    Key("dealer", lambda v: is_whole(v) and 0 <= v <= 3, "a table seat (0 to 3)"),
    Key("sitter", _is_object, "a player", read=IDENTITY.decode, write=IDENTITY.encode),
    Key("pules_before", is_pules4, f"{_PULES} of table seats", read=_PULES_OF,
        write=_TO_DICT),
    Key("scores", SCORES4, "four whole numbers of at most 10^12", read=_TUPLE, write=_LIST),
    Key("totals", SCORES4, "four whole numbers of at most 10^12", read=_TUPLE, write=_LIST),
    Key("pules", is_pules4, f"{_PULES} of table seats", read=_PULES_OF, write=_TO_DICT),
    Key("pule_event", optional(is_text), "null or text", read=_SHOWN, null=True),
))  # fmt: skip

#: A deal record. ``match_id`` is checked before the rest (its own message), ``table`` by the
#: table's checks; the moves', tricks', faults' and players' items by their parts.
DEAL: Final = Part(DealRecord, (
    Key("arena_version", read=text_or_none, later=True),
    Key("match_id"),
    Key("deal", at_least(1), "a whole number from 1"),
    Key("block", at_least(1), "a whole number from 1"),
    Key("seating", is_seating, "the three seats in some order", read=_THREE, write=_LIST),
    Key("seed", is_whole, "a whole number"),
    Key("deal_no", at_least(1), "a whole number from 1"),
    Key("dealer", is_seat, _SEAT),
    Key("rules", _is_object, "an object", read=clean_rules, write=_dict),
    Key("pules_before", is_pules, _PULES, read=_PULES_OF, write=_TO_DICT),
    Key("hands", list_of(list_of(is_card), 3), "three lists of card names", read=_HANDS,
        write=_HAND_NAMES),
    Key("talon", list_of(is_card), "a list of card names", read=_CARDS, write=_CARD_NAMES),
    Key("moves", _is_list, "a list", read=MOVE.decode_each, write=MOVE.encode_each),
    Key("buried", list_of(is_card), "a list of card names", read=_CARDS, write=_CARD_NAMES),
    Key("tricks", _is_list, "a list", read=TRICK.decode_each, write=TRICK.encode_each),
    Key("result", _is_object, "an object", read=RESULT.decode, write=RESULT.encode),
    Key("totals", SCORES3, "three whole numbers of at most 10^12", read=_THREE, write=_LIST),
    Key("termination", one_of(TERMINATIONS), " or ".join(sorted(TERMINATIONS)),
        read={end.value: end for end in Termination}.__getitem__, write=_VALUE),
    Key("culprit", lambda v: v is None or isinstance(v, dict), "null or a fault",
        read=FAULT.decode, write=FAULT.encode, null=True),
    Key("faults", _is_list, "a list", read=FAULT.decode_each, write=FAULT.encode_each),
    Key("players", lambda v: isinstance(v, list) and len(v) == 3, "a list of three players",
        read=IDENTITY.decode_each, write=IDENTITY.encode_each),
    Key("finished", read=time_of, write=time_text, later=True),
    # written only when they say something
    Key("stray", _counts3, "three whole numbers from 0 to 10^9", read=_THREE, write=_LIST,
        later=True, missing=(0, 0, 0), omit=lambda stray: not any(stray)),
    Key("table", read=TABLE.decode, write=TABLE.encode, null=True, later=True, omit=is_none),
), head={"format": FORMAT, "format_version": FORMAT_VERSION, "type": "deal"})  # fmt: skip

#: The pules paid at the end of a table's match.
SETTLE: Final = Part(SettleRecord, (
    Key("arena_version", read=text_or_none, later=True),
    Key("match_id"),
    Key("after", from_to(1, MAX_DEALS), f"a whole number from 1 to {MAX_DEALS:,}"),
    Key("pules", is_pules4, _PULES, read=_PULES_OF, write=_TO_DICT),
    Key("payment", from_to(0, MAX_SCORE), "a whole number from 0 to 10^12"),
    Key("scores", _scores34, "three or four whole numbers of at most 10^12", read=tuple,
        write=list),
    Key("totals", _scores34, "three or four whole numbers of at most 10^12", read=tuple,
        write=list),
    Key("finished", read=time_of, write=time_text, later=True),
), head={"format": FORMAT, "format_version": FORMAT_VERSION, "type": "settle"})  # fmt: skip


# -- headers (their checks: :func:`~zole_arena.records.checks.check_header`) ---------------------


def _is_bool(value: Any) -> bool:
    return isinstance(value, bool)


def _sandbox(value: object) -> bool:
    """A header's ``sandbox`` setting: null, or the sandbox's settings."""
    if value is None:
        return True
    if not isinstance(value, dict) or set(value) != {"tmp_mb", "readable", "hidden"}:
        return False
    paths = [*value["readable"], *value["hidden"]] if all(
        isinstance(value[k], list) and len(value[k]) <= MAX_PATHS
        for k in ("readable", "hidden")) else [None]  # fmt: skip
    return at_least(1)(value["tmp_mb"]) and all(
        isinstance(p, str) and p.startswith("/") for p in paths
    )


def _tc(value: object) -> bool:
    """A header's ``tc`` setting: the game clock's base and increment in milliseconds."""
    if not isinstance(value, dict) or set(value) != {"base_ms", "inc_ms"}:
        return False
    try:
        TimeControl(value["base_ms"], value["inc_ms"])
    except (TypeError, ValueError):
        return False
    return is_whole(value["base_ms"]) and is_whole(value["inc_ms"])


def _not(value: object) -> bool:
    return not value


_SANDBOX: Final = Part(SandboxSettings, (
    Key("tmp_mb"),
    Key("readable", read=_TUPLE, write=_LIST),
    Key("hidden", read=_TUPLE, write=_LIST),
))  # fmt: skip
_CLOCK: Final = Part(TimeControl, (Key("base_ms"), Key("inc_ms")))

#: How every deal of a match is played. The keys from ``ping_ms`` on were added after the first
#: logs: absent there, and written only when they say something.
SETTINGS: Final = Part(HeaderSettings, (
    Key("movetime_ms", at_least(1), "a whole number of milliseconds from 1"),
    Key("margin_ms", at_least(0), "a whole number of milliseconds from 0"),
    Key("startup_ms", at_least(1), "a whole number of milliseconds from 1"),
    Key("ping_ms", at_least(1), "a whole number of milliseconds from 1", later=True,
        missing=ABSENT, omit=is_absent),
    Key("on_fault", lambda v: v in ON_FAULT, " or ".join(ON_FAULT)),
    Key("penalty", optional(at_least(0)), "null or a whole number from 0"),
    Key("max_faults", at_least(0), "a whole number from 0"),
    Key("memory_mb", optional(at_least(1)), "null or a whole number of MiB from 1"),
    Key("cpu_seconds", optional(at_least(1)), "null or a whole number of seconds from 1"),
    Key("processes", optional(at_least(1)), "null or a whole number from 1", later=True,
        missing=ABSENT, omit=is_absent),
    Key("stderr_bytes", optional(at_least(1)), "null or a whole number of bytes from 1",
        later=True, missing=ABSENT, omit=is_absent),
    Key("sandbox", _sandbox,
        f"null or the sandbox's tmp_mb, readable and hidden paths (at most {MAX_PATHS:,} each)",
        read=_SANDBOX.decode, write=_SANDBOX.encode, null=True, later=True, missing=ABSENT,
        omit=is_absent),
    Key("process_per_seating", _is_bool, "true or false", later=True, missing=ABSENT,
        omit=is_absent),
    Key("tc", _tc, "the clock's base_ms (1 to 86400000) and inc_ms (0 to 86400000)",
        read=_CLOCK.decode, write=_CLOCK.encode, null=True, later=True, omit=is_none),
    Key("fixed_pace", _is_bool, "true or false", later=True, missing=False, omit=_not),
))  # fmt: skip

_PLAYER: Final = Part(PlayerInfo, (
    Key("name"),
    Key("id_name", read=_SHOWN, later=True, missing=""),
    Key("author", read=_SHOWN, later=True, missing=""),
    Key("version", read=_SHOWN, later=True, missing=""),
    Key("command", read=_TUPLE, write=_LIST),
    Key("options", read="dict({0})", write="dict({0})", later=True, missing={}),
    Key("cwd", later=True),
))  # fmt: skip
_ENTRANT: Final = Part(EntrantInfo, (
    Key("name"),
    Key("command", read=_TUPLE, write=_LIST),
    Key("options", read="dict({0})", write="dict({0})", later=True, missing={}),
    Key("cwd", later=True),
))  # fmt: skip
_TABLE_OF: Final = Part(TableOf, (Key("id"), Key("table"), Key("round", later=True, omit=is_none)))


def _elo(value: Any) -> bool:
    return is_number(value) and -2000 <= value <= 2000  # as SprtSettings takes them


def _error_rate(value: Any) -> bool:
    return is_number(value) and 1e-12 <= value < 1


#: The test a match of ``sprt`` belongs to (its bounds as
#: :class:`~zole_arena.stats.sprt.SprtSettings` takes them: a reader of the log builds one).
SPRT: Final = Part(SprtInfo, (
    Key("new", is_name, "a name"),
    Key("old", is_name, "a name"),
    Key("third", optional(is_name), "null or a name"),
    Key("elo0", _elo, "a number"),
    Key("elo1", _elo, "a number"),
    Key("alpha", _error_rate, "a number"),
    Key("beta", _error_rate, "a number"),
))  # fmt: skip

MATCH: Final = Part(MatchHeader, (
    Key("arena_version", read=text_or_none, later=True),
    Key("match_id"),
    Key("created", read=time_of, write=time_text, later=True),
    Key("rules", read=clean_rules, write="dict({0})"),
    Key("seed"),
    Key("deals"),
    Key("duplicate"),
    Key("players", read=_PLAYER.decode_each, write=_PLAYER.encode_each),
    Key("settings", read=SETTINGS.decode, write=SETTINGS.encode),
    Key("isolation", read=text_or_none, later=True, omit=is_none),
    Key("tournament", read=_TABLE_OF.decode, write=_TABLE_OF.encode, null=True, later=True,
        omit=is_none),
    Key("sprt", read=SPRT.decode, write=SPRT.encode, null=True, later=True, omit=is_none),
), head={"format": FORMAT, "format_version": FORMAT_VERSION, "type": "match"})  # fmt: skip

TOURNAMENT: Final = Part(TournamentHeader, (
    Key("arena_version", read=text_or_none, later=True),
    Key("match_id"),
    Key("tournament_id", derived=True),
    Key("created", read=time_of, write=time_text, later=True),
    Key("tournament_format"),
    Key("gauntlet", later=True),
    Key("entrants", read=_ENTRANT.decode_each, write=_ENTRANT.encode_each),
    Key("tables", read="tuple([(_t[0], _t[1], _t[2]) for _t in {0}])",
        write="[list(_t) for _t in {0}]"),
    Key("rules", read=clean_rules, write="dict({0})"),
    Key("seed"),
    Key("deals"),
    Key("duplicate"),
    Key("concurrency", later=True, missing=1),
    Key("settings", read=SETTINGS.decode, write=SETTINGS.encode),
    Key("rounds", later=True, omit=is_none),
    Key("boards", later=True, omit=is_none),
    Key("isolation", read=text_or_none, later=True, omit=is_none),
), head={"format": FORMAT, "format_version": FORMAT_VERSION, "type": "tournament"})  # fmt: skip
