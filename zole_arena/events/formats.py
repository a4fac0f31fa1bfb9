"""A tournament's format rules: from what the organizer asked (a format, a gauntlet's bot,
duplicate or a movement, deals, blocks, rounds) to how the event is played, or why it cannot.

The command line and a library user reach the same rules here: which formats take which
counts, the ``lzf`` format's defaults (7 rounds of 24 deals), and how the tables share their
deals (:mod:`zole_arena.stats.boards`) — sandboxed bots, whom the arena does not trust, play a
movement unless duplicate is asked for, and trusted bots duplicate blocks at every table.
"""

from __future__ import annotations

import dataclasses
from typing import Final

from zole_arena.arena.settings import SEATINGS
from zole_arena.events.schedule import FORMATS, Format, TournamentError
from zole_arena.records.model import Boards

__all__ = [
    "DUPLICATE_SANDBOXED_NOTE",
    "LZF_ROUNDS",
    "LZF_ROUND_DEALS",
    "EventPlan",
    "FormatRequest",
    "plan_event",
]

LZF_ROUNDS: Final = 7
"""Rounds of an ``lzf`` event when not told (zole-research §2.15: rating tournaments play at
least 7 rounds, usually of 24 or 28 deals)."""
LZF_ROUND_DEALS: Final = 24
"""Deals a table plays in a round of an ``lzf`` event when not told."""

DUPLICATE_SANDBOXED_NOTE: Final = (
    "note: --duplicate with sandboxed bots: every bot meets each deal in six seatings, "
    "and what one seating's process saw can reach the next through the kernel (the "
    "dentry cache, docs/competitions.md): a bot written to cheat knows the hands of 5 "
    "of every 6 deals. For entrants you do not trust, leave out --duplicate (a "
    "movement: no bot meets the same cards twice)."
)
"""What a sandboxed event that repeats deals for a bot allows, and what to use instead."""


@dataclasses.dataclass(frozen=True)
class FormatRequest:
    """What the organizer asked for; None: not asked (the default applies)."""

    format: str | None
    """``round-robin`` (the default), ``gauntlet``, ``balanced`` or ``lzf``."""
    first_entrant: str
    """The first entrant's name: a gauntlet's bot when the format is asked but not the bot."""
    sandboxed: bool
    gauntlet: str | None = None
    duplicate: bool | None = None
    movement: bool | None = None
    deals: int | None = None
    blocks: int | None = None
    default_blocks: int = 1
    """Duplicate blocks a table plays when neither deals nor blocks are asked."""
    rounds: int | None = None


@dataclasses.dataclass(frozen=True)
class EventPlan:
    """How the event is played."""

    format: Format
    gauntlet: str | None
    duplicate: bool
    """Each table plays duplicate blocks (every deal in its six seatings)."""
    boards: Boards | None
    """How the tables share deals when not in duplicate blocks (None: duplicate, or lzf's
    rounds, whose tables all play the round's deals)."""
    deals_per_table: int
    """The count a table's match is told: deals, or duplicate blocks when ``duplicate``."""
    rounds: int | None
    note: str | None
    """What the organizer should be told once (a sandboxed event that repeats deals)."""


def plan_event(asked: FormatRequest) -> EventPlan:
    """The event that ``asked`` describes.

    :raises TournamentError: the request contradicts itself (one line, naming the flags).
    """
    chosen = asked.format if asked.format is not None else FORMATS[0]
    gauntlet = asked.gauntlet
    if asked.format is None and gauntlet is not None:
        chosen = "gauntlet"  # a gauntlet's bot alone implies the format
    if chosen == "gauntlet" and gauntlet is None:
        gauntlet = asked.first_entrant
    if chosen != "gauntlet" and gauntlet is not None:
        raise TournamentError(f"--gauntlet is for --format gauntlet, not {chosen}")
    duplicate, boards, note = _sharing(asked, chosen)
    deals, rounds = asked.deals, asked.rounds
    if chosen == "lzf":
        if asked.blocks is not None:
            raise TournamentError(
                "--format lzf plays --deals per round (default 24), not duplicate --blocks"
            )
        if asked.duplicate is not None and duplicate:
            raise TournamentError(
                "--format lzf plays no duplicate blocks: every table of a round plays the "
                "round's deals instead (leave out --duplicate)"
            )
        duplicate = False
        deals = deals if deals is not None else LZF_ROUND_DEALS
        rounds = rounds if rounds is not None else LZF_ROUNDS
    elif rounds is not None:
        raise TournamentError(f"--rounds is for --format lzf, not {chosen}")
    if asked.blocks is not None:
        if deals is not None:
            raise TournamentError("give --blocks or --deals, not both")
        if boards == "own":
            raise TournamentError(
                "--blocks is for duplicate tables: give --deals with --no-duplicate"
            )
    # --deals counts the seed's deals, each played in 6 seatings when duplicate; a movement's
    # tables play each deal once, and blocks (asked or the default) as many deals as that
    # many blocks have, so that the event is as long as it was.
    if deals is not None:
        per_table = deals
    else:
        per_table = asked.blocks if asked.blocks is not None else asked.default_blocks
        if boards == "movement":
            per_table *= len(SEATINGS)
    return EventPlan(
        format=next(f for f in FORMATS if f == chosen),
        gauntlet=gauntlet,
        duplicate=duplicate,
        boards=boards,
        deals_per_table=per_table,
        rounds=rounds,
        note=note,
    )


def _sharing(asked: FormatRequest, chosen: str) -> tuple[bool, Boards | None, str | None]:
    """Whether the tables play duplicate blocks, how they share deals otherwise, and the note
    for a sandboxed event that repeats deals."""
    movement = bool(asked.movement)
    if chosen == "lzf":
        if movement:
            raise TournamentError(
                "--format lzf: every table of a round plays the round's deals (no --movement)"
            )
        return bool(asked.duplicate), None, None  # (its own checks follow)
    if movement and asked.duplicate:
        raise TournamentError("give --movement or --duplicate, not both")
    refused = asked.movement is False
    not_asked = asked.duplicate is None
    if movement or (asked.sandboxed and not_asked and not refused):
        return False, "movement", None
    if asked.duplicate is False or (refused and not_asked and asked.sandboxed):
        return False, "own", None
    return True, None, DUPLICATE_SANDBOXED_NOTE if asked.sandboxed else None
