"""What an analysis holds: typed values for each decision of a deal and for a whole deal.

A **decision** is a move of a bot with more than one legal choice (a forced card is no
decision; a move the arena made for a faulted bot is not the bot's). For each one the analysis
keeps the open-card value of every legal action for the seat that decided, in that deal's
points (its score for the deal): see ``docs/analysis.md`` for what that value is and is not.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Final

__all__ = [
    "ActionValue",
    "DealAnalysis",
    "Decision",
    "Phase",
    "Role",
    "Severity",
    "Thresholds",
]


class Phase(enum.StrEnum):
    """The kind of a decision."""

    BID = "bid"
    BURY = "bury"
    PLAY = "play"


class Role(enum.StrEnum):
    """Who decided: a bidder, or a player's part in the deal's play (the bury is the soloist's)."""

    BIDDER = "bidder"
    SOLOIST = "soloist"
    DEFENDER = "defender"
    TABLE = "table"
    """A player of the table game (all passed)."""


class Severity(enum.StrEnum):
    """How bad a loss is, by the thresholds of :class:`Thresholds` (chess's ?!, ?, ??)."""

    NONE = "none"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


@dataclasses.dataclass(frozen=True, slots=True)
class Thresholds:
    """The losses (in the deal's points) from which a decision is a mistake or a blunder.

    Any smaller loss above zero is an inaccuracy. :meth:`for_swing` gives the defaults.
    """

    mistake: int
    blunder: int

    @classmethod
    def for_swing(cls, swing: int) -> Thresholds:
        """The defaults from a rules' **swing**, what a take's win is worth to one defender
        more than its loss (``take.win - take.loss``: 9 in ``wpt``, 3 in ``lzf``): a mistake
        costs at least one swing (a defender who lets a lost take be won), a blunder two (a
        soloist who lets his won take be lost)."""
        return cls(mistake=swing, blunder=2 * swing)

    def severity(self, loss: int) -> Severity:
        """The class of a loss."""
        if loss >= self.blunder:
            return Severity.BLUNDER
        if loss >= self.mistake:
            return Severity.MISTAKE
        if loss > 0:
            return Severity.INACCURACY
        return Severity.NONE


@dataclasses.dataclass(frozen=True, slots=True)
class ActionValue:
    """One legal action and its open-card value for the seat deciding."""

    action: str
    """As the protocol and the log write it: ``pass``, ``QC 9H``, ``TD``."""
    value: int


@dataclasses.dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a deal with the value of every legal action."""

    move: int
    """Its index in the deal record's ``moves`` (from 0)."""
    seat: int
    player: str
    """The name of the bot in that seat."""
    phase: Phase
    role: Role
    action: str
    """The action taken."""
    values: tuple[ActionValue, ...]
    """Every legal action (equal actions each listed), in the rules' order."""

    @property
    def best(self) -> int:
        """The best value of any legal action."""
        return max(v.value for v in self.values)

    @property
    def value(self) -> int:
        """The value of the action taken."""
        for v in self.values:
            if v.action == self.action:
                return v.value
        raise ValueError(f"the action taken, {self.action}, is not among the values")

    @property
    def loss(self) -> int:
        """Best minus taken: what the decision gave away with all cards open (0 or more)."""
        return self.best - self.value

    @property
    def best_actions(self) -> tuple[str, ...]:
        """The actions of the best value."""
        best = self.best
        return tuple(v.action for v in self.values if v.value == best)


#: Version of the analysis records' format and of the values' definition: a cached analysis
#: of another version is solved again.
ANALYSIS_VERSION: Final = 1


@dataclasses.dataclass(frozen=True, slots=True)
class DealAnalysis:
    """The analysis of one deal record, keyed to it by the SHA-256 of its log line."""

    deal_sha256: str
    match_id: str
    deal: int
    """The deal's number in its match."""
    rules: str
    """The preset the deal was played under (``wpt``, ``lzf``), for the thresholds."""
    swing: int
    """The rules' swing (:meth:`Thresholds.for_swing`)."""
    players: tuple[str, str, str]
    """The bot in each seat."""
    decisions: tuple[Decision, ...]
    complete: bool = True
    """False when the deal could not be followed to its end (a forfeit, or a record the
    engine does not accept): its decisions before that point are still analysed."""
    note: str = ""
    """Why the analysis is incomplete."""

    @property
    def thresholds(self) -> Thresholds:
        """The default thresholds for this deal's rules."""
        return Thresholds.for_swing(self.swing)
