"""Tables of four (zole-research §2.1, §2.14): who plays a deal, and how the table scores it.

The Latvian federation's tournaments seat four at a table. The dealer deals to the other three
and sits the deal out, but counts as an opponent of the soloist: a take, zole or small zole
is paid by (or to) three players, the table game's loser pays three, a common pule's bonus
comes from three. The deal itself is the three-player deal of :mod:`zole_arena.game.state`
among the three who play; this module maps its seats to the table's and scores it for the
table (:func:`~zole_arena.game.scoring.score_soloist` and
:func:`~zole_arena.game.scoring.score_table_of` with ``players=4``).

Deal seats at a table of four: deal seat 0 is the forehand (the dealer's left), 1 and 2 follow
clockwise; the deal's own dealer seat is 2, the last to speak, so that the deal engine's
"forehand sits to the dealer's left" holds. At a table of three, deal and table seats are
the same.

Pules at four (LZF: "ja spēlē četratā tad tiek liktas divas pules, ja pule jau ir tad
viena"): an all-pass writes two common pules when no pule of any kind stands, else one.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Final, Protocol

from zole_arena.game.actions import Contract
from zole_arena.game.rules import END_PULE_PAYMENT, Rules
from zole_arena.game.scoring import (
    NO_PULES,
    Pules,
    pules_after_all_pass,
    score_soloist,
    score_table_of,
)
from zole_arena.game.state import DealState
from zole_arena.game.values import DealResult

__all__ = [
    "END_PULE_PAYMENT",
    "TABLE_SIZES",
    "Seating",
    "Sheet",
    "TableContext",
    "TableScore",
    "TableSheet",
    "pules_after_all_pass",
    "score_at_table",
    "seating_of",
    "settle_pules",
    "settle_sheet",
    "table_dealer_of",
]

#: The table sizes the engine plays: three, or four with the dealer sitting out.
TABLE_SIZES: Final = (3, 4)


def table_dealer_of(deal_no: int, size: int) -> int:
    """The table seat that deals deal ``deal_no`` (1-based): the deal passes to the left, and
    table seat 0 is the forehand of deal 1 (at three, :func:`~zole_arena.game.values.dealer_of`)."""
    return (deal_no + size - 2) % size


@dataclasses.dataclass(frozen=True)
class Seating:
    """Who plays one deal at a table of ``size`` players dealt by table seat ``dealer``."""

    size: int
    dealer: int

    def __post_init__(self) -> None:
        if self.size not in TABLE_SIZES:
            raise ValueError(f"a table seats 3 or 4 players, not {self.size!r}")
        if not 0 <= self.dealer < self.size:
            raise ValueError(f"the dealer must be a table seat 0–{self.size - 1}")

    @property
    def sitting_out(self) -> int | None:
        """The table seat that sits the deal out (the dealer at four), or None at three."""
        return self.dealer if self.size == 4 else None

    @property
    def players(self) -> tuple[int, int, int]:
        """The table seats of deal seats 0, 1 and 2."""
        if self.size == 3:
            return (0, 1, 2)
        d = self.dealer
        return ((d + 1) % 4, (d + 2) % 4, (d + 3) % 4)

    @property
    def deal_dealer(self) -> int:
        """The dealer's seat in the deal itself (at four, seat 2: the forehand is seat 0)."""
        return self.dealer if self.size == 3 else 2

    def table_seat(self, deal_seat: int) -> int:
        """The table seat of ``deal_seat``."""
        return self.players[deal_seat]

    def deal_seat(self, table_seat: int) -> int | None:
        """The deal seat of ``table_seat``; None for the one sitting out."""
        players = self.players
        return players.index(table_seat) if table_seat in players else None

    def to_table(self, per_deal_seat: Sequence[int], sitting_out: int = 0) -> tuple[int, ...]:
        """Values by deal seat laid out by table seat, ``sitting_out`` for the one who sits
        out (tricks, points: he takes none)."""
        values = [sitting_out] * self.size
        for deal_seat, table_seat in enumerate(self.players):
            values[table_seat] = per_deal_seat[deal_seat]
        return tuple(values)


@dataclasses.dataclass(frozen=True)
class TableContext:
    """What the three who play a deal at a table of four are told of the table before it
    (the protocol's table fields), and what scores it."""

    seating: Seating
    totals: tuple[int, ...]
    """Each table seat's cumulative score before the deal."""
    pules: Pules
    """The table's pules before the deal, owners by table seat."""

    @property
    def deal_pules(self) -> Pules:
        """The pules as the three who play see them: the common ones, and the personal ones
        of the players in the deal, owners by deal seat (the sitter's are in the table
        fields)."""
        seating = self.seating
        owners = [seating.deal_seat(owner) for owner in self.pules.personal]
        return Pules(self.pules.common, tuple(seat for seat in owners if seat is not None))

    @property
    def deal_totals(self) -> tuple[int, int, int]:
        """The totals of deal seats 0, 1 and 2."""
        a, b, c = (self.totals[seat] for seat in self.seating.players)
        return (a, b, c)

    def totals_after(self, score: TableScore) -> tuple[int, ...]:
        """Each table seat's total after the deal that ``score`` scored."""
        return tuple(total + change for total, change in zip(self.totals, score.scores,
                                                              strict=True))  # fmt: skip


def seating_of(deal_no: int, size: int) -> Seating:
    """Who plays deal ``deal_no`` (1-based) of a table of ``size``: dealt by table seat
    :func:`table_dealer_of`, who sits it out at four."""
    return Seating(size, table_dealer_of(deal_no, size))


def settle_pules(pules: Pules, size: int, payment: int) -> tuple[int, ...]:
    """What each table seat's total changes by when a match or round ends with ``pules``
    standing: each personal pule costs its owner ``payment`` to each other player at the
    table (a Latvian tournament's rule: "no šo puļu īpašnieka noraksta pa 1 punktam par labu
    pārējiem dalībniekiem"); common pules lapse, nobody having won them."""
    scores = [0] * size
    for owner in pules.personal:
        for seat in range(size):
            scores[seat] += -(size - 1) * payment if seat == owner else payment
    return tuple(scores)


@dataclasses.dataclass(frozen=True)
class TableScore:
    """A deal scored for its table: each table seat's change and the table's pules after it."""

    scores: tuple[int, ...]
    """By table seat; zero-sum."""
    pules: Pules
    """Owners by table seat."""
    pule_event: str | None
    """What happened to the pules, in words; None when they played no part."""


def score_at_table(rules: Rules, seating: Seating, result: DealResult, pules: Pules) -> TableScore:
    """Score a finished deal (a :class:`~zole_arena.game.state.DealState` among the three
    who play, in deal seats) for its table, whose pules stood at ``pules`` before it.

    The deal's own ``scores`` and ``pules`` are not read — at four they cannot know the one
    who sits out — only how it ended: the contract, soloist, band, points and tricks, the
    table game's losers, the forfeit. A forfeit costs the culprit the deal's penalty to each
    other player at the table (the sitting-out dealer too); the pules stay.
    """
    size = seating.size
    if result.forfeit is not None:
        culprit = seating.table_seat(result.forfeit)
        penalty = next(s for seat, s in enumerate(result.scores) if seat != result.forfeit)
        scores = tuple(-(size - 1) * penalty if t == culprit else penalty for t in range(size))
        return TableScore(scores, pules, None)
    if result.contract is Contract.PULE:
        after, event = pules_after_all_pass(pules, size)
        return TableScore((0,) * size, after, event)
    if result.contract is Contract.TABLE:
        losers = tuple(seating.table_seat(seat) for seat in result.losers)
        return TableScore(score_table_of(rules, losers, size), pules, None)
    if result.soloist is None or result.contract is None:
        raise ValueError("a deal with a soloist's contract needs its soloist")
    score = score_soloist(
        rules,
        result.contract,
        seating.table_seat(result.soloist),
        result.soloist_points or 0,
        result.soloist_tricks or 0,
        pules,
        size,
    )
    return TableScore(score.scores, score.pules, score.pule_event)


class TableSheet:
    """The score sheet of one table of three or four over a match or round: it deals each
    deal from the seed to the three who play (the dealer moving left, sitting out at four),
    scores it for the table, keeps the totals and the pules by table seat, and settles the
    pules at the end (:func:`settle_pules`).

    At three it keeps the same score as :class:`~zole_arena.game.scoresheet.ScoreSheet`.
    """

    def __init__(self, rules: Rules, seed: int, size: int = 4) -> None:
        if size not in TABLE_SIZES:
            raise ValueError(f"a table seats 3 or 4 players, not {size!r}")
        self.rules = rules
        self.seed = seed
        self.size = size
        self.results: list[TableScore] = []
        """Each finished deal scored for the table, in order."""
        self.totals = [0] * size
        """Each table seat's cumulative score."""
        self.pules: Pules = NO_PULES
        """The pules standing now, owners by table seat."""

    @property
    def next_deal_no(self) -> int:
        """The 1-based number of the next deal."""
        return len(self.results) + 1

    def seating(self, deal_no: int) -> Seating:
        """Who plays deal ``deal_no``."""
        return seating_of(deal_no, self.size)

    def context(self) -> TableContext:
        """The table before the next deal: its seating, totals and pules."""
        return TableContext(self.seating(self.next_deal_no), tuple(self.totals), self.pules)

    def next_deal(self) -> tuple[Seating, DealState]:
        """The next deal's seating and the deal among its three players (in deal seats: see
        :class:`Seating`). At four the deal is given no pules of its own: they are the
        table's, and :meth:`record` scores them."""
        deal_no = self.next_deal_no
        seating = self.seating(deal_no)
        pules = self.pules if self.size == 3 else NO_PULES
        deal = DealState.from_seed(
            self.rules, self.seed, deal_no, dealer=seating.deal_dealer, pules=pules
        )
        return seating, deal

    def record(self, result: DealResult) -> TableScore:
        """Score the result of the deal :meth:`next_deal` gave, for the table, and add it to
        the totals."""
        score = score_at_table(self.rules, self.seating(self.next_deal_no), result, self.pules)
        self.results.append(score)
        for seat, change in enumerate(score.scores):
            self.totals[seat] += change
        self.pules = score.pules
        return score

    def settle(self) -> tuple[int, ...]:
        """End the match or round: each personal pule standing costs its owner the rules'
        ``end_pule_payment`` to each other player; common pules lapse. Returns the
        changes (added to the totals); no pules stand after."""
        return settle_sheet(self)


class Sheet(Protocol):
    """A score sheet whose pules can be settled: a table's, or a three-player match's."""

    rules: Rules
    totals: list[int]
    pules: Pules


def settle_sheet(sheet: Sheet) -> tuple[int, ...]:
    """Settle the pules standing on ``sheet`` at the end of its match or round
    (:func:`settle_pules` at the rules' ``end_pule_payment``): add the changes to its totals,
    leave no pules, and return the changes."""
    changes = settle_pules(sheet.pules, len(sheet.totals), sheet.rules.end_pule_payment)
    for seat, change in enumerate(changes):
        sheet.totals[seat] += change
    sheet.pules = NO_PULES
    return changes
