"""Game clocks: a time control (``BASE+INC``) and the arithmetic of a seat's clock in a deal.

A clock belongs to one seat for one deal: it starts with the base time, runs only while that
seat is asked to decide, and gains the increment after each decision. It is per deal, not per
game of three deals, because a deal is the unit everything else stands on: duplicate play
compares the same deal in six seatings, a match resumes at a deal, and no Zole source (nor any
event we know) defines a game of three deals as a timed unit; human events limit a whole round
instead (``docs/clocks.md``).

Everything here works in whole milliseconds, so that a log's clocks can be recomputed exactly
from its think times (``verify`` does).
"""

from __future__ import annotations

import dataclasses
import math
import re
from typing import Final

from zole_arena.game.state import DealState
from zole_arena.game.values import Phase

__all__ = [
    "MAX_CLOCK_MS",
    "TimeControl",
    "clock_after",
    "decisions_left",
    "used_ms",
]

_TC_RE: Final = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(?:\+\s*(\d+(?:\.\d+)?))?\s*$")
#: Bounds of a time control, in milliseconds: at least a millisecond to start, at most a day.
MAX_CLOCK_MS: Final = 86_400_000


@dataclasses.dataclass(frozen=True)
class TimeControl:
    """A clock for each seat in each deal: ``base_ms`` to start, ``inc_ms`` after each
    decision (written ``BASE+INC`` in seconds, as cutechess writes ``tc=60+0.6``)."""

    base_ms: int
    inc_ms: int = 0

    def __post_init__(self) -> None:
        if not 1 <= self.base_ms <= MAX_CLOCK_MS or not 0 <= self.inc_ms <= MAX_CLOCK_MS:
            raise ValueError(f"a time control from 0.001+0 to 86400+86400 s, not {self}")

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """``60+0.6`` (seconds: 60 to start, 0.6 after each decision), or ``60``.

        :raises ValueError: anything else, with a message that says what is wanted.
        """
        match = _TC_RE.match(text)
        if match is None:
            raise ValueError(f"bad time control {text!r}: write BASE+INC in seconds, e.g. 10+0.1")
        base = _ms(match[1])
        inc = _ms(match[2]) if match[2] else 0
        if base < 1:
            raise ValueError(f"bad time control {text!r}: the base time must be at least 0.001 s")
        if base > MAX_CLOCK_MS or inc > MAX_CLOCK_MS:
            raise ValueError(f"bad time control {text!r}: at most 86400 s (a day) each")
        return cls(base, inc)

    def __str__(self) -> str:
        base = _seconds(self.base_ms)
        return f"{base}+{_seconds(self.inc_ms)}" if self.inc_ms else base

    def share(self, clock_ms: int, left: int) -> int:
        """The ``time`` a ``go`` offers: a fair share of the clock (``clock / left + inc``,
        at most the clock, at least 1 ms). A bot that keeps within its shares never runs out:
        what it saves on one decision is shared out over the rest."""
        return max(1, min(clock_ms, clock_ms // max(left, 1) + self.inc_ms))


def used_ms(think_ms: float) -> int:
    """What a decision costs the clock: its think time as the log keeps it (to the
    microsecond), rounded up to a whole millisecond."""
    return math.ceil(round(think_ms, 3))


def clock_after(clock_ms: int, think_ms: float, inc_ms: int) -> int:
    """A seat's clock after a decision that took ``think_ms``: what was left (never below
    zero: an answer within the margin is not a timeout) plus the increment."""
    return max(0, clock_ms - used_ms(think_ms)) + inc_ms


def decisions_left(state: DealState, seat: int) -> int:
    """How many decisions ``seat`` may still have to make in the deal, this one included: at
    most a bid, a bury and a card for each card in the hand."""
    phase = state.phase
    cards = state.hand_mask(seat).bit_count()
    if phase is Phase.BIDDING:
        return cards + 2
    if phase is Phase.BURYING:
        return cards - 1  # ten cards now, eight to play after the bury
    return max(cards, 1)


def _ms(seconds: str) -> int:
    whole, _, fraction = seconds.partition(".")
    if len(fraction) > 3 and fraction[3:].strip("0"):
        raise ValueError(f"bad time control: {seconds} s is finer than a millisecond")
    return int(whole) * 1000 + int((fraction + "000")[:3])


def _seconds(ms: int) -> str:
    whole, rest = divmod(ms, 1000)
    return f"{whole}.{rest:03d}".rstrip("0").rstrip(".") if rest else str(whole)
