"""A tournament's standings as its tables play: points and statistics per bot, Elo from the
deals so far, each table's progress, and the summary at the end."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from zole_arena.arena.stop import Stop
from zole_arena.arena.summary import PlayerStats
from zole_arena.events.schedule import Table
from zole_arena.records.model import DealRecord, SettleRecord
from zole_arena.stats.ratings import RatingError, RatingList, Unit, rate
from zole_arena.stats.rounds import RoundStandings
from zole_arena.stats.tally import ResultTally
from zole_arena.stats.units import deal_keys

__all__ = [
    "Standings",
    "TableState",
    "TournamentSummary",
]


@dataclasses.dataclass
class Standings:
    """The tournament's figures so far, counted deal by deal (live, or from a log).

    Points, per-role and time figures per bot as in a match, faults, and the rating data
    (each table is a duplicate match; its deals become pairwise games and its blocks bootstrap
    units; see :mod:`zole_arena.stats.ratings`), kept by a
    :class:`~zole_arena.stats.tally.ResultTally` so that a redraw after every deal costs no
    more late in a long tournament than early.
    """

    names: Sequence[str]
    duplicate: bool
    players: dict[str, PlayerStats] = dataclasses.field(default_factory=dict)
    tally: ResultTally = dataclasses.field(init=False)

    def __post_init__(self) -> None:
        self.players = {name: PlayerStats(name) for name in self.names}
        self.tally = ResultTally(self.duplicate)

    @property
    def deals(self) -> int:
        """Deals counted so far."""
        return self.tally.deals

    def add(self, record: DealRecord) -> None:
        """Count one deal record (one of this tournament's)."""
        result = record.result
        names = record.names
        keys = deal_keys(record)
        scores = record.seat_scores
        for seat, name in enumerate(names):
            self._player(name).add(seat, result, scores[seat], keys[1])
        sitter = record.sitter
        if sitter is not None:
            self._player(sitter[0]).add(None, result, sitter[1], keys[1])
        for move in record.moves:
            self._player(names[move.seat]).add_move(move)
        for fault in record.faults:
            self._player(names[fault.seat]).faults += 1
        for seat, lines in enumerate(record.stray):
            self._player(names[seat]).stray_lines += lines
        self.tally.add(
            record.match_id,
            record.deal,
            record.block,
            dict(zip(names, scores, strict=True)),
            keys,
        )

    def add_settle(self, names: Sequence[str], record: SettleRecord) -> None:
        """Count a table's pules settled at its end (``names``: its players by table seat):
        points, not deals."""
        for name, change in zip(names, record.scores, strict=True):
            self._player(name).points += change

    def _player(self, name: str) -> PlayerStats:
        if name not in self.players:
            self.players[name] = PlayerStats(name)
        return self.players[name]

    def units(self) -> list[Unit]:
        """The rating data: one unit per duplicate block (or per deal) of every table."""
        return self.tally.units()

    def quick_elo(self) -> dict[str, float]:
        """The maximum-likelihood ratings so far, without intervals (for the live view)."""
        return self.tally.elo()

    def ratings(self, bootstrap: int, seed: int = 0) -> RatingList | None:
        """The rating list with bootstrap intervals, or None before there is enough to rate."""
        units = self.units()
        if not units:
            return None
        try:
            return rate(units, bootstrap=bootstrap, seed=seed)
        except RatingError:
            return None

    def head_to_head(self) -> dict[str, dict[str, tuple[float, int]]]:
        """For each two bots: (the row bot's score, pairwise games), as ratings count them."""
        return self.tally.head_to_head()


@dataclasses.dataclass
class TableState:
    """How far one table has got."""

    table: Table
    match_id: str
    names: tuple[str, ...]
    planned: int
    deals: int = 0
    started: bool = False
    """Its match header is in the log."""
    stopped: Stop | None = None
    settled: bool = False
    """Its ``settle`` record is in the log."""
    big: tuple[Fraction, ...] | None = None
    """In the ``lzf`` format, once its round has ended: its players' big points."""

    @property
    def finished(self) -> bool:
        """All its deals are played, or it stopped for good (a disqualification)."""
        return self.deals >= self.planned or (
            self.stopped is not None and not self.stopped.interrupted
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready state."""
        return {
            "table": self.table.number,
            "match_id": self.match_id,
            "players": list(self.names),
            "deals": self.deals,
            "planned": self.planned,
            "stopped": None if self.stopped is None else str(self.stopped),
        } | (
            {}
            if self.table.round is None
            else {
                "round": self.table.round,
                "big_points": None if self.big is None else [float(b) for b in self.big],
            }
        )


@dataclasses.dataclass
class TournamentSummary:
    """A tournament's outcome so far."""

    standings: Standings
    tables: list[TableState]
    planned: int
    stopped: Stop | None = None
    log: str | None = None
    ratings: RatingList | None = None
    """The rating list with intervals (filled at the end)."""
    digest: str | None = None
    """The log's digest so far (``sha256:`` and the hash of its last line)."""
    rounds: RoundStandings | None = None
    """The ``lzf`` format's big points and rounds (None in the other formats)."""

    @property
    def deals(self) -> int:
        """Deals played so far."""
        return self.standings.deals

    def ranking(self) -> list[str]:
        """The bots, strongest first: by rating when there is one, else by points per deal;
        in the ``lzf`` format, by big points, then points (then the first round's draw)."""
        if self.rounds is not None:
            names = list(self.standings.names)
            return [names[p] for p in self.rounds.ranking()]
        if self.ratings is not None:
            rated = [r.name for r in self.ratings.ratings]
            return rated + [n for n in self.standings.players if n not in rated]
        elo = self.standings.quick_elo()
        return sorted(
            self.standings.players,
            key=lambda n: (-elo.get(n, -math.inf), -self.standings.players[n].mean, n),
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary: ``standings`` (strongest first), ``tables``, ``head_to_head``."""
        rating = {r.name: r for r in self.ratings.ratings} if self.ratings else {}
        elo = self.standings.quick_elo() if not rating else {}
        standings = []
        big = {}
        if self.rounds is not None:
            big = {e["name"]: e["big_points"] for e in self.rounds.to_dict(self.standings.names)}
        for name in self.ranking():
            entry = self.standings.players[name].to_dict()
            if name in big:
                entry["big_points"] = big[name]
            if name in rating:
                entry.update(rating[name].to_dict())
            else:
                entry.update(elo=round(elo[name], 2) if name in elo else None)
            standings.append(entry)
        h2h = self.standings.head_to_head()
        return {
            "deals": self.deals,
            "planned": self.planned,
            "stopped": None if self.stopped is None else str(self.stopped),
            "log": self.log,
            "digest": self.digest,
            "standings": standings,
            "tables": [t.to_dict() for t in self.tables],
            "head_to_head": {
                a: {b: {"score": round(s, 2), "games": g} for b, (s, g) in row.items()}
                for a, row in h2h.items()
            },
            "method": self.ratings.method if self.ratings else None,
        }
