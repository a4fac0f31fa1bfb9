"""Continuing a tournament from its log: its header gives how the tournament plays, its records
the tables' progress — and the organizer, not the log, what its bots may see and use.

A log is anyone's text: its hash chain shows edits only to whoever knows the digest the run
printed, and an edited header can be chained anew. So a resumed tournament takes its sandbox
(the paths its bots may read, and those hidden from them) and the ceilings of its limits from
the organizer (:class:`Grant`: the command line and config of ``tournament --resume``), and
refuses a header that asks for more than they allow (:meth:`Grant.settings`). A resumed match
is held to a grant alike (``match --resume``: through
:func:`~zole_arena.arena.resume.resume_match`'s ``grant``)."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from pathlib import Path

from zole_arena.arena.settings import MatchSettings
from zole_arena.errors import printable
from zole_arena.events.schedule import Entrant, TournamentError
from zole_arena.events.settings import TournamentSettings
from zole_arena.events.state import TournamentState
from zole_arena.events.tournament import Tournament
from zole_arena.isolation.sandbox import Sandbox
from zole_arena.players.limits import DEFAULT_LIMITS, Limits
from zole_arena.records.checks import resume_refusal
from zole_arena.records.model import InvalidHeader, Record, TournamentHeader
from zole_arena.records.reader import LogProblem, read_log

__all__ = [
    "Grant",
    "read_tournament",
    "resume_tournament",
]

#: Each limit, the flag that sets it and how many of the limit's units make one of the
#: flag's (``--max-stderr-mb`` counts MiB, the limit bytes).
_LIMITS: tuple[tuple[str, str, int], ...] = (
    ("memory_mb", "--max-memory-mb", 1),
    ("cpu_seconds", "--max-cpu-s", 1),
    ("processes", "--max-processes", 1),
    ("stderr_bytes", "--max-stderr-mb", 1024 * 1024),
)


@dataclasses.dataclass(frozen=True)
class Grant:
    """What the organizer allows the bots of a resumed tournament or match, whatever its log
    says.

    The sandbox is this one: on or off, its readable paths, its hidden ones (the tournament or
    match adds its log, stderr files and every bot's program, found anew), its ``/tmp`` at
    most; the header must ask for no less (:meth:`settings`). The limits are ceilings: the
    header's own are kept (the tables played so far had them) where they are no higher.
    """

    sandbox: Sandbox | None = dataclasses.field(default_factory=Sandbox)
    """The bots' sandbox; None: unsandboxed, trusted with the organizer's files and the log."""
    limits: Limits = DEFAULT_LIMITS
    """The most each bot may use (None: no limit on that)."""

    def settings(self, logged: MatchSettings, log: str | Path) -> MatchSettings:
        """The tables' settings: ``logged`` (the header's) in this grant's sandbox, with a
        process of its own for each seating of a duplicate block when sandboxed (as a new
        tournament has).

        Every table of a tournament plays alike (and every deal of a match), so what the grant
        allows must be what the header's tables had: the same sandbox or none, the same
        readable paths, limits no higher (the header's are kept). The hidden paths are this
        sandbox's, those the tournament or match finds anew (its log, stderr files and
        programs) and the header's too: hiding more never shows a bot more, and keeps the
        tables' headers alike for ``verify``. (A match's organizer may lift its sandbox: the
        caller then gives ``logged`` without it.)

        :raises TournamentError: the header asks for less isolation than this grant (its bots
            unsandboxed while this sandboxes them, a path to read that it does not give, or
            a limit above its own), or for more (sandboxed, or fewer paths to read): one line
            saying which option resumes it.
        """
        granted = self.sandbox
        if logged.sandbox is None and granted is not None:
            raise TournamentError(
                f"{log}: its header runs the bots unsandboxed, and this resume sandboxes them: "
                "give --no-sandbox to trust them with your files and the log"
            )
        if logged.sandbox is not None and granted is None:
            raise TournamentError(
                f"{log}: its bots ran sandboxed: resume it without --no-sandbox (the rest is "
                "played as the deals in the log were)"
            )
        sandbox = None
        if logged.sandbox is not None and granted is not None:
            logged_paths = {os.path.abspath(path): path for path in logged.sandbox.readable}
            given = {os.path.abspath(path) for path in granted.readable}
            for path in sorted(logged_paths.keys() - given):
                shown = printable(logged_paths[path])
                raise TournamentError(
                    f"{log}: its header lets the bots read {shown}: give --sandbox-read "
                    f"{shown} to allow it"
                )
            for path in sorted(given - logged_paths.keys()):
                raise TournamentError(
                    f"{log}: its bots could not read {path}: resume it without --sandbox-read "
                    f"{path} (the rest is played as the deals in the log were)"
                )
            hidden = (*logged.sandbox.hidden, *granted.hidden)
            sandbox = Sandbox(
                tmp_mb=min(granted.tmp_mb, logged.sandbox.tmp_mb),
                readable=tuple(logged_paths),  # as the header has them: the same, in its order
                hidden=tuple(dict.fromkeys(os.path.abspath(path) for path in hidden)),
            )
        for field, flag, unit in _LIMITS:
            allowed: int | None = getattr(self.limits, field)
            asked: int | None = getattr(logged.limits, field)
            if allowed is None or (asked is not None and asked <= allowed):
                continue
            value = 0 if asked is None else -(-asked // unit)  # as the option gives it
            wanted = f"no {flag} limit" if asked is None else f"{flag} {value}"
            raise TournamentError(
                f"{log}: its header sets {wanted}, more than this resume allows "
                f"({flag} {allowed // unit}): give {flag} {value} to allow it"
            )
        return dataclasses.replace(logged, sandbox=sandbox, process_per_seating=None)


def resume_tournament(
    log_path: str | Path,
    concurrency: int | None = None,
    *,
    grant: Grant | None = None,
    transcript: str | None = None,
) -> Tournament:
    """A :class:`Tournament` set up from its log and brought up to its last whole deal.

    :param concurrency: worker processes for the rest (default: as the log's header says, but
        no more than this machine's CPUs: a header from elsewhere may ask for thousands).
    :param grant: what its bots may see and use (:class:`Grant`); None: as the header says,
        for reading a log (its standings) or resuming one of your own — a log from anywhere
        else is resumed with a grant (``zole-arena tournament --resume`` always gives one).
        A finished tournament, which runs no bot, is not held to it.
    :param transcript: the file for the bots' protocol lines (``--transcript``); None: none.

    :raises RecordError: the file is not a zole-arena log.
    :raises TournamentError: the log does not start with a tournament header, does not fit
        it, or asks for more than ``grant`` allows.
    """
    records, problems = read_log(log_path)
    header, settings = _settings_of(log_path, records, problems, concurrency)
    tournament = Tournament(
        settings, log_path, tournament_id=header.tournament_id, transcript=transcript
    )
    tournament.take_records(records)
    if grant is not None and not all(table.finished for table in tournament.tables):
        # a finished one runs no bot
        tournament.play_rest_with(grant.settings(settings.match, log_path))
    return tournament


def read_tournament(log_path: str | Path) -> TournamentState:
    """A tournament's state from its log alone (finished or cut off: the records it keeps),
    its tables, standings and rounds counted as the tournament counted them: it runs no bot
    and builds no tournament.

    :raises RecordError: the file is not a zole-arena log.
    :raises TournamentError: the log does not start with a tournament header, or does not fit
        it.
    """
    records, problems = read_log(log_path)
    header, settings = _settings_of(log_path, records, problems, None, "read")
    state = TournamentState(settings, header.tournament_id)
    state.take_records(records)
    return state


def _settings_of(
    log_path: str | Path,
    records: Sequence[Record],
    problems: Sequence[LogProblem],
    concurrency: int | None,
    doing: str = "resume",
) -> tuple[TournamentHeader, TournamentSettings]:
    """A tournament log's header and the settings it was played with, checked.

    :raises TournamentError: no tournament header, or one whose tables are not its format's.
    """
    if not records:
        why = problems[0].message if problems else "no records"
        raise TournamentError(f"{log_path}: nothing to {doing} from ({why})")
    header = records[0]
    if isinstance(header, InvalidHeader) and header.type == "tournament":
        raise TournamentError(resume_refusal(log_path, header, doing))
    if not isinstance(header, TournamentHeader):
        hint = (
            f"; a match log continues with 'zole-arena match --resume {log_path}'"
            if header.type == "match"
            else ""
        )
        raise TournamentError(f"{log_path}: not a tournament log{hint}")
    try:
        match = MatchSettings.from_header(header)
        settings = TournamentSettings(
            entrants=tuple(
                Entrant(e.name, e.command, dict(e.options), e.cwd) for e in header.entrants
            ),
            match=match,
            format=header.tournament_format,
            gauntlet=header.gauntlet,
            concurrency=concurrency or min(header.concurrency, os.cpu_count() or 1),
            schedule=header.tables if header.tournament_format == "balanced" else None,
            rounds=header.rounds,
            boards=header.boards,
        )
    except (TypeError, ValueError) as exc:
        raise TournamentError(f"{log_path}: the tournament header is incomplete ({exc})") from None
    if tuple(t.players for t in settings.tables) != header.tables:
        raise TournamentError(
            f"{log_path}: its tables are not the ones this zole-arena version would play"
        )
    return header, settings
