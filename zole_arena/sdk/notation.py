"""The bot's half of protocol v1: the arena's lines read into the typed values of
:mod:`zole_arena.sdk.values`, and the bot's answers written.

The arena's half (its messages written, the bots' answers read) is :mod:`zole_arena.protocol`.
The readers are lenient as the protocol asks: unknown messages and fields are ignored, cards
may come as ``10D`` or in lower case. They take canonical text the fast way, as the arena
always writes it. Nothing here imports the arena, so a bot on the library starts quickly.
"""

from __future__ import annotations

import dataclasses
import functools
import time
from collections.abc import Callable, Mapping, Sequence
from itertools import combinations
from typing import Final

from zole_arena.errors import NotationError, RulesError
from zole_arena.game.actions import Action, Bid, Bury, Contract
from zole_arena.game.cards import CARDS, Card
from zole_arena.game.rules import (
    PRESETS,
    AllPass,
    Rules,
    ScoreTable,
    SmallZoleScores,
    TableLoser,
    load_rules,
)
from zole_arena.game.scoring import Band, Pules
from zole_arena.game.state import Phase, Trick
from zole_arena.sdk.values import (
    BidEvent,
    BotView,
    CardEvent,
    DealEnd,
    DealStart,
    Event,
    Option,
    SitOut,
    TableEnd,
    TableInfo,
    TrickEvent,
    make_view,
)

__all__ = [
    "format_action",
    "option_line",
    "parse_event",
    "parse_go",
    "parse_newdeal",
    "parse_result",
    "parse_setoption",
    "parse_sitout",
    "ruleset_of",
]

_CARD_BY_NAME: Final = {card.name: card for card in CARDS}
_BID_BY_WORD: Final = {bid.value: bid for bid in Bid}
_PHASE_BY_WORD: Final = {"bid": Phase.BIDDING, "bury": Phase.BURYING, "play": Phase.PLAYING}
_CONTRACT_BY_WORD: Final[dict[str, Contract | None]] = {"-": None} | {c.value: c for c in Contract}
_PLAYING: Final = Phase.PLAYING
_BIDDING: Final = Phase.BIDDING
_NO_CARDS: Final[tuple[Card, ...]] = ()


def _fields(words: Sequence[str]) -> dict[str, str]:
    """A message's ``field value`` pairs (after its first word)."""
    return dict(zip(words[1::2], words[2::2], strict=False))


def _cards(text: str) -> tuple[Card, ...]:
    if text == "-" or not text:
        return _NO_CARDS
    names = text.split(",")
    try:
        return tuple(map(_CARD_BY_NAME.__getitem__, names))
    except KeyError:  # not canonical: 10D, qc
        return tuple(Card.parse(name) for name in names if name)


def _ints(text: str) -> tuple[int, ...]:
    if text == "-" or not text:
        return ()
    return tuple(int(item) for item in text.split(",") if item)


def _seat(text: str) -> int | None:
    return None if text == "-" else int(text)


@functools.lru_cache(maxsize=64)
def _three(text: str) -> tuple[int, int, int]:
    values = _ints(text)
    if len(values) != 3:
        raise NotationError(f"expected three numbers, got {text!r}")
    return (values[0], values[1], values[2])


def _table_scores(text: str, size: int) -> tuple[int, ...]:
    """A table field of one number per table seat."""
    values = _ints(text)
    if len(values) != size:
        raise NotationError(f"expected {size} numbers, got {text!r}")
    return values


def _table_size(f: Mapping[str, str]) -> int | None:
    """The ``tablesize`` field: None when absent (a table of three)."""
    text = f.get("tablesize")
    if text is None:
        return None
    size = int(text)
    if size < 3:
        raise ValueError(f"tablesize {size}")
    return size


def _bid(word: str) -> Bid:
    bid = _BID_BY_WORD.get(word)
    return bid if bid is not None else Bid.parse(word)


_RULESETS: dict[tuple[str, ...], Rules] = {}
"""The rules read from ``newdeal`` fields, by those fields: a match sends the same ones in
every deal."""

#: The ``newdeal`` fields that spell out the rules (protocol/README.md), in the order read.
_RULES_FIELDS = (
    "contracts", "allpass", "tableloser", "tablepayment", "dealspergame", "commonpulebonus",
    "personalpulebonus", "pulestakeonly", "take", "zole", "smallzole",
)  # fmt: skip


def ruleset_of(preset: str, fields: Mapping[str, str] | None = None) -> Rules:
    """The rules a deal is played under: the preset the protocol names (an unknown name: the
    default preset's), with the switches and amounts of ``newdeal``'s rules fields where they
    are given and make sense (a field a bot cannot read leaves the preset's value)."""
    given = tuple(fields.get(name, "") for name in _RULES_FIELDS) if fields else ()
    key = (preset, *given)
    known = _RULESETS.get(key)
    if known is None:
        try:
            base = load_rules(preset)
        except RulesError:
            base = load_rules(PRESETS[0])
        known = _RULESETS[key] = _with_fields(base, dict(zip(_RULES_FIELDS, given, strict=False)))
    return known


def _with_fields(rules: Rules, fields: Mapping[str, str]) -> Rules:
    """``rules`` changed by the ``newdeal`` rules fields that are there and readable."""
    changes: dict[str, object] = {}
    readers: dict[str, tuple[str, Callable[[str], object]]] = {
        "contracts": ("contracts", lambda v: tuple(Contract(c) for c in v.split(","))),
        "allpass": ("all_pass", AllPass),
        "tableloser": ("table_loser", TableLoser),
        "tablepayment": ("table_payment", int),
        "dealspergame": ("deals_per_game", int),
        "commonpulebonus": ("common_pule_bonus", int),
        "personalpulebonus": ("personal_pule_bonus", int),
        "pulestakeonly": ("pules_take_only", lambda v: {"true": True, "false": False}[v]),
        "take": ("take", lambda v: ScoreTable(*map(int, v.split(",")))),
        "zole": ("zole", lambda v: ScoreTable(*map(int, v.split(",")))),
        "smallzole": ("small_zole", lambda v: SmallZoleScores(*map(int, v.split(",")))),
    }
    for name, text in fields.items():
        if not text or text == "-":  # absent, or a contract that may not be bid: as it is
            continue
        attribute, read = readers[name]
        try:
            changes[attribute] = read(text)
        except (KeyError, TypeError, ValueError):
            continue
    if not changes:
        return rules
    try:
        return dataclasses.replace(rules, **changes)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return rules


def parse_newdeal(words: Sequence[str]) -> DealStart:
    """A ``newdeal`` message (split into words).

    :raises NotationError: a field the deal cannot do without is missing or malformed.
    """
    f = _fields(words)
    try:
        rules = f.get("rules", PRESETS[0])
        return DealStart(
            deal_no=int(f["deal"]),
            seat=int(f["seat"]),
            dealer=int(f["dealer"]),
            forehand=int(f["forehand"]),
            rules=rules,
            ruleset=ruleset_of(rules, f),
            hand=_cards(f["hand"]),
            scores=_three(f.get("scores", "0,0,0")),
            pules=Pules(int(f.get("commonpules", "0")), _ints(f.get("personalpules", "-"))),
            table=_table_info(f),
        )
    except (KeyError, ValueError) as exc:
        raise NotationError(f"bad newdeal message: {exc}") from None


def _table_info(f: Mapping[str, str]) -> TableInfo | None:
    """``newdeal``'s table fields; None without ``tablesize`` (a table of three)."""
    size = _table_size(f)
    if size is None:
        return None
    return TableInfo(
        size=size,
        seat=int(f["tableseat"]),
        dealer=int(f["tabledealer"]),
        scores=_table_scores(f["tablescores"], size),
        personal_pules=_ints(f.get("tablepersonalpules", "-")),
    )


def parse_go(
    words: Sequence[str], received: float | None = None, ruleset: Rules | None = None
) -> tuple[int, BotView]:
    """A ``go`` request (split into words): its id and the view it carries.

    :param received: when the request was read (:func:`time.monotonic`; default: now), from
        which :attr:`BotView.deadline` counts.
    :param ruleset: the rules the deal's ``newdeal`` spelled out (default: the preset ``go``
        names).
    :raises NotationError: a field the view cannot do without is missing or malformed.
    """
    if received is None:
        received = time.monotonic()
    f = _fields(words)
    try:
        request_id = int(f["id"])
        time_ms = int(f["time"])
        phase = _PHASE_BY_WORD[f["phase"]]
        seat = int(f["seat"])
        forehand = int(f["forehand"])
        played = _cards(f["played"])
        winners = _ints(f["winners"])
        tricks = []
        leader = forehand
        for number, winner in enumerate(winners):
            a, b, c = played[3 * number : 3 * number + 3]
            tricks.append(Trick(leader, (a, b, c), winner))
            leader = winner
        legal_text = f["legal"]
        legal: tuple[Action, ...]
        if phase is _PLAYING:
            legal = _cards(legal_text)
        elif phase is _BIDDING:
            legal = _bid_list(legal_text)
        else:  # burying: any two cards of the hand, listed
            legal = tuple(Bury.of(a, b) for a, b in combinations(_cards(legal_text), 2))
        talon = f.get("talon", "-")
        buried = f.get("buried", "-")
        rules = f.get("rules", PRESETS[0])
        view = make_view(
            seat=seat,
            dealer=int(f["dealer"]),
            forehand=forehand,
            rules=rules,
            phase=phase,
            turn=seat,
            hand=_cards(f["hand"]),
            bids=_bids(f["bids"], forehand),
            contract=_CONTRACT_BY_WORD[f["contract"]],
            soloist=_seat(f["soloist"]),
            talon=None if talon == "-" else _cards(talon),
            buried=None if buried == "-" else _cards(buried),
            tricks=tuple(tricks),
            trick=played[3 * len(winners) :],
            trick_leader=leader if phase is _PLAYING else None,
            tricks_won=_won(winners),
            pules=_pules(f.get("commonpules", "0"), f.get("personalpules", "-")),
            legal_actions=legal,
            result=None,
            deal_no=int(f["deal"]),
            scores=_three(f.get("scores", "0,0,0")),
            ruleset=ruleset if ruleset is not None else ruleset_of(rules),
            time_ms=time_ms,
            deadline=received + time_ms / 1000,
            clock_ms=None if (clock := f.get("clock")) is None else int(clock),
            inc_ms=None if clock is None else int(f.get("inc", "0")),
            table=None,  # go carries no table fields: run_bot gives the newdeal's
        )
    except (KeyError, ValueError, IndexError) as exc:
        raise NotationError(f"bad go request: {type(exc).__name__} {exc}") from None
    return request_id, view


# The parts of a request that stay the same for a while (the bids, the scores, the pules),
# read once: a Python bot spends its time on its decisions, not on reading them.


@functools.lru_cache(maxsize=256)
def _bids(text: str, forehand: int) -> tuple[tuple[int, Bid], ...]:
    if text == "-":
        return ()
    return tuple(((forehand + i) % 3, _bid(word)) for i, word in enumerate(text.split(",")))


@functools.lru_cache(maxsize=64)
def _bid_list(text: str) -> tuple[Bid, ...]:
    return tuple(_bid(word) for word in text.split(",") if word)


@functools.lru_cache(maxsize=64)
def _pules(common: str, personal: str) -> Pules:
    return Pules(int(common), _ints(personal))


def _won(winners: tuple[int, ...]) -> tuple[int, int, int]:
    count = winners.count
    return (count(0), count(1), count(2))


def parse_event(words: Sequence[str]) -> Event | None:
    """A ``bid``, ``card`` or ``trick`` event (split into words); None for any other message."""
    if len(words) < 3:
        return None
    head = words[0]
    try:
        if head == "card":
            card = _CARD_BY_NAME.get(words[2])
            return CardEvent(int(words[1]), card if card is not None else Card.parse(words[2]))
        if head == "trick":
            return TrickEvent(int(words[1]), int(words[2]))
        if head == "bid":
            return BidEvent(int(words[1]), _bid(words[2]))
    except ValueError as exc:
        raise NotationError(f"bad {head} event: {exc}") from None
    return None


def parse_result(words: Sequence[str]) -> DealEnd:
    """A ``result`` message (split into words).

    :raises NotationError: a field is malformed.
    """
    f = _fields(words)
    try:
        contract = f.get("contract", "-")
        points = f.get("soloistpoints", "-")
        band = f.get("band", "-")
        return DealEnd(
            deal_no=int(f["deal"]),
            contract=None if contract == "-" else Contract(contract),
            soloist=_seat(f.get("soloist", "-")),
            scores=_three(f["scores"]),
            totals=_three(f["totals"]),
            tricks=_three(f.get("tricks", "0,0,0")),
            points=_three(f.get("points", "0,0,0")),
            soloist_points=None if points == "-" else int(points),
            band=None if band == "-" else Band(band),
            forfeit=_seat(f.get("forfeit", "-")),
            table=_table_end(f),
        )
    except (KeyError, ValueError) as exc:
        raise NotationError(f"bad result message: {exc}") from None


def _table_end(f: Mapping[str, str]) -> TableEnd | None:
    """``result``'s table fields; None without ``tablesize`` (a table of three)."""
    size = _table_size(f)
    if size is None:
        return None
    return TableEnd(
        size=size,
        dealer=int(f["tabledealer"]),
        scores=_table_scores(f["tablescores"], size),
        totals=_table_scores(f["tabletotals"], size),
    )


def parse_sitout(words: Sequence[str]) -> SitOut:
    """A ``sitout`` message (split into words): the deal this bot sat out at a table of four.

    :raises NotationError: a field is missing or malformed.
    """
    f = _fields(words)
    try:
        size = _table_size(f) or 4
        contract = f.get("contract", "-")
        band = f.get("band", "-")
        players = _ints(f["players"])
        if len(players) != 3:
            raise ValueError(f"players {f['players']!r}")
        return SitOut(
            deal_no=int(f["deal"]),
            size=size,
            seat=int(f["tableseat"]),
            dealer=int(f["tabledealer"]),
            players=(players[0], players[1], players[2]),
            contract=None if contract == "-" else Contract(contract),
            soloist=_seat(f.get("soloist", "-")),
            band=None if band == "-" else Band(band),
            forfeit=_seat(f.get("forfeit", "-")),
            scores=_table_scores(f["tablescores"], size),
            totals=_table_scores(f["tabletotals"], size),
            pules=Pules(int(f.get("commonpules", "0")), _ints(f.get("tablepersonalpules", "-"))),
        )
    except (KeyError, ValueError) as exc:
        raise NotationError(f"bad sitout message: {exc}") from None


def parse_setoption(line: str) -> tuple[str, str] | None:
    """``setoption name <name…> value <value…>``: the name and the value (the rest of the
    line, spaces kept); None when the line is not one."""
    words = line.split()
    if "name" not in words or "value" not in words:
        return None
    start, middle = words.index("name"), words.index("value")
    if middle <= start + 1:
        return None
    _, _, value = line.partition(" value ")
    return " ".join(words[start + 1 : middle]), value.strip()


def format_action(request_id: int, action: object) -> str:
    """The ``action`` line that answers request ``request_id`` with ``action``. Anything but a
    bid, a bury or a card gives an answer the arena takes for garbage (and the bot's fault)."""
    if isinstance(action, Card):
        return f"action {request_id} {action.name}"
    if isinstance(action, Bury):
        return f"action {request_id} {action.cards[0]} {action.cards[1]}"
    if isinstance(action, Bid):
        return f"action {request_id} {action.value}"
    return f"action {request_id} not-an-action:{type(action).__name__}"


def option_line(option: Option) -> str:
    """The handshake's ``option`` line that declares ``option``."""
    decl = option.declaration
    line = f"option name {decl.name} type {decl.type} default {decl.default}"
    if decl.min is not None and decl.max is not None:
        line += f" min {decl.min} max {decl.max}"
    return line + "".join(f" var {choice}" for choice in decl.choices)
