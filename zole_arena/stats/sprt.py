"""Head-to-head testing of two bots: a sequential probability ratio test on duplicate blocks.

A bot author who changed a bot wants to know, with as few deals as possible, whether the new
version (NEW) is better than the old one (OLD). :class:`HeadToHead` plays duplicate blocks
between them until a sequential test decides, as fishtest, fastchess and cutechess do for chess
engines (``docs/sprt.md`` has the user's view; this text says what is computed and why).

The blocks
----------

With a third bot, a **block** is one duplicate block of the match NEW, OLD, THIRD: one deal of
the seed in all six seatings (6 deals). Without one, a block is a duplicate block of the match
NEW, OLD, OLD#2 (NEW against two copies of OLD) and the block of the same deal of the match
OLD, NEW, NEW#2 (12 deals): both matches share the seed, so both sides hold every seat's cards
against the other. The two matches are played in turn, block by block, with their bots kept
running between blocks (:meth:`~zole_arena.arena.match.Match.run` with ``until``), and write one
log: two match headers, each match's deals numbered from 1. Copies are separate processes named
``NAME#2``.

The statistic
-------------

A block is turned into pairwise games exactly as ``zole-arena ratings`` turns it
(:meth:`~zole_arena.stats.ratings.Unit.games`, fed with the very records written to the log): every
deal gives one game to every two of its players, won by the one with the larger score in that
deal, drawn when the scores are equal (the soloist wins or loses against both opponents, who
usually draw with each other). The games between a NEW-side player (NEW or NEW#2) and an
OLD-side player (OLD or OLD#2) at the same table count: without a third bot, 2 per deal (NEW
against OLD and OLD#2 in one match, NEW and NEW#2 against OLD in the other), 24 per block; with
a third bot, 1 per deal, 6 per block (games between copies of one bot, and against THIRD, do
not). The block's **score** is NEW's mean result in them, a number from 0 to 1 (a draw is ½).
Blocks are independent and identically distributed (each is a new deal of the seed); the games
inside one are not (they share the cards, and a deal's two games its result), which is why the
block, not the game, is the sample — as fastchess's game pairs are for chess.

"NEW is X Elo better" means what it means in ``zole-arena ratings``: NEW's expected result in
such a game is the logistic score ``1 / (1 + 10^(−X/400))`` (:func:`expected_score`).

The test
--------

H0: the Elo difference is ``elo0``; H1: it is ``elo1`` (``elo0 < elo1``). After each block the
generalized log-likelihood ratio (GSPRT) of H1 against H0 is computed from the empirical
distribution of the block scores, as fishtest does for pentanomial results: for a hypothesis
with expected score ``s``, the maximum-likelihood distribution on the observed outcomes ``vᵢ``
with mean ``s`` is ``pᵢ / (1 + λ(vᵢ − s))``, λ solving ``Σ pᵢ (vᵢ − s) / (1 + λ(vᵢ − s)) = 0``
(Van den Bergh, *support_MLE_multinomial*), and the LLR is the difference of the two
log-likelihoods (:func:`log_likelihood_ratio`). For small differences it equals the normal
approximation ``N (s₁ − s₀)(2x̄ − s₀ − s₁) / (2σ²)`` (:func:`llr_normal`), where x̄ and σ² are
the blocks' mean score and variance; unlike that formula it stays finite and sensible when σ² is
0 (two identical deterministic bots score exactly ½ in every block, since each deal of one
match is the same deal of the other with the sides swapped: the exact LLR falls steadily
towards H0).
As fishtest does, outcomes 0 and 1 get a pseudo-count of 10⁻³ when they have not been seen, so
that every expected score strictly between 0 and 1 has a maximum-likelihood distribution.

Wald's bounds: stop and accept H1 when the LLR reaches ``ln((1 − β)/α)``, accept H0 when it
falls to ``ln(β/(1 − α))``. Then if the true difference is ``elo0`` or less, H1 is accepted
with probability about α at most; if it is ``elo1`` or more, H0 is accepted with probability
about β at most. The test is checked after every block, so it overshoots the bound by at most
one block's LLR.

The defaults, ``elo0 = 0`` and ``elo1 = 10`` with α = β = 0.05, fit this game's scale
(measurements in ``docs/sprt.md``): on it rulebot is about 185 to 190 Elo above random, and a
rulebot that plays a random action at 5 % of its decisions is about 7 to 14 below rulebot (10.6
on average over six seeds), at 10 % about 17 to 22 below. So 10 Elo (NEW scores 51.4 % in its
games against OLD's side) is a small but real change of strength, about what one random move
in twenty costs, which a test settles in one to a few thousand deals. (A third of the games are
draws: NEW and an OLD who defend together against the other OLD score the same.)

Since the GSPRT assumes nothing about the distribution of block scores in [0, 1], one block
moves the LLR by at most ``ln(s₁/s₀)`` up and ``ln((1 − s₁)/(1 − s₀))`` down (a distribution
with mean s₁ mixed with the outcome 0 has mean s₀, and loses at most that much likelihood), so
no test decides in fewer blocks than those steps allow: 104 for H1, 101 for H0 at the defaults.

The estimate reported beside the decision — NEW's Elo difference with a 95 % interval and the
likelihood of superiority — comes from the blocks' mean score and its standard error; after a
sequential stop it is biased away from the hypothesis that was rejected (a known property of
sequential tests), so treat it as a guide, and the decision as the result.

>>> test = Sprt(SprtSettings(elo0=0, elo1=50))
>>> for score in [0.5, 2 / 3, 1.0, 5 / 6, 0.5, 2 / 3] * 4:
...     test.add(score)
>>> round(test.llr, 2), test.decision
(3.21, 'H1')
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Final, Literal

from zole_arena.errors import ZoleError
from zole_arena.stats.ratings import Unit

__all__ = [
    "DEFAULT_ALPHA",
    "DEFAULT_BETA",
    "DEFAULT_ELO0",
    "DEFAULT_ELO1",
    "DEFAULT_MAX_BLOCKS",
    "Decision",
    "Sprt",
    "SprtError",
    "SprtSettings",
    "block_score",
    "elo_of_score",
    "expected_score",
    "llr_normal",
    "log_likelihood_ratio",
]

#: H0's Elo difference unless told otherwise: NEW is no better than OLD.
DEFAULT_ELO0: Final = 0.0
#: H1's Elo difference unless told otherwise (see the module's text for why 10).
DEFAULT_ELO1: Final = 10.0
#: The chance of accepting H1 when H0 is true, unless told otherwise.
DEFAULT_ALPHA: Final = 0.05
#: The chance of accepting H0 when H1 is true, unless told otherwise.
DEFAULT_BETA: Final = 0.05
#: Blocks after which an undecided test stops, unless told otherwise.
DEFAULT_MAX_BLOCKS: Final = 2000
#: The pseudo-count of an unseen extreme outcome (0 or 1), as fishtest regularizes.
_PSEUDO: Final = 1e-3
#: The 97.5th percentile of the standard normal distribution.
_Z95: Final = 1.959963984540054

Decision = Literal["H0", "H1"]


class SprtError(ZoleError, ValueError):
    """A test that cannot be set up or computed as asked."""


def expected_score(elo: float) -> float:
    """The expected result of a player ``elo`` Elo above its opponent (logistic, 400 scale).

    >>> expected_score(0), round(expected_score(400 * math.log10(3)), 6)
    (0.5, 0.75)
    """
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def elo_of_score(score: float) -> float:
    """The Elo difference at which ``score`` is the expected result (±inf at 1 and 0).

    >>> round(elo_of_score(0.75), 1), elo_of_score(1.0)
    (190.8, inf)
    """
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: never -0.0


#: The smallest error rate a test takes: below it, ln((1-β)/α) is no longer a float.
MIN_ERROR_RATE: Final = 1e-12


@dataclasses.dataclass(frozen=True)
class SprtSettings:
    """The hypotheses and error rates of a test.

    :raises SprtError: ``elo1 <= elo0``, a bound that is not finite, or an error rate that is
        not strictly between 0 and 1 (or α + β ≥ 1, which leaves nothing to test).
    """

    elo0: float = DEFAULT_ELO0
    elo1: float = DEFAULT_ELO1
    alpha: float = DEFAULT_ALPHA
    beta: float = DEFAULT_BETA

    def __post_init__(self) -> None:
        if not (math.isfinite(self.elo0) and math.isfinite(self.elo1)):
            raise SprtError(f"elo0 and elo1 must be finite, not {self.elo0} and {self.elo1}")
        if self.elo1 <= self.elo0:
            raise SprtError(f"elo1 ({self.elo1:g}) must be greater than elo0 ({self.elo0:g})")
        if max(abs(self.elo0), abs(self.elo1)) > 2000:
            raise SprtError("elo0 and elo1 must lie between -2000 and 2000")
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0.0 < value < 1.0:
                raise SprtError(f"{name} must be between 0 and 1 (exclusive), not {value:g}")
            if value < MIN_ERROR_RATE:  # the bounds would overflow
                raise SprtError(f"{name} must be at least {MIN_ERROR_RATE:g}, not {value:g}")
        if self.alpha + self.beta >= 1.0:
            raise SprtError(f"alpha + beta must be less than 1, not {self.alpha + self.beta:g}")

    @property
    def lower(self) -> float:
        """The LLR at which H0 is accepted: ln(β / (1 − α))."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """The LLR at which H1 is accepted: ln((1 − β) / α)."""
        return math.log((1.0 - self.beta) / self.alpha)

    @property
    def s0(self) -> float:
        """NEW's expected result in a game under H0."""
        return expected_score(self.elo0)

    @property
    def s1(self) -> float:
        """NEW's expected result in a game under H1."""
        return expected_score(self.elo1)


def _lagrange(values: Sequence[float], weights: Sequence[float], s: float) -> float:
    """The λ of the maximum-likelihood distribution with mean ``s`` (see the module's text).

    ``Σ wᵢ (vᵢ − s) / (1 + λ(vᵢ − s))`` decreases from +∞ to −∞ on the interval where every
    ``1 + λ(vᵢ − s)`` is positive, so its one root is found by bisection, to a relative
    precision of 10⁻¹⁴ (about 47 halvings).
    """
    low = -1.0 / (max(values) - s)
    high = 1.0 / (s - min(values))
    pairs = list(zip(values, weights, strict=True))
    while high - low > 1e-14 * (abs(low) + abs(high)):
        middle = (low + high) / 2
        if not low < middle < high:
            break
        if sum(w * (v - s) / (1.0 + middle * (v - s)) for v, w in pairs) > 0:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def log_likelihood_ratio(counts: Mapping[float, float], s0: float, s1: float) -> float:
    """The generalized log-likelihood ratio of mean ``s1`` against mean ``s0`` for samples
    with the given counts of each outcome (outcomes in [0, 1]; ``0 < s0, s1 < 1``).

    >>> round(log_likelihood_ratio({0.0: 30, 0.5: 40, 1.0: 30}, 0.5, 0.6), 3)
    -3.373
    >>> round(log_likelihood_ratio({0.0: 20, 0.5: 40, 1.0: 40}, 0.5, 0.6), 3)
    3.398
    """
    if not (0.0 < s0 < 1.0 and 0.0 < s1 < 1.0):
        raise SprtError(f"expected scores must lie strictly between 0 and 1: {s0}, {s1}")
    table = {float(v): float(c) for v, c in counts.items() if c > 0}
    if any(not 0.0 <= v <= 1.0 for v in table):
        raise SprtError("block scores must lie between 0 and 1")
    if not table:
        return 0.0
    for extreme in (0.0, 1.0):
        table.setdefault(extreme, _PSEUDO)
    values = sorted(table)
    counted = [table[v] for v in values]
    total = sum(counted)
    weights = [c / total for c in counted]
    lam0 = _lagrange(values, weights, s0)
    lam1 = _lagrange(values, weights, s1)
    return sum(
        c * (math.log1p(lam0 * (v - s0)) - math.log1p(lam1 * (v - s1)))
        for v, c in zip(values, counted, strict=True)
    )


def llr_normal(blocks: int, mean: float, variance: float, s0: float, s1: float) -> float:
    """The normal approximation of the LLR: ``N (s₁ − s₀)(2x̄ − s₀ − s₁) / (2σ²)``.

    Not used by the test (it breaks down when σ² is 0 or tiny); it is the formula of the
    fishtest literature, kept to check :func:`log_likelihood_ratio` against.

    >>> round(llr_normal(100, 0.6, 0.2, 0.5, 0.6), 3)
    2.5
    """
    if variance <= 0.0:
        raise SprtError("the normal approximation needs a positive variance")
    return blocks * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)


class Sprt:
    """The state of a test: the block scores so far, their LLR and the decision."""

    def __init__(self, settings: SprtSettings) -> None:
        self.settings = settings
        self.counts: dict[float, int] = {}
        """How many blocks had each score."""
        self.blocks = 0
        self.llr = 0.0
        self._sum = 0.0
        self._squares = 0.0

    def add(self, score: float) -> None:
        """Count one block's score (0 to 1) and update the LLR.

        :raises SprtError: a score outside [0, 1].
        """
        if not 0.0 <= score <= 1.0:
            raise SprtError(f"a block's score must be from 0 to 1, not {score}")
        self.counts[score] = self.counts.get(score, 0) + 1
        self.blocks += 1
        self._sum += score
        self._squares += score * score
        self.llr = log_likelihood_ratio(self.counts, self.settings.s0, self.settings.s1)

    @property
    def decision(self) -> Decision | None:
        """``H1`` once the LLR reached the upper bound, ``H0`` once it fell to the lower one."""
        if self.blocks == 0:
            return None
        if self.llr >= self.settings.upper:
            return "H1"
        if self.llr <= self.settings.lower:
            return "H0"
        return None

    @property
    def mean(self) -> float:
        """NEW's mean block score (½ before any block)."""
        return self._sum / self.blocks if self.blocks else 0.5

    @property
    def variance(self) -> float:
        """The sample variance of the block scores (0 for fewer than two blocks)."""
        if self.blocks < 2:
            return 0.0
        spread = self._squares - self._sum * self._sum / self.blocks
        return max(spread, 0.0) / (self.blocks - 1)

    def estimate(self) -> tuple[float, float, float, float]:
        """(Elo, low, high, LOS): NEW's Elo difference from the mean score, its 95 % interval
        from the mean's standard error, and the likelihood that NEW is the stronger.

        >>> test = Sprt(SprtSettings())
        >>> for score in (0.5, 0.75, 0.75, 1.0):
        ...     test.add(score)
        >>> [round(x, 1) for x in test.estimate()]
        [190.8, 34.8, 511.6, 99.3]
        """
        mean = self.mean
        error = math.sqrt(self.variance / self.blocks) if self.blocks else math.inf
        elo = elo_of_score(mean)
        if error == 0.0:
            los = 0.5 if mean == 0.5 else 1.0 if mean > 0.5 else 0.0
            return elo, elo, elo, 100.0 * los
        low = elo_of_score(mean - _Z95 * error)
        high = elo_of_score(mean + _Z95 * error)
        los = 0.5 * (1.0 + math.erf((mean - 0.5) / (error * math.sqrt(2.0))))
        return elo, low, high, 100.0 * los


def block_score(
    units: Iterable[Unit], new: Collection[str], old: Collection[str]
) -> tuple[float, int]:
    """NEW's mean result in a block's games between a NEW-side and an OLD-side player, and
    the number of those games.

    The games are the units' pairwise games as ``zole-arena ratings`` counts them: in each
    deal, every NEW-side player against every OLD-side player of that deal, 1 to the larger
    score, ½ each when equal. Games between two players of one side, or against a third bot,
    are left out.

    :param new: NEW's name and the names of its copies; ``old``: OLD's.
    :raises SprtError: the units hold no game between the two sides.

    Four deals of A, B and C, in which A, B and C win solo and B then loses solo: A against
    B wins, loses, draws (both defend against C) and wins; against C it wins, draws, loses and
    draws. The games between B and C are not counted.

    >>> deals = [{"A": 4, "B": -2, "C": -2}, {"A": -2, "B": 4, "C": -2},
    ...          {"A": -2, "B": -2, "C": 4}, {"A": 2, "B": -4, "C": 2}]
    >>> unit = Unit("m", 1, {"A": 2, "B": -4, "C": 2}, {"A": 4, "B": 4, "C": 4}, deals)
    >>> block_score([unit], {"A"}, {"B"}), block_score([unit], {"A"}, {"B", "C"})
    ((0.625, 4), (0.5625, 8))
    """
    total = 0.0
    games = 0
    for unit in units:
        for game in unit.games():
            if game.first in new and game.second in old:
                total += game.score
            elif game.first in old and game.second in new:
                total += 1.0 - game.score
            else:
                continue
            games += 1
    if games == 0:
        raise SprtError("the block holds no game between NEW and OLD")
    return total / games, games
