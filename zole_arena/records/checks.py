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

Each check returns one-line reasons (or None), never raises, whatever the value. Each key's kind
and words are declared with the record (:mod:`~zole_arena.records.schema`); here are the rules
between keys (a table's seating, a header's bots and tables) and the order they are checked in.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Final

from zole_arena.errors import RulesError
from zole_arena.game.rules import Rules
from zole_arena.game.shuffle import MAX_SEED
from zole_arena.game.table import Seating
from zole_arena.records.kinds import (
    MAX_ARGUMENT,
    MAX_ARGUMENTS,
    MAX_CONCURRENCY,
    MAX_DEALS,
    MAX_DERIVED_TABLES,
    MAX_ENTRANTS,
    MAX_OPTION_TEXT,
    MAX_OPTIONS,
    MAX_TABLES,
    at_least,
    each_problem,
    is_command,
    is_folder,
    is_text_map,
    is_whole,
    list_of,
    match_id_problem,
    name_problem,
    optional,
    shape_problem,
    short,
)
from zole_arena.records.model import BOARDS, TOURNAMENT_FORMATS, InvalidHeader
from zole_arena.records.schema import (
    DEAL,
    FAULT,
    IDENTITY,
    MOVE,
    RESULT,
    SETTINGS,
    SETTLE,
    SPRT,
    TABLE,
    TRICK,
)

__all__ = [
    "MAX_ROUNDS",
    "check_header",
    "settle_shape_problem",
    "deal_shape_problem",
    "derived_tables",
    "match_id_problem",
    "name_problem",
    "resume_refusal",
    "short",
]


def deal_shape_problem(record: Mapping[str, Any]) -> str | None:
    """Why a deal record cannot be read (a key missing or of the wrong type, a match id or a
    name that is none), or None."""
    problem = match_id_problem(record.get("match_id"))
    if problem is None:
        problem = shape_problem(record, DEAL.shape, "", DEAL.later)
    if problem is None:
        problem = shape_problem(record["result"], RESULT.shape, "result.")
    if problem is None and not MOVE.fits(record["moves"]):
        problem = each_problem(record["moves"], MOVE.shape, "move", MOVE.later)
    if problem is None and not TRICK.fits(record["tricks"]):
        problem = each_problem(record["tricks"], TRICK.shape, "trick")
    if problem is None:
        problem = each_problem(record["faults"], FAULT.shape, "fault", FAULT.later)
    if problem is None and record["culprit"] is not None:
        problem = each_problem([record["culprit"]], FAULT.shape, "culprit", FAULT.later)
    if problem is None:
        problem = each_problem(record["players"], IDENTITY.shape, "player", IDENTITY.later)
    if problem is None:
        if "table" in record:
            problem = _table_problem(record)
        elif max(record["seating"]) > 2:  # player 3 only at a table of four
            problem = f"seating is {short(record['seating'])}, not the three seats in some order"
        elif any(f["player"] > 2 for f in [*record["faults"], record["culprit"]] if f):
            problem = "a fault's player is 3, and the deal has only three players"
    return problem


def _table_problem(record: Mapping[str, Any]) -> str | None:
    """Why a deal record's ``table`` part (a table of four) cannot be read, or None. Its
    seating must be the three after the dealer, clockwise (deal seat 0 the forehand)."""
    table = record["table"]
    if not isinstance(table, dict):
        return f"table is {short(table)}, not an object"
    problem = shape_problem(table, TABLE.shape, "table.")
    if problem is None:
        problem = each_problem([table["sitter"]], IDENTITY.shape, "table.sitter", IDENTITY.later)
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
    deals: Any = header.get("deals")
    if not (at_least(1)(deals) and deals <= MAX_DEALS):
        problems.append(f"deals is {short(deals)}, not a whole number from 1 to {MAX_DEALS:,}")
    if not isinstance(header.get("duplicate"), bool):
        problems.append(f"duplicate is {short(header.get('duplicate'))}, not true or false")
    settings = header.get("settings")
    if not isinstance(settings, dict):
        problems.append(f"settings is {short(settings)}, not an object")
        return
    for key, check, what in SETTINGS.shape:
        if key not in settings:
            problems.append(f"settings.{key} is missing")
        elif not check(settings[key]):
            problems.append(f"settings.{key} is {short(settings[key])}, not {what}")
    # Keys of later logs: absent from earlier ones, checked when present.
    for key, check, what in SETTINGS.later:
        if key in settings and not check(settings[key]):
            problems.append(f"settings.{key} is {short(settings[key])}, not {what}")


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


def _later_keys(header: Mapping[str, Any], problems: list[str]) -> None:
    """Keys of a header that only some logs have, checked when present."""
    isolation = header.get("isolation")
    if isolation is not None and not isinstance(isolation, str):
        problems.append(f"isolation is {short(isolation)}, not text")
    if header.get("type") != "match" or header.get("sprt") is None:
        return
    sprt = header["sprt"]
    problem = (
        shape_problem(sprt, SPRT.shape, "sprt.")
        if isinstance(sprt, dict)
        else f"sprt is {short(sprt)}, not an object"
    )
    if problem is None and sprt["elo1"] <= sprt["elo0"]:
        problem = f"sprt: elo1 {short(sprt['elo1'])} is not above elo0 {short(sprt['elo0'])}"
    if problem is None and sprt["alpha"] + sprt["beta"] >= 1:
        problem = "sprt: alpha + beta is not below 1 (nothing is left to test)"
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
        problem = shape_problem(record, SETTLE.shape, "")
    if problem is None and len(record["scores"]) != len(record["totals"]):
        problem = "scores and totals are not of the same players"
    return problem


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


def resume_refusal(path: object, header: InvalidHeader, doing: str = "resume") -> str:
    """Why a log whose header is not valid cannot be resumed (or read, as ``doing`` says), in
    one line."""
    problems = header.problems
    more = len(problems) - 1
    also = f" (and {more} more: 'zole-arena verify {path}' lists them)" if more else ""
    return f"{path}: cannot {doing}: its {header.type} header is not valid: {problems[0]}{also}"
