"""Why a match, a tournament or a head-to-head test ended before its planned end.

A run that ends early says why as a :class:`Stop`: a :class:`StopReason` and, beside it, the
reason's detail (who was disqualified, the error, how many tables were left). People, the
``--json`` output and the tournament's workers see it as one line of text, ``str(stop)``:
``interrupted``, ``disqualified: rulebot (4 faults, more than the limit of 3)``,
``max-blocks``, ``error: …``, ``2 table(s) unfinished``.
"""

from __future__ import annotations

import dataclasses
import enum

__all__ = ["Disqualification", "Stop", "StopReason"]


class StopReason(enum.Enum):
    """Why a run stopped early."""

    INTERRUPTED = "interrupted"
    """Ctrl-C (or a tournament's stop request): the bots were stopped, every finished deal is
    in the log, and the run can be resumed from it."""
    DISQUALIFIED = "disqualified"
    """A bot made more faults than the match allows: the match cannot go on."""
    MAX_BLOCKS = "max-blocks"
    """A head-to-head test played its most blocks without a decision."""
    ERROR = "error"
    """A tournament's table could not be played, or its log written."""
    UNFINISHED = "unfinished"
    """A tournament ended with tables unfinished (their workers stopped before them)."""


@dataclasses.dataclass(frozen=True)
class Disqualification:
    """A bot disqualified from a match: its name, its faults and the limit it passed."""

    name: str
    faults: int
    limit: int

    def __str__(self) -> str:
        return f"{self.name} ({self.faults} faults, more than the limit of {self.limit})"


@dataclasses.dataclass(frozen=True)
class Stop:
    """Why a run stopped early: the reason, and what it needs to be told in full."""

    reason: StopReason
    disqualified: tuple[Disqualification, ...] = ()
    """Who was disqualified (:attr:`StopReason.DISQUALIFIED`)."""
    message: str = ""
    """What went wrong (:attr:`StopReason.ERROR`)."""
    unfinished: int = 0
    """How many tables were left unfinished (:attr:`StopReason.UNFINISHED`)."""

    @property
    def interrupted(self) -> bool:
        """Whether it was stopped from outside (Ctrl-C), and so can be resumed."""
        return self.reason is StopReason.INTERRUPTED

    def __str__(self) -> str:
        """The stop as one line: what people and the ``--json`` output see."""
        if self.reason is StopReason.DISQUALIFIED:
            return f"disqualified: {', '.join(map(str, self.disqualified))}"
        if self.reason is StopReason.ERROR:
            return f"error: {self.message}"
        if self.reason is StopReason.UNFINISHED:
            return f"{self.unfinished} table(s) unfinished"
        return str(self.reason.value)
