"""A tournament's tables, for ``verify``: a round-robin's or a gauntlet's are the ones its
entrants give (:func:`tables_problems`), and a table's players are started as its entrants are
(:func:`entrant_problems`)."""

from __future__ import annotations

from collections.abc import Sequence

from zole_arena.records.checks import short
from zole_arena.records.model import EntrantInfo, MatchHeader, TournamentHeader
from zole_arena.stats.field import field_tables

__all__ = ["entrant_problems", "tables_problems"]


def tables_problems(header: TournamentHeader) -> list[str]:
    """A round-robin's or a gauntlet's tables are the ones its entrants give, in the order
    they are played (:func:`~zole_arena.stats.field.field_tables`, which turns a movement's
    seats): its readers derive them again."""
    if header.tournament_format not in ("round-robin", "gauntlet"):
        return []
    names = [entrant.name for entrant in header.entrants]
    gauntlet = names.index(header.gauntlet) if header.gauntlet in names else 0
    movement = header.boards == "movement"
    tables = field_tables(header.tournament_format, len(names), gauntlet, movement)
    if list(header.tables) == tables:
        return []
    if len(header.tables) != len(tables):
        return [f"tables: {len(header.tables)}, its {header.tournament_format} has {len(tables)}"]
    pairs = enumerate(zip(header.tables, tables, strict=True), start=1)
    number = next(n for n, (logged, derived) in pairs if logged != derived)
    return [
        f"tables: table {number} is {list(header.tables[number - 1])}, its "
        f"{header.tournament_format}'s {list(tables[number - 1])}"
    ]


def entrant_problems(record: MatchHeader, entrants: Sequence[EntrantInfo]) -> list[str]:
    """A table's players must be started as its tournament's entrants are (their commands,
    options and folders): the names alone would let a table's header run another program."""
    for seat, (player, entrant) in enumerate(zip(record.players, entrants, strict=True)):
        for key in ("command", "options", "cwd"):
            mine, theirs = getattr(player, key), getattr(entrant, key)
            if mine != theirs:
                mine, theirs = (list(v) if isinstance(v, tuple) else v for v in (mine, theirs))
                return [
                    f"players {seat + 1}: {key} is {short(mine)}, the tournament's "
                    f"{entrant.name} has {short(theirs)}"
                ]
    return []
