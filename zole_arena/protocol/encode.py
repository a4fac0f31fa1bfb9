"""Writing the arena's messages to a bot: one encoder for each message of protocol v1.

Every line the arena sends a bot is made here (``protocol/README.md`` §3 is the
specification): the handshake's :data:`ZOLE`, :func:`setoption_line`, :data:`ISREADY`, the
``newdeal`` and ``go`` lines of a deal (:class:`DealWriter`), the events (:func:`bid_event`,
:func:`card_event`, :func:`trick_event`, :func:`result_event`, and :func:`events_after`, which
gives the events of one action as a match sends them) and :data:`QUIT`. The arena is strict in
what it writes: canonical cards, the fields in a fixed order. Pure text, no I/O.

``go`` is written for every decision of a match, so :class:`DealWriter` builds it from the deal
state directly, with the parts that cannot change during the deal formatted once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Final

from zole_arena.game.actions import Action, Bid, Contract
from zole_arena.game.cards import CARDS, Card, names_of
from zole_arena.game.cards import POINTS as _POINTS
from zole_arena.game.rules import Rules, ScoreTable, SmallZoleScores
from zole_arena.game.state import DealResult, DealState, Phase
from zole_arena.game.table import TableContext, TableScore

__all__ = [
    "ISREADY",
    "PROTOCOL_VERSION",
    "QUIT",
    "ZOLE",
    "DealWriter",
    "bid_event",
    "card_event",
    "events_after",
    "result_event",
    "rules_fields",
    "setoption_line",
    "sitout_event",
    "trick_event",
]

#: The protocol version this arena speaks.
PROTOCOL_VERSION: Final = 1
#: The first line to a bot: starts the handshake with the newest version the arena speaks.
ZOLE: Final = f"zole {PROTOCOL_VERSION}"
#: The ping; the bot answers ``readyok``.
ISREADY: Final = "isready"
#: The match is over: the bot exits.
QUIT: Final = "quit"

_PLAYING: Final = Phase.PLAYING
_BIDDING: Final = Phase.BIDDING
_CARD_NAMES: Final = tuple(card.name for card in CARDS)


def setoption_line(name: str, value: str) -> str:
    """``setoption`` for one of the options the bot declared (the value already checked by
    :meth:`~zole_arena.protocol.parse.OptionDecl.check_value`)."""
    return f"setoption name {name} value {value}"


def _list(items: Iterable[object] | None) -> str:
    if items is None:
        return "-"
    text = ",".join(str(item) for item in items)
    return text or "-"


def _opt(value: object | None) -> str:
    return "-" if value is None else str(value)


def _amounts(table: ScoreTable | SmallZoleScores | None) -> str:
    """A contract's amounts per opponent, in the order of the table's fields."""
    return "-" if table is None else ",".join(str(value) for value in dataclasses.astuple(table))


def rules_fields(rules: Rules) -> str:
    """The ``newdeal`` fields that spell out the rules beyond the preset's name: the contracts
    that may be bid, what happens when all pass, the table game's loser and payment, the pule
    switches, and the amounts per opponent of every contract that may be bid (``-`` for one
    that may not)."""
    contracts = rules.contracts
    return " ".join([
        "contracts", _list(contracts),
        "allpass", rules.all_pass.value,
        "tableloser", rules.table_loser.value,
        "tablepayment", str(rules.table_payment),
        "dealspergame", str(rules.deals_per_game),
        "commonpulebonus", str(rules.common_pule_bonus),
        "personalpulebonus", str(rules.personal_pule_bonus),
        "pulestakeonly", "true" if rules.pules_take_only else "false",
        "take", _amounts(rules.take),
        "zole", _amounts(rules.zole if Contract.ZOLE in contracts else None),
        "smallzole", _amounts(rules.small_zole if Contract.SMALL_ZOLE in contracts else None),
    ])  # fmt: skip


_RULES_TEXT: dict[int, tuple[Rules, str]] = {}
""":func:`rules_fields` of the rules a deal is played under, by identity: the same rules
object serves every deal of a match."""


def _rules_text(rules: Rules) -> str:
    known = _RULES_TEXT.get(id(rules))
    if known is None or known[0] is not rules:
        known = _RULES_TEXT[id(rules)] = (rules, rules_fields(rules))
    return known[1]


class DealWriter:
    """Writes the ``newdeal`` and ``go`` lines of one deal, straight from the world state.

    It reads only what the seat it writes for may know. The parts of the lines that do not
    change during the deal are formatted once; the played cards and trick winners grow trick by
    trick. ``deal_no`` is the deal's number in the match and ``scores`` the standing before it,
    as the ``deal`` and ``scores`` fields give them; the rules, the seats, the hands and the
    pules come from ``state``.
    """

    def __init__(
        self,
        state: DealState,
        deal_no: int,
        scores: Sequence[int],
        table: TableContext | None = None,
    ) -> None:
        """:param table: at a table of four, the table before the deal: then ``scores`` and
        the pules are the table's as the three who play see them, and ``newdeal`` ends with
        the table fields."""
        self.state = state
        pules = state.pules if table is None else table.deal_pules
        preset = state.rules.preset
        self._head = [
            f"deal {deal_no} seat {seat} dealer {state.dealer} forehand {state.forehand} "
            f"rules {preset} hand "
            for seat in range(3)
        ]
        self._standing = (
            f" scores {_list(scores)} commonpules {pules.common} "
            f"personalpules {_list(pules.personal)}"
        )
        self._table_fields = ["", "", ""]
        if table is not None:
            seating = table.seating
            rest = (
                f"tabledealer {seating.dealer} tablescores {_list(table.totals)} "
                f"tablepersonalpules {_list(table.pules.personal)}"
            )
            self._table_fields = [
                f" tablesize {seating.size} tableseat {seating.table_seat(seat)} {rest}"
                for seat in range(3)
            ]
        self._bids_legal = _list(state.rules.bids)
        self._tricks_written = 0
        self._played = ""
        """The finished tricks' cards, as the ``played`` field lists them."""
        self._winners = "-"
        self._contract_parts: dict[tuple[int, int, int], str] = {}
        # During play the fields from "scores" to "buried" stay the same for each seat.
        self._play_middle: list[str | None] = [None, None, None]

    def newdeal(self, seat: int) -> str:
        """The ``newdeal`` line for ``seat``: its dealt hand, the standing and the rules."""
        state = self.state
        hand = names_of(state.initial_hands[seat])
        return (
            f"newdeal {self._head[seat]}{hand}{self._standing} {_rules_text(state.rules)}"
            f"{self._table_fields[seat]}"
        )

    def go(self, request_id: int, time_ms: int, clock: tuple[int, int] | None = None) -> str:
        """The ``go`` line for the seat to move now: its whole view and its legal answers.

        :param clock: under a game clock, the seat's clock and the increment in milliseconds:
            written last, as ``clock C inc I``, so that the fields before keep their places.
        """
        line = self._go(request_id, time_ms)
        return line if clock is None else f"{line} clock {clock[0]} inc {clock[1]}"

    def _go(self, request_id: int, time_ms: int) -> str:
        state = self.state
        seat: int = state.turn  # type: ignore[assignment]
        phase = state.phase
        if phase is _PLAYING:  # 24 of a deal's 27 or so requests: kept short
            middle = self._play_middle[seat]
            if middle is None:
                middle = self._play_middle[seat] = (
                    f"{self._standing} bids {self._contract_fields(seat, phase)}"
                )
            log = state.trick_log()
            if len(log) > self._tricks_written:
                self._add_tricks(log)
            trick = state.current_trick_cards()
            if trick:
                current = ",".join([_CARD_NAMES[card] for card in trick])
                played = f"{self._played},{current}" if self._played else current
            else:
                played = self._played or "-"
            return (
                f"go id {request_id} time {time_ms} phase play {self._head[seat]}"
                f"{names_of(state.hand_mask(seat))}{middle}played {played} "
                f"winners {self._winners} legal {names_of(state.legal_cards_mask())}"
            )
        hand = names_of(state.hand_mask(seat))
        if phase is _BIDDING:
            word, legal = "bid", self._bids_legal
        else:  # burying: any two cards of the hand
            word, legal = "bury", hand
        # Bids, contract, talon and buried cards change only with a bid or the bury (the
        # buried mask is 0 until then), so their text is kept per seat and stage.
        key = (seat, len(state.bids), state.buried)
        contract_part = self._contract_parts.get(key)
        if contract_part is None:
            contract_part = self._contract_parts[key] = self._contract_fields(seat, phase)
        return (
            f"go id {request_id} time {time_ms} phase {word} "
            f"{self._head[seat]}{hand}{self._standing} bids {contract_part}"
            f"played - winners - legal {legal}"
        )

    def _add_tricks(self, log: Sequence[tuple[int, int, int, int, int]]) -> None:
        """Add the tricks finished since the last request to ``played`` and ``winners``."""
        played = [self._played] if self._played else []
        winners = [self._winners] if self._tricks_written else []
        for _, a, b, c, winner in log[self._tricks_written :]:
            played.append(f"{_CARD_NAMES[a]},{_CARD_NAMES[b]},{_CARD_NAMES[c]}")
            winners.append(str(winner))
        self._played = ",".join(played)
        self._winners = ",".join(winners)
        self._tricks_written = len(log)

    def _contract_fields(self, seat: int, phase: Phase) -> str:
        state = self.state
        took = seat == state.soloist and state.contract is Contract.TAKE
        talon = names_of(state.talon) if took else "-"
        buried = names_of(state.buried) if took and phase is not Phase.BURYING else "-"
        return (
            f"{_list(bid for _, bid in state.bids)} contract {_opt(state.contract)} "
            f"soloist {_opt(state.soloist)} talon {talon} buried {buried} "
        )


def bid_event(seat: int, bid: Bid) -> str:
    """``bid <seat> <bid>``."""
    return f"bid {seat} {bid}"


#: ``_CARD_EVENTS[seat][card]``: the ``card`` event of ``seat`` playing ``card``.
_CARD_EVENTS: Final = tuple(
    tuple(f"card {seat} {name}" for name in _CARD_NAMES) for seat in range(3)
)
#: The same, each alone in a tuple: the events of a card that does not end a trick.
_CARD_ALONE: Final = tuple(tuple((line,) for line in lines) for lines in _CARD_EVENTS)


def card_event(seat: int, card: Card) -> str:
    """``card <seat> <card>``."""
    return _CARD_EVENTS[seat][card]


def trick_event(trick: tuple[int, int, int, int, int]) -> str:
    """``trick <winner> <points>`` of a finished trick given as (leader, card, card, card,
    winner), as :meth:`DealState.trick_log` lists them."""
    _, a, b, c, winner = trick
    return f"trick {winner} {_POINTS[a] + _POINTS[b] + _POINTS[c]}"


def events_after(state: DealState, seat: int, action: Action) -> Sequence[str]:
    """The events every seat is told of ``action``, which ``seat`` has just made in ``state``:
    ``bid``; or ``card``, and ``trick`` when the card ended a trick. Burying is no event:
    nothing of it is public."""
    if action.__class__ is Card:  # the most frequent, first
        if state.current_trick_cards():
            return _CARD_ALONE[seat][action]
        return (_CARD_EVENTS[seat][action], trick_event(state.trick_log()[-1]))
    if isinstance(action, Bid):
        return (bid_event(seat, action),)
    return ()


def result_event(
    result: DealResult,
    deal_no: int,
    totals: Sequence[int],
    table: tuple[TableContext, TableScore] | None = None,
) -> str:
    """``result`` at the end of deal ``deal_no``; ``totals`` are the standing after it.

    :param table: at a table of four, the table before the deal and the deal scored for it:
        ``scores`` and ``totals`` are then the table's, of the three who played (by deal
        seat), and the table fields follow with all four.
    """
    scores: Sequence[int] = result.scores
    extra = ""
    if table is not None:
        context, score = table
        seating = context.seating
        scores = [score.scores[seat] for seat in seating.players]
        extra = (
            f" tablesize {seating.size} tabledealer {seating.dealer} "
            f"tablescores {_list(score.scores)} tabletotals {_list(context.totals_after(score))}"
        )
    fields = [
        "result",
        "deal", str(deal_no),
        "contract", _opt(result.contract),
        "soloist", _opt(result.soloist),
        "scores", _list(scores),
        "totals", _list(totals),
        "tricks", _list(result.tricks),
        "points", _list(result.points),
        "soloistpoints", _opt(result.soloist_points),
        "band", _opt(result.band),
        "forfeit", _opt(result.forfeit),
    ]  # fmt: skip
    return " ".join(fields) + extra


def sitout_event(result: DealResult, deal_no: int, context: TableContext, score: TableScore) -> str:
    """``sitout``: what the player who sat deal ``deal_no`` out (the dealer at a table of four)
    is told at its end, in table seats: who played, how it ended, and the table's scores."""
    seating = context.seating
    soloist = None if result.soloist is None else seating.table_seat(result.soloist)
    forfeit = None if result.forfeit is None else seating.table_seat(result.forfeit)
    fields = [
        "sitout",
        "deal", str(deal_no),
        "tablesize", str(seating.size),
        "tableseat", str(seating.dealer),
        "tabledealer", str(seating.dealer),
        "players", _list(seating.players),
        "contract", _opt(result.contract),
        "soloist", _opt(soloist),
        "band", _opt(result.band),
        "forfeit", _opt(forfeit),
        "tablescores", _list(score.scores),
        "tabletotals", _list(context.totals_after(score)),
        "tablepersonalpules", _list(score.pules.personal),
        "commonpules", str(score.pules.common),
    ]  # fmt: skip
    return " ".join(fields)
