"""A match's results as they come: each deal's report, each player's statistics, the summary."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Hashable, Sequence
from typing import Any

from zole_arena.arena.stop import Stop
from zole_arena.game.actions import Contract
from zole_arena.game.state import DealResult
from zole_arena.records.model import DealRecord, Fault, Move, SettleRecord
from zole_arena.stats.student import two_sided_quantile

__all__ = [
    "DealReport",
    "MatchTally",
    "PlayerStats",
    "Summary",
]


@dataclasses.dataclass(frozen=True)
class DealReport:
    """One finished deal as the match reports it: by player, not by seat."""

    number: int
    block: int
    seating: tuple[int, int, int]
    result: DealResult
    scores: tuple[int, ...]
    """Each player's change in this deal (at a table of four, the one who sat out too)."""
    faults: int
    moves: tuple[Move, ...] = ()
    """The deal's moves (by seat: ``seating[move.seat]`` is whose), with their think times
    and clocks."""
    stray: tuple[int, int, int] = (0, 0, 0)
    """By seat: the lines that were no protocol message."""
    sitting_out: int | None = None
    """At a table of four, the player who sat the deal out."""

    @classmethod
    def of_record(cls, record: DealRecord) -> DealReport:
        """The report of a deal a log keeps."""
        scores = record.player_scores
        return cls(
            record.deal,
            record.block,
            record.seating,
            record.result,
            tuple(scores.get(player, 0) for player in range(max(scores) + 1)),
            len(record.faults),
            record.moves,
            record.stray,
            None if record.table is None else record.table.dealer,
        )


@dataclasses.dataclass
class PlayerStats:
    """One player's figures over a match (or a tournament, or any logs)."""

    name: str
    deals: int = 0
    points: int = 0
    soloist: int = 0
    soloist_won: int = 0
    soloist_points: int = 0
    partner: int = 0
    partner_points: int = 0
    table: int = 0
    table_points: int = 0
    forfeited: int = 0
    """Deals stopped by a fault (of any player): counted in points, not in the roles."""
    sat_out: int = 0
    """Deals it sat out as the dealer at a table of four: counted in deals and points (the
    dealer pays or collects as an opponent), not in the roles."""
    faults: int = 0
    stray_lines: int = 0
    """Lines the bot wrote on its stdout that are no protocol message (ignored; not faults:
    :attr:`~zole_arena.records.model.DealRecord.stray`)."""
    decisions: int = 0
    """Decisions the bot made (answers to requests; not the moves played for it)."""
    think_ms: float = 0.0
    """Its think time over them, in milliseconds."""
    think_max_ms: float = 0.0
    clock_low_ms: int | None = None
    """Under a game clock, the least it had left after a move; None: no clock."""
    _clusters: dict[Hashable, tuple[int, int]] = dataclasses.field(
        default_factory=dict, repr=False, compare=False
    )
    """The points and deals of the player in each cluster (:meth:`add`)."""
    _sums: list[int] = dataclasses.field(
        default_factory=lambda: [0, 0, 0], repr=False, compare=False
    )
    """Over the clusters: Σ points², Σ points·deals, Σ deals² (kept as deals are added, so
    that the interval costs the same late in a long event as early)."""

    def add_move(self, move: Move) -> None:
        """Count the time one of this player's moves took (and its clock): a decision, unless
        the arena played it for the bot."""
        if move.request_id is None:
            return
        self.decisions += 1
        think = round(move.think_ms or 0.0, 3)  # as the log keeps it: standings agree
        self.think_ms += think
        self.think_max_ms = max(self.think_max_ms, think)
        if move.clock_ms is not None:
            low = self.clock_low_ms
            self.clock_low_ms = move.clock_ms if low is None else min(low, move.clock_ms)

    @property
    def think_mean_ms(self) -> float:
        """Think time per decision, in milliseconds."""
        return self.think_ms / self.decisions if self.decisions else 0.0

    def add(
        self, seat: int | None, result: DealResult, score: int, cluster: Hashable | None = None
    ) -> None:
        """Count one deal in which this player sat in ``seat`` (None: sat it out, at a table
        of four) and scored ``score``.

        :param cluster: what the deal shares its cards with, for the interval: deals of one
            cluster are one sample (a duplicate block's number in a match; the seed's deal,
            :func:`~zole_arena.stats.units.deal_keys`, across the tables of a tournament or
            logs). None: the deal shares them with no other.
        """
        key = (None, self.deals) if cluster is None else cluster
        self.deals += 1
        self.points += score
        points, deals = self._clusters.get(key, (0, 0))
        sums = self._sums
        sums[0] += (points + score) ** 2 - points**2
        sums[1] += (points + score) * (deals + 1) - points * deals
        sums[2] += (deals + 1) ** 2 - deals**2
        self._clusters[key] = (points + score, deals + 1)
        if seat is None:
            self.sat_out += 1
        elif result.forfeit is not None:
            self.forfeited += 1
        elif result.contract is Contract.TABLE:
            self.table += 1
            self.table_points += score
        elif result.soloist is not None:
            if result.soloist == seat:
                self.soloist += 1
                self.soloist_points += score
                if result.won:
                    self.soloist_won += 1
            else:
                self.partner += 1
                self.partner_points += score

    @property
    def mean(self) -> float:
        """Points per deal."""
        return self.points / self.deals if self.deals else 0.0

    @property
    def clusters(self) -> int:
        """The independent samples of the points per deal: deals, or groups of deals with the
        same cards (a duplicate block; the same block at every table of a tournament)."""
        return len(self._clusters)

    @property
    def interval(self) -> float:
        """Half-width of the 95% confidence interval of the points per deal (infinite below two
        clusters).

        The cluster-robust standard error of a mean over *G* clusters — the clusters' points
        less the mean times their deals, squared, summed, times G / (G − 1), over the deals
        squared — and Student's t quantile with G − 1 degrees of freedom. For deals that share
        no cards this is the textbook interval of a mean: sample variance over n, t(n − 1).
        """
        count = len(self._clusters)
        if count < 2:
            return math.inf
        mean = self.points / self.deals
        squares, products, deals = self._sums
        spread = max(squares - 2 * mean * products + mean * mean * deals, 0.0)
        variance = count / (count - 1) * spread / (self.deals * self.deals)
        return two_sided_quantile(0.95, count - 1) * math.sqrt(variance)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures."""
        return {
            "name": self.name,
            "deals": self.deals,
            "points": self.points,
            "points_per_deal": self.mean,
            "ci95": None if math.isinf(self.interval) else self.interval,
            "as_soloist": {
                "deals": self.soloist,
                "won": self.soloist_won,
                "points": self.soloist_points,
            },
            "as_partner": {"deals": self.partner, "points": self.partner_points},
            "table_games": {"deals": self.table, "points": self.table_points},
            "forfeited_deals": self.forfeited,
            **({"sat_out": self.sat_out} if self.sat_out else {}),
            "faults": self.faults,
            "stray_lines": self.stray_lines,
            "time": {
                "decisions": self.decisions,
                "think_ms": round(self.think_ms, 3),
                "mean_ms": round(self.think_mean_ms, 3),
                "max_ms": round(self.think_max_ms, 3),
                "clock_low_ms": self.clock_low_ms,
            },
        }


@dataclasses.dataclass
class Summary:
    """A match's outcome so far."""

    players: list[PlayerStats]
    deals: int = 0
    planned: int = 0
    stopped: Stop | None = None
    """Why the match stopped before its last deal (interrupted, disqualified), or None."""
    log: str | None = None
    fault_lines: list[str] = dataclasses.field(default_factory=list)
    digest: str | None = None
    """The log's digest (``sha256:`` and the hash of its last line) so far, when the match
    writes a log of its own: published, it pins every record (``verify --digest``)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary."""
        return {
            "deals": self.deals,
            "planned": self.planned,
            "stopped": None if self.stopped is None else str(self.stopped),
            "log": self.log,
            "digest": self.digest,
            "players": [p.to_dict() for p in self.players],
            "faults": self.fault_lines,
        }


class MatchTally:
    """A match's figures, counted deal by deal: the one count of a match's results, which the
    match keeps as it plays (and as it is resumed) and every reader of its log
    (``standings``) keeps from its records, so that the two cannot differ."""

    def __init__(self, names: Sequence[str]) -> None:
        self.stats = [PlayerStats(name) for name in names]
        """Each player's figures, in the order of the match's players."""
        self.fault_lines: list[str] = []
        """Every fault, one line each, in the order made."""

    def add(self, report: DealReport, faults: Sequence[Fault] = ()) -> None:
        """Count one finished deal and its faults."""
        stats, seating = self.stats, report.seating
        for seat, player in enumerate(seating):
            stats[player].add(seat, report.result, report.scores[player], report.block)
        if report.sitting_out is not None:
            player = report.sitting_out
            stats[player].add(None, report.result, report.scores[player], report.block)
        for move in report.moves:
            stats[seating[move.seat]].add_move(move)
        for seat, lines in enumerate(report.stray):
            stats[seating[seat]].stray_lines += lines
        for fault in faults:
            stats[fault.player].faults += 1
            self.fault_lines.append(fault.describe())

    def add_record(self, record: DealRecord) -> None:
        """Count one deal record."""
        self.add(DealReport.of_record(record), record.faults)

    def add_settle(self, record: SettleRecord) -> None:
        """Count the pules settled at a table's end: points, not deals."""
        for player, change in enumerate(record.scores):
            self.stats[player].points += change
