"""Which tables of a tournament deal the same cards: a movement of boards.

Duplicate bridge plays each *board* (one deal's four hands) at several tables, moving it so
that no pair meets a board twice, and scores every result against the others on the same
cards. A zole-arena tournament of sandboxed bots does the same with its tables of three: the
tables are put in **board groups**, each a set of tables with no bot in common, and every
table of a group plays the group's deals (its own seed, :func:`table_seed`). Every hand is so
held by as many bots as the group has tables, and the ratings compare them on equal cards
(the bootstrap resamples a deal's tables together: :func:`~zole_arena.stats.units.clusters`),
while **no bot meets the same cards twice**: not in another seating (a table plays each deal
once), not at another table (its other tables are in other groups, with other seeds), not in
a later round. What one bot process saw can then tell no other process of the same bot
anything about the cards it plays (``docs/competitions.md``, *Fair play*).

How a tournament's tables share their deals is its header's ``boards``:

* ``None`` (absent): every table plays the tournament's seed — duplicate blocks at every
  table, for trusted bots, and every log written before boards existed;
* ``"movement"``: board groups of tables with no bot in common (:func:`board_groups`);
* ``"own"``: every table its own deals (``--no-duplicate``): no two tables share a card.

>>> board_groups([(0, 1, 2), (3, 4, 5), (0, 3, 6), (1, 4, 6)], "movement")
[0, 0, 1, 2]
>>> table_seed(7, None, 3)
7
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from zole_arena.records.model import BOARDS, Boards

__all__ = ["BOARDS", "Boards", "board_groups", "group_seed", "rotated", "table_seed"]


def board_groups(tables: Sequence[Sequence[int]], boards: Boards | None) -> list[int]:
    """Each table's board group (from 0), in the tables' order: tables of one group play the
    same deals. A movement puts each table, in playing order, in the first group none of whose
    tables seats one of its bots (first fit), so a group holds at most a third of the field
    and a table shares its deals with as many others as the field allows: 2 tables of a
    group in a round-robin of 7 (34 of its 35 tables share), 3 in one of 9. A gauntlet's
    tables all seat its bot, so under a movement each is a group of its own."""
    if boards is None:
        return [0] * len(tables)
    if boards == "own":
        return list(range(len(tables)))
    seated: list[set[int]] = []
    groups = []
    for table in tables:
        for number, players in enumerate(seated):
            if players.isdisjoint(table):
                players.update(table)
                groups.append(number)
                break
        else:
            seated.append(set(table))
            groups.append(len(seated) - 1)
    return groups


def rotated(tables: Sequence[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """The tables of a movement as they seat their bots: the *j*-th table of each board group
    (in playing order) with its players turned *j* places, so that the seat that holds a hand
    at the group's first table is another bot's kind of seat at its second (with the players
    of every table in the same order, a field of two copies of each bot gives each hand to
    the two copies of one bot, and no two bots are compared on equal cards). The groups are
    those of :func:`board_groups` (which seats do not change)."""
    seen: dict[int, int] = {}
    out = []
    for table, group in zip(tables, board_groups(tables, "movement"), strict=True):
        turn = seen.get(group, 0) % len(table)
        seen[group] = seen.get(group, 0) + 1
        out.append(tuple(table[turn:]) + tuple(table[:turn]))
    return out


def group_seed(seed: int, group: int) -> int:
    """The seed of board group ``group``'s deals: the first 8 bytes of SHA-256 of
    ``"<seed>/boards/<group>"``, so that groups deal different cards and anyone can compute
    them from the tournament's seed."""
    digest = hashlib.sha256(f"{seed}/boards/{group}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def table_seed(seed: int, boards: Boards | None, group: int) -> int:
    """The seed a table of board group ``group`` deals from: the tournament's own when every
    table plays alike (``boards`` None), else its group's (:func:`group_seed`)."""
    return seed if boards is None else group_seed(seed, group)
