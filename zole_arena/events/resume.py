"""Continuing a tournament from its log alone: its header gives the settings, its records the
tables' progress."""

from __future__ import annotations

from pathlib import Path

from zole_arena.arena.settings import MatchSettings
from zole_arena.events.schedule import Entrant, TournamentError
from zole_arena.events.settings import TournamentSettings
from zole_arena.events.tournament import Tournament
from zole_arena.records.checks import resume_refusal
from zole_arena.records.model import (
    InvalidHeader,
    TournamentHeader,
)
from zole_arena.records.reader import read_log

__all__ = [
    "resume_tournament",
]


def resume_tournament(log_path: str | Path, concurrency: int | None = None) -> Tournament:
    """A :class:`Tournament` set up from its log and brought up to its last whole deal.

    :param concurrency: worker processes for the rest (default: as the log's header says).

    :raises RecordError: the file is not a zole-arena log.
    :raises TournamentError: the log does not start with a tournament header, or does not fit
        it.
    """
    records, problems = read_log(log_path)
    if not records:
        why = problems[0].message if problems else "no records"
        raise TournamentError(f"{log_path}: nothing to resume from ({why})")
    header = records[0]
    if isinstance(header, InvalidHeader) and header.type == "tournament":
        raise TournamentError(resume_refusal(log_path, header))
    if not isinstance(header, TournamentHeader):
        hint = (
            f"; a match log continues with 'zole-arena match --resume {log_path}'"
            if header.type == "match"
            else ""
        )
        raise TournamentError(f"{log_path}: not a tournament log{hint}")
    try:
        settings = TournamentSettings(
            entrants=tuple(
                Entrant(e.name, e.command, dict(e.options), e.cwd) for e in header.entrants
            ),
            match=MatchSettings.from_header(header),
            format=header.tournament_format,
            gauntlet=header.gauntlet,
            concurrency=concurrency or header.concurrency,
            schedule=header.tables if header.tournament_format == "balanced" else None,
        )
    except (TypeError, ValueError) as exc:
        raise TournamentError(f"{log_path}: the tournament header is incomplete ({exc})") from None
    if tuple(t.players for t in settings.tables) != header.tables:
        raise TournamentError(
            f"{log_path}: its tables are not the ones this zole-arena version would play"
        )
    tournament = Tournament(settings, log_path, tournament_id=header.tournament_id)
    tournament.take_records(records)
    return tournament
