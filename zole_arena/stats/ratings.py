"""Elo ratings from game logs: a Bradley–Terry fit over every result at once, with bootstrap
intervals.

How a log becomes rating data — pairwise games, grouped into units (duplicate blocks, or
deals) — is :mod:`zole_arena.stats.units`: every deal gives every pair of its players one game,
won by the larger score, a draw when equal, and players are told apart by name across logs.

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

A player who played in fewer than :data:`MIN_UNITS` units has no interval (its bounds are
``None``): resampling one unit gives that unit back every time, so the bootstrap would show a
zero-width interval that says nothing. The LOS of a pair is likewise ``None`` unless both played
in that many units.

>>> units = [Unit("m", n, {"A": 1, "B": -1}) for n in range(3)] + [Unit("m", 3, {"A": -1, "B": 1})]
>>> ratings = rate(units, bootstrap=20)
>>> [(r.name, round(r.elo)) for r in ratings.ratings]
[('A', 82), ('B', -82)]
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
import statistics
from collections.abc import Iterable, Sequence
from typing import Any, Final

from zole_arena.stats.btfit import (
    ELO,
    RatingError,
    anchored,
    check_players,
    fit_strengths,
    results_table,
    tally_games,
)
from zole_arena.stats.units import Game, RatingData, Unit, read_logs, units_from_records

__all__ = [
    "DEFAULT_BOOTSTRAP",
    "DEFAULT_POINTS",
    "MIN_BOOTSTRAP",
    "MIN_UNITS",
    "NOT_ESTIMATED",
    "BootstrapFit",
    "Game",
    "PlayerRating",
    "RatingData",
    "RatingError",
    "RatingList",
    "Unit",
    "chronological",
    "fit_bootstrap",
    "fit_elo",
    "rate",
    "ratings_over_time",
    "read_logs",
    "units_from_records",
]

#: Bootstrap resamples unless told otherwise.
DEFAULT_BOOTSTRAP: Final = 200
#: Fewer resamples than this cannot give a 95 % interval worth the name.
MIN_BOOTSTRAP: Final = 10
#: A player's interval (and LOS) needs it in at least this many units: the bootstrap of one
#: unit is that unit every time.
MIN_UNITS: Final = 2
#: Two bootstrap ratings closer than this (Elo) are equal for the LOS: the fit's own
#: rounding, far below any difference it resolves.
_SAME_ELO: Final = 1e-6
#: How the tables and the chart show an interval or a LOS that cannot be estimated.
NOT_ESTIMATED: Final = "n/a"


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
    check_players(names, anchor, prior)
    index = {name: i for i, name in enumerate(names)}
    logs = fit_strengths(results_table(len(names), tally_games(listed, index)), prior)
    return dict(zip(names, anchored([ELO * v for v in logs], names, anchor), strict=True))


@dataclasses.dataclass(frozen=True)
class PlayerRating:
    """One line of a rating list."""

    name: str
    elo: float
    low: float | None
    """The 2.5th percentile of the bootstrap ratings; None when it cannot be estimated (the
    player played in fewer than :data:`MIN_UNITS` units)."""
    high: float | None
    """The 97.5th percentile of the bootstrap ratings; None with ``low``."""
    games: int
    """Pairwise games the player took part in."""
    deals: int
    """Deals the player appears in."""
    los_next: float | None
    """Likelihood of superiority over the next player in the list: None for the last one, and
    when it cannot be estimated (either played in fewer than :data:`MIN_UNITS` units)."""

    @property
    def estimated(self) -> bool:
        """Whether the interval could be estimated (``low`` and ``high`` are not None)."""
        return self.low is not None and self.high is not None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (ratings rounded to 0.01 Elo, LOS to 0.0001; null for what cannot be
        estimated)."""
        return {
            "name": self.name,
            "elo": round(self.elo, 2),
            "low": None if self.low is None else round(self.low, 2),
            "high": None if self.high is None else round(self.high, 2),
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
            "Bradley-Terry maximum likelihood (MM, Hunter 2004) over the pairwise games of "
            "every deal, draws as half wins, prior "
            f"{self.prior:g} virtual draw(s) per player; Elo scale, {anchor}; 95% intervals "
            "and LOS: bootstrap over units (duplicate blocks, or deals), "
            f"{self.bootstrap} resamples, seed {self.seed}"
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``ratings``, ``units`` and ``method``."""
        return {
            "ratings": [rating.to_dict() for rating in self.ratings],
            "units": self.units,
            "method": self.method,
        }


@dataclasses.dataclass(frozen=True)
class BootstrapFit:
    """The maximum-likelihood ratings of a set of units and their bootstrap refits."""

    names: tuple[str, ...]
    """The players, sorted by name."""
    elos: tuple[float, ...]
    """The fit to all the units, in the order of ``names``."""
    samples: tuple[tuple[float, ...], ...]
    """One refit per resample of the units, each in the order of ``names``."""


def fit_bootstrap(
    unit_games: Sequence[Sequence[Game]],
    *,
    anchor: tuple[str, float] | None = None,
    bootstrap: int = DEFAULT_BOOTSTRAP,
    seed: int = 0,
    prior: float = 1.0,
) -> BootstrapFit:
    """Fit the pairwise games of units, and refit them on ``bootstrap`` resamples of the units.

    This is :func:`rate` without the summary, for any way of turning a unit into pairwise games
    (``scripts/duplicate_vs_plain.py`` compares several): a resample draws as many units as
    there are, with replacement, so the games of one unit always stay together.

    :param unit_games: the pairwise games of each unit (a score may be any fraction of a win).
    :raises RatingError: no units, fewer than two players, an unknown anchor, too few
        resamples, a score not in [0, 1], a player against itself.
    """
    if not unit_games:
        raise RatingError("no finished deals to rate")
    if bootstrap < MIN_BOOTSTRAP:
        raise RatingError(
            f"the bootstrap needs at least {MIN_BOOTSTRAP} resamples, not {bootstrap}"
        )
    names = sorted({name for games in unit_games for game in games for name in game[:2]})
    check_players(names, anchor, prior)
    index = {name: i for i, name in enumerate(names)}
    # Each unit as {(i, j): (games, wins of i)}, i < j: a resample adds these up. Units with
    # the same results are one kind (with three players a deal has at most 27 outcomes), so a
    # resample's table sums each kind once, times how often it was drawn.
    kinds: dict[tuple[tuple[tuple[int, int], tuple[float, float]], ...], int] = {}
    kind_of = [
        kinds.setdefault(tuple(sorted(tally_games(games, index).items())), len(kinds))
        for games in unit_games
    ]
    tallies = list(kinds)

    def fit(counts: Sequence[int]) -> tuple[float, ...]:
        results: dict[tuple[int, int], tuple[float, float]] = {}
        for count, pairs in zip(counts, tallies, strict=True):
            if not count:
                continue
            for pair, (games, won) in pairs:
                played, wins = results.get(pair, (0.0, 0.0))
                results[pair] = (played + count * games, wins + count * won)
        # In pair order, whatever units were drawn: the fit's sums always add up alike.
        logs = fit_strengths(results_table(len(names), dict(sorted(results.items()))), prior)
        return tuple(anchored([ELO * v for v in logs], names, anchor))

    def counts_of(units: Iterable[int]) -> list[int]:
        counts = [0] * len(tallies)
        for unit in units:
            counts[kind_of[unit]] += 1
        return counts

    elos = fit(counts_of(range(len(kind_of))))
    rng = random.Random(seed)
    # Each draw is rng.randrange(units), spelled out with getrandbits (the same numbers,
    # without randrange's argument checks on every one of units × resamples draws).
    size = len(kind_of)
    bits = size.bit_length()
    draw = rng.getrandbits
    samples = []
    for _ in range(bootstrap):
        counts = [0] * len(tallies)
        for _ in range(size):
            unit = draw(bits)
            while unit >= size:
                unit = draw(bits)
            counts[kind_of[unit]] += 1
        samples.append(fit(counts))
    return BootstrapFit(tuple(names), elos, tuple(samples))


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
    names = sorted({name for unit in units for name in unit.totals})
    check_players(names, anchor, prior)
    unit_games = [unit.games() for unit in units]
    fitted = fit_bootstrap(unit_games, anchor=anchor, bootstrap=bootstrap, seed=seed, prior=prior)
    index = {name: i for i, name in enumerate(fitted.names)}
    elos, samples = fitted.elos, fitted.samples
    order = sorted(range(len(fitted.names)), key=lambda i: (-elos[i], fitted.names[i]))
    games = [0] * len(fitted.names)
    deals = [0] * len(fitted.names)
    present = [0] * len(fitted.names)  # units in which the player has games
    for unit, played in zip(units, unit_games, strict=True):
        for game in played:
            games[index[game.first]] += 1
            games[index[game.second]] += 1
        for i in {index[name] for game in played for name in game[:2]}:
            present[i] += 1
        for name in unit.totals:
            deals[index[name]] += unit.deals_of(name)
    estimable = [count >= MIN_UNITS for count in present]
    ratings = []
    for place, i in enumerate(order):
        low: float | None = None
        high: float | None = None
        if anchor is not None and fitted.names[i] == anchor[0]:
            low = high = elos[i]  # pinned: exact by definition
        elif estimable[i]:
            cuts = statistics.quantiles([s[i] for s in samples], n=40, method="inclusive")
            low, high = cuts[0], cuts[-1]
        los = None
        if place + 1 < len(order) and estimable[i] and estimable[order[place + 1]]:
            j = order[place + 1]
            # Equal ratings (to rounding: two players whose results are alike fit equal but
            # for the last bits) count as half, as a draw does.
            above = sum(
                0.5 if abs(s[i] - s[j]) < _SAME_ELO else 1.0 if s[i] > s[j] else 0.0
                for s in samples
            )
            los = above / len(samples)
        ratings.append(PlayerRating(fitted.names[i], elos[i], low, high, games[i], deals[i], los))
    return RatingList(
        tuple(ratings),
        units=len(units),
        deals=sum(unit.size for unit in units),
        bootstrap=bootstrap,
        seed=seed,
        anchor=anchor,
        prior=prior,
    )


#: Checkpoints of :func:`ratings_over_time` unless told otherwise.
DEFAULT_POINTS: Final = 20


def chronological(units: Iterable[Unit]) -> list[Unit]:
    """The units in the order they finished: by the ``finished`` time of their last deal when
    every unit has one (ties, a second apart at most, keep the order the records were read
    in), otherwise in the order the records were read (the order of the logs, and of the
    deals in each)."""
    listed = list(units)
    if all(unit.finished is not None for unit in listed):
        return sorted(listed, key=lambda unit: (unit.finished, unit.sequence))
    return sorted(listed, key=lambda unit: unit.sequence)


def ratings_over_time(
    units: Sequence[Unit],
    *,
    points: int = DEFAULT_POINTS,
    anchor: tuple[str, float] | None = None,
    bootstrap: int = DEFAULT_BOOTSTRAP,
    seed: int = 0,
    prior: float = 1.0,
) -> list[RatingList]:
    """The rating list as it stood at ``points`` moments, from the first units to all of them.

    The units are put in :func:`chronological` order and rated (as :func:`rate` does, with the
    same anchor, resamples, seed and prior) after about every ``points``-th part of the deals:
    checkpoint *k* holds the first units whose deals add up to at least *k*/``points`` of all
    the deals. Each list's ``deals`` is the x of a ratings-over-time chart. A checkpoint at
    which fewer than two players have played is left out, and so are repeats (when there are
    fewer units than points); the last checkpoint is always the list of all the units.

    :raises RatingError: ``points`` below 1, no units, fewer than two players in all of them,
        an anchor who is not among them, too few resamples.
    """
    if points < 1:
        raise RatingError(f"a ratings-over-time chart needs at least 1 point, not {points}")
    if not units:
        raise RatingError("no finished deals to rate")
    ordered = chronological(units)
    sizes = list(itertools.accumulate(unit.size for unit in ordered))
    total = sizes[-1]
    ends: list[int] = []
    for k in range(1, points + 1):
        target = math.ceil(total * k / points)
        end = next(n for n, size in enumerate(sizes, start=1) if size >= target)
        if not ends or end > ends[-1]:
            ends.append(end)
    checkpoints = []
    for end in ends:
        first = ordered[:end]
        present = {name for unit in first for name in unit.totals}
        if len(present) < 2 or (end < len(ordered) and anchor and anchor[0] not in present):
            continue
        checkpoints.append(rate(first, anchor=anchor, bootstrap=bootstrap, seed=seed, prior=prior))
    return checkpoints
