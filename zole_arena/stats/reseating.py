"""Reseating between the rounds of a tournament: who sits at which table next.

The Latvian federation's tournaments play several rounds; in each round the players sit at
tables of four, and at tables of three where the field does not divide by four. Round 1's
tables are drawn (:func:`first_round`). After each round the players are ranked by their
standings (big points, then points, then the tournament's stated tie-break) and reseated
Swiss-like by :func:`reseat`:

* **The Swiss seating.** The first table takes the top of the ranking, the next table the next
  players, and so on: the tables of four come first, the tables of three (if any) seat the
  bottom of the ranking (:func:`table_sizes`).

* **Avoiding repeat meetings.** The Swiss seating is then changed, as little as needed, so that
  players meet again as seldom as possible. Two seatings are compared by, in this order:

  1. *Repeat meetings*: for every two players seated at the same table, the number of earlier
     rounds at which they already shared a table, summed over all such pairs
     (:func:`repeat_meetings`). A pair that met once counts 1, a pair that met twice counts 2;
     a pair that never met counts 0. The fewer the better.
  2. *Distance from the Swiss seating*, among seatings with equally many repeat meetings: for
     every player, how many tables up or down he is moved from his Swiss table, squared, summed
     over all players. A player moved one table counts 1, two tables 4, three tables 9: moving
     several players by one table is preferred to moving one player far from his standing.
     Where a player sits within his table does not count.

  The first decides; the second only chooses between seatings equal on the first. The table
  sizes stay those of the Swiss seating.

* **How the seating is found.** The search changes the seating by swaps of two players at
  different tables, starting from the Swiss seating. First, each player who has a repeat
  meeting at his table or sits away from his Swiss table, in ranking order, is swapped with
  whoever makes the seating best, as long as some swap makes it better. Then it goes on making
  the best swap there is even when that makes the seating worse, to get past seatings that
  only several swaps together improve; but a player may not go back to a table he left in the
  last 3 to 7 swaps (unless that gives the best seating yet), so that it does not go round in
  circles. It keeps the best seating it has seen, and stops once it has weighed about
  ``tries`` swaps (50,000 by default) without finding a better one. It uses no randomness and
  weighs players in ranking order, best first (of two equally good swaps it makes the one it
  weighed first), so the same ranking and the same earlier meetings always give the same
  tables.
  The search is not exhaustive: on fields of up to twelve players, checked against every
  possible seating in a few hundred cases, it found the best one every time; on a bigger field
  it may stop at a seating that a longer rearrangement would improve.

* **The tables.** Tables are listed from the top table down, and each table lists its players
  in ranking order, best first.

Entrants are numbered ``0`` to ``n - 1``. Everything here is pure: no I/O, and only the
standard library.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

__all__ = [
    "DEFAULT_TRIES",
    "first_round",
    "meetings",
    "repeat_meetings",
    "reseat",
    "table_sizes",
]

#: The search's patience: about how many swaps :func:`reseat` weighs, by default, without
#: finding a better seating before it stops. It costs a few tens of milliseconds on a hundred
#: players; fields of up to twelve reach their best seating long before, while on fields of
#: twenty to sixty a longer search still finds a seating closer to the Swiss one now and then.
DEFAULT_TRIES: Final = 50_000

#: For how many swaps a player may not go back to a table he has just left: 3, 4, 5, 6, 7 in
#: turn (a bar of varying length keeps the search out of cycles a fixed one falls into).
_BAR: Final = 3
_BAR_SPREAD: Final = 5

Tables = tuple[tuple[int, ...], ...]


def table_sizes(players: int) -> tuple[int, ...]:
    """How a field of ``players`` is split into tables: as many tables of four as possible,
    the rest tables of three, the fours first (the threes seat the bottom of the standings).

    >>> table_sizes(14)
    (4, 4, 3, 3)

    :raises ValueError: ``players`` is below 3 or is 5 (no split into threes and fours).
    """
    threes = -players % 4  # 4k + 1 needs three tables of three, 4k + 2 two, 4k + 3 one
    if players < 3 or 3 * threes > players:
        raise ValueError(f"{players} players cannot be seated at tables of three and four")
    fours = (players - 3 * threes) // 4
    return (4,) * fours + (3,) * threes


def first_round(players: int, seed: int) -> Tables:
    """Round 1's tables: the entrants ``0`` to ``players - 1`` in an order drawn from
    ``seed``, split by :func:`table_sizes` (each table lists its players in the drawn order).

    The draw uses :class:`random.Random` seeded with the string ``"reseat/<seed>"``, whose
    shuffle is the same on every Python version, so a tournament's first round can be drawn
    again from its seed alone.

    :raises ValueError: the field cannot be split into tables of three and four.
    """
    sizes = table_sizes(players)
    order = list(range(players))
    random.Random(f"reseat/{seed}").shuffle(order)
    return _split(order, sizes)


def meetings(rounds: Iterable[Sequence[Sequence[int]]]) -> dict[frozenset[int], int]:
    """How many of ``rounds`` each pair of players shared a table at, keyed by the pair (pairs
    that never met are absent): the ``met`` that :func:`reseat` takes.

    :raises ValueError: a player sits twice in one round.
    """
    counts: dict[frozenset[int], int] = {}
    for number, tables in enumerate(rounds, start=1):
        seated: set[int] = set()
        for table in tables:
            for player in table:
                if player in seated:
                    raise ValueError(f"player {player} sits twice in round {number}")
                seated.add(player)
            for a, b in itertools.combinations(table, 2):
                pair = frozenset((a, b))
                counts[pair] = counts.get(pair, 0) + 1
    return counts


def repeat_meetings(tables: Iterable[Sequence[int]], met: Mapping[frozenset[int], int]) -> int:
    """The repeat meetings of a seating, what :func:`reseat` minimises first: for every two
    players at the same table, how often they met before (``met``, absent pairs 0), summed."""
    return sum(
        met.get(frozenset((a, b)), 0)
        for table in tables
        for a, b in itertools.combinations(table, 2)
    )


def reseat(
    ranking: Sequence[int], met: Mapping[frozenset[int], int], *, tries: int = DEFAULT_TRIES
) -> Tables:
    """The next round's tables, from the ranking and the meetings so far (see the module's
    description for exactly what is minimised, and how).

    ``ranking`` lists the entrants ``0`` to ``n - 1`` best first; ``met`` counts, for a pair
    ``frozenset({a, b})``, the earlier rounds at which ``a`` and ``b`` shared a table (absent:
    0), as :func:`meetings` gives it. ``tries`` is about how many swaps the search weighs
    without finding a better seating before it stops (more may find a better seating on a big
    field, and take longer); with ``tries=0`` it only makes swaps that improve the seating.

    :raises ValueError: ``ranking`` is not an order of ``0`` to ``n - 1``, the field cannot be
        split into tables of three and four, a key of ``met`` is not two entrants of the field
        or a count is negative, or ``tries`` is negative.
    """
    order = _checked_ranking(ranking)
    sizes = table_sizes(len(order))
    if tries < 0:
        raise ValueError(f"tries must be at least 0, not {tries}")
    search = _Search(order, sizes, _met_matrix(met, len(order)))
    search.improve(tries)
    return search.tables()


def _split(order: Sequence[int], sizes: Sequence[int]) -> Tables:
    """``order`` cut into consecutive tables of ``sizes``."""
    starts = itertools.accumulate(sizes, initial=0)
    return tuple(
        tuple(order[start : start + size]) for start, size in zip(starts, sizes, strict=False)
    )


def _checked_ranking(ranking: Sequence[int]) -> list[int]:
    """``ranking`` as a list, checked to be an order of ``0`` to ``n - 1``."""
    order = list(ranking)
    n = len(order)
    seen = [False] * n
    for player in order:
        if not isinstance(player, int) or not 0 <= player < n:
            raise ValueError(
                f"a ranking of {n} must list the entrants 0 to {n - 1}, not {player!r}"
            )
        if seen[player]:
            raise ValueError(f"the ranking lists entrant {player} twice")
        seen[player] = True
    return order


def _met_matrix(met: Mapping[frozenset[int], int], players: int) -> list[list[int]]:
    """``met`` as a symmetric table of counts (``[a][b]``), checked against the field."""
    counts = [[0] * players for _ in range(players)]
    for pair, count in met.items():
        if len(pair) != 2 or not all(0 <= p < players for p in pair):
            raise ValueError(
                f"a meeting must be of two different entrants of 0 to {players - 1}, "
                f"not {sorted(pair)}"
            )
        if count < 0:
            raise ValueError(f"the meetings of {sorted(pair)} are {count}, below 0")
        a, b = pair
        counts[a][b] = counts[b][a] = count
    return counts


class _Search:
    """The search of :func:`reseat`: a seating and the swaps that change it.

    A seating's cost is ``weight * repeats + distance`` (the module's two criteria), where
    ``weight`` exceeds every possible distance, so that comparing costs compares the criteria
    in order. ``score[p][t]`` keeps what player ``p`` would add to the cost at table ``t``
    with the players now there (``weight`` times his earlier meetings with them, plus his
    distance from his Swiss table), so that a swap is weighed in a few additions rather than by
    costing the whole seating again.
    """

    def __init__(self, order: list[int], sizes: tuple[int, ...], met: list[list[int]]) -> None:
        n, tables = len(order), len(sizes)
        self.order = order
        self.met = met
        self.swiss = [0] * n
        for table, players in enumerate(_split(order, sizes)):
            for player in players:
                self.swiss[player] = table
        self.tables_count = tables
        self.weight = n * (tables - 1) ** 2 + 1
        weight = self.weight
        #: For each player, the others he has met and ``weight`` times how often.
        self.met_by = [
            [(other, weight * count) for other, count in enumerate(row) if count] for row in met
        ]
        self.table = list(self.swiss)
        self.score: list[list[int]] = []
        self._seat(self.swiss)

    def improve(self, tries: int) -> None:
        """Descend by improving swaps, then search on (:meth:`_search_on`) until ``tries``
        swaps are weighed without a better seating, and keep the best seating seen."""
        self._descend()
        if tries:
            self._search_on(tries)

    def tables(self) -> Tables:
        """The seating, tables from the top down, each in ranking order."""
        members: list[list[int]] = [[] for _ in range(self.tables_count)]
        for player in self.order:
            members[self.table[player]].append(player)
        return tuple(map(tuple, members))

    def _unhappy(self) -> list[int]:
        """The players, in ranking order, with a repeat meeting at their table or away from
        their Swiss table: every swap that lowers the cost moves one of them (a swap of two
        others adds their distance and lowers nobody's repeat meetings)."""
        table, score = self.table, self.score
        return [p for p in self.order if score[p][table[p]]]

    def _descend(self) -> None:
        """For each unhappy player in ranking order, make the swap that lowers the cost most,
        if one does; sweep again until none does."""
        swapped = True
        while swapped:
            swapped = False
            for p in self._unhappy():
                q = self._best_swap(p)
                if q is not None:
                    self._swap(p, q)
                    swapped = True

    def _best_swap(self, p: int) -> int | None:
        """The player whose swap with ``p`` lowers the cost most, if any does (the better
        ranked of equals)."""
        table, score, double = self.table, self.score, 2 * self.weight
        met_p, score_p, a = self.met[p], self.score[p], table[p]
        stay = score_p[a]
        best, chosen = 0, None
        for q in self.order:
            b = table[q]
            if b != a:
                score_q = score[q]
                change = score_p[b] - stay + score_q[a] - score_q[b] - double * met_p[q]
                if change < best:
                    best, chosen = change, q
        return chosen

    def _search_on(self, tries: int) -> None:
        """A tabu search from the current seating: make the best swap allowed, even one that
        raises the cost; bar each swapped player from going back to the table he left for the
        next few swaps (unless that gives the lowest cost yet); stop after weighing ``tries``
        swaps since the lowest cost was last lowered, and take the seating that had it."""
        barred = [[-1] * self.tables_count for _ in self.order]
        current = lowest = 0
        kept = list(self.table)
        weighed = step = 0
        while weighed < tries:
            pick, count = self._best_allowed(barred, step, lowest - current)
            if pick is None:
                break
            change, p, q = pick
            barred[p][self.table[p]] = barred[q][self.table[q]] = step + _BAR + step % _BAR_SPREAD
            self._swap(p, q)
            current += change
            if current < lowest:
                lowest, kept, weighed = current, list(self.table), 0
            else:
                weighed += count
            step += 1
        self._seat(kept)

    def _best_allowed(
        self, barred: list[list[int]], step: int, record: int
    ) -> tuple[tuple[int, int, int] | None, int]:
        """The swap moving an unhappy player that changes the cost least, as ``(change, p,
        q)``, among those that bring no player back to a table barred to him at ``step``, or
        that lower the cost by more than ``-record`` (to a new lowest); the best of all if
        every swap is barred; None if there is no swap. Also how many swaps were weighed
        (counted as each unhappy player with every player)."""
        table, score, double = self.table, self.score, 2 * self.weight
        order, met = self.order, self.met
        unhappy = self._unhappy()
        done = [False] * len(order)
        best: tuple[int, int, int] | None = None
        barred_best: tuple[int, int, int] | None = None
        for p in unhappy:
            done[p] = True
            met_p, score_p, barred_p, a = met[p], score[p], barred[p], table[p]
            stay = score_p[a]
            for q in order:
                b = table[q]
                if b == a or done[q]:
                    continue
                score_q = score[q]
                change = score_p[b] - stay + score_q[a] - score_q[b] - double * met_p[q]
                if best is None or change < best[0]:
                    if change < record or (barred_p[b] < step and barred[q][a] < step):
                        best = (change, p, q)
                    elif barred_best is None or change < barred_best[0]:
                        barred_best = (change, p, q)
        count = len(unhappy) * len(order)
        return best or barred_best, count

    def _swap(self, p: int, q: int) -> None:
        """Swap the tables of ``p`` and ``q``, keeping ``score`` up to date."""
        a, b = self.table[p], self.table[q]
        self.table[p], self.table[q] = b, a
        score = self.score
        for player, source, to in ((p, a, b), (q, b, a)):
            for other, weighted in self.met_by[player]:
                row = score[other]
                row[source] -= weighted
                row[to] += weighted

    def _seat(self, table: list[int]) -> None:
        """Take the seating ``table`` (each player's table) and work out ``score`` afresh."""
        self.table = list(table)
        self.score = [[(t - home) ** 2 for t in range(self.tables_count)] for home in self.swiss]
        for player, row in enumerate(self.score):
            for other, weighted in self.met_by[player]:
                row[table[other]] += weighted
