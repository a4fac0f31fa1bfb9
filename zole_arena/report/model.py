"""The report's typed values: what it shows of each log, bot, pair, table and deal.

:func:`~zole_arena.report.collect.collect` makes a :class:`ReportData` from logs; the page
(:mod:`~zole_arena.report.page`), its script's data (:mod:`~zole_arena.report.payload`) and
its sections read it. Kept apart from the reading so that each of them can name these values
without the reader, and the reader stays one job.
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from collections.abc import Mapping, Sequence
from fractions import Fraction

from zole_arena.analysis.fairplay_stats import FairplayReport
from zole_arena.analysis.model import DealAnalysis
from zole_arena.analysis.summary import BotAnalysis
from zole_arena.arena.summary import PlayerStats
from zole_arena.events.sprt import SprtResult
from zole_arena.game.actions import Contract
from zole_arena.game.scoring import Pules
from zole_arena.records.model import DealRecord, Fault
from zole_arena.stats.ratings import RatingList

__all__ = [
    "SOLO_CONTRACTS",
    "BotFigures",
    "BotIdentity",
    "FairplaySection",
    "LogSummary",
    "PairResult",
    "ReportData",
    "Settlement",
    "TableInfo",
    "ThinkTime",
    "WeightyDecision",
    "paid",
    "table_names",
]

#: The contracts played one against two, in the order the report lists them.
SOLO_CONTRACTS: tuple[Contract, ...] = (Contract.TAKE, Contract.ZOLE, Contract.SMALL_ZOLE)


@dataclasses.dataclass(frozen=True)
class ThinkTime:
    """How long a bot took over its decisions, as the arena timed them (milliseconds)."""

    moves: int
    median: float | None
    p95: float | None
    """The 95th percentile (nearest rank)."""
    max: float | None

    @classmethod
    def of(cls, times: Sequence[float]) -> ThinkTime:
        """The figures of a list of decision times (empty: no figures)."""
        if not times:
            return cls(0, None, None, None)
        ordered = sorted(times)
        count = len(ordered)
        p95 = ordered[max(0, math.ceil(0.95 * count) - 1)]
        return cls(count, statistics.median(ordered), p95, ordered[-1])


@dataclasses.dataclass(frozen=True)
class BotIdentity:
    """One way a bot was seen: what a header or its handshake said about it."""

    id_name: str
    author: str
    version: str
    command: tuple[str, ...]


@dataclasses.dataclass
class BotFigures:
    """One bot's figures over every deal of the report."""

    name: str
    stats: PlayerStats
    solo: dict[Contract, tuple[int, int]]
    """For each solo contract: (deals played as soloist, deals won)."""
    table_lost: int
    """Table games (galdiņš) in which the bot was a loser."""
    think: ThinkTime
    identities: list[BotIdentity]
    faults: list[tuple[int, Fault]]
    """The bot's faults, each with the index (in :attr:`ReportData.deals`) of its deal."""
    big_points: Fraction | None = None
    """In the ``lzf`` format's rounds, the big points of its places at its tables (by each
    table's points in the report, settles included); None: it sat at no such table."""


@dataclasses.dataclass(frozen=True)
class PairResult:
    """Two bots' head-to-head: the first one's score over their pairwise games."""

    score: float
    games: int

    @property
    def fraction(self) -> float:
        """The score as a fraction of the games."""
        return self.score / self.games if self.games else 0.5

    @property
    def elo(self) -> float | None:
        """The Elo difference this score means (None when all were won or all lost)."""
        fraction = self.fraction
        if fraction <= 0.0 or fraction >= 1.0:
            return None
        return -400.0 * math.log10(1.0 / fraction - 1.0)


@dataclasses.dataclass(frozen=True)
class TableInfo:
    """A match whose deals the report lists: a tournament's table, a test's, or a match."""

    log: int
    """Index of its log in :attr:`ReportData.logs`."""
    match_id: str
    label: str
    """How the deal list names it: ``table 3``, ``test match 1``, or its log's file name."""
    players: tuple[str, ...] = ()
    """Its players, as its header lists them (none: a match whose header is not in the logs)."""
    planned: int | None = None
    """The deals its header plans (None: no header)."""


@dataclasses.dataclass(frozen=True)
class Settlement:
    """The end of a table of four's match (a ``settle`` record): each personal pule still
    standing cost its owner the payment to each other player. Counted in the standings and
    in its match's results, as ``standings`` counts it."""

    table: int
    """Index of its match in :attr:`ReportData.tables`."""
    names: tuple[str, ...]
    """The players by table seat (the match header's order)."""
    pules: Pules
    """The pules that stood, owners by table seat."""
    payment: int
    """What each personal pule cost its owner, to each other player."""
    scores: tuple[int, ...]
    """Each player's change, by table seat."""


def paid(record: DealRecord) -> list[tuple[str, int]]:
    """What each player at a deal's table was paid, by name: the three who played (by deal
    seat; at a table of four the table's scores, not the engine's three-player figure), then
    at a table of four the one who sat the deal out (he pays or collects as an opponent;
    left out of a forged deal in which he also plays, as the standings leave him out)."""
    scores = list(zip(record.names, record.seat_scores, strict=True))
    sitter = record.sitter
    return scores if sitter is None or sitter[0] in record.names else [*scores, sitter]


def table_names(record: DealRecord) -> tuple[str, ...] | None:
    """At a table of four, the players by table seat as the deal names them (the three who
    played and the one who sat out); None at three."""
    table = record.table
    if table is None:
        return None
    seats = (*record.seating, table.dealer)
    if sorted(seats) != list(range(table.size)):  # the readers' checks see to it
        return None
    names = [""] * table.size
    for seat, player in enumerate(record.seating):
        names[player] = record.names[seat]
    names[table.dealer] = table.sitter.name
    return tuple(names)


@dataclasses.dataclass(frozen=True)
class LogSummary:
    """One log of the report."""

    path: str
    kind: str
    """``match``, ``tournament`` or ``sprt``."""
    deals: int
    digest: str | None
    problems: tuple[str, ...]
    """Lines that could not be used, one message each."""
    rules: str
    hash_chain: bool
    """Whether the log has a hash chain (format 2; a format-1 log's edits cannot be found)."""
    chain_break: int | None
    """The first line whose ``prev`` is not the hash of the line before (an edited log: its
    digest vouches for nothing), or None."""
    sprt: SprtResult | None = None
    """A head-to-head test's result, computed again from its log."""
    left_out: int = 0
    """Deals that ``verify`` finds wrong (an edited or forged log): not counted anywhere."""
    analysis: str | None = None
    """The analysis file read beside the log (``LOG.analysis.jsonl``), or None: none there."""
    analysed: int = 0
    """The log's deals (of those the report counts) whose analysis the file holds and fits."""


@dataclasses.dataclass(frozen=True, slots=True)
class WeightyDecision:
    """A screened card of a bot, among those that weigh most towards its statistic."""

    deal: int
    """Index of its deal in :attr:`ReportData.deals`."""
    move: int
    """Its index in the deal record's ``moves``."""
    seat: int
    excess: float
    """How much more often the card is best in the true deal than in the drawn ones
    (:attr:`~zole_arena.analysis.fairplay.ScreenedDecision.excess`)."""


@dataclasses.dataclass(frozen=True)
class FairplaySection:
    """What the report shows of the fair-play screens beside its logs."""

    findings: FairplayReport
    """The statistics over the report's screened deals
    (:func:`~zole_arena.analysis.fairplay_stats.fairplay_report`)."""
    screened: int
    """The report's deals that a fair-play file holds a screen of."""
    deals: int
    """The report's deals."""
    files: tuple[str, ...]
    """The fair-play files read."""
    unscreened_logs: tuple[str, ...]
    """The logs some of whose deals in the report have no screen (``zole-arena fairplay``
    screens them)."""
    unscreened_bots: frozenset[str]
    """The bots that played a deal of the report that has no screen: a bot not flagged on its
    screened deals is not cleared of the others (a screen's lines can be lost or removed)."""
    weighty: Mapping[str, tuple[WeightyDecision, ...]]
    """Each bot's screened decisions of the largest excess, up to
    :data:`~zole_arena.report.fairplay_section.WEIGHTY` (among equals the earlier in the logs
    first)."""


@dataclasses.dataclass
class ReportData:
    """Everything a report shows."""

    logs: list[LogSummary]
    deals: list[DealRecord]
    """Every deal, in the order of the logs and of each log's records."""
    deal_tables: list[int]
    """For each deal, the index of its match in :attr:`tables`."""
    tables: list[TableInfo]
    bots: list[BotFigures]
    """Strongest first: by rating when there is one, else by points per deal."""
    pairs: dict[tuple[str, str], PairResult]
    """Every pair of bots that met, both ways round."""
    ratings: RatingList | None
    history: list[RatingList]
    """The rating list at checkpoints through the deals (for the chart)."""
    warnings: list[str]
    analyses: list[DealAnalysis | None] = dataclasses.field(default_factory=list)
    """For each deal, its open-card analysis (``zole-arena analyze``) from the analysis file
    beside its log, when that file holds one that fits it; else None."""
    analysis: dict[str, BotAnalysis] = dataclasses.field(default_factory=dict)
    """Each bot's summary of the analysed deals (bots with no analysed decision left out)."""
    settlements: list[Settlement] = dataclasses.field(default_factory=list)
    """The pules settled at the end of tables of four's matches (counted in the points)."""
    fairplay: FairplaySection | None = None
    """What the fair-play screens beside the logs (``zole-arena fairplay``) found in the
    deals; None: no log has one."""

    @property
    def analysed(self) -> int:
        """How many of the deals have an analysis."""
        return sum(analysis is not None for analysis in self.analyses)
