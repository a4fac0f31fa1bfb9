"""Results tallied deal by deal: rating units, pairwise games and a quick Elo fit that grow as
deals arrive, for standings that are redrawn while a tournament plays.

:func:`~zole_arena.stats.ratings.units_from_records` groups a whole log at once; a live view
asks again after every deal, and regrouping every record and recounting every game each time
costs more the longer the event runs. A :class:`ResultTally` keeps what those answers are made
of — each unit's totals, each pair's games and wins — and adds one deal to them in time that
depends only on the deal's three players. Its units, head-to-head table and Elo fit are the
same as those computed from the log afterwards (the tests check it).

>>> tally = ResultTally(duplicate=False)
>>> tally.add("m", deal=1, block=1, scores={"A": 4, "B": -2, "C": -2})
>>> tally.add("m", deal=2, block=2, scores={"A": -4, "B": 2, "C": 2})
>>> tally.head_to_head()["A"]["B"]
(1.0, 2)
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Iterable, Mapping

from zole_arena.stats.btfit import (
    ELO,
    RatingError,
    anchored,
    check_players,
    fit_strengths,
    results_table,
)
from zole_arena.stats.units import Unit

__all__ = ["ResultTally"]


@dataclasses.dataclass
class _UnitSoFar:
    """One unit being filled: its deals by number, each deal's scores by player."""

    deals: dict[int, Mapping[str, int]] = dataclasses.field(default_factory=dict)
    sequence: int = 0
    cards: set[str] = dataclasses.field(default_factory=set)

    def unit(self, match_id: str, block: int) -> Unit:
        ordered = [self.deals[number] for number in sorted(self.deals)]
        totals: dict[str, int] = {}
        played: dict[str, int] = {}
        for scores in ordered:
            for name, score in scores.items():
                totals[name] = totals.get(name, 0) + score
                played[name] = played.get(name, 0) + 1
        cards = frozenset(self.cards)
        return Unit(match_id, block, totals, played, tuple(ordered), None, self.sequence, cards)


class ResultTally:
    """Deals of one or more matches, tallied as they arrive.

    :param duplicate: whether the matches are duplicate (a unit is a duplicate block), or
        plain (a unit is a deal), as a match header says.
    """

    def __init__(self, duplicate: bool) -> None:
        self.duplicate = duplicate
        self.deals = 0
        self._units: dict[tuple[str, int], _UnitSoFar] = {}
        self._pairs: dict[tuple[str, str], tuple[int, float]] = {}
        """(first, second) in sorted order: (games, the first one's wins, a draw being ½)."""
        self._elo: tuple[int, dict[str, float]] | None = None
        self._built: tuple[int, list[Unit]] | None = None

    def add(
        self,
        match_id: str,
        deal: int,
        block: int,
        scores: Mapping[str, int],
        cards: Iterable[str] = (),
    ) -> None:
        """Count one deal: its match, number, block, each player's score and the keys of its
        cards (:func:`~zole_arena.stats.units.deal_keys`; none: shared with no other deal).

        A deal already counted (the same match and number) is counted once, as when a log is
        read.
        """
        key = (match_id, block if self.duplicate else deal)
        unit = self._units.setdefault(key, _UnitSoFar())
        if deal in unit.deals:
            return
        unit.deals[deal] = dict(scores)
        unit.sequence = self.deals
        unit.cards.update(cards)
        pairs = self._pairs
        for first, second in itertools.combinations(sorted(scores), 2):
            a, b = scores[first], scores[second]
            games, won = pairs.get((first, second), (0, 0.0))
            pairs[first, second] = (games + 1, won + (1.0 if a > b else 0.0 if a < b else 0.5))
        self.deals += 1

    def units(self) -> list[Unit]:
        """The rating data so far, sorted by match and block as a log's would be."""
        if self._built is None or self._built[0] != self.deals:
            built = [self._units[key].unit(*key) for key in sorted(self._units)]
            self._built = (self.deals, built)
        return self._built[1]

    def head_to_head(self) -> dict[str, dict[str, tuple[float, int]]]:
        """For each two players: (the row player's score, pairwise games) so far."""
        table: dict[str, dict[str, tuple[float, int]]] = {}
        for (first, second), (games, won) in self._pairs.items():
            table.setdefault(first, {})[second] = (won, games)
            table.setdefault(second, {})[first] = (games - won, games)
        return table

    def elo(self, prior: float = 1.0) -> dict[str, float]:
        """The maximum-likelihood Elo of every player so far, average 0, without intervals;
        empty before two players have met. Fitted once per number of deals."""
        if self._elo is not None and self._elo[0] == self.deals:
            return self._elo[1]
        names = sorted({name for pair in self._pairs for name in pair})
        elo: dict[str, float] = {}
        if len(names) >= 2:
            check_players(names, None, prior)
            index = {name: i for i, name in enumerate(names)}
            results = {
                (index[first], index[second]): (float(games), won)
                for (first, second), (games, won) in self._pairs.items()
            }
            logs = fit_strengths(results_table(len(names), results), prior)
            elos = anchored([ELO * value for value in logs], names, None)
            if not all(math.isfinite(value) for value in elos):
                raise RatingError("the fit did not converge")
            elo = dict(zip(names, elos, strict=True))
        self._elo = (self.deals, elo)
        return elo
