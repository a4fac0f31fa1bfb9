"""What a tournament is told: its entrants, how each table plays, its format and how many
tables at a time; and the header that records it."""

from __future__ import annotations

import dataclasses
import functools
import os
from pathlib import Path

from zole_arena.arena.settings import MatchSettings
from zole_arena.events.designs import DesignError, balanced_tables
from zole_arena.events.schedule import FORMATS, Entrant, Format, Table, TournamentError, tables_for
from zole_arena.isolation.sandbox import readable_paths
from zole_arena.records.checks import MAX_ROUNDS, derived_tables
from zole_arena.records.kinds import MAX_CONCURRENCY, MAX_DERIVED_TABLES, MAX_ENTRANTS
from zole_arena.records.model import (
    Boards,
    EntrantInfo,
    TournamentHeader,
)
from zole_arena.records.writer import is_regular_log
from zole_arena.stats.boards import board_groups, rotated, table_seed
from zole_arena.stats.reseating import table_sizes

__all__ = [
    "TournamentSettings",
    "hiding_the_event",
    "tournament_header",
]


@dataclasses.dataclass(frozen=True)
class TournamentSettings:
    """Everything that decides how a tournament is played (kept in its log's header)."""

    entrants: tuple[Entrant, ...]
    match: MatchSettings
    """How each table plays: rules, seed, deals (blocks, with ``duplicate``), time, faults."""
    format: Format = FORMATS[0]
    gauntlet: str | None = None
    """The gauntlet's bot (a gauntlet only; default: the first entrant)."""
    concurrency: int = 1
    """Tables played at once, each in a process of its own."""
    tables_wanted: int | None = None
    """A balanced schedule's number of tables (or give :attr:`meetings`)."""
    meetings: int | None = None
    """How often each pair of bots meets in a balanced schedule (default 1)."""
    schedule: tuple[tuple[int, int, int], ...] | None = None
    """A balanced schedule's tables in playing order (entrant indices): made from
    :attr:`tables_wanted` or :attr:`meetings` and the seed when not given (a resumed
    tournament takes them from its header)."""
    keep_bots: bool = True
    """Keep each unsandboxed bot running from one table to its worker's next
    (:mod:`zole_arena.players.pool`)."""
    rounds: int | None = None
    """The ``lzf`` format's rounds (:mod:`zole_arena.stats.rounds`); ``match.deals`` are
    then each round's deals."""
    boards: Boards | None = None
    """How the tables share deals (:mod:`zole_arena.stats.boards`): ``movement``, ``own``, or
    None: every table the tournament's seed (with ``match.duplicate``: duplicate blocks)."""

    def __post_init__(self) -> None:
        names = [entrant.name for entrant in self.entrants]
        twice = sorted({name for name in names if names.count(name) > 1})
        if twice:
            raise TournamentError(f"two bots are named {twice[0]!r}: give each a name of its own")
        if self.format not in FORMATS:
            *most, last = FORMATS
            raise TournamentError(
                f"--format must be {', '.join(most)} or {last}, not {self.format!r}"
            )
        for flag, value in (
            ("--concurrency", self.concurrency),
            ("--tables", self.tables_wanted),
            ("--meetings", self.meetings),
        ):
            if value is not None and value < 1:
                raise TournamentError(f"{flag} must be at least 1, not {value}")
        # What a reader of the log accepts (records.checks): never write a header it refuses.
        if len(names) > MAX_ENTRANTS:
            raise TournamentError(
                f"{len(names):,} bots: a tournament takes at most {MAX_ENTRANTS:,}"
            )
        if self.concurrency > MAX_CONCURRENCY:
            raise TournamentError(f"--concurrency is at most {MAX_CONCURRENCY:,}")
        if self.format in ("round-robin", "gauntlet") and len(names) >= 3:
            count = len(names)
            made = derived_tables(self.format, count)
            if made > MAX_DERIVED_TABLES:
                raise TournamentError(
                    f"a {self.format} of {count} bots has {made:,} tables, more than "
                    f"{MAX_DERIVED_TABLES:,}: play --format balanced"
                )
        if self.boards is not None and self.match.duplicate:
            raise TournamentError(
                f"a tournament whose tables play boards {self.boards!r} plays no duplicate blocks"
            )
        if self.format == "lzf":
            self._check_lzf(len(names))
        elif self.rounds is not None:
            raise TournamentError("--rounds is for --format lzf")
        if self.gauntlet is not None and self.gauntlet not in names:
            raise TournamentError(
                f"--gauntlet {self.gauntlet!r} is not one of the bots ({', '.join(names)})"
            )
        if self.format != "balanced":
            given = ("--tables", self.tables_wanted), ("--meetings", self.meetings)
            for flag, value in given:
                if value is not None:
                    raise TournamentError(f"{flag} is for --format balanced")
            return
        if self.schedule is None:
            meetings = self.meetings
            if meetings is None and self.tables_wanted is None:
                meetings = 1
            try:  # (both given: a DesignError)
                schedule = balanced_tables(
                    len(self.entrants),
                    tables=self.tables_wanted,
                    meetings=meetings,
                    seed=self.match.seed or 0,
                )
            except DesignError as exc:
                raise TournamentError(str(exc)) from None
            if self.boards == "movement":
                schedule = [(a, b, c) for a, b, c in rotated(schedule)]
            object.__setattr__(self, "schedule", tuple(schedule))

    def _check_lzf(self, entrants: int) -> None:
        """An ``lzf`` tournament's settings: rounds, a field that sits at tables of four and
        three, and no duplicate blocks (its tables share each round's deals instead)."""
        if self.rounds is None or not 1 <= self.rounds <= MAX_ROUNDS:
            raise TournamentError(f"--rounds must be from 1 to {MAX_ROUNDS}, not {self.rounds}")
        try:
            table_sizes(entrants)
        except ValueError as exc:
            raise TournamentError(f"--format lzf: {exc}") from None
        if self.boards is not None:
            raise TournamentError("--format lzf: every table of a round plays the round's deals")
        if self.match.duplicate:
            raise TournamentError(
                "--format lzf plays no duplicate blocks (every table of a round plays the "
                "round's deals instead): give --no-duplicate"
            )

    @property
    def table_count(self) -> int:
        """Tables in the tournament (in the ``lzf`` format: in all its rounds)."""
        if self.format == "lzf":
            return (self.rounds or 0) * len(table_sizes(len(self.entrants)))
        return len(self.tables)

    @property
    def tables(self) -> list[Table]:
        """The tables, in playing order (none in the ``lzf`` format: its rounds' tables
        follow from their results, :mod:`zole_arena.stats.rounds`)."""
        if self.format == "lzf":
            return []
        if self.format == "balanced":
            return [Table(n, players) for n, players in enumerate(self.schedule or (), start=1)]
        names = [entrant.name for entrant in self.entrants]
        gauntlet = names.index(self.gauntlet) if self.gauntlet is not None else 0
        return tables_for(self.format, len(self.entrants), gauntlet, self.boards == "movement")

    def table_seed(self, number: int) -> int:
        """The seed table ``number`` (from 1; not of the ``lzf`` format, whose rounds have
        seeds of their own) deals from: its board group's (:mod:`zole_arena.stats.boards`)."""
        return table_seed(self.match.seed, self.boards, self._groups[number - 1])

    @functools.cached_property
    def _groups(self) -> list[int]:
        return board_groups([t.players for t in self.tables], self.boards)

    @property
    def total_deals(self) -> int:
        """Deals in the whole tournament."""
        return self.table_count * self.match.total_deals


def tournament_header(tournament_id: str, settings: TournamentSettings) -> TournamentHeader:
    """The first record of a tournament's log."""
    match = settings.match
    return TournamentHeader(
        match_id=tournament_id,
        tournament_format=settings.format,
        gauntlet=settings.gauntlet,
        entrants=tuple(
            EntrantInfo(e.name, tuple(e.command), dict(e.options), e.cwd) for e in settings.entrants
        ),
        tables=tuple((t.players[0], t.players[1], t.players[2]) for t in settings.tables),
        rules=match.rules.to_dict(),
        seed=match.seed,
        deals=match.deals,
        duplicate=match.duplicate,
        concurrency=settings.concurrency,
        settings=match.header_settings(),
        isolation=match.isolation(),
        rounds=settings.rounds,
        boards=settings.boards,
    )


def hiding_the_event(
    settings: TournamentSettings, log_path: Path, transcript: str | None
) -> TournamentSettings:
    """The settings with a sandbox that also hides the tournament's log, its stderr folder,
    the transcript and every entrant's program from every table's bots (a table's match hides
    only what it knows of: its own three bots)."""
    match = settings.match
    if match.sandbox is None:
        return settings
    log = log_path.absolute()
    hidden = [*match.sandbox.hidden]
    if is_regular_log(log_path):
        hidden += [str(log), str(log) + ".stderr"]
    if transcript is not None:
        hidden.append(transcript)
    for entrant in settings.entrants:
        hidden += readable_paths(list(entrant.command), entrant.cwd or os.getcwd())[1]
    sandbox = dataclasses.replace(match.sandbox, hidden=tuple(dict.fromkeys(hidden)))
    return dataclasses.replace(settings, match=dataclasses.replace(match, sandbox=sandbox))
