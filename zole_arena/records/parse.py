"""Building the typed record of a line's JSON value, or saying in one line why there is none.

The reader (:mod:`zole_arena.records.reader`) decodes a line and hands its value here:
:func:`from_json` checks it (:mod:`zole_arena.records.checks`) and builds the record of
:mod:`zole_arena.records.model` from the checked value, so nothing but a well-formed record is
ever built. Keys this version does not know are left out; keys that early logs lack are read as
absent.

Text from a log that is only shown (a fault's message, a move, a bot's version, the rules'
names, …) is cleaned here of what a terminal acts on (:func:`~zole_arena.errors.printable`,
as the protocol path cleans what a bot says), so that no reader can print it raw; names and
match ids are checked instead (:mod:`~zole_arena.records.checks`). What runs a bot (its
command, folder, options) is kept as written, and cleaned where it is shown.

A header that fails its checks becomes an
:class:`~zole_arena.records.model.InvalidHeader` (it is a header, just not a usable one),
a deal record that fails them is no record at all.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Final

from zole_arena.errors import FaultKind, printable
from zole_arena.game.actions import Contract
from zole_arena.game.cards import CARDS, Card
from zole_arena.game.clock import TimeControl
from zole_arena.game.scoring import Band, Pules
from zole_arena.game.state import DealResult
from zole_arena.records.checks import (
    check_header,
    deal_shape_problem,
    settle_shape_problem,
    short,
)
from zole_arena.records.model import (
    ABSENT,
    READABLE_VERSIONS,
    DealRecord,
    EntrantInfo,
    Fault,
    HeaderSettings,
    Identity,
    InvalidHeader,
    LoggedTrick,
    MatchHeader,
    Move,
    OtherRecord,
    PlayerInfo,
    Record,
    SandboxSettings,
    SettleRecord,
    SprtInfo,
    TableDeal,
    TableOf,
    Termination,
    TournamentHeader,
)

__all__ = ["from_json", "result_from_json"]

_CARD: Final[dict[str, Card]] = {str(card): card for card in CARDS}
_CONTRACT: Final[dict[str, Contract]] = {contract.value: contract for contract in Contract}
_BAND: Final[dict[str, Band]] = {band.value: band for band in Band}
_KIND: Final[dict[str, FaultKind]] = {kind.value: kind for kind in FaultKind}
_END: Final[dict[str, Termination]] = {end.value: end for end in Termination}


#: The longest match id an unusable header or an unknown record keeps (for a warning).
_SHOWN_ID: Final = 200


def _shown(text: str) -> str:
    """Text from a log that is only shown, cleaned of control and direction characters as the
    protocol path cleans a bot's words (most text needs nothing: checked first, in C)."""
    return text if text.isprintable() else printable(text)


def _shown_value(value: Any) -> Any:
    if isinstance(value, str):
        return _shown(value)
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


def _rules(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """A record's rules with their text (``preset``, ``description``, the contracts' names)
    cleaned for showing; the same object when nothing needs it (nearly always: a few checks
    in C a record). Headers and deal records are cleaned alike, so that ``verify`` compares
    them as written."""
    if all(map(_plain, data.values())):
        return data
    return {key: _shown_value(value) for key, value in data.items()}


def from_json(value: Mapping[str, Any]) -> Record | str:
    """The record of a zole-arena record's JSON object (its ``format`` is ``zole-arena``), or
    why it cannot be read, in one line (``deal 3: hands is …, not three lists of card
    names``)."""
    version = value.get("format_version")
    if version not in READABLE_VERSIONS or type(version) is not int:
        versions = " or ".join(map(str, READABLE_VERSIONS))
        return f"record format version {short(version)} is not {versions}"
    kind, match_id = value.get("type"), value.get("match_id")
    if not isinstance(kind, str) or not isinstance(match_id, str):
        return "a record without a type or match_id in text"
    if kind == "deal":
        shape = deal_shape_problem(value)
        if shape is not None:
            number = value["deal"] if type(value.get("deal")) is int else None
            return f"{'a deal record' if number is None else f'deal {number}'}: {shape}"
        return _deal(value)
    if kind == "settle":
        problem = settle_shape_problem(value)
        if problem is not None:
            return f"a settle record: {problem}"
        return SettleRecord(
            match_id, value["after"], _pules(value["pules"]), value["payment"],
            tuple(value["scores"]), tuple(value["totals"]), _when(value.get("finished")),
            _text(value.get("arena_version")),
        )  # fmt: skip
    if kind not in ("match", "tournament"):
        return OtherRecord(_shown(kind[:_SHOWN_ID]), _shown(match_id[:_SHOWN_ID]))
    problems = check_header(value)
    if problems:
        return InvalidHeader(
            kind, _shown(match_id[:_SHOWN_ID]), tuple(problems), bool(value.get("duplicate"))
        )
    return _match(value) if kind == "match" else _tournament(value)


# -- deal records ------------------------------------------------------------------------------


def _three(items: list[Any]) -> tuple[Any, Any, Any]:
    return (items[0], items[1], items[2])


def _cards(names: list[str]) -> tuple[Card, ...]:
    card = _CARD
    return tuple([card[name] for name in names])


def _pules(data: Mapping[str, Any]) -> Pules:
    return Pules(data["common"], tuple(data["personal"]))


def _fault(data: Mapping[str, Any]) -> Fault:
    request, reply = data.get("request"), data.get("reply")
    return Fault(
        data["deal_no"], data["seat"], data["player"], data["bot"], _KIND[data["kind"]],
        _shown(data["message"]), None if request is None else _shown(request),
        None if reply is None else _shown(reply),
    )  # fmt: skip


def _identity(data: Mapping[str, Any]) -> Identity:
    return Identity(
        data["name"], _shown(data.get("version", "")), tuple(map(_shown, data.get("command", ())))
    )


def _when(text: object) -> datetime.datetime | None:
    """A record's time (``created``, ``finished``), or None when it has none it can read."""
    if not isinstance(text, str):
        return None
    try:
        return datetime.datetime.fromisoformat(text)
    except ValueError:
        return None


def _text(value: object) -> str | None:
    return _shown(value) if isinstance(value, str) else None


def result_from_json(data: Mapping[str, Any]) -> DealResult:
    """A deal record's ``result`` as the engine's result (the data must have passed
    :func:`~zole_arena.records.checks.deal_shape_problem`)."""
    contract, band = data["contract"], data["band"]
    return DealResult(
        contract=None if contract is None else _CONTRACT[contract],
        soloist=data["soloist"],
        scores=_three(data["scores"]),
        tricks=_three(data["tricks"]),
        points=_three(data["points"]),
        band=None if band is None else _BAND[band],
        soloist_points=data["soloist_points"],
        soloist_tricks=data["soloist_tricks"],
        losers=tuple(data["losers"]),
        pules=_pules(data["pules"]),
        pule_event=None if (event := data["pule_event"]) is None else _shown(event),
        ended_early=data["ended_early"],
        forfeit=data["forfeit"],
    )


def _deal(v: Mapping[str, Any]) -> DealRecord:
    card, new = _CARD, tuple.__new__  # a named tuple's own __new__ is slower (some 40 a deal)
    a, b, c = v["hands"]
    x, y, z = v["players"]
    culprit = v["culprit"]
    return DealRecord(
        match_id=v["match_id"],
        deal=v["deal"],
        block=v["block"],
        seating=_three(v["seating"]),
        seed=v["seed"],
        deal_no=v["deal_no"],
        dealer=v["dealer"],
        rules=_rules(v["rules"]),
        pules_before=_pules(v["pules_before"]),
        hands=(_cards(a), _cards(b), _cards(c)),
        talon=_cards(v["talon"]),
        moves=tuple([
            new(Move, (m["seat"], a if (a := m["action"]).isprintable() else printable(a),
                       m.get("request_id"), m.get("think_ms"), m.get("clock_ms")))
            for m in v["moves"]
        ]),
        buried=_cards(v["buried"]),
        tricks=tuple([
            new(LoggedTrick, (t["leader"], (card[t["cards"][0]], card[t["cards"][1]],
                                            card[t["cards"][2]]), t["winner"], t["points"]))
            for t in v["tricks"]
        ]),
        result=result_from_json(v["result"]),
        totals=_three(v["totals"]),
        termination=_END[v["termination"]],
        culprit=None if culprit is None else _fault(culprit),
        faults=tuple([_fault(fault) for fault in v["faults"]]),
        players=(_identity(x), _identity(y), _identity(z)),
        finished=_when(v.get("finished")),
        arena_version=_text(v.get("arena_version")),
        stray=_three(v["stray"]) if "stray" in v else (0, 0, 0),
        table=_table(t) if (t := v.get("table")) is not None else None,
    )  # fmt: skip


def _table(t: Mapping[str, Any]) -> TableDeal:
    return TableDeal(
        size=t["size"],
        dealer=t["dealer"],
        sitter=_identity(t["sitter"]),
        pules_before=_pules(t["pules_before"]),
        scores=tuple(t["scores"]),
        totals=tuple(t["totals"]),
        pules=_pules(t["pules"]),
        pule_event=None if (event := t["pule_event"]) is None else _shown(event),
    )


# -- headers (checked by check_header) ---------------------------------------------------------


def _settings(s: Mapping[str, Any]) -> HeaderSettings:
    sandbox = s.get("sandbox", ABSENT)
    if isinstance(sandbox, dict):
        sandbox = SandboxSettings(
            sandbox["tmp_mb"], tuple(sandbox["readable"]), tuple(sandbox["hidden"])
        )
    return HeaderSettings(
        movetime_ms=s["movetime_ms"],
        margin_ms=s["margin_ms"],
        startup_ms=s["startup_ms"],
        on_fault=s["on_fault"],
        penalty=s["penalty"],
        max_faults=s["max_faults"],
        memory_mb=s["memory_mb"],
        cpu_seconds=s["cpu_seconds"],
        ping_ms=s.get("ping_ms", ABSENT),
        processes=s.get("processes", ABSENT),
        stderr_bytes=s.get("stderr_bytes", ABSENT),
        sandbox=sandbox,
        process_per_seating=s.get("process_per_seating", ABSENT),
        tc=None if (tc := s.get("tc")) is None else TimeControl(tc["base_ms"], tc["inc_ms"]),
        fixed_pace=s.get("fixed_pace", False),
    )


def _player(p: Mapping[str, Any]) -> PlayerInfo:
    return PlayerInfo(
        name=p["name"],
        command=tuple(p["command"]),
        id_name=_shown(p.get("id_name", "")),
        author=_shown(p.get("author", "")),
        version=_shown(p.get("version", "")),
        options=dict(p.get("options", {})),
        cwd=p.get("cwd"),
    )


def _match(v: Mapping[str, Any]) -> MatchHeader:
    table, sprt = v.get("tournament"), v.get("sprt")
    return MatchHeader(
        match_id=v["match_id"],
        rules=_rules(v["rules"]),
        seed=v["seed"],
        deals=v["deals"],
        duplicate=v["duplicate"],
        players=tuple(_player(p) for p in v["players"]),
        settings=_settings(v["settings"]),
        isolation=_text(v.get("isolation")),
        tournament=None if table is None else TableOf(
            table["id"], table["table"], table.get("round")
        ),
        sprt=None if sprt is None else SprtInfo(
            sprt["new"], sprt["old"], sprt["third"], sprt["elo0"], sprt["elo1"], sprt["alpha"],
            sprt["beta"],
        ),
        created=_when(v.get("created")),
        arena_version=_text(v.get("arena_version")),
    )  # fmt: skip


def _tournament(v: Mapping[str, Any]) -> TournamentHeader:
    return TournamentHeader(
        match_id=v["match_id"],
        tournament_format=v["tournament_format"],
        gauntlet=v.get("gauntlet"),
        entrants=tuple(
            EntrantInfo(e["name"], tuple(e["command"]), dict(e.get("options", {})), e.get("cwd"))
            for e in v["entrants"]
        ),
        tables=tuple((t[0], t[1], t[2]) for t in v["tables"]),
        rules=_rules(v["rules"]),
        seed=v["seed"],
        deals=v["deals"],
        duplicate=v["duplicate"],
        concurrency=v.get("concurrency", 1),
        settings=_settings(v["settings"]),
        isolation=_text(v.get("isolation")),
        created=_when(v.get("created")),
        rounds=v.get("rounds"),
        boards=v.get("boards"),
        arena_version=_text(v.get("arena_version")),
    )
