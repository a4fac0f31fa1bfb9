"""A tournament's standings as its tables play: points and statistics per bot, Elo from the
deals so far, each table's progress, and the summary at the end."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Any

from zole_arena.arena.match import result_from_record
from zole_arena.arena.stop import Stop
from zole_arena.arena.summary import PlayerStats
from zole_arena.events.schedule import Table
from zole_arena.stats.ratings import (
    RatingError,
    RatingList,
    Unit,
    fit_elo,
    rate,
    units_from_records,
)

__all__ = [
    "Standings",
    "TableState",
    "TournamentSummary",
]


@dataclasses.dataclass
class Standings:
    """The tournament's figures so far, built from its deal records (live, or from a log).

    Points and per-role figures per bot as in a match, faults, and the rating data (each table
    is a duplicate match; its deals become pairwise games and its blocks bootstrap units; see
    :mod:`zole_arena.stats.ratings`).
    """

    names: Sequence[str]
    duplicate: bool
    players: dict[str, PlayerStats] = dataclasses.field(default_factory=dict)
    deals: int = 0
    _rating_records: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    _elo_at: tuple[int, dict[str, float]] | None = None

    def __post_init__(self) -> None:
        self.players = {name: PlayerStats(name) for name in self.names}

    def add(self, record: Mapping[str, Any]) -> None:
        """Count one deal record (one of this tournament's)."""
        result = result_from_record(record["result"])
        names = [p["name"] for p in record["players"]]
        for seat, name in enumerate(names):
            self._player(name).add(seat, result, result.scores[seat])
        for fault in record["faults"]:
            self._player(names[fault["seat"]]).faults += 1
        # Only what the rating needs, so that a long tournament stays small in memory.
        self._rating_records.append(
            {
                "type": "deal",
                "match_id": record["match_id"],
                "deal": record["deal"],
                "block": record["block"],
                "result": {"scores": list(result.scores)},
                "players": [{"name": name} for name in names],
            }
        )
        self.deals += 1

    def _player(self, name: str) -> PlayerStats:
        if name not in self.players:
            self.players[name] = PlayerStats(name)
        return self.players[name]

    def units(self) -> list[Unit]:
        """The rating data: one unit per duplicate block (or per deal) of every table."""
        headers = {r["match_id"]: r for r in self._rating_records}
        records: list[dict[str, Any]] = [
            {"type": "match", "match_id": match_id, "duplicate": self.duplicate}
            for match_id in headers
        ]
        return list(units_from_records([*records, *self._rating_records]).units)

    def quick_elo(self) -> dict[str, float]:
        """The maximum-likelihood ratings so far, without intervals (for the live view).

        Fitted once per number of deals: the ranking and the table that shows it ask in turn.
        """
        if self._elo_at is not None and self._elo_at[0] == self.deals:
            return self._elo_at[1]
        games = [game for unit in self.units() for game in unit.games()]
        players = {g.first for g in games} | {g.second for g in games}
        elo = fit_elo(games) if len(players) >= 2 else {}
        self._elo_at = (self.deals, elo)
        return elo

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
        table: dict[str, dict[str, tuple[float, int]]] = {}
        for unit in self.units():
            for game in unit.games():
                for a, b, score in (
                    (game.first, game.second, game.score),
                    (game.second, game.first, 1.0 - game.score),
                ):
                    won, played = table.setdefault(a, {}).get(b, (0.0, 0))
                    table[a][b] = (won + score, played + 1)
        return table


@dataclasses.dataclass
class TableState:
    """How far one table has got."""

    table: Table
    match_id: str
    names: tuple[str, str, str]
    planned: int
    deals: int = 0
    started: bool = False
    """Its match header is in the log."""
    stopped: Stop | None = None

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
        }


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

    @property
    def deals(self) -> int:
        """Deals played so far."""
        return self.standings.deals

    def ranking(self) -> list[str]:
        """The bots, strongest first: by rating when there is one, else by points per deal."""
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
        for name in self.ranking():
            entry = self.standings.players[name].to_dict()
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
