"""The Bradley–Terry fit behind the ratings: pairwise results in, log-strengths out.

Hunter's MM algorithm (2004) with a weak prior — one virtual draw of each player against a
neutral opponent of strength 1 — and, after every sweep, the exact best common factor of each
group of players connected by games (which only the prior decides, and plain MM approaches
very slowly). :mod:`zole_arena.stats.ratings` builds rating lists and their bootstrap on it;
:mod:`zole_arena.stats.tally` its quick live fit.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from typing import Final, NamedTuple

from zole_arena.errors import ZoleError

__all__ = [
    "ELO",
    "FitTable",
    "RatingError",
    "anchored",
    "check_players",
    "fit_strengths",
    "results_table",
    "tally_games",
]

#: Elo points per natural-log unit of strength: 400 / ln 10.
ELO: Final = 400.0 / math.log(10.0)
#: The fit stops when no log-strength moves by more than this in a sweep (≈ 2·10⁻⁷ Elo).
_TOLERANCE: Final = 1e-9
_MAX_SWEEPS: Final = 100_000


class RatingError(ZoleError, ValueError):
    """Nothing to rate, or a rating that cannot be computed as asked."""


class FitTable(NamedTuple):
    """Pairwise results in the form the fit works on (players by index)."""

    wins: list[float]
    """Each player's wins, a draw counting one half."""
    neighbours: list[list[tuple[int, float]]]
    """For each player: (opponent, games between them)."""


def tally_games(
    games: Iterable[tuple[str, str, float]], index: Mapping[str, int]
) -> dict[tuple[int, int], tuple[float, float]]:
    """Games as ``{(i, j): (games, wins of i)}`` with ``i < j`` (player numbers by ``index``).

    :raises RatingError: a score outside 0…1, or a player against itself.
    """
    results: dict[tuple[int, int], tuple[float, float]] = {}
    for first, second, score in games:
        if not 0.0 <= score <= 1.0:
            raise RatingError(f"a game's score must be from 0 to 1, not {score}")
        if first == second:
            raise RatingError(f"a player cannot play itself ({first!r})")
        i, j = index[first], index[second]
        if i > j:
            i, j, score = j, i, 1.0 - score
        played, won = results.get((i, j), (0.0, 0.0))
        results[i, j] = (played + 1.0, won + score)
    return results


def results_table(players: int, results: Mapping[tuple[int, int], tuple[float, float]]) -> FitTable:
    """``results[i, j]`` (i < j): (games, wins of i) → a :class:`FitTable`."""
    wins = [0.0] * players
    neighbours: list[list[tuple[int, float]]] = [[] for _ in range(players)]
    for (i, j), (games, won) in results.items():
        if games <= 0:
            continue
        wins[i] += won
        wins[j] += games - won
        neighbours[i].append((j, games))
        neighbours[j].append((i, games))
    return FitTable(wins, neighbours)


def fit_strengths(table: FitTable, prior: float) -> list[float]:
    """Maximum-likelihood log-strengths (natural log; the neutral opponent is at 0).

    Each sweep is Hunter's MM update, player by player (γᵢ ← Wᵢ / Σⱼ nᵢⱼ / (γᵢ + γⱼ), with the
    prior's virtual draw as half a win and one game against γ = 1) — or a Newton step in the
    player's log-strength where that is longer and likelier (a player who almost never loses
    or wins, whom MM moves a little per sweep for as many sweeps as it has games: a crafted
    log made a fit take hours) — followed by the exact best
    common factor for all strengths, which only the prior decides and which plain MM would
    approach very slowly when there are many games. Players who never met, directly or through
    others (logs of different pools rated together), form groups whose levels only the prior
    decides, each its own: each group gets its own best factor.
    """
    count = len(table.wins)
    wins = [won + prior / 2 for won in table.wins]
    strength = [1.0] * count
    groups = _groups(table)
    for _ in range(_MAX_SWEEPS):
        moved = 0.0
        for i in range(count):
            own = strength[i]
            denominator = prior / (own + 1.0)
            expected = prior * own / (own + 1.0)  # the player's expected wins, and their
            curvature = prior * own / (own + 1.0) ** 2  # derivative in its log-strength
            for j, games in table.neighbours[i]:
                total = own + strength[j]
                denominator += games / total
                expected += games * own / total
                curvature += games * own * strength[j] / (total * total)
            new = wins[i] / denominator
            # MM moves a player who (nearly) never loses, or never wins, by a little per
            # sweep, for as many sweeps as it has games; a Newton step in its log-strength
            # (at most 1, e ≈ 174 Elo) goes there in a few. The likelier of the two is kept.
            step = max(-1.0, min(1.0, (wins[i] - expected) / curvature))
            newton = own * math.exp(step)
            if abs(step) > abs(math.log(new / own)) and _gain(
                table.neighbours[i], strength, wins[i], prior, own, newton
            ) > _gain(table.neighbours[i], strength, wins[i], prior, own, new):
                new = newton
            moved = max(moved, abs(math.log(new / own)))
            strength[i] = new
        largest = 0.0
        for group in groups:
            shift = _best_shift([math.log(strength[i]) for i in group])
            factor = math.exp(shift)
            for i in group:
                strength[i] *= factor
            largest = max(largest, abs(shift))
        if max(moved, largest) < _TOLERANCE:
            break
    return [math.log(s) for s in strength]


def _gain(
    neighbours: Sequence[tuple[int, float]],
    strength: Sequence[float],
    wins: float,
    prior: float,
    own: float,
    new: float,
) -> float:
    """How much the log-likelihood (prior included) of one player's games grows when its
    strength moves from ``own`` to ``new``, the others' staying."""
    change = wins * math.log(new / own) - prior * math.log((new + 1.0) / (own + 1.0))
    for j, games in neighbours:
        change -= games * math.log((new + strength[j]) / (own + strength[j]))
    return change


def _groups(table: FitTable) -> list[list[int]]:
    """The players in groups that are connected by games, each in index order."""
    group_of = [-1] * len(table.wins)
    groups: list[list[int]] = []
    for start in range(len(table.wins)):
        if group_of[start] >= 0:
            continue
        group_of[start] = len(groups)
        members, todo = [start], [start]
        while todo:
            for j, _ in table.neighbours[todo.pop()]:
                if group_of[j] < 0:
                    group_of[j] = len(groups)
                    members.append(j)
                    todo.append(j)
        groups.append(sorted(members))
    return groups


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


def anchored(
    elos: Sequence[float], names: Sequence[str], anchor: tuple[str, float] | None
) -> list[float]:
    if anchor is not None:
        return [elo + anchor[1] - elos[names.index(anchor[0])] for elo in elos]
    offset = statistics.fmean(elos)
    return [elo - offset for elo in elos]


def check_players(names: Sequence[str], anchor: tuple[str, float] | None, prior: float) -> None:
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
