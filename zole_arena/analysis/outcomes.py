"""From the solver's units to each seat's score for the deal, by the rules' own scoring.

A band is scored as a real deal ending in it would be (:func:`~zole_arena.game.scoring.
score_soloist`, pule bonuses and all), from representative points and tricks of the band; the
table game's paranoid outcome is counted in table payments.
"""

from __future__ import annotations

import functools
from typing import Final

from zole_arena.game.actions import Contract
from zole_arena.game.rules import Rules
from zole_arena.game.scoring import Pules, score_soloist

__all__ = ["band_scores", "table_score"]

#: Points and tricks that end a take or zole in each of the solver's bands (0 all tricks ..
#: 5 no trick).
_BAND_DEALS: Final = ((120, 8), (100, 7), (70, 5), (45, 3), (20, 1), (0, 0))
#: The same for a small zole's two bands (0 won: no trick; 1 lost).
_SMALL_DEALS: Final = ((0, 0), (0, 1))


@functools.lru_cache(maxsize=4096)
def band_scores(
    rules: Rules, contract: Contract, soloist: int, pules: Pules, band: int
) -> tuple[int, int, int]:
    """Each seat's score when ``soloist`` ends ``contract`` in the solver's ``band``."""
    deals = _SMALL_DEALS if contract is Contract.SMALL_ZOLE else _BAND_DEALS
    points, tricks = deals[band]
    s0, s1, s2 = score_soloist(rules, contract, soloist, points, tricks, pules).scores
    return s0, s1, s2


def table_score(rules: Rules, outcome: int) -> int:
    """A seat's score for the table game's outcome in payments (−2 … +2)."""
    return outcome * rules.table_payment
