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

The 95 % intervals come from a bootstrap over **clusters**: the groups of units that share
cards (:func:`~zole_arena.stats.units.clusters`: a duplicate block, or a deal, with the same
block at every other table of a tournament and in every log of the same seed) are resampled
with replacement and the model is refitted (200 times by default, from a seeded random
generator, so the same logs and seed always give the same list). Clusters, not games or
units, are resampled because only they are independent: the games of a deal share its cards,
and so do the tables that play it. Resampling units as if they were independent made the
intervals of a tournament too narrow (``docs/ratings.md`` has the calibration).

A bootstrap over *n* clusters falls short in two ways when *n* is small (a tournament of 10
blocks has 10), and both are corrected, for each player by the *n* clusters it played in: the
variance of the refits is (*n* − 1)/*n* of the one they estimate, so each refit's distance
from the fit is widened by √(*n*/(*n* − 1)); and that variance is itself estimated from *n*
samples, so the interval reaches t/z times as far from the fit as the refits' 2.5th and
97.5th percentiles, where t is Student's two-sided 95 % quantile with *n* − 1 degrees of
freedom and z the normal one (1.96): the rule of cluster-robust inference
(:mod:`zole_arena.stats.student`). For 10 clusters the interval is 1.22 times as wide as the
plain percentiles; for 100, 1.02 times. The likelihood of superiority (LOS) of a player over
the next one in the sorted list is the fraction of (widened) refits in which it is rated
above that player; ``sd`` is the standard deviation of its widened refits. An anchor player
has no interval of its own, the others' are relative to it.

Pules (``lzf``) carry a standing pule's points from one deal to the next ones of the same
seating, a dependence between neighbouring clusters; measured, it is too small to see
(``docs/ratings.md``: the correlation of a bot's results in one block with the next is what
independent blocks give, and the intervals hold as often under ``lzf`` as under ``wpt``), so
clusters are resampled one by one.

A player who played in fewer than :data:`MIN_UNITS` clusters has no interval (its bounds are
``None``): resampling one cluster gives that cluster back every time, so the bootstrap would
show a zero-width interval that says nothing. The LOS of a pair is likewise ``None`` unless
both played in that many clusters.

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
from zole_arena.stats.student import two_sided_quantile
from zole_arena.stats.units import (
    Game,
    RatingData,
    Unit,
    clusters,
    read_logs,
    units_from_records,
)

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
#: The normal distribution's two-sided 95 % quantile, which a t quantile replaces.
_Z95: Final = statistics.NormalDist().inv_cdf(0.975)
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
    when it cannot be estimated (either played in fewer than :data:`MIN_UNITS` clusters)."""
    sd: float | None = None
    """The standard deviation of the player's bootstrap ratings (its rating's standard
    error); None with ``low``, 0 for an anchor."""

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
            "sd": None if self.sd is None else round(self.sd, 2),
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
    clusters: int = 0
    """The bootstrap's independent samples: groups of units that share cards."""

    @property
    def method(self) -> str:
        """One line saying how the ratings were computed."""
        anchor = "average 0" if self.anchor is None else f"{self.anchor[0]} at {self.anchor[1]:g}"
        return (
            "Bradley-Terry maximum likelihood (MM, Hunter 2004) over the pairwise games of "
            "every deal, draws as half wins, prior "
            f"{self.prior:g} virtual draw(s) per player; Elo scale, {anchor}; 95% intervals "
            "and LOS: bootstrap over clusters (the duplicate blocks or deals that share "
            "cards, at every table), widened for few clusters (Student's t), "
            f"{self.bootstrap} resamples, seed {self.seed}"
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``ratings``, ``units`` and ``method``."""
        return {
            "ratings": [rating.to_dict() for rating in self.ratings],
            "units": self.units,
            "clusters": self.clusters,
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
    clusters: Sequence[Sequence[int]] | None = None,
    anchor: tuple[str, float] | None = None,
    bootstrap: int = DEFAULT_BOOTSTRAP,
    seed: int = 0,
    prior: float = 1.0,
) -> BootstrapFit:
    """Fit the pairwise games of units, and refit them on ``bootstrap`` resamples of the
    clusters of units.

    This is :func:`rate` without the summary, for any way of turning a unit into pairwise games
    (``scripts/duplicate_vs_plain.py`` compares several): a resample draws as many clusters as
    there are, with replacement, so the games of one cluster always stay together.

    :param unit_games: the pairwise games of each unit (a score may be any fraction of a win).
    :param clusters: the units (by index) that are resampled together, every unit in one
        (:func:`~zole_arena.stats.units.clusters`); default: each unit alone.
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
    # Each cluster as {(i, j): (games, wins of i)}, i < j, over its units: a resample adds
    # these up. Clusters with the same results are one kind (with three players a deal has at
    # most 27 outcomes), so a resample's table sums each kind once, times how often it was
    # drawn.
    groups = [[i] for i in range(len(unit_games))] if clusters is None else clusters
    kinds: dict[tuple[tuple[tuple[int, int], tuple[float, float]], ...], int] = {}
    kind_of = []
    for group in groups:
        tally = tally_games((game for unit in group for game in unit_games[unit]), index)
        kind_of.append(kinds.setdefault(tuple(sorted(tally.items())), len(kinds)))
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

    counts = [0] * len(tallies)
    for kind in kind_of:
        counts[kind] += 1
    elos = fit(counts)
    rng = random.Random(seed)
    # Each draw is rng.randrange(clusters), spelled out with getrandbits (the same numbers,
    # without randrange's argument checks on every one of clusters × resamples draws).
    size = len(kind_of)
    bits = size.bit_length()
    draw = rng.getrandbits
    samples = []
    for _ in range(bootstrap):
        counts = [0] * len(tallies)
        for _ in range(size):
            cluster = draw(bits)
            while cluster >= size:
                cluster = draw(bits)
            counts[kind_of[cluster]] += 1
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
    groups = clusters(units)
    fitted = fit_bootstrap(
        unit_games, clusters=groups, anchor=anchor, bootstrap=bootstrap, seed=seed, prior=prior
    )
    index = {name: i for i, name in enumerate(fitted.names)}
    elos = fitted.elos
    order = sorted(range(len(fitted.names)), key=lambda i: (-elos[i], fitted.names[i]))
    games = [0] * len(fitted.names)
    deals = [0] * len(fitted.names)
    for unit, played in zip(units, unit_games, strict=True):
        for game in played:
            games[index[game.first]] += 1
            games[index[game.second]] += 1
        for name in unit.totals:
            deals[index[name]] += unit.deals_of(name)
    present = [0] * len(fitted.names)  # clusters in which the player has games
    for group in groups:
        for i in {index[name] for u in group for game in unit_games[u] for name in game[:2]}:
            present[i] += 1
    estimable = [count >= MIN_UNITS for count in present]
    samples = _widened(elos, fitted.samples, present)
    ratings = []
    for place, i in enumerate(order):
        low: float | None = None
        high: float | None = None
        sd: float | None = None
        if anchor is not None and fitted.names[i] == anchor[0]:
            low = high = elos[i]  # pinned: exact by definition
            sd = 0.0
        elif estimable[i]:
            mine = [s[i] for s in samples]
            cuts = statistics.quantiles(mine, n=40, method="inclusive")
            reach = two_sided_quantile(0.95, present[i] - 1) / _Z95
            low, high = (elos[i] + reach * (cut - elos[i]) for cut in (cuts[0], cuts[-1]))
            # Few refits can all fall on one side of the fit: the interval still holds it.
            low, high = min(low, elos[i]), max(high, elos[i])
            sd = statistics.stdev(mine)
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
        ratings.append(
            PlayerRating(fitted.names[i], elos[i], low, high, games[i], deals[i], los, sd)
        )
    return RatingList(
        tuple(ratings),
        units=len(units),
        deals=sum(unit.size for unit in units),
        bootstrap=bootstrap,
        seed=seed,
        anchor=anchor,
        prior=prior,
        clusters=len(groups),
    )


def _widened(
    elos: Sequence[float], samples: Sequence[Sequence[float]], clusters: Sequence[int]
) -> list[tuple[float, ...]]:
    """The bootstrap ratings, each player's spread about its fit widened by √(n / (n − 1)) for
    the n clusters it played in: the bootstrap's variance over n clusters is (n − 1) / n of
    the variance it estimates, which matters with few (a tournament of 10 blocks has 10)."""
    factor = [math.sqrt(n / (n - 1)) if n >= MIN_UNITS else 1.0 for n in clusters]
    return [
        tuple(e + k * (v - e) for e, k, v in zip(elos, factor, sample, strict=True))
        for sample in samples
    ]


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
