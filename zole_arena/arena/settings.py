"""What a match is told: its bots' seatings, deals, rules, time and fault policy, limits and
sandbox, checked once when made."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator, Sequence
from typing import Final

from zole_arena.arena.referee import MARGIN_MS, MOVETIME_MS, FaultPolicy
from zole_arena.errors import ZoleError
from zole_arena.game.clock import TimeControl
from zole_arena.game.rules import Rules
from zole_arena.game.table import seating_of
from zole_arena.isolation.sandbox import Sandbox
from zole_arena.players.limits import Limits, limits_in_force
from zole_arena.players.session import BotConfig
from zole_arena.records.kinds import MAX_DEALS
from zole_arena.records.model import (
    ABSENT,
    DealRecord,
    HeaderSettings,
    MatchHeader,
    SandboxSettings,
    TableOf,
    TournamentHeader,
)

__all__ = [
    "MatchError",
    "MatchSettings",
    "SEATINGS",
    "in_order",
    "settles_at",
    "scheduled",
    "unique_names",
]


#: The six seatings of three players, in the order duplicate blocks play them.
SEATINGS: Final[tuple[tuple[int, int, int], ...]] = tuple(
    (a, b, c) for a, b, c in itertools.permutations(range(3))
)


class MatchError(ZoleError):
    """A match that cannot be set up or resumed as asked."""


def unique_names(names: Sequence[str]) -> list[str]:
    """Tell equal names apart: ``random``, ``random#2``, ``random#3``."""
    seen: dict[str, int] = {}
    unique = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        unique.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return unique


@dataclasses.dataclass(frozen=True)
class MatchSettings:
    """Everything that decides how a match is played (kept in the log's header).

    Its defaults are the command line's (:mod:`zole_arena.options.registry` reads them from
    here): the times are in milliseconds, ``startup_ms`` and ``ping_ms`` those of a bot's
    :class:`~zole_arena.players.session.BotConfig`.
    """

    rules: Rules
    seed: int
    deals: int
    """Deals of the seed to play (with ``duplicate``, each is played six times)."""
    duplicate: bool = False
    movetime_ms: int = MOVETIME_MS
    """Each decision's time; not used under a game clock (:attr:`tc`)."""
    margin_ms: int = MARGIN_MS
    startup_ms: int = BotConfig.startup_ms
    ping_ms: int = BotConfig.ping_ms
    policy: FaultPolicy = dataclasses.field(default_factory=FaultPolicy)
    limits: Limits = dataclasses.field(default_factory=Limits)
    sandbox: Sandbox | None = None
    """Every bot runs in this sandbox; None: bots run unsandboxed (trusted)."""
    process_per_seating: bool | None = None
    """In a duplicate match, whether each seating's deals are played by processes of their own
    (six of each bot), so that no bot process meets the same cards twice: one process that
    plays all six would know every hand of the block from its second deal on. None: yes when
    the bots are sandboxed (:attr:`separate_seatings`)."""
    tc: TimeControl | None = None
    """A game clock for each seat in each deal, instead of :attr:`movetime_ms`."""
    fixed_pace: bool = False
    """Send no request before every decision before it could have used its whole
    :attr:`movetime_ms` (:class:`~zole_arena.arena.referee.Referee`): opponents' think times,
    which follow their cards, then reach no bot. Not with :attr:`tc`."""

    def __post_init__(self) -> None:
        if not 1 <= self.deals <= MAX_DEALS:
            raise MatchError(f"deals is {self.deals}, not a whole number from 1 to {MAX_DEALS:,}")
        if self.fixed_pace and self.tc is not None:
            raise MatchError("--fixed-pace paces by --movetime: give it without --tc")

    @property
    def separate_seatings(self) -> bool:
        """Whether each seating of a duplicate block has processes of its own."""
        if not self.duplicate:
            return False
        if self.process_per_seating is None:
            return self.sandbox is not None
        return self.process_per_seating

    def header_settings(self) -> HeaderSettings:
        """The settings other than rules, seed, deals and duplicate, as headers keep them."""
        sandbox = self.sandbox
        return HeaderSettings(
            movetime_ms=self.movetime_ms,
            margin_ms=self.margin_ms,
            startup_ms=self.startup_ms,
            ping_ms=self.ping_ms,
            on_fault=self.policy.on_fault,
            penalty=self.policy.penalty,
            max_faults=self.policy.max_faults,
            memory_mb=self.limits.memory_mb,
            cpu_seconds=self.limits.cpu_seconds,
            processes=self.limits.processes,
            stderr_bytes=self.limits.stderr_bytes,
            sandbox=None
            if sandbox is None
            else SandboxSettings(sandbox.tmp_mb, sandbox.readable, sandbox.hidden),
            process_per_seating=self.separate_seatings,
            tc=self.tc,
            fixed_pace=self.fixed_pace,
        )

    def thinking_seconds(self) -> int:
        """The most time the match may give one bot to decide, in all, in seconds: at most ten
        decisions a deal (a bid, a bury, eight cards), each with its margin. The per-process
        CPU limit of its bots allows this much on top of ``--max-cpu-s``."""
        tc = self.tc
        per_deal = tc.base_ms + 10 * tc.inc_ms if tc is not None else 10 * self.movetime_ms
        return -(-(per_deal + 10 * self.margin_ms) * self.total_deals // 1000)

    def time_text(self) -> str:
        """How the bots' time is given, for people: ``clock 10+0.1 s per deal`` or
        ``2000 ms per decision``."""
        if self.tc is not None:
            return f"clock {self.tc} s per seat and deal"
        pace = ", at a fixed pace" if self.fixed_pace else ""
        return f"{self.movetime_ms} ms per decision{pace}"

    def isolation(self) -> str:
        """One line for people and headers: whether the bots are sandboxed, and how the
        limits hold (per process, or for the whole bot)."""
        if self.sandbox is None:
            return "unsandboxed: the bots run as this user and are trusted; limits per process"
        seatings = "; every seating of a duplicate block has its own processes" if (
            self.separate_seatings) else ""  # fmt: skip
        return f"sandboxed (bubblewrap); limits: {limits_in_force(True)}{seatings}"

    @classmethod
    def from_header(cls, header: MatchHeader | TournamentHeader) -> MatchSettings:
        """The settings kept in a match (or tournament) header; the keys that logs of earlier
        versions lack are as those versions played.

        :raises RulesError: the rules are bad (a header that passed its checks has good ones).
        """
        s = header.settings
        sandbox = s.sandbox
        return cls(
            rules=Rules.from_dict(header.rules, source=str(header.rules.get("preset", ""))),
            seed=header.seed,
            deals=header.deals,
            duplicate=header.duplicate,
            movetime_ms=s.movetime_ms,
            margin_ms=s.margin_ms,
            startup_ms=s.startup_ms,
            ping_ms=cls.ping_ms if s.ping_ms is ABSENT else s.ping_ms,
            policy=FaultPolicy(on_fault=s.on_fault, penalty=s.penalty, max_faults=s.max_faults),
            limits=Limits(
                memory_mb=s.memory_mb,
                cpu_seconds=s.cpu_seconds,
                processes=Limits.processes if s.processes is ABSENT else s.processes,
                stderr_bytes=Limits.stderr_bytes if s.stderr_bytes is ABSENT else s.stderr_bytes,
            ),
            sandbox=None
            if sandbox is None or sandbox is ABSENT
            else Sandbox(sandbox.tmp_mb, sandbox.readable, sandbox.hidden),
            process_per_seating=s.process_per_seating is True,
            tc=s.tc,
            fixed_pace=s.fixed_pace and s.tc is None,
        )

    @property
    def total_deals(self) -> int:
        """Deals in the whole match."""
        return self.deals * (6 if self.duplicate else 1)


def scheduled(number: int, duplicate: bool) -> tuple[int, int, tuple[int, int, int]]:
    """(block, sheet index, seating) of deal ``number`` (from 1) of a match: a duplicate
    match plays each block in the six :data:`SEATINGS` in turn, a plain one deal ``n`` as
    block ``n`` in the first seating. The block is also the deal's ``deal_no`` on its sheet."""
    if not duplicate:
        return number, 0, SEATINGS[0]
    block, sheet_index = divmod(number - 1, len(SEATINGS))
    return block + 1, sheet_index, SEATINGS[sheet_index]


def _schedule(settings: MatchSettings) -> Iterator[tuple[int, int, int, tuple[int, int, int]]]:
    """(number, block, sheet index, seating) of every deal of the match, in order."""
    for number in range(1, settings.total_deals + 1):
        yield (number, *scheduled(number, settings.duplicate))


def in_order(
    settings: MatchSettings, size: int, records: Sequence[DealRecord]
) -> Iterator[tuple[DealRecord, int]]:
    """A match log's deal records, each with its sheet index, checked to be the match's deals
    in the order it plays them (each one's number, block and seating; at a table of ``size``
    four, the seating after its dealer).

    :raises MatchError: a record is not the next deal of the match, or there are more.
    """
    schedule = _schedule(settings)
    for record in records:
        step = next(schedule, None)
        if step is None:
            raise MatchError(
                f"the log has more deals than its header's match ({settings.total_deals})"
            )
        number, block, sheet_index, seating = step
        if size == 4:
            seating = seating_of(number, 4).players
        at_four = record.table is not None
        if (
            record.deal != number
            or record.block != block
            or record.seating != seating
            or (at_four != (size == 4))
        ):
            raise MatchError(
                f"the log's deal {record.deal} is not deal {number} of this match "
                "(was the log written by another zole-arena version?)"
            )
        yield record, sheet_index


def settles_at(size: int, part_of: object, duplicate: bool) -> bool:
    """Whether a match settles the pules standing at its end: at a table of four, and at a
    table of three in a round of the ``lzf`` format (docs/rules.md §8); ``part_of``: the
    header's ``tournament`` (a :class:`~zole_arena.records.model.TableOf`) or anything else."""
    in_round = isinstance(part_of, TableOf) and part_of.round is not None
    return size == 4 or (in_round and not duplicate)
