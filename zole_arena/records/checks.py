"""What a well-formed record is: the checks every reader of a log relies on.

A log may be forged, edited or corrupt, so nothing in it is trusted before it is checked.
:func:`check_header` checks a match or tournament header completely — the types of its keys
and that its settings could have been given (three players, times of at least a millisecond,
a seed in range, known fault handling, rules the engine accepts); ``verify`` reports what it
finds, and ``match --resume`` and ``tournament --resume`` refuse such a header.
:func:`deal_shape_problem` checks that a deal record has every key the readers use, each of
the type they expect (whole numbers, seats, canonical card names, ...): the reader of
:mod:`zole_arena.records.reader` skips a record that fails it, and builds the typed record
(:mod:`zole_arena.records.model`) of one that passes, so that ``replay``, ``ratings`` and the
resumes never meet a value of the wrong type. Whether a well-formed deal record is *true* —
legal moves, the seed's hands, the right scores — is :mod:`zole_arena.arena.verify`'s job.

Each check returns one-line reasons (or None), never raises, whatever the value. The kinds of
value and the bounds they are declared in are :mod:`~zole_arena.records.kinds`'.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Final

from zole_arena.errors import RulesError
from zole_arena.game.clock import TimeControl
from zole_arena.game.rules import Rules
from zole_arena.game.shuffle import MAX_SEED
from zole_arena.game.table import Seating
from zole_arena.records.kinds import (
    BANDS,
    CARD_NAMES,
    CONTRACTS,
    FAULT_KINDS,
    INTS3,
    MAX_ARGUMENT,
    MAX_ARGUMENTS,
    MAX_CONCURRENCY,
    MAX_DERIVED_TABLES,
    MAX_ENTRANTS,
    MAX_MATCH_ID,
    MAX_NAME,
    MAX_OPTION_TEXT,
    MAX_OPTIONS,
    MAX_PATHS,
    MAX_TABLES,
    ON_FAULT,
    SCORES3,
    SCORES4,
    TERMINATIONS,
    Shape,
    at_least,
    each_problem,
    is_card,
    is_command,
    is_contract,
    is_folder,
    is_name,
    is_number,
    is_player4,
    is_pules,
    is_pules4,
    is_seat,
    is_seating,
    is_text,
    is_text_map,
    is_whole,
    list_of,
    listed,
    match_id_problem,
    name_problem,
    one_of,
    optional,
    shape_problem,
    short,
)
from zole_arena.records.model import BOARDS, TOURNAMENT_FORMATS, InvalidHeader

__all__ = [
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
    "MAX_ROUNDS",
    "MAX_TABLES",
    "check_header",
    "settle_shape_problem",
    "deal_shape_problem",
    "derived_tables",
    "match_id_problem",
    "name_problem",
    "resume_refusal",
    "short",
]

# (key, check, what it must be) for each part of a deal record the readers use.
_FAULT: Final[Shape] = (
    ("deal_no", is_whole, "a whole number"),
    ("seat", is_seat, "a seat (0, 1 or 2)"),
    ("player", is_player4, "a player index (0 to 3)"),
    ("bot", is_name, "a name"),
    ("kind", one_of(FAULT_KINDS), f"one of {listed(FAULT_KINDS)}"),
    ("message", is_text, "text"),
)
#: Keys of a part that early logs may lack: checked when present.
_FAULT_LATER: Final[Shape] = (
    ("request", optional(is_text), "null or text"),
    ("reply", optional(is_text), "null or text"),
)
_MOVE: Final[Shape] = (
    ("seat", is_seat, "a seat (0, 1 or 2)"),
    ("action", is_text, "text"),
)
_MOVE_LATER: Final[Shape] = (
    ("request_id", optional(is_whole), "null or a whole number"),
    ("think_ms", optional(is_number), "null or a number"),
    ("clock_ms", at_least(0), "a whole number of milliseconds from 0"),
)
_TRICK: Final[Shape] = (
    ("leader", is_seat, "a seat (0, 1 or 2)"),
    ("cards", list_of(is_card, 3), "three card names"),
    ("winner", is_seat, "a seat (0, 1 or 2)"),
    ("points", is_whole, "a whole number"),
)
_PLAYER: Final[Shape] = (("name", is_name, "a name"),)
_PLAYER_LATER: Final[Shape] = (
    ("version", is_text, "text"),
    ("command", list_of(is_text), "a list of text"),
)
_RESULT: Final[Shape] = (
    ("contract", is_contract, f"null or one of {', '.join(sorted(CONTRACTS))}"),
    ("soloist", optional(is_seat), "null or a seat"),
    ("scores", SCORES3, "three whole numbers of at most 10^12"),
    ("tricks", INTS3, "three whole numbers"),
    ("points", INTS3, "three whole numbers"),
    ("band", optional(one_of(BANDS)), f"null or one of {listed(BANDS)}"),
    ("soloist_points", optional(is_whole), "null or a whole number"),
    ("soloist_tricks", optional(is_whole), "null or a whole number"),
    ("losers", list_of(is_seat), "a list of seats"),
    ("pules", is_pules, "{common, personal} pules"),
    ("pule_event", optional(is_text), "null or text"),
    ("ended_early", lambda v: isinstance(v, bool), "true or false"),
    ("forfeit", optional(is_seat), "null or a seat"),
)
_DEAL: Final[Shape] = (
    ("deal", at_least(1), "a whole number from 1"),
    ("block", at_least(1), "a whole number from 1"),
    ("seating", is_seating, "the three seats in some order"),
    ("seed", is_whole, "a whole number"),
    ("deal_no", at_least(1), "a whole number from 1"),
    ("dealer", is_seat, "a seat (0, 1 or 2)"),
    ("rules", lambda v: isinstance(v, dict), "an object"),
    ("pules_before", is_pules, "{common, personal} pules"),
    ("hands", list_of(list_of(is_card), 3), "three lists of card names"),
    ("talon", list_of(is_card), "a list of card names"),
    ("moves", lambda v: isinstance(v, list), "a list"),
    ("buried", list_of(is_card), "a list of card names"),
    ("tricks", lambda v: isinstance(v, list), "a list"),
    ("result", lambda v: isinstance(v, dict), "an object"),
    ("totals", SCORES3, "three whole numbers of at most 10^12"),
    ("termination", one_of(TERMINATIONS), " or ".join(sorted(TERMINATIONS))),
    ("culprit", lambda v: v is None or isinstance(v, dict), "null or a fault"),
    ("faults", lambda v: isinstance(v, list), "a list"),
    ("players", lambda v: isinstance(v, list) and len(v) == 3, "a list of three players"),
)


#: Keys a deal record may lack (written only when they say something).
def _counts3(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 3
        and all(is_whole(n) and 0 <= n <= 10**9 for n in value)
    )


_DEAL_LATER: Final[Shape] = (("stray", _counts3, "three whole numbers from 0 to 10^9"),)


def _moves_fit(moves: list[Any]) -> bool:
    """The moves' shape at once (a deal has some 40; :func:`each_problem` then names the first bad
    one): every reader of a log checks each record, so this is what it mostly costs."""
    return all(
        type(move) is dict
        and type(move.get("seat")) is int
        and 0 <= move["seat"] <= 2
        and type(move.get("action")) is str
        and ((request := move.get("request_id")) is None or type(request) is int)
        and ((ms := move.get("think_ms")) is None or type(ms) is float or type(ms) is int)
        and type(clock := move.get("clock_ms", 0)) is int
        and clock >= 0
        for move in moves
    )


def _tricks_fit(tricks: list[Any]) -> bool:
    return all(
        type(trick) is dict
        and is_seat(trick.get("leader"))
        and is_seat(trick.get("winner"))
        and is_whole(trick.get("points"))
        and type(cards := trick.get("cards")) is list
        and len(cards) == 3
        and all(isinstance(card, str) and card in CARD_NAMES for card in cards)
        for trick in tricks
    )


def deal_shape_problem(record: Mapping[str, Any]) -> str | None:
    """Why a deal record cannot be read (a key missing or of the wrong type, a match id or a
    name that is none), or None."""
    problem = match_id_problem(record.get("match_id"))
    if problem is None:
        problem = shape_problem(record, _DEAL, "", _DEAL_LATER)
    if problem is None:
        problem = shape_problem(record["result"], _RESULT, "result.")
    if problem is None and not _moves_fit(record["moves"]):
        problem = each_problem(record["moves"], _MOVE, "move", _MOVE_LATER)
    if problem is None and not _tricks_fit(record["tricks"]):
        problem = each_problem(record["tricks"], _TRICK, "trick")
    if problem is None:
        problem = each_problem(record["faults"], _FAULT, "fault", _FAULT_LATER)
    if problem is None and record["culprit"] is not None:
        problem = each_problem([record["culprit"]], _FAULT, "culprit", _FAULT_LATER)
    if problem is None:
        problem = each_problem(record["players"], _PLAYER, "player", _PLAYER_LATER)
    if problem is None:
        if "table" in record:
            problem = _table_problem(record)
        elif max(record["seating"]) > 2:  # player 3 only at a table of four
            problem = f"seating is {short(record['seating'])}, not the three seats in some order"
        elif any(f["player"] > 2 for f in [*record["faults"], record["culprit"]] if f):
            problem = "a fault's player is 3, and the deal has only three players"
    return problem


_TABLE: Final[Shape] = (
    ("size", lambda v: is_whole(v) and v == 4, "4"),
    ("dealer", lambda v: is_whole(v) and 0 <= v <= 3, "a table seat (0 to 3)"),
    ("sitter", lambda v: isinstance(v, dict), "a player"),
    ("pules_before", is_pules4, "{common, personal} pules of table seats"),
    ("scores", SCORES4, "four whole numbers of at most 10^12"),
    ("totals", SCORES4, "four whole numbers of at most 10^12"),
    ("pules", is_pules4, "{common, personal} pules of table seats"),
    ("pule_event", optional(is_text), "null or text"),
)


def _table_problem(record: Mapping[str, Any]) -> str | None:
    """Why a deal record's ``table`` part (a table of four) cannot be read, or None. Its
    seating must be the three after the dealer, clockwise (deal seat 0 the forehand)."""
    table = record["table"]
    if not isinstance(table, dict):
        return f"table is {short(table)}, not an object"
    problem = shape_problem(table, _TABLE, "table.")
    if problem is None:
        problem = each_problem([table["sitter"]], _PLAYER, "table.sitter", _PLAYER_LATER)
    if problem is not None:
        return problem
    dealer = table["dealer"]
    seats = list(Seating(4, dealer).players)
    if record["seating"] != seats:
        return f"seating is {short(record['seating'])}, not {seats}: those after dealer {dealer}"
    if record["dealer"] != 2:
        return f"dealer is {short(record['dealer'])}, not 2 (the deal's dealer at a table of four)"
    return None


# -- headers ------------------------------------------------------------------------------------


_SETTINGS: Final[Shape] = (
    ("movetime_ms", at_least(1), "a whole number of milliseconds from 1"),
    ("margin_ms", at_least(0), "a whole number of milliseconds from 0"),
    ("startup_ms", at_least(1), "a whole number of milliseconds from 1"),
    ("on_fault", lambda v: v in ON_FAULT, " or ".join(ON_FAULT)),
    ("penalty", optional(at_least(0)), "null or a whole number from 0"),
    ("max_faults", at_least(0), "a whole number from 0"),
    ("memory_mb", optional(at_least(1)), "null or a whole number of MiB from 1"),
    ("cpu_seconds", optional(at_least(1)), "null or a whole number of seconds from 1"),
)


def _common(header: Mapping[str, Any], problems: list[str]) -> None:
    """The keys a match and a tournament header share: how every deal is played."""
    problem = match_id_problem(header.get("match_id"))
    if problem is not None:
        problems.append(problem)
    rules = header.get("rules")
    if not isinstance(rules, dict):
        problems.append(f"rules is {short(rules)}, not an object")
    else:
        try:
            Rules.from_dict(rules)
        except (RulesError, TypeError, ValueError, KeyError, AttributeError) as exc:
            problems.append(f"rules: {short(str(exc))}")
    seed: Any = header.get("seed")
    if not is_whole(seed) or not 0 <= seed <= MAX_SEED:
        problems.append(f"seed is {short(seed)}, not a whole number from 0 to {MAX_SEED}")
    if not at_least(1)(header.get("deals")):
        problems.append(f"deals is {short(header.get('deals'))}, not a whole number from 1")
    if not isinstance(header.get("duplicate"), bool):
        problems.append(f"duplicate is {short(header.get('duplicate'))}, not true or false")
    settings = header.get("settings")
    if not isinstance(settings, dict):
        problems.append(f"settings is {short(settings)}, not an object")
        return
    for key, check, what in _SETTINGS:
        if key not in settings:
            problems.append(f"settings.{key} is missing")
        elif not check(settings[key]):
            problems.append(f"settings.{key} is {short(settings[key])}, not {what}")
    if "ping_ms" in settings and not at_least(1)(settings["ping_ms"]):  # not in early logs
        problems.append(
            f"settings.ping_ms is {short(settings['ping_ms'])}, not a whole number of "
            "milliseconds from 1"
        )
    # Keys of later logs: absent from earlier ones, checked when present.
    for key, check, what in _LATER_SETTINGS:
        if key in settings and not check(settings[key]):
            problems.append(f"settings.{key} is {short(settings[key])}, not {what}")


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


_LATER_SETTINGS: Final[Shape] = (
    ("tc", _tc, "the clock's base_ms (1 to 86400000) and inc_ms (0 to 86400000)"),
    ("processes", optional(at_least(1)), "null or a whole number from 1"),
    ("stderr_bytes", optional(at_least(1)), "null or a whole number of bytes from 1"),
    (
        "sandbox",
        _sandbox,
        f"null or the sandbox's tmp_mb, readable and hidden paths (at most {MAX_PATHS:,} each)",
    ),
    ("process_per_seating", lambda v: isinstance(v, bool), "true or false"),
    ("fixed_pace", lambda v: isinstance(v, bool), "true or false"),
)


def _bots(bots: object, key: str, least: int, most: int, problems: list[str]) -> int:
    """Check a header's list of bots (``players`` or ``entrants``); how many there are (0 when
    there are too few or too many: then none of them is looked at)."""
    some = (
        f"{least}"
        if most == least
        else f"{least} or {most}"
        if most == least + 1
        else f"at least {least}"
    )
    if not isinstance(bots, list):
        problems.append(f"{key} is {short(bots)}, not a list of {some} bots")
        return 0
    if len(bots) < least:
        problems.append(f"{key} has {len(bots)} bots, not {some}")
        return 0
    if len(bots) > most:
        between = some if most <= least + 1 else f"{least} to {most:,}"
        problems.append(f"{key} has {len(bots):,} bots, not {between}")
        return 0
    names = set()
    for number, bot in enumerate(bots, start=1):
        where = f"{key} {number}"
        if not isinstance(bot, dict):
            problems.append(f"{where} is {short(bot)}, not an object")
            continue
        name = bot.get("name")
        problem = name_problem(name)
        if problem is not None:
            problems.append(f"{where}: name {problem}")
        elif name in names:
            problems.append(f"{where}: the name {short(name)} is taken by another bot")
        else:
            names.add(name)
        if not is_command(bot.get("command")):
            problems.append(
                f"{where}: command is {short(bot.get('command'))}, not an argument list (1 to "
                f"{MAX_ARGUMENTS:,} arguments of at most {MAX_ARGUMENT:,} characters)"
            )
        if not is_text_map(bot.get("options", {})):
            problems.append(
                f"{where}: options is {short(bot.get('options'))}, not at most {MAX_OPTIONS:,} "
                f"text values of at most {MAX_OPTION_TEXT:,} characters"
            )
        if not optional(is_folder)(bot.get("cwd")):
            problems.append(f"{where}: cwd is {short(bot.get('cwd'))}, not an absolute path")
        for said in ("id_name", "author", "version"):  # what its handshake announced
            if said in bot and not isinstance(bot[said], str):
                problems.append(f"{where}: {said} is {short(bot[said])}, not text")
    return len(bots)


_SPRT: Final[Shape] = (
    ("new", is_name, "a name"),
    ("old", is_name, "a name"),
    ("third", optional(is_name), "null or a name"),
    ("elo0", is_number, "a number"),
    ("elo1", is_number, "a number"),
    ("alpha", is_number, "a number"),
    ("beta", is_number, "a number"),
)


def _later_keys(header: Mapping[str, Any], problems: list[str]) -> None:
    """Keys of a header that only some logs have, checked when present."""
    isolation = header.get("isolation")
    if isolation is not None and not isinstance(isolation, str):
        problems.append(f"isolation is {short(isolation)}, not text")
    if header.get("type") != "match" or header.get("sprt") is None:
        return
    sprt = header["sprt"]
    problem = (
        shape_problem(sprt, _SPRT, "sprt.")
        if isinstance(sprt, dict)
        else f"sprt is {short(sprt)}, not an object"
    )
    if problem is not None:
        problems.append(problem)


#: The most rounds an ``lzf`` tournament header may have.
MAX_ROUNDS: Final = 1000


def derived_tables(form: str, entrants: int) -> int:
    """How many tables a round-robin (every three of the entrants) or a gauntlet (the first
    entrant with every two others) of ``entrants`` bots has, counted without making them."""
    return math.comb(entrants, 3) if form == "round-robin" else math.comb(entrants - 1, 2)


def _tables_problems(header: Mapping[str, Any], entrants: int) -> list[str]:
    """What is wrong with a tournament header's ``tables`` (``entrants``: how many it has, 0
    when they are wrong): their number is checked before any table is looked at, and for a
    round-robin or a gauntlet, whose tables readers compute again, the number the entrants
    make is checked before any reader computes them."""
    tables = header.get("tables")
    if not isinstance(tables, list):
        return [f"tables is {short(tables)}, not a list of tables"]
    if len(tables) > MAX_TABLES:
        return [f"tables has {len(tables):,} tables, more than {MAX_TABLES:,}"]
    if not entrants:  # the entrants are wrong (said already): no table can be checked
        return []
    form = header.get("tournament_format")
    if form == "lzf":
        rounds = header.get("rounds")
        problems = [] if not tables else [f"tables is {short(tables)}, not [] (lzf: by rounds)"]
        if not (isinstance(rounds, int) and at_least(1)(rounds) and rounds <= MAX_ROUNDS):
            problems.append(f"rounds is {short(rounds)}, not a whole number from 1 to {MAX_ROUNDS}")
        if entrants == 5:
            problems.append("5 entrants cannot sit at tables of 4 and 3")
        if header.get("duplicate") is not False:
            problems.append("duplicate is not false (lzf tables play each deal once)")
        return problems
    if header.get("rounds") is not None:
        return [f"rounds is {short(header.get('rounds'))}, and only the lzf format has rounds"]
    if form in ("round-robin", "gauntlet"):
        made = derived_tables(form, entrants)
        if made > MAX_DERIVED_TABLES:
            return [
                f"a {form} of {entrants:,} bots has {made:,} tables, more than "
                f"{MAX_DERIVED_TABLES:,} (a field this big plays --format balanced)"
            ]
        if len(tables) != made:
            return [f"tables has {len(tables):,} tables, not the {made:,} of a {form} of "
                    f"{entrants:,} bots"]  # fmt: skip
    if not all(
        list_of(is_whole, 3)(t) and len(set(t)) == 3 and all(0 <= p < entrants for p in t)
        for t in tables
    ):
        return [f"tables is {short(tables)}, not lists of three entrants (0 to {entrants - 1})"]
    return []


def settle_shape_problem(record: Mapping[str, Any]) -> str | None:
    """Why a ``settle`` record (pules paid at the end of a table's match) cannot be read, or
    None."""
    problem = match_id_problem(record.get("match_id"))
    if problem is None:
        problem = shape_problem(record, _SETTLE, "")
    if problem is None and len(record["scores"]) != len(record["totals"]):
        problem = "scores and totals are not of the same players"
    return problem


def _scores34(value: Any) -> bool:
    return bool(SCORES3(value) or SCORES4(value))


_SETTLE: Final[Shape] = (
    ("after", at_least(1), "a whole number from 1"),
    ("pules", is_pules4, "{common, personal} pules"),
    ("payment", at_least(0), "a whole number from 0"),
    ("scores", _scores34, "three or four whole numbers of at most 10^12"),
    ("totals", _scores34, "three or four whole numbers of at most 10^12"),
)


def _boards_problems(header: Mapping[str, Any]) -> list[str]:
    """What is wrong with a tournament header's ``boards`` (absent: every table alike)."""
    boards = header.get("boards")
    if boards is None:
        return []
    if not (isinstance(boards, str) and boards in BOARDS):
        return [f"boards is {short(boards)}, not {' or '.join(BOARDS)}"]
    if header.get("duplicate") is not False:
        return [f"boards is {boards}, and its tables play no duplicate blocks (duplicate true)"]
    if header.get("tournament_format") == "lzf":
        return [f"boards is {boards}, and lzf tables play their round's deals"]
    return []


def check_header(header: Mapping[str, Any]) -> list[str]:
    """Everything wrong with a match or tournament header (empty: nothing), one line each.

    Wrong types, missing keys, and settings no command would have given: not three players,
    a time below a millisecond (or a negative margin), deals < 1, a seed out of 0..2^64-1, a
    negative penalty, max_faults or limit, an unknown ``on_fault``, rules the engine rejects;
    for a tournament also its format, gauntlet, entrants, tables and concurrency.
    """
    kind = header.get("type")
    problems: list[str] = []
    if kind == "match":
        _common(header, problems)
        players = _bots(header.get("players"), "players", 3, 4, problems)
        if players == 4 and header.get("duplicate") is not False:
            problems.append("duplicate is not false, and a table of four plays no duplicate")
        table = header.get("tournament")
        if table is not None and not (
            isinstance(table, dict)
            and match_id_problem(table.get("id")) is None
            and at_least(1)(table.get("table"))
            and optional(at_least(1))(table.get("round"))
        ):
            problems.append(f"tournament is {short(table)}, not {{id, table[, round]}} of a table")
    elif kind == "tournament":
        _common(header, problems)
        if header.get("tournament_id") != header.get("match_id"):
            problems.append(
                f"tournament_id {short(header.get('tournament_id'))} is not its match_id "
                f"{short(header.get('match_id'))}"
            )
        if header.get("tournament_format") not in TOURNAMENT_FORMATS:
            problems.append(
                f"tournament_format is {short(header.get('tournament_format'))}, not "
                f"{', '.join(TOURNAMENT_FORMATS[:-1])} or {TOURNAMENT_FORMATS[-1]}"
            )
        entrants = _bots(header.get("entrants"), "entrants", 3, MAX_ENTRANTS, problems)
        gauntlet = header.get("gauntlet")
        given = header.get("entrants")
        names = (
            [b.get("name") for b in given if isinstance(b, dict)]
            if isinstance(given, list) and entrants
            else []
        )
        if gauntlet is not None and gauntlet not in names:
            problems.append(f"gauntlet {short(gauntlet)} is not one of the entrants")
        problems.extend(_tables_problems(header, entrants))
        problems.extend(_boards_problems(header))
        concurrency = header.get("concurrency", 1)
        if not (at_least(1)(concurrency) and concurrency <= MAX_CONCURRENCY):
            problems.append(
                f"concurrency is {short(concurrency)}, not a whole number from 1 to "
                f"{MAX_CONCURRENCY:,}"
            )
    else:
        problems.append(f"type is {short(kind)}, not match or tournament")
    _later_keys(header, problems)
    return problems


def resume_refusal(path: object, header: InvalidHeader) -> str:
    """Why a log whose header is not valid cannot be resumed, in one line."""
    problems = header.problems
    more = len(problems) - 1
    also = f" (and {more} more: 'zole-arena verify {path}' lists them)" if more else ""
    return f"{path}: cannot resume: its {header.type} header is not valid: {problems[0]}{also}"
