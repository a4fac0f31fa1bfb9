"""Elo ratings from game logs: a Bradley–Terry fit over every result at once, with bootstrap
intervals.

How a log becomes rating data
-----------------------------

Zole is a three-player game, and a rating model compares two players at a time, so every deal
record (``protocol/records.md``) is turned into pairwise games in three steps:

1. **Units.** The deals are grouped into units: in a duplicate match (its header says
   ``"duplicate": true``) a unit is a duplicate block, the six deals with the same ``match_id``
   and ``block`` (the same cards in all six seatings); otherwise a unit is a single deal. A
   record whose match header is not among the files read (a deal record copied out of its log)
   is grouped by ``block`` as well, which gives the same units: outside duplicate matches each
   block holds a single deal. A deal read twice (the same ``match_id`` and ``deal``, e.g. the
   same log named twice) counts once; a block cut short by an interrupted match is a unit of the
   deals it has.
2. **Totals.** In each unit, each player's total is the sum of its scores (``result.scores``)
   over the unit's deals. A seat's player is the ``name`` in the record's own ``players`` list
   (its display name in the match), so players are identified **by name across logs**: the same
   bot name in two logs is the same player.
3. **Pairwise games.** In a plain deal every pair of players gets one game: the one with the
   larger score wins, equal scores are a draw (half a win each); the soloist's two opponents
   usually score the same and draw. In a duplicate block the comparison is made **seat by
   seat**, as in duplicate bridge: each player held each seat's cards twice, so for each seat
   and each pair of players, their totals *in that seat* (the same cards) are compared — up to
   nine games a block, each free of the luck of the deal. Only the order counts, not the
   margin.

A pairwise game thus compares two players on the same cards in a duplicate match, but on
different cards otherwise, and the two are not the same game: the duplicate game is decided
far more by skill, so the same bots lie further apart on the Elo scale when rated from
duplicate blocks. Ratings are comparable
within one list, and lists from logs of the same kind, but a list that mixes duplicate and
plain logs weighs a block like a deal.

The model
---------

The Bradley–Terry model gives each player a strength γ > 0, and player *i* beats *j* with
probability γᵢ / (γᵢ + γⱼ). All pairwise games are fitted at once by maximum likelihood with
the MM algorithm of Hunter (2004, *MM algorithms for generalized Bradley–Terry models*), a
draw counting as half a win and half a loss, as in BayesElo and Ordo. Each player also gets a
weak prior: one virtual draw against a neutral opponent of strength 1, so that a player who
never lost (or never won) keeps a finite rating, and players with no games linking them are
held near each other. Ratings are on the Elo scale, 400·log₁₀ γ: a player who beats another
75 % of the time is 400·log₁₀ 3 ≈ 191 Elo above it. The scale is anchored so that the
players' average is 0, or so that a named player has a given rating.

Uncertainty
-----------

The 95 % intervals come from a bootstrap over units: the units are resampled with replacement
and the model is refitted (200 times by default, from a seeded random generator, so the same
logs and seed always give the same list). A player's interval is the 2.5th to 97.5th
percentile of its bootstrap ratings; an anchor player has no interval of its own, the others'
are relative to it. The likelihood of superiority (LOS) of a player over the next one in the
sorted list is the fraction of bootstrap fits in which it is rated above that player. Units,
not pairwise games, are resampled because the games of a unit are not independent: they share
the cards (and, in a duplicate block, the six seatings of the same cards).

>>> units = [Unit("m", n, {"A": 1, "B": -1}) for n in range(3)] + [Unit("m", 3, {"A": -1, "B": 1})]
>>> ratings = rate(units, bootstrap=20)
>>> [(r.name, round(r.elo)) for r in ratings.ratings]
[('A', 82), ('B', -82)]
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import os
import random
import statistics
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, NamedTuple

from zole_arena.errors import ZoleError
from zole_arena.records import read_log

__all__ = [
    "DEFAULT_BOOTSTRAP",
    "MIN_BOOTSTRAP",
    "Game",
    "PlayerRating",
    "RatingData",
    "RatingError",
    "RatingList",
    "Unit",
    "fit_elo",
    "rate",
    "read_logs",
    "units_from_records",
]

#: Bootstrap resamples unless told otherwise.
DEFAULT_BOOTSTRAP: Final = 200
#: Fewer resamples than this cannot give a 95 % interval worth the name.
MIN_BOOTSTRAP: Final = 10
#: Elo points per natural-log unit of strength: 400 / ln 10.
_ELO: Final = 400.0 / math.log(10.0)
#: The fit stops when no log-strength moves by more than this in a sweep (≈ 2·10⁻⁷ Elo).
_TOLERANCE: Final = 1e-9
_MAX_SWEEPS: Final = 100_000


class RatingError(ZoleError, ValueError):
    """Nothing to rate, or a rating that cannot be computed as asked."""


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
    """

    match_id: str
    block: int
    totals: Mapping[str, int]
    deals: Mapping[str, int] = dataclasses.field(default_factory=dict)
    by_seat: Mapping[tuple[str, int], int] = dataclasses.field(default_factory=dict)
    """In a duplicate block: each player's total over the deals it played in each seat (the
    same cards for every player in that seat). Empty for a plain deal."""

    @property
    def size(self) -> int:
        """The number of deals in the unit."""
        return max(self.deals.values(), default=1)

    def deals_of(self, name: str) -> int:
        """How many of the unit's deals ``name`` played."""
        return self.deals.get(name, 1) if name in self.totals else 0

    def games(self) -> list[Game]:
        """The unit's pairwise games, names in sorted order.

        A duplicate block gives, for each seat, one game for every pair of players who held
        that seat's cards: their totals in that seat are compared (up to 9 games, each free of
        the luck of the cards). A plain deal gives one game for every pair of its players.
        """
        games = []
        if self.by_seat:
            for seat in range(3):
                held = sorted(name for name, s in self.by_seat if s == seat)
                for first, second in itertools.combinations(held, 2):
                    a, b = self.by_seat[first, seat], self.by_seat[second, seat]
                    games.append(Game(first, second, 1.0 if a > b else 0.0 if a < b else 0.5))
            return games
        for first, second in itertools.combinations(sorted(self.totals), 2):
            a, b = self.totals[first], self.totals[second]
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


def _deal_scores(record: Mapping[str, Any]) -> tuple[str, int, int, dict[str, int]]:
    """(match_id, deal, block, score by player name) of a deal record.

    :raises ValueError: the record lacks one of these, or names a player twice.
    """
    match_id, number, block = record["match_id"], record["deal"], record["block"]
    scores = record["result"]["scores"]
    players = record["players"]
    if not isinstance(match_id, str) or not isinstance(number, int):
        raise ValueError("no match_id or deal number")
    if not isinstance(block, int):
        raise ValueError("no block number")
    if not isinstance(scores, list) or not isinstance(players, list):
        raise ValueError("no scores or players")
    if len(scores) != len(players) or len(players) < 2:
        raise ValueError(f"{len(scores)} scores for {len(players)} players")
    by_name: dict[str, int] = {}
    for player, score in zip(players, scores, strict=True):
        name = player["name"]
        if not isinstance(name, str) or not isinstance(score, int) or isinstance(score, bool):
            raise ValueError("a player without a name or a score")
        if name in by_name:
            raise ValueError(f"player {name!r} sits in two seats")
        by_name[name] = score
    return match_id, number, block, by_name


def units_from_records(records: Iterable[Mapping[str, Any]]) -> RatingData:
    """Group deal records (of any matches, in any order) into units, as the module says.

    Headers (``"type": "match"``) say which matches are duplicate; other records are ignored.
    A deal record that lacks what a rating needs is skipped with a warning.
    """
    duplicate: dict[str, bool] = {}
    deals: dict[tuple[str, int], tuple[int, dict[str, int]]] = {}
    seats: dict[tuple[str, int], dict[str, int]] = {}
    warnings: list[str] = []
    repeated = 0
    for record in records:
        kind = record.get("type")
        if kind == "match":
            if isinstance(record.get("match_id"), str):
                duplicate[record["match_id"]] = bool(record.get("duplicate"))
            continue
        if kind != "deal":
            continue
        try:
            match_id, number, block, scores = _deal_scores(record)
        except (KeyError, TypeError, ValueError) as exc:
            what = f"deal {record.get('deal', '?')} of match {record.get('match_id', '?')}"
            why = exc.args[0] if isinstance(exc, ValueError) else f"no {exc}"
            warnings.append(f"{what}: not usable for ratings ({why}): skipped")
            continue
        if (match_id, number) in deals:
            repeated += 1
            continue
        deals[match_id, number] = (block, scores)
        seats[match_id, number] = {p["name"]: seat for seat, p in enumerate(record["players"])}
    if repeated:
        warnings.append(f"{repeated} deal(s) read more than once: each counted once")
    grouped: dict[tuple[str, int], list[tuple[dict[str, int], dict[str, int]]]] = {}
    for (match_id, number), (block, scores) in deals.items():
        key = (match_id, block if duplicate.get(match_id, True) else number)
        grouped.setdefault(key, []).append((scores, seats[match_id, number]))
    units = []
    for (match_id, block), members in sorted(grouped.items()):
        totals: dict[str, int] = {}
        played: dict[str, int] = {}
        by_seat: dict[tuple[str, int], int] = {}
        for scores, seat_of in members:
            for name, score in scores.items():
                totals[name] = totals.get(name, 0) + score
                played[name] = played.get(name, 0) + 1
                key_seat = (name, seat_of[name])
                by_seat[key_seat] = by_seat.get(key_seat, 0) + score
        several = len(members) > 1  # a duplicate block: compare the players seat by seat
        units.append(Unit(match_id, block, totals, played, by_seat if several else {}))
    return RatingData(tuple(units), tuple(warnings))


def read_logs(paths: Sequence[str | os.PathLike[str]]) -> RatingData:
    """Read game logs (of any matches, duplicate or not) into rating data.

    Lines that :func:`~zole_arena.records.read_log` skips become warnings.

    :raises ~zole_arena.records.RecordError: a file is missing or not a zole-arena log.
    """
    records: list[dict[str, Any]] = []
    warnings: list[str] = []
    for path in paths:
        found, problems = read_log(path)
        records.extend(found)
        warnings.extend(problem.describe() for problem in problems)
    data = units_from_records(records)
    return RatingData(data.units, (*warnings, *data.warnings))


class _Table(NamedTuple):
    """Pairwise results in the form the fit works on (players by index)."""

    wins: list[float]
    """Each player's wins, a draw counting one half."""
    neighbours: list[list[tuple[int, float]]]
    """For each player: (opponent, games between them)."""


def _table(players: int, results: Mapping[tuple[int, int], tuple[float, float]]) -> _Table:
    """``results[i, j]`` (i < j): (games, wins of i) → a :class:`_Table`."""
    wins = [0.0] * players
    neighbours: list[list[tuple[int, float]]] = [[] for _ in range(players)]
    for (i, j), (games, won) in results.items():
        if games <= 0:
            continue
        wins[i] += won
        wins[j] += games - won
        neighbours[i].append((j, games))
        neighbours[j].append((i, games))
    return _Table(wins, neighbours)


def _fit(table: _Table, prior: float) -> list[float]:
    """Maximum-likelihood log-strengths (natural log; the neutral opponent is at 0).

    Each sweep is Hunter's MM update, player by player (γᵢ ← Wᵢ / Σⱼ nᵢⱼ / (γᵢ + γⱼ), with the
    prior's virtual draw as half a win and one game against γ = 1), followed by the exact best
    common factor for all strengths, which only the prior decides and which plain MM would
    approach very slowly when there are many games.
    """
    count = len(table.wins)
    wins = [won + prior / 2 for won in table.wins]
    strength = [1.0] * count
    for _ in range(_MAX_SWEEPS):
        moved = 0.0
        for i in range(count):
            own = strength[i]
            denominator = prior / (own + 1.0)
            for j, games in table.neighbours[i]:
                denominator += games / (own + strength[j])
            new = wins[i] / denominator
            moved = max(moved, abs(math.log(new / own)))
            strength[i] = new
        shift = _best_shift([math.log(s) for s in strength])
        strength = [s * math.exp(shift) for s in strength]
        if max(moved, abs(shift)) < _TOLERANCE:
            break
    return [math.log(s) for s in strength]


def _best_shift(logs: Sequence[float]) -> float:
    """The common shift of all log-strengths that the prior likes best: where the players'
    expected scores against the neutral opponent average one half (a monotone equation,
    solved by Newton's method with a bisection guard)."""
    low, high = -max(logs) - 50.0, -min(logs) + 50.0
    shift = -statistics.fmean(logs)
    for _ in range(200):
        expected = [1.0 / (1.0 + math.exp(-(value + shift))) for value in logs]
        excess = sum(expected) - len(logs) / 2
        if excess > 0:
            high = shift
        else:
            low = shift
        slope = sum(p * (1.0 - p) for p in expected)
        step = shift - excess / slope if slope > 0 else (low + high) / 2
        if not low < step < high:
            step = (low + high) / 2
        if abs(step - shift) < 1e-13:
            return step
        shift = step
    return shift


def _anchored(
    elos: Sequence[float], names: Sequence[str], anchor: tuple[str, float] | None
) -> list[float]:
    if anchor is not None:
        return [elo + anchor[1] - elos[names.index(anchor[0])] for elo in elos]
    offset = statistics.fmean(elos)
    return [elo - offset for elo in elos]


def _check(names: Sequence[str], anchor: tuple[str, float] | None, prior: float) -> None:
    if len(names) < 2:
        who = f" ({names[0]})" if names else ""
        raise RatingError(f"only {len(names)} player{who} in the results: a rating needs two")
    if anchor is not None:
        if anchor[0] not in names:
            raise RatingError(
                f"no player named {anchor[0]!r} to anchor the ratings (players: {', '.join(names)})"
            )
        if not math.isfinite(anchor[1]):
            raise RatingError(f"the anchor's rating must be a finite number, not {anchor[1]}")
    if not (prior > 0 and math.isfinite(prior)):
        raise RatingError(f"the prior must be a positive number of virtual draws, not {prior}")


def fit_elo(
    games: Iterable[Game | tuple[str, str, float]],
    *,
    anchor: tuple[str, float] | None = None,
    prior: float = 1.0,
) -> dict[str, float]:
    """The maximum-likelihood Elo rating of every player of ``games`` (no intervals).

    :param games: (first, second, first's score: 1, ½ or 0) for each pairwise game.
    :param anchor: (name, rating) to pin a player; default: the average is 0.
    :param prior: virtual draws of each player against a neutral opponent.
    :raises RatingError: fewer than two players, an unknown anchor, a score not in [0, 1].

    >>> elo = fit_elo([("A", "B", 1.0)] * 300 + [("A", "B", 0.0)] * 100)
    >>> round(elo["A"] - elo["B"])
    191
    """
    listed = list(games)
    names = sorted({game[0] for game in listed} | {game[1] for game in listed})
    _check(names, anchor, prior)
    index = {name: i for i, name in enumerate(names)}
    results: dict[tuple[int, int], tuple[float, float]] = {}
    for first, second, score in listed:
        if not 0.0 <= score <= 1.0:
            raise RatingError(f"a game's score must be from 0 to 1, not {score}")
        if first == second:
            raise RatingError(f"a player cannot play itself ({first!r})")
        i, j = index[first], index[second]
        if i > j:
            i, j, score = j, i, 1.0 - score
        games_so_far, won = results.get((i, j), (0.0, 0.0))
        results[i, j] = (games_so_far + 1.0, won + score)
    logs = _fit(_table(len(names), results), prior)
    return dict(zip(names, _anchored([_ELO * v for v in logs], names, anchor), strict=True))


@dataclasses.dataclass(frozen=True)
class PlayerRating:
    """One line of a rating list."""

    name: str
    elo: float
    low: float
    """The 2.5th percentile of the bootstrap ratings."""
    high: float
    """The 97.5th percentile of the bootstrap ratings."""
    games: int
    """Pairwise games the player took part in."""
    deals: int
    """Deals the player appears in."""
    los_next: float | None
    """Likelihood of superiority over the next player in the list (None for the last one)."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (ratings rounded to 0.01 Elo, LOS to 0.0001)."""
        return {
            "name": self.name,
            "elo": round(self.elo, 2),
            "low": round(self.low, 2),
            "high": round(self.high, 2),
            "games": self.games,
            "deals": self.deals,
            "los_next": None if self.los_next is None else round(self.los_next, 4),
        }


@dataclasses.dataclass(frozen=True)
class RatingList:
    """Every player's rating, strongest first, and how it was computed."""

    ratings: tuple[PlayerRating, ...]
    units: int
    deals: int
    bootstrap: int
    seed: int
    anchor: tuple[str, float] | None
    prior: float

    @property
    def method(self) -> str:
        """One line saying how the ratings were computed."""
        anchor = "average 0" if self.anchor is None else f"{self.anchor[0]} at {self.anchor[1]:g}"
        return (
            "Bradley-Terry maximum likelihood (MM, Hunter 2004) over pairwise games of "
            "duplicate blocks or deals, draws as half wins, prior "
            f"{self.prior:g} virtual draw(s) per player; Elo scale, {anchor}; 95% intervals "
            f"and LOS: bootstrap over units, {self.bootstrap} resamples, seed {self.seed}"
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``ratings``, ``units`` and ``method``."""
        return {
            "ratings": [rating.to_dict() for rating in self.ratings],
            "units": self.units,
            "method": self.method,
        }


def rate(
    units: Sequence[Unit],
    *,
    anchor: tuple[str, float] | None = None,
    bootstrap: int = DEFAULT_BOOTSTRAP,
    seed: int = 0,
    prior: float = 1.0,
) -> RatingList:
    """Fit ratings to units and bootstrap their intervals and LOS (see the module's text).

    :param anchor: (name, rating) to pin a player; default: the players' average is 0.
    :param bootstrap: resamples of the units (at least :data:`MIN_BOOTSTRAP`).
    :param seed: the resampling's seed: the same units and seed give the same list.
    :param prior: virtual draws of each player against a neutral opponent.
    :raises RatingError: no units, fewer than two players, an unknown anchor, too few
        resamples.
    """
    if not units:
        raise RatingError("no finished deals to rate")
    if bootstrap < MIN_BOOTSTRAP:
        raise RatingError(
            f"the bootstrap needs at least {MIN_BOOTSTRAP} resamples, not {bootstrap}"
        )
    names = sorted({name for unit in units for name in unit.totals})
    _check(names, anchor, prior)
    index = {name: i for i, name in enumerate(names)}
    # Each unit as (i, j, wins of i) for its games, i < j.
    unit_games = [
        [(index[g.first], index[g.second], g.score) for g in unit.games()] for unit in units
    ]

    def fit(weights: Sequence[int]) -> list[float]:
        results: dict[tuple[int, int], tuple[float, float]] = {}
        for weight, games in zip(weights, unit_games, strict=True):
            if not weight:
                continue
            for i, j, score in games:
                played, won = results.get((i, j), (0.0, 0.0))
                results[i, j] = (played + weight, won + weight * score)
        logs = _fit(_table(len(names), results), prior)
        return _anchored([_ELO * v for v in logs], names, anchor)

    elos = fit([1] * len(units))
    rng = random.Random(seed)
    samples: list[list[float]] = []
    for _ in range(bootstrap):
        weights = [0] * len(units)
        for _ in units:
            weights[rng.randrange(len(units))] += 1
        samples.append(fit(weights))
    order = sorted(range(len(names)), key=lambda i: (-elos[i], names[i]))
    games = [0] * len(names)
    deals = [0] * len(names)
    for unit, played in zip(units, unit_games, strict=True):
        for i, j, _ in played:
            games[i] += 1
            games[j] += 1
        for name in unit.totals:
            deals[index[name]] += unit.deals_of(name)
    ratings = []
    for place, i in enumerate(order):
        column = [sample[i] for sample in samples]
        cuts = statistics.quantiles(column, n=40, method="inclusive")
        los = None
        if place + 1 < len(order):
            j = order[place + 1]
            above = sum(1.0 if s[i] > s[j] else 0.5 if s[i] == s[j] else 0.0 for s in samples)
            los = above / len(samples)
        ratings.append(PlayerRating(names[i], elos[i], cuts[0], cuts[-1], games[i], deals[i], los))
    return RatingList(
        tuple(ratings),
        units=len(units),
        deals=sum(unit.size for unit in units),
        bootstrap=bootstrap,
        seed=seed,
        anchor=anchor,
        prior=prior,
    )
