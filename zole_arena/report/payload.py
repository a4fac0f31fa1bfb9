"""The data a report's script reads: every deal in a compact form, and the tables it needs to
show one (cards, bots, matches, faults).

A deal is a list whose fields :data:`DEAL_FIELDS` names, so that 10,000 deals make about a
megabyte, not the 38 MB of their log. Cards are one letter each, ``a`` for card 0 of the
engine's order (Q♣) to ``z`` for card 25 (9♥); the page gets each card's name, symbol, suit
and points from :func:`cards_table`, so it knows nothing of the rules itself: who won each
trick and what the deal scored come from the log.
"""

from __future__ import annotations

import json
from typing import Any, Final, NamedTuple

from zole_arena.analysis.model import DealAnalysis, Severity
from zole_arena.game.actions import Bid, Contract
from zole_arena.game.cards import CARDS, Card
from zole_arena.game.scoring import WINNING_BANDS, Band, Pules
from zole_arena.records.model import DealRecord, Move
from zole_arena.report.model import ReportData, table_names
from zole_arena.report.words import BIDS, best_text, move_places, visible

__all__ = [
    "DEAL_FIELDS",
    "MARKS",
    "card_letters",
    "cards_table",
    "payload",
    "script_json",
]

#: How a decision's loss is marked, as chess marks a move (and ``replay --analysis``).
MARKS: Final = {Severity.INACCURACY: "?!", Severity.MISTAKE: "?", Severity.BLUNDER: "??"}

#: What each position of a deal's list holds.
DEAL_FIELDS: Final = (
    "table",  # index into tables
    "deal",  # its number in its match
    "block",  # the shuffle's number (the same in a duplicate block's six seatings)
    "dealer",  # seat
    "players",  # index into bots, by seat
    "cards",  # 26 letters: seat 0's 8 cards as dealt, seat 1's, seat 2's, then the talon's 2
    "bids",  # [[seat, bid], ...] in order
    "contract",  # take, zole, smallzole, table, pule; null: forfeited before bidding ended
    "soloist",  # seat or null
    "buried",  # letters (after a take)
    "plays",  # letters: every card played, in order (tricks of three, the last maybe cut off)
    "leader",  # seat that led the first trick
    "winners",  # one digit per finished trick: the seat that won it
    "scores",  # each seat's change (at a table of four the table's, the sitter paying too)
    "totals",  # each seat's total after the deal, on its seating's sheet (or its table's)
    "band",  # the soloist's band (all_tricks ... no_tricks) or null
    "points",  # card points each seat took in tricks
    "soloist_points",  # as scored (tricks and buried cards), or null
    "end",  # normal, forfeit, small zole ended early, ...
    "forfeit",  # the seat that forfeited, or null
    "faults",  # indices into faults
    "pule",  # what happened to the pules (text) or null
    "tricks",  # tricks each seat took
    "ended_early",  # a small zole stopped at the soloist's first trick
    "auto",  # null, or what the arena played for a faulted bot: {"bids": [i], "bury": true,
    #          "plays": [i]} (indices into bids and plays)
    "pules_before",  # null, or [common pules, [the seat of each personal pule's owner]]
    #                  (at a table of four the table's pules, owners by table seat)
    "pules_after",  # the same after the deal
    "analysis",  # null (not analysed), or [note, bids, bury, plays]: note why the analysis
    #              stops short (null: it is complete); bids and plays, by index into bids and
    #              plays, and bury, each null (no decision), or the action's open-card value
    #              when it was the best, or [value, loss, mark, the best actions as text]
    "four",  # null (three players), or at a table of four {"seats": the bot at each table
    #           seat (indices into bots), "out": the table seat that dealt and sat out,
    #           "at": the table seat of each deal seat, "scores" and "totals": each table
    #           seat's change and total}
)


def card_letters(cards: tuple[Card, ...] | list[Card]) -> str:
    """Cards as the payload writes them: one letter each."""
    return "".join(chr(97 + card) for card in cards)


def cards_table() -> list[dict[str, Any]]:
    """What the page needs of each card, by its number: name, symbol, suit, trump, points."""
    return [
        {
            "name": str(card),
            "symbol": card.symbol(),
            "suit": str(card)[1],
            "trump": card.category == 0,
            "points": card.points,
        }
        for card in CARDS
    ]


class _Moves(NamedTuple):
    """A deal's moves by kind, each in the order made."""

    bids: list[Move]
    buries: list[Move]
    plays: list[Move]

    @classmethod
    def of(cls, record: DealRecord) -> _Moves:
        moves = cls([], [], [])
        for move in record.moves:
            if move.action in BIDS:
                moves.bids.append(move)
            elif len(move.action) == 2:  # a card: ``TD``
                moves.plays.append(move)
            else:  # two cards: ``QC 9H``
                moves.buries.append(move)
        return moves


def _analysis(record: DealRecord, analysis: DealAnalysis | None) -> list[Any] | None:
    """A deal's analysis as the page needs it (see :data:`DEAL_FIELDS`: a decision that lost
    nothing is a number, so that an analysed deal adds about 160 bytes to the page). Each
    decision is placed by the kind of its move in the record (a crafted file's phase is not
    believed)."""
    if analysis is None:
        return None
    places = move_places(record)
    thresholds = analysis.thresholds
    found: dict[str, list[Any]] = {"bid": [], "bury": [], "play": []}
    for decision in analysis.decisions:
        kind, k = places[decision.move]
        entry: int | list[Any] = decision.value
        if decision.loss > 0:
            mark = MARKS[thresholds.severity(decision.loss)]
            entry = [decision.value, decision.loss, mark, best_text(decision.best_actions)]
        listed = found[kind]
        listed.extend([None] * (k + 1 - len(listed)))
        listed[k] = entry
    note = None if analysis.complete else visible(analysis.note or "it stops short")
    bury = found["bury"][0] if found["bury"] else None
    return [note, found["bid"], bury, found["play"]]


def _deal(
    record: DealRecord,
    table: int,
    bots: dict[str, int],
    faults: list[int],
    analysis: DealAnalysis | None = None,
) -> list[Any]:
    result = record.result
    moves = _Moves.of(record)
    hands = [card for hand in record.hands for card in hand]
    bids = [[move.seat, move.action] for move in moves.bids]
    plays = [card for trick in record.tricks for card in trick.cards]
    # Cards played after the last finished trick (a deal forfeited mid-trick): from the moves.
    plays += [Card.parse(move.action) for move in moves.plays[len(plays) :]]
    leader = record.tricks[0].leader if record.tricks else (record.dealer + 1) % 3
    auto = _auto(record, moves)
    four = _four(record, bots)
    totals = list(record.totals)
    pule_event, pules_before, pules_after = result.pule_event, record.pules_before, result.pules
    if four is not None and record.table is not None:
        # At a table of four the deal is played with no pules of its own: the table's count.
        totals = [four["totals"][player] for player in record.seating]
        pule_event = record.table.pule_event
        pules_before, pules_after = record.table.pules_before, record.table.pules
    return [
        table,
        record.deal,
        record.block,
        record.dealer,
        [bots[name] for name in record.names],
        card_letters(hands) + card_letters(record.talon),
        bids,
        None if result.contract is None else result.contract.value,
        result.soloist,
        card_letters(record.buried),
        card_letters(plays),
        leader,
        "".join(str(trick.winner) for trick in record.tricks),
        list(record.seat_scores),
        totals,
        None if result.band is None else result.band.value,
        list(result.points),
        result.soloist_points,
        record.termination.value,
        result.forfeit,
        faults,
        pule_event,
        list(result.tricks),
        result.ended_early,
        auto,
        _pules(pules_before),
        _pules(pules_after),
        _analysis(record, analysis),
        four,
    ]


def _four(record: DealRecord, bots: dict[str, int]) -> dict[str, Any] | None:
    """A table of four's part of a deal as the viewer needs it (see :data:`DEAL_FIELDS`), or
    None at three. The readers' checks make it whole (four seats, the deal's seating the
    three after the dealer); a part that still does not fit is left out, and the deal shows
    as the three-player deal it also is, rather than breaking the page."""
    table = record.table
    names = table_names(record)
    if table is None or names is None:
        return None
    size = table.size
    if (
        size != len(names)
        or len(table.scores) != size
        or len(table.totals) != size
        or any(name not in bots for name in names)
        or any(owner >= size for owner in (*table.pules_before.personal, *table.pules.personal))
    ):
        return None
    return {
        "seats": [bots[name] for name in names],
        "out": table.dealer,
        "at": list(record.seating),
        "scores": list(table.scores),
        "totals": list(table.totals),
    }


def _pules(pules: Pules) -> list[Any] | None:
    return [pules.common, list(pules.personal)] if pules else None


def _auto(record: DealRecord, moves: _Moves) -> dict[str, Any] | None:
    """What the arena played for a faulted bot (``--on-fault random``): a move answering no
    request, by a seat with a fault in the deal."""
    faulted = {fault.seat for fault in record.faults}
    if not faulted:
        return None

    def chosen(move: Move) -> bool:
        return move.request_id is None and move.seat in faulted

    bids = [n for n, move in enumerate(moves.bids) if chosen(move)]
    plays = [n for n, move in enumerate(moves.plays) if chosen(move)]
    bury = any(chosen(move) for move in moves.buries)
    if not (bids or plays or bury):
        return None
    return {"bids": bids, "bury": bury, "plays": plays}


def payload(data: ReportData) -> dict[str, Any]:
    """The report's data for its script."""
    bots = {bot.name: index for index, bot in enumerate(data.bots)}
    fault_rows: list[list[Any]] = []
    by_deal: dict[int, list[int]] = {}
    for bot in data.bots:
        for deal, fault in bot.faults:
            by_deal.setdefault(deal, []).append(len(fault_rows))
            fault_rows.append(
                [deal, fault.seat, bots[bot.name], fault.kind.value, visible(fault.message)]
            )
    return {
        "fields": list(DEAL_FIELDS),
        "cards": cards_table(),
        "bots": [visible(bot.name) for bot in data.bots],
        "tables": [
            {"log": table.log, "match": visible(table.match_id), "label": visible(table.label)}
            for table in data.tables
        ],
        "logs": [visible(log.path) for log in data.logs],
        "contracts": [contract.value for contract in Contract],
        "contract_words": {
            **{bid.value: bid.value for bid in Bid},
            "smallzole": "small zole",
            "table": "table game",
            "pule": "pule",
        },
        "bands": {band.value: band.words for band in Band},
        "won_bands": sorted(band.value for band in WINNING_BANDS),  # a set: one order always
        "faults": fault_rows,
        "deals": [
            _deal(
                record,
                data.deal_tables[n],
                bots,
                by_deal.get(n, []),
                data.analyses[n] if n < len(data.analyses) else None,
            )
            for n, record in enumerate(data.deals)
        ],
        "analysed": data.analysed,
        "marks": {mark: severity.value for severity, mark in MARKS.items()},
    }


def script_json(value: Any) -> str:
    """JSON that is safe inside an HTML ``<script>`` element: no ``</``, no ``<!--``."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
