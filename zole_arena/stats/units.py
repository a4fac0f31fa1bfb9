"""Rating data from game logs: every deal's pairwise games, grouped into units.

How a log becomes rating data
-----------------------------

Zole is a three-player game, and a rating model compares two players at a time, so every deal
record (``protocol/records.md``) is turned into pairwise games in three steps:

1. **Pairwise games.** Each deal gives every pair of its players one game: the one with the
   larger score (``result.scores``; at a table of four the table's scores of the three who
   played: the one who sat out played no game) wins, equal scores are a draw (half a win each). The
   soloist thus wins or loses against both opponents, who usually score the same and draw. A
   seat's player is the ``name`` in the record's own ``players`` list (its display name in the
   match), so players are identified **by name across logs**: the same bot name in two logs is
   the same player.
2. **Units.** The deals are grouped into units, the independent samples of the bootstrap
   (*Uncertainty* in :mod:`zole_arena.stats.ratings`): in a duplicate match (its header says
   ``"duplicate": true``) a unit is a duplicate block, the six deals with the same
   ``match_id`` and ``block`` (the same cards in all six seatings); otherwise a unit is a
   single deal. A record whose match header is not
   among the files read (a deal record copied out of its log) is grouped by ``block`` as well,
   which gives the same units: outside duplicate matches each block holds a single deal. A deal
   read twice (the same ``match_id`` and ``deal``, e.g. the same log named twice) counts once; a
   block cut short by an interrupted match is a unit of the deals it has.
3. **Clusters.** Units that hold the same cards are not independent either: every table of a
   tournament plays the same seeded deals, so block *b* at one table has the cards of block
   *b* at every other, and logs played from the same seed share them too. Each unit keeps the
   keys of its deals' cards (:func:`cards_key`, whoever holds which hand, and the seed's deal
   the record names: :func:`deal_keys`), and :func:`clusters` joins the units that share any:
   the bootstrap resamples these clusters.
4. **Totals.** A unit also keeps each player's total score over its deals and how many of them
   it played (for the counts in the list), and when its last deal finished (for
   :func:`~zole_arena.stats.ratings.ratings_over_time`).

A duplicate block is therefore rated **deal by deal**, like plain deals, and a pairwise game
means the same thing in both kinds of match: ratings from duplicate and plain logs are on one
scale and can be mixed. What duplicate adds is balance (every player holds every seat's cards
twice, against both orders of the others), which the bootstrap over whole blocks turns into
narrower intervals as far as the cards decide the results: for the same number of deals, about
13 % narrower than plain deals for the strongest of rulebot, rulebot at ``Epsilon=50`` and
random (the cards decide a Zole deal only in part). Comparing the players *seat by seat*
instead (each pair's totals on the same cards, as in duplicate bridge; this module's earlier
method) was measured and rejected: it keeps only the order of 2-deal totals, across tables,
and gave wider intervals than deal by deal for every pair of those bots in every run, and for
the strongest on every seed tried. ``docs/ratings.md`` has the figures, the other ways tried
(Plackett–Luce, margin-aware scores) and the script that reproduces them.
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import itertools
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import NamedTuple

from zole_arena.records.checks import short
from zole_arena.records.model import (
    DealRecord,
    InvalidHeader,
    MatchHeader,
    Record,
    TournamentHeader,
)
from zole_arena.records.reader import LogReader

__all__ = [
    "Game",
    "RatingData",
    "Unit",
    "cards_key",
    "clusters",
    "deal_keys",
    "seed_deal_key",
    "read_logs",
    "units_from_records",
]


class Game(NamedTuple):
    """One pairwise game: ``score`` is the first player's result (1 win, ½ draw, 0 loss)."""

    first: str
    second: str
    score: float


@dataclasses.dataclass(frozen=True)
class Unit:
    """What one duplicate block, or one deal, adds to the rating data.

    :param match_id: the match the deals belong to.
    :param block: the block (for a unit of one deal outside a duplicate match, the deal's block,
        which is its number).
    :param totals: each player's total score over the unit's deals.
    :param deals: how many of the unit's deals each player played (default: one each).
    :param scores: each deal's scores by player, in the order played (default: one deal, whose
        scores are ``totals``).
    :param finished: when the unit's last deal finished (None if a record did not say).
    :param sequence: where the unit's last deal came among the records read: the order of
        units whose finish times are unknown.
    :param cards: the :func:`deal_keys` of its deals (two, in a duplicate block whose records
        agree): units that share one are resampled together (:func:`clusters`). Empty: the
        unit shares its cards with no other.
    """

    match_id: str
    block: int
    totals: Mapping[str, int]
    deals: Mapping[str, int] = dataclasses.field(default_factory=dict)
    scores: Sequence[Mapping[str, int]] = ()
    finished: datetime.datetime | None = None
    sequence: int = 0
    cards: frozenset[str] = frozenset()

    @property
    def size(self) -> int:
        """The number of deals in the unit."""
        return max(self.deals.values(), default=1)

    def deals_of(self, name: str) -> int:
        """How many of the unit's deals ``name`` played."""
        return self.deals.get(name, 1) if name in self.totals else 0

    def games(self) -> list[Game]:
        """The unit's pairwise games: for each deal, one game for every pair of its players
        (names in sorted order), won by the larger score, a draw when the scores are equal."""
        games = []
        for deal in self.scores or (self.totals,):
            for first, second in itertools.combinations(sorted(deal), 2):
                a, b = deal[first], deal[second]
                games.append(Game(first, second, 1.0 if a > b else 0.0 if a < b else 0.5))
        return games


@dataclasses.dataclass(frozen=True)
class RatingData:
    """The units read from logs, with the warnings about what had to be skipped."""

    units: tuple[Unit, ...]
    warnings: tuple[str, ...] = ()

    @property
    def deals(self) -> int:
        """The number of deals in all the units."""
        return sum(unit.size for unit in self.units)


def cards_key(hands: Iterable[Iterable[int]], talon: Iterable[int]) -> str:
    """A short key of a deal's cards, the same whichever seat holds which hand: equal for the
    six seatings of a duplicate block, for the same deal at every table of a tournament, and
    for the same seed's deal in two logs."""
    layout = sorted(tuple(sorted(int(card) for card in hand)) for hand in hands)
    text = f"{layout}|{sorted(int(card) for card in talon)}"
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def seed_deal_key(record: DealRecord) -> str:
    """A key of the seed's deal a deal record says it is (its ``seed`` and ``deal_no``)."""
    return f"seed {record.seed} deal {record.deal_no}"


def deal_keys(record: DealRecord) -> tuple[str, str]:
    """The keys that tie a deal record to the others with its cards: its cards
    (:func:`cards_key`) and the seed's deal it says it is (:func:`seed_deal_key`). Both
    count, so that a log whose hands were edited (which ``verify`` reports) still joins the
    deals of its seed."""
    return cards_key(record.hands, record.talon), seed_deal_key(record)


def clusters(units: Sequence[Unit]) -> list[list[int]]:
    """The units, by index, in groups of those linked by shared cards (directly, or through
    other units): the independent samples of the bootstrap. A unit that shares no cards is a
    group of its own. Groups come in the order of their first unit."""
    parent = list(range(len(units)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    holder: dict[str, int] = {}
    for i, unit in enumerate(units):
        for key in unit.cards:
            j = holder.setdefault(key, i)
            a, b = root(i), root(j)
            if a != b:
                parent[max(a, b)] = min(a, b)
    groups: dict[int, list[int]] = {}
    for i in range(len(units)):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


def _by_name(record: DealRecord) -> dict[str, int]:
    """A deal's score by player name.

    :raises ValueError: the record names a player twice.
    """
    by_name: dict[str, int] = {}
    for name, score in zip(record.names, record.seat_scores, strict=True):
        if name in by_name:
            raise ValueError(f"player {name!r} sits in two seats")
        by_name[name] = score
    return by_name


def _utc(when: datetime.datetime | None) -> datetime.datetime | None:
    """A record's time, in UTC when it names no zone."""
    return when if when is None or when.tzinfo is not None else when.replace(tzinfo=datetime.UTC)


class _Deal(NamedTuple):
    block: int
    scores: dict[str, int]
    finished: datetime.datetime | None
    sequence: int
    cards: tuple[str, str]


def units_from_records(records: Iterable[Record]) -> RatingData:
    """Group deal records (of any matches, in any order) into units, as the module says.

    Match headers (valid or not) say which matches are duplicate; other records are ignored,
    and so is a deal that names a player twice (with a warning). The units come sorted by
    match and block, so the order of the records does not change a rating.
    """
    duplicate: dict[str, bool] = {}
    deals: dict[tuple[str, int], _Deal] = {}
    warnings: list[str] = []
    repeated = 0
    for sequence, record in enumerate(records):
        if isinstance(record, MatchHeader | InvalidHeader):
            if record.type == "match":
                duplicate[record.match_id] = record.duplicate
            continue
        elif isinstance(record, DealRecord):
            match_id, number = record.match_id, record.deal
            try:
                scores = _by_name(record)
            except ValueError as exc:
                warnings.append(
                    f"deal {number} of match {match_id}: not usable for ratings ({exc}): skipped"
                )
                continue
            deal = _Deal(record.block, scores, _utc(record.finished), sequence, deal_keys(record))
        else:
            continue
        if (match_id, number) in deals:
            repeated += 1
            continue
        deals[match_id, number] = deal
    if repeated:
        warnings.append(f"{repeated} deal(s) read more than once: each counted once")
    grouped: dict[tuple[str, int], list[tuple[int, _Deal]]] = {}
    for (match_id, number), found in deals.items():
        key = (match_id, found.block if duplicate.get(match_id, True) else number)
        grouped.setdefault(key, []).append((number, found))
    units = []
    for (match_id, block), members in sorted(grouped.items()):
        members.sort(key=lambda member: member[0])
        totals: dict[str, int] = {}
        played: dict[str, int] = {}
        for _, found in members:
            for name, score in found.scores.items():
                totals[name] = totals.get(name, 0) + score
                played[name] = played.get(name, 0) + 1
        times = [found.finished for _, found in members]
        known = [when for when in times if when is not None]
        units.append(
            Unit(
                match_id,
                block,
                totals,
                played,
                tuple(found.scores for _, found in members),
                max(known) if len(known) == len(times) else None,
                max(found.sequence for _, found in members),
                frozenset(key for _, found in members for key in found.cards),
            )
        )
    return RatingData(tuple(units), tuple(warnings))


def read_logs(paths: Sequence[str | os.PathLike[str]]) -> RatingData:
    """Read game logs (of any matches, duplicate or not) into rating data.

    The logs are streamed a record at a time (only what a rating needs of each deal is kept).
    Lines that :class:`~zole_arena.records.reader.LogReader` skips become warnings, and so do
    headers that are not valid (their deals are rated as they stand: ``verify`` says more).

    :raises ~zole_arena.records.reader.RecordError: a file is missing or not a zole-arena log.
    """
    warnings: list[str] = []
    presets: set[str] = set()

    def records() -> Iterator[Record]:
        for path in paths:
            for entry in LogReader(path):
                record = entry.record
                if record is None:
                    if entry.problem is not None:
                        warnings.append(entry.problem.describe())
                    continue
                if isinstance(record, InvalidHeader):
                    warnings.append(f"{path}:{entry.line}: {record.type} header: "
                                    f"{record.problems[0]}")  # fmt: skip
                elif isinstance(record, DealRecord | MatchHeader | TournamentHeader):
                    preset = record.rules.get("preset")
                    presets.add(preset if isinstance(preset, str) else short(preset))
                yield record

    data = units_from_records(records())
    if len(presets) > 1:
        warnings.append(
            f"the logs play different rules ({', '.join(sorted(presets))}): rated together, "
            "as one pool"
        )
    return RatingData(data.units, (*warnings, *data.warnings))
