"""Which entrants meet at which table of a round-robin or a gauntlet, in playing order.

A tournament of either format plays the tables its entrants give, and its header lists them;
every reader derives them again from the entrants (``verify`` checks a header's against them),
so the order is written once, here.

>>> field_tables("round-robin", 4)
[(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)]
>>> field_tables("gauntlet", 4, gauntlet=3)
[(3, 0, 1), (3, 0, 2), (3, 1, 2)]
"""

from __future__ import annotations

import itertools

from zole_arena.stats.boards import rotated

__all__ = ["field_tables"]


def field_tables(
    format: str, entrants: int, gauntlet: int = 0, movement: bool = False
) -> list[tuple[int, ...]]:
    """The tables of a round-robin (one for every three distinct entrants) or a gauntlet (one
    for entrant ``gauntlet`` and every pair of the others), in the order they are played: each
    next table is the one whose players have sat at the fewest tables so far (ties in lexical
    order), so that the standings are balanced while the tournament runs.

    In a movement of boards each table's seats are turned
    (:func:`~zole_arena.stats.boards.rotated`). The caller checks the arguments (at least
    three entrants, ``gauntlet`` one of them).
    """
    if format == "gauntlet":
        others = [i for i in range(entrants) if i != gauntlet]
        combos = [(gauntlet, a, b) for a, b in itertools.combinations(others, 2)]
    else:
        combos = list(itertools.combinations(range(entrants), 3))
    seated = [0] * entrants
    ordered: list[tuple[int, int, int]] = []
    remaining = combos
    while remaining:
        best = min(remaining, key=lambda t: seated[t[0]] + seated[t[1]] + seated[t[2]])
        remaining.remove(best)
        ordered.append(best)
        for player in best:
            seated[player] += 1
    return rotated(ordered) if movement else list(ordered)
