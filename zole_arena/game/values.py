"""The values a deal shows and produces: its phase, its tricks, what one seat may see, and its
result. Immutable, so that a view or a result handed to a bot or a log cannot change the deal."""

from __future__ import annotations

import dataclasses
import enum
from typing import NamedTuple

from zole_arena.game.actions import Action, Bid, Contract
from zole_arena.game.cards import (
    POINTS,
    Card,
)
from zole_arena.game.scoring import (
    NO_PULES,
    WINNING_BANDS,
    Band,
    Pules,
)

__all__ = [
    "DealResult",
    "Phase",
    "SeatView",
    "Trick",
    "dealer_of",
]


class Phase(enum.Enum):
    """Where a deal stands."""

    BIDDING = "bidding"
    BURYING = "burying"
    PLAYING = "playing"
    DONE = "done"

    def __str__(self) -> str:
        return self.value


class Trick(NamedTuple):
    """A finished trick: who led, the three cards in the order played, who won it."""

    leader: int
    cards: tuple[Card, Card, Card]
    winner: int

    @property
    def points(self) -> int:
        """Card points in the trick."""
        return POINTS[self.cards[0]] + POINTS[self.cards[1]] + POINTS[self.cards[2]]

    def seat_of(self, index: int) -> int:
        """The seat that played ``cards[index]``."""
        return (self.leader + index) % 3


def dealer_of(deal_no: int) -> int:
    """The dealer of deal ``deal_no`` (1-based) of a match: seat 2 deals first, so that seat 0
    is the forehand of deal 1; the deal then passes to the left (§2).
    """
    return (deal_no + 1) % 3


class DealResult(NamedTuple):
    """How a deal ended and what it scored. Every field is public knowledge at the end.

    (A named tuple rather than a dataclass: it is built once per deal on the engine's hot path.)
    """

    contract: Contract | None
    """None only for a deal forfeited before bidding ended."""
    soloist: int | None
    scores: tuple[int, int, int]
    """Change of each seat's total (zero-sum)."""
    tricks: tuple[int, int, int]
    """Tricks taken by each seat."""
    points: tuple[int, int, int]
    """Card points in each seat's tricks (not counting buried cards or the talon)."""
    band: Band | None = None
    """For a soloist's game: all_tricks, high_win, win, loss, high_loss or no_tricks."""
    soloist_points: int | None = None
    """The soloist's points as scored: tricks plus buried cards after a take."""
    soloist_tricks: int | None = None
    losers: tuple[int, ...] = ()
    """The losers of a table game."""
    pules: Pules = NO_PULES
    """The pules after the deal."""
    pule_event: str | None = None
    ended_early: bool = False
    """A small zole stopped at the soloist's first trick."""
    forfeit: int | None = None
    """The seat that forfeited the deal by a fault (see :func:`forfeit_result`), or None."""

    @property
    def won(self) -> bool | None:
        """Whether the soloist won; None when there was no soloist."""
        if self.soloist is None:
            return None
        return self.band in WINNING_BANDS


@dataclasses.dataclass(frozen=True)
class SeatView:
    """Everything one seat may know about a deal, and nothing else.

    The soloist who took the talon sees the talon and what he buried; nobody else ever sees
    them, nor another seat's hand. Played cards, bids and trick winners are public.
    """

    seat: int
    dealer: int
    forehand: int
    rules: str
    phase: Phase
    turn: int | None
    hand: tuple[Card, ...]
    bids: tuple[tuple[int, Bid], ...]
    contract: Contract | None
    soloist: int | None
    talon: tuple[Card, ...] | None
    buried: tuple[Card, ...] | None
    tricks: tuple[Trick, ...]
    trick: tuple[Card, ...]
    """Cards played so far to the unfinished trick, in order."""
    trick_leader: int | None
    tricks_won: tuple[int, int, int]
    pules: Pules
    legal_actions: tuple[Action, ...]
    """What this seat may do now; empty when it is not this seat's turn."""
    result: DealResult | None
