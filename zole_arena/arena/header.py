"""What a match's header says of the event it is part of: a tournament's table, or one of the
matches of a head-to-head test (``protocol/records.md`` has the keys)."""

from __future__ import annotations

import dataclasses
from typing import Any

from zole_arena.stats.sprt import SprtSettings

__all__ = ["HeadToHeadTest", "PartOf", "TournamentTable"]


@dataclasses.dataclass(frozen=True)
class TournamentTable:
    """The match is table ``table`` of tournament ``tournament_id``."""

    tournament_id: str
    table: int

    def header_fields(self) -> dict[str, Any]:
        """The header's ``tournament`` key."""
        return {"tournament": {"id": self.tournament_id, "table": self.table}}


@dataclasses.dataclass(frozen=True)
class HeadToHeadTest:
    """The match is one of a head-to-head test's between ``new`` and ``old`` (with ``third``
    at the table, or None when each plays against two of the other), under ``settings``."""

    new: str
    old: str
    third: str | None
    settings: SprtSettings

    def header_fields(self) -> dict[str, Any]:
        """The header's ``sprt`` key: who is tested against whom, and the test's hypotheses."""
        return {
            "sprt": {
                "new": self.new,
                "old": self.old,
                "third": self.third,
                "elo0": self.settings.elo0,
                "elo1": self.settings.elo1,
                "alpha": self.settings.alpha,
                "beta": self.settings.beta,
            }
        }


#: The events a match can be part of.
PartOf = TournamentTable | HeadToHeadTest
