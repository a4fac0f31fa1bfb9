"""Who plays whom in a tournament: its entrants, its formats and their tables of three."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Final, Literal

from zole_arena.arena.settings import MatchSettings
from zole_arena.errors import ZoleError
from zole_arena.players.session import BotConfig
from zole_arena.stats.field import field_tables

__all__ = [
    "Entrant",
    "FORMATS",
    "Format",
    "Table",
    "TournamentError",
    "tables_for",
]


Format = Literal["round-robin", "gauntlet", "balanced", "lzf"]


#: The tournament formats.
FORMATS: Final[tuple[Format, ...]] = ("round-robin", "gauntlet", "balanced", "lzf")


class TournamentError(ZoleError):
    """A tournament that cannot be set up, played or resumed as asked."""


@dataclasses.dataclass(frozen=True)
class Entrant:
    """A bot in the tournament: a unique display name, how to run it, and its options."""

    name: str
    command: tuple[str, ...]
    options: Mapping[str, str] = dataclasses.field(default_factory=dict)
    cwd: str | None = None
    """The folder the bot runs in (the one the tournament was started from, so that a
    relative path in its command means the same when the tournament is resumed elsewhere);
    None: the arena's."""

    def config(
        self,
        match: MatchSettings,
        stderr_path: str | None = None,
        transcript: str | None = None,
    ) -> BotConfig:
        """How to start this bot with a table's settings (``transcript``: the file of the
        protocol's lines, :mod:`~zole_arena.players.transcript`)."""
        return BotConfig(
            command=self.command,
            name=self.name,
            cwd=self.cwd,
            options=dict(self.options),
            startup_ms=match.startup_ms,
            ping_ms=match.ping_ms,
            limits=match.limits,
            stderr_path=stderr_path,
            sandbox=match.sandbox,
            transcript=transcript,
        )


@dataclasses.dataclass(frozen=True)
class Table:
    """One table: its number (from 1) and its entrants (indices into the entrants): three, or
    four at a table of four (the ``lzf`` format's rounds)."""

    number: int
    players: tuple[int, ...]
    round: int | None = None
    """Its round (the ``lzf`` format; None: a tournament of one round)."""


def tables_for(
    format: Format, entrants: int, gauntlet: int = 0, movement: bool = False
) -> list[Table]:
    """The tables of a tournament, in the order they are played.

    A round-robin has one table for every three distinct entrants; a gauntlet one for entrant
    ``gauntlet`` and every pair of the others, in the order of
    :func:`~zole_arena.stats.field.field_tables` (its seats turned in a ``movement``).

    A balanced schedule is not made here but chosen once and kept in the tournament's
    settings and header (:mod:`zole_arena.events.designs`).

    :raises TournamentError: fewer than three entrants, a gauntlet bot out of range, or the
        balanced format.

    >>> [t.players for t in tables_for("round-robin", 4)]
    [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)]
    >>> [t.players for t in tables_for("gauntlet", 4, gauntlet=3)]
    [(3, 0, 1), (3, 0, 2), (3, 1, 2)]
    """
    if entrants < 3:
        raise TournamentError(f"a tournament needs at least 3 bots, not {entrants}")
    if format == "balanced":
        raise TournamentError("a balanced schedule's tables come with its settings")
    if format == "gauntlet" and not 0 <= gauntlet < entrants:
        raise TournamentError(f"no entrant {gauntlet} to run the gauntlet")
    ordered = field_tables(format, entrants, gauntlet, movement)
    return [Table(number, players) for number, players in enumerate(ordered, start=1)]
