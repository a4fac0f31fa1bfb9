"""Big points ("lielie punkti"): what each player of a table earns for his place in a round.

The Latvian federation's tournaments (zole-research §2.15) rank each table's players by their
points for the round and give 6 / 4 / 2 / 0 big points at a table of four, 6 / 4 / 2 / 1 / 0
at a table of five. Players on equal points share their places: 1st–2nd 5 each, 2nd–3rd 3,
3rd–4th 1, a three-way tie 4 each, a four-way tie 2 each. The stated shares are the average
of the places shared, except the four-way tie (2, where the average is 3); a tie the sources
do not state (2nd–4th at four, any tie at five) gets the average of its places.

Tables of three (an arena choice: the federation seats a field that does not divide by four
at tables of five, which the engine does not play) give 6 / 3 / 0: first place earns what it
earns at four, and the average is 3 as at four, so sitting at a smaller table neither helps
nor hurts on average.

Big points are kept in halves where a share is not whole (a table of five's 1st–2nd tie:
5 each; 4th–5th: 0.5 each), as :class:`fractions.Fraction`.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Final

__all__ = ["PLACE_POINTS", "big_points"]

#: Big points by place, for each table size.
PLACE_POINTS: Final[dict[int, tuple[int, ...]]] = {
    3: (6, 3, 0),
    4: (6, 4, 2, 0),
    5: (6, 4, 2, 1, 0),
}

#: Shares the federation states apart from the average of the places (table size, first
#: place, places shared): a four-way tie at a table of four.
_STATED: Final[dict[tuple[int, int, int], Fraction]] = {(4, 0, 4): Fraction(2)}


def big_points(totals: Sequence[int]) -> tuple[Fraction, ...]:
    """The big points of each player of one table, from his points for the round (in the
    same order).

    :raises ValueError: the table is not of a size with a big-points scale.
    """
    size = len(totals)
    scale = PLACE_POINTS.get(size)
    if scale is None:
        *most, last = PLACE_POINTS
        sizes = f"{', '.join(map(str, most))} or {last}"
        raise ValueError(f"big points are given at tables of {sizes}, not {size}")
    order = sorted(range(size), key=lambda seat: -totals[seat])
    result = [Fraction(0)] * size
    place = 0
    while place < size:
        total = totals[order[place]]
        shared = [seat for seat in order[place:] if totals[seat] == total]
        count = len(shared)
        share = _STATED.get((size, place, count))
        if share is None:
            share = Fraction(sum(scale[place : place + count]), count)
        for seat in shared:
            result[seat] = share
        place += count
    return tuple(result)
