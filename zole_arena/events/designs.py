"""Balanced schedules: tables of three for fields too big for a round-robin.

A round-robin of n bots plays all C(n, 3) tables. A balanced schedule plays fewer, chosen so
that every bot sits at about equally many tables and every pair of bots meets at about equally
many: a balanced incomplete block design with blocks of three, BIBD(n, 3, λ), where one can be
found, else the most balanced schedule the search finds.

>>> tables = balanced_tables(7, meetings=1)
>>> len(tables), balance(tables, 7).exact
(7, True)
"""

from __future__ import annotations

import dataclasses
import heapq
import itertools
import math
import operator
import random
from collections.abc import Callable, Sequence

__all__ = ["Balance", "DesignError", "balance", "balanced_tables"]


Triple = tuple[int, int, int]

_NEVER = 1 << 30  # more meetings than any pair has


class DesignError(ValueError):
    """A balanced schedule that cannot be made as asked (the message is one line)."""


@dataclasses.dataclass(frozen=True)
class Balance:
    """How evenly a schedule seats its bots: the fewest and most tables a bot sits at, and the
    fewest and most tables a pair of bots meets at (0 for a pair that never meets)."""

    appearances_min: int
    appearances_max: int
    meetings_min: int
    meetings_max: int

    @property
    def exact(self) -> bool:
        """Whether every bot sits equally often and every pair meets equally often (a BIBD)."""
        return (
            self.appearances_min == self.appearances_max and self.meetings_min == self.meetings_max
        )


def balance(tables: Sequence[Triple], bots: int) -> Balance:
    """How balanced ``tables`` (of bots ``0`` to ``bots - 1``) are.

    :raises DesignError: fewer than three bots, or a table with a bot out of range or twice.
    """
    _check_bots(bots)
    seated = [0] * bots
    met = [0] * (bots * bots)
    for table in tables:
        if len(set(table)) != 3 or not all(0 <= bot < bots for bot in table):
            raise DesignError(f"table {table} is not three different bots of 0 to {bots - 1}")
        for bot in table:
            seated[bot] += 1
        for x, y in itertools.combinations(sorted(table), 2):
            met[x * bots + y] += 1
    pairs = [met[x * bots + y] for x, y in itertools.combinations(range(bots), 2)]
    return Balance(min(seated), max(seated), min(pairs), max(pairs))


def balanced_tables(
    bots: int, *, tables: int | None = None, meetings: int | None = None, seed: int = 0
) -> list[Triple]:
    """The tables of a balanced schedule for ``bots`` bots, in the order they are played.

    Give exactly one of ``tables``, how many tables to play, or ``meetings``, how often each
    pair should meet (λ). λ asks for λ·n(n−1)/6 tables; when that is not whole it is rounded
    to the nearest (a third off), and a few pairs meet once more or once less than λ.

    Every bot sits at the same number of tables or one more, and the pairs meet as evenly as
    the search can make them: exactly λ times (a BIBD) for Steiner triple systems (λ = 1, n
    ≡ 1 or 3 mod 6, by Stinson's hill-climbing) and their unions, and wherever the local
    search reaches it (small n); else within 0 to 2 for λ = 1. Tables are sorted and, as far
    as the search can make them, distinct.
    More than half the round-robin's tables are the round-robin less a balanced choice.

    The playing order is :func:`~zole_arena.events.schedule.tables_for`'s: each next table is
    the one whose bots have sat at the fewest tables so far (ties to the one whose most
    seated bot has sat least), so that the field stays balanced while it plays. The result
    depends only on the arguments: ``seed`` picks among equally good schedules.

    :raises DesignError: fewer than three bots, not exactly one of ``tables`` and
        ``meetings``, one below 1, more tables than the round-robin has, or too few to seat
        every bot.
    """
    count = _table_count(bots, tables, meetings)
    chosen = _choose(bots, count, random.Random(seed).random)
    return _playing_order([(a, b, c) for a, b, c in map(sorted, chosen)], bots)


def _choose(n: int, count: int, uniform: Callable[[], float]) -> list[list[int]]:
    """``count`` balanced tables of ``n`` bots, in no particular order.

    More than half of all tables are all but a balanced choice of the others (which is as
    balanced, and cheaper to find); a whole number of Steiner triple systems starts the search.
    """
    total = math.comb(n, 3)
    if 2 * count > total:
        dropped = {tuple(sorted(table)) for table in _choose(n, total - count, uniform)}
        if len(dropped) == total - count:  # no table twice
            return [list(t) for t in itertools.combinations(range(n), 3) if t not in dropped]
    if count == 0:
        return []
    block = n * (n - 1) // 6
    start = None
    if n % 6 in (1, 3) and count % block == 0:
        start = [table for _ in range(count // block) for table in _steiner(n, uniform)]
    return _search(n, count, uniform, start)


def _check_bots(bots: int) -> None:
    if bots < 3:
        raise DesignError(f"a balanced schedule needs at least 3 bots, not {bots}")


def _table_count(bots: int, tables: int | None, meetings: int | None) -> int:
    """How many tables the arguments ask for, checked."""
    _check_bots(bots)
    if tables is not None and meetings is not None:
        raise DesignError("give --tables or --meetings, not both")
    if meetings is not None:
        if meetings < 1:
            raise DesignError(f"--meetings must be at least 1, not {meetings}")
        count = (meetings * bots * (bots - 1) + 3) // 6
    elif tables is not None:
        if tables < 1:
            raise DesignError(f"--tables must be at least 1, not {tables}")
        count = tables
    else:
        raise DesignError("give --tables or --meetings")
    limit = math.comb(bots, 3)
    asked = f"--tables {count}" if meetings is None else f"--meetings {meetings} ({count} tables)"
    if count > limit:
        raise DesignError(
            f"{bots} bots have {limit} different tables, not {asked}: play a round-robin"
        )
    if 3 * count < bots:
        raise DesignError(
            f"{count} table{'s' * (count != 1)} seat{'s' * (count == 1)} only {3 * count} "
            f"of {bots} bots: every bot needs a table (give at least {(bots + 2) // 3})"
        )
    return count


def _steiner(v: int, uniform: Callable[[], float]) -> list[list[int]]:
    """A Steiner triple system on ``v`` points (v ≡ 1 or 3 mod 6), by Stinson's hill-climbing.

    Take a point x with two partners y, z it has not been paired with yet; add the block
    {x, y, z}, first dropping the block that already holds y and z, if any. Every step keeps
    a partial system, and it completes after about v² log v steps.
    """
    third = [[-1] * v for _ in range(v)]  # third[x][y]: the third point of x and y's block
    free = [[y for y in range(v) if y != x] for x in range(v)]  # x's partners still unpaired
    where = [[y - (y > x) for y in range(v)] for x in range(v)]  # y's index in free[x]
    live = list(range(v))  # the points with unpaired partners, and each one's index
    live_at = list(range(v))

    def unlink(x: int, y: int) -> None:
        for p, q in ((x, y), (y, x)):
            row, i = free[p], where[p][q]
            row[i] = row[-1]
            where[p][row[i]] = i
            row.pop()
            if not row:
                i = live_at[p]
                live[i] = live[-1]
                live_at[live[i]] = i
                live.pop()

    def link(x: int, y: int) -> None:
        for p, q in ((x, y), (y, x)):
            if not free[p]:
                live_at[p] = len(live)
                live.append(p)
            where[p][q] = len(free[p])
            free[p].append(q)

    while live:
        x = live[int(uniform() * len(live))]
        partners = free[x]
        i, j = int(uniform() * len(partners)), int(uniform() * (len(partners) - 1))
        j += j >= i
        y, z = partners[i], partners[j]
        w = third[y][z]
        if w < 0:
            unlink(y, z)
        else:
            link(w, y)
            link(w, z)
            third[w][y] = third[y][w] = third[w][z] = third[z][w] = -1
        unlink(x, y)
        unlink(x, z)
        third[x][y], third[y][x], third[x][z] = z, z, y
        third[z][x], third[y][z], third[z][y] = y, x, x
    return [[x, y, third[x][y]] for x, y in itertools.combinations(range(v), 2) if third[x][y] > y]


def _search(
    n: int, count: int, uniform: Callable[[], float], start: list[list[int]] | None
) -> list[list[int]]:
    """``count`` tables of ``n`` bots whose pairs meet as evenly as a seeded local search finds.

    The tables start as ``start`` or as a shuffled order of the bots dealt out in threes
    (each bot sits equally often, or once more). A move swaps two bots between two tables,
    which keeps every bot's number of tables, so that only the meetings change. The score is
    Σ meetings² over the pairs (the number of meetings being fixed, that is their spread about
    the mean) plus 4 for each pair of equal tables. A move takes a bot x from the seat, of ten
    drawn, whose bot meets its tablemates most; brings in the bot y that meets them least;
    and sends x to the table, of four of y's drawn, where x meets the others least against y.
    It is taken when it does not raise the score, or seldom (simulated annealing, cooling)
    when it does. The search stops at a perfect score or after a fixed number of moves.
    """
    if start is None:
        order = list(range(n))
        for k in range(n - 1, 0, -1):  # Fisher-Yates
            m = int(uniform() * (k + 1))
            order[k], order[m] = order[m], order[k]
        start = [[order[(3 * t + k) % n] for k in range(3)] for t in range(count)]
    tabs = start
    met = [0] * (n * n)  # met[x * n + y]: how many tables x and y meet at
    seats: list[list[int]] = [[] for _ in range(n)]  # seats[x]: the tables x sits at
    repeats: dict[tuple[int, ...], int] = {}  # how many times each table is there
    for t, table in enumerate(tabs):
        for x, y in itertools.combinations(table, 2):
            met[x * n + y] += 1
            met[y * n + x] += 1
        for x in table:
            seats[x].append(t)
        key = tuple(sorted(table))
        repeats[key] = repeats.get(key, 0) + 1
    squares = sum(m * m for m in met) // 2
    dups = sum(c * (c - 1) // 2 for c in repeats.values())
    pairs = n * (n - 1) // 2
    low, high = divmod(3 * count, pairs)
    perfect = high * (low + 1) ** 2 + (pairs - high) * low**2
    for x in range(n):
        met[x * n + x] = _NEVER  # a bot is never its own tablemate
    moves = 60 * count + 20_000
    for move in range(moves):
        if squares == perfect and dups == 0:
            break
        ta, i, crowd = 0, 0, -1
        for _ in range(10):
            tc, ic = divmod(int(uniform() * 3 * count), 3)
            c = tabs[tc]
            here = met[c[ic] * n + c[ic - 1]] + met[c[ic] * n + c[ic - 2]]
            if here > crowd:
                ta, i, crowd = tc, ic, here
        a = tabs[ta]
        x, a1, a2 = a[i], a[i - 1], a[i - 2]
        near = list(map(operator.add, met[a1 * n : a1 * n + n], met[a2 * n : a2 * n + n]))
        near[x] = _NEVER
        least = min(near)
        offset = int(uniform() * n)  # the first such bot from a random place, to vary the choice
        y = near.index(least, offset) if least in near[offset:] else near.index(least)
        if not seats[y]:
            continue
        tb, b, j, gain = 0, a, 0, _NEVER
        for _ in range(4):
            tc = seats[y][int(uniform() * len(seats[y]))]
            c = tabs[tc]
            if x not in c:
                jc = c.index(y)
                c1, c2 = c[jc - 1], c[jc - 2]
                here = met[x * n + c1] + met[x * n + c2] - met[y * n + c1] - met[y * n + c2]
                if here < gain:
                    tb, b, j, gain = tc, c, jc, here
        if gain == _NEVER:
            continue
        b1, b2 = b[j - 1], b[j - 2]
        # (p, out, into): p's pair with out loses a meeting, with into gains one (a bot at
        # both tables keeps its meetings)
        changes = [(p, x, y) for p in (a1, a2) if p not in (b1, b2)]
        changes += [(p, y, x) for p in (b1, b2) if p not in (a1, a2)]
        if not changes:  # the two tables would trade places
            continue
        delta = sum(2 * (met[into * n + p] - met[out * n + p]) + 2 for p, out, into in changes)
        old_a, old_b = tuple(sorted(a)), tuple(sorted(b))
        new_a, new_b = tuple(sorted((y, a1, a2))), tuple(sorted((x, b1, b2)))
        more = repeats.get(new_a, 0) + repeats.get(new_b, 0) - repeats[old_a] - repeats[old_b] + 2
        worse = delta + 4 * more
        halvings = int(worse / (0.2 * (1 - move / moves)))  # the chance to take it halves
        if worse > 0 and uniform() >= math.ldexp(1.0, -halvings):
            continue
        for p, out, into in changes:
            met[out * n + p] -= 1
            met[p * n + out] -= 1
            met[into * n + p] += 1
            met[p * n + into] += 1
        a[i], b[j] = y, x
        seats[x][seats[x].index(ta)] = tb
        seats[y][seats[y].index(tb)] = ta
        for key, step in ((old_a, -1), (old_b, -1), (new_a, 1), (new_b, 1)):
            repeats[key] = repeats.get(key, 0) + step
        squares += delta
        dups += more
    return tabs


def _playing_order(tables: list[Triple], bots: int) -> list[Triple]:
    """``tables`` in playing order: each next is the one whose bots have sat least so far.

    That is the least sum of their seats, then the least seats of the most seated, then the
    earlier table. A heap holds each table's last known such key; keys only grow, so a
    popped table whose key is still right is the least.
    """
    seated = [0] * bots
    heap = [(0, 0, index) for index in range(len(tables))]
    ordered: list[Triple] = []
    while heap:
        known_sum, known_most, index = heapq.heappop(heap)
        table = tables[index]
        now = [seated[bot] for bot in table]
        if (sum(now), max(now)) != (known_sum, known_most):
            heapq.heappush(heap, (sum(now), max(now), index))
            continue
        ordered.append(table)
        for bot in table:
            seated[bot] += 1
    return ordered
