"""The ``lzf`` format: a tournament played as the Latvian federation plays one.

The field plays several **rounds**. In each round the entrants sit at tables of four (and of
three where the field does not divide by four: :func:`~zole_arena.stats.reseating.
table_sizes`), each table a match of the round's deals in which the dealer sits each deal
out (:mod:`zole_arena.game.table`). Every table of a round plays the **same deals**, from the
round's seed (:func:`round_seed`): deal *n* of the round gives the same three hands and talon
at every table, to the three who play it. That is as duplicate as tables of four can be: the
cards are shared, but not who holds them (each table's players hold them in their own seats).
A table of three plays the same deals with nobody sitting out. A round's pules are settled
at its end (each personal pule costs its owner 1 to each other player at the table).

After the round each table's players earn **big points** for their places at the table
(:mod:`~zole_arena.stats.bigpoints`: 6 / 4 / 2 / 0 at four, 6 / 3 / 0 at three, shared
places split). The standings rank by big points, then by points, then by the first round's
draw; the next round is seated from that ranking, Swiss-like, avoiding repeat meetings
(:func:`~zole_arena.stats.reseating.reseat`). Round 1's tables are a draw from the seed.

Everything here is pure: the rounds' tables follow from the seed and the results alone, so
``verify`` and ``--resume`` compute them again from a log.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Collection, Iterable, Mapping, Sequence
from fractions import Fraction

from zole_arena.stats.bigpoints import big_points
from zole_arena.stats.reseating import first_round, meetings, reseat

__all__ = [
    "RoundStandings",
    "RoundTable",
    "disqualified_seats",
    "places_points",
    "round_seed",
    "seats_out",
]


def round_seed(seed: int, round_no: int) -> int:
    """The seed of round ``round_no``'s deals (every table of the round plays them): the
    first 8 bytes of SHA-256 of ``"<seed>/round/<round>"``, so that rounds deal different
    cards and anyone can compute them."""
    digest = hashlib.sha256(f"{seed}/round/{round_no}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclasses.dataclass(frozen=True)
class RoundTable:
    """A finished table of a round, as its close counts it."""

    players: Sequence[int]
    """Its entrants, by table seat."""
    totals: Sequence[int]
    """Their final points there (settled pules included), by table seat."""
    faults: Mapping[int, int]
    """Each table seat's faults there."""
    stopped_early: bool
    """Whether it stopped before its last deal (a bot disqualified there)."""


@dataclasses.dataclass
class RoundStandings:
    """The standings of an ``lzf`` tournament as its rounds end: each entrant's big points
    and points, the tables of every round, and the next round's tables."""

    entrants: int
    seed: int
    big: list[Fraction] = dataclasses.field(init=False)
    """Each entrant's big points so far."""
    points: list[int] = dataclasses.field(init=False)
    """Each entrant's points so far (settled pules included)."""
    rounds: list[tuple[tuple[int, ...], ...]] = dataclasses.field(default_factory=list)
    """The tables of each round begun, entrants by table seat."""
    draw: list[int] = dataclasses.field(init=False)
    """The entrants in the order of round 1's draw: the last tie-break."""

    def __post_init__(self) -> None:
        self.big = [Fraction(0)] * self.entrants
        self.points = [0] * self.entrants
        first = first_round(self.entrants, self.seed)
        self.draw = [player for table in first for player in table]

    def next_tables(self) -> tuple[tuple[int, ...], ...]:
        """The tables of the next round (and count it as begun): round 1's by the draw, a
        later one's by reseating from the standings."""
        if not self.rounds:
            tables = first_round(self.entrants, self.seed)
        else:
            tables = reseat(self.ranking(), meetings(self.rounds))
        self.rounds.append(tables)
        return tables

    def add_table(
        self,
        players: Sequence[int],
        totals: Sequence[int],
        disqualified: Collection[int] = (),
    ) -> tuple[Fraction, ...]:
        """Count a finished table of the round: its entrants (by table seat), their final
        points there, and the table seats disqualified there (:func:`places_points`).
        Returns their big points."""
        won = big_points(places_points(totals, disqualified))
        for player, points, big in zip(players, totals, won, strict=True):
            self.points[player] += points
            self.big[player] += big
        return won

    def close_round(
        self, tables: Iterable[RoundTable], max_faults: int
    ) -> list[tuple[Fraction, ...]]:
        """Count the finished tables of a round (:meth:`add_table`), each table's seats past
        ``max_faults`` put last when it stopped early (:func:`seats_out`). Returns each
        table's big points. The one place the tournament, ``verify`` and the report close a
        round."""
        return [
            self.add_table(t.players, t.totals, seats_out(t.faults, max_faults, t.stopped_early))
            for t in tables
        ]

    def ranking(self) -> list[int]:
        """The entrants, first place first: by big points, then points, then the draw."""
        place = {player: index for index, player in enumerate(self.draw)}
        return sorted(range(self.entrants), key=lambda p: (-self.big[p], -self.points[p], place[p]))

    def to_dict(self, names: Sequence[str]) -> list[dict[str, object]]:
        """JSON-ready standings, first place first."""
        return [
            {"name": names[p], "big_points": float(self.big[p]), "points": self.points[p]}
            for p in self.ranking()
        ]


def places_points(totals: Sequence[int], disqualified: Collection[int]) -> list[int]:
    """The points a table's places are decided by: its players' points, except that a player
    disqualified there (past the fault limit: the table stopped early) takes the last place,
    whatever his points — a leader cannot end his table early by faulting on purpose and keep
    first place. Several disqualified share the last places by their points."""
    if not disqualified:
        return list(totals)
    floor = min(totals) - max(totals) - 1  # below every player who was not disqualified
    return [points + floor - 1 if seat in disqualified else points
            for seat, points in enumerate(totals)]  # fmt: skip


def disqualified_seats(faults: Mapping[int, int], max_faults: int) -> set[int]:
    """The table seats past the fault limit (``faults``: each seat's faults at the table)."""
    return {seat for seat, count in faults.items() if count > max_faults}


def seats_out(faults: Mapping[int, int], max_faults: int, stopped_early: bool) -> set[int]:
    """The table seats a finished table of a round puts last (:func:`places_points`): those
    past the fault limit at a table their disqualification stopped early; none at a table that
    played all its deals (its faults cost what its deals say)."""
    return disqualified_seats(faults, max_faults) if stopped_early else set()
