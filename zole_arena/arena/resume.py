"""A match brought back from its log to be played on: :func:`resume_match` (a log's results
alone: :func:`~zole_arena.arena.results.read_match`).

A log's header holds everything a match was set up with (the bots' commands, folders and
options, the settings, the seed), and its deal records every deal played: the match is set up
from the one and brought up to its last whole deal by the others, to be played on
(``match --resume``) or read (``standings``). A log is anyone's text, so what it asks of the
machine is the organizer's to grant (``grant``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from zole_arena.arena.match import Match, stderr_path
from zole_arena.arena.results import match_header
from zole_arena.arena.settings import MatchError, MatchSettings
from zole_arena.errors import printable
from zole_arena.players.session import IN_PROCESS, BotConfig
from zole_arena.records.model import DealRecord, SettleRecord
from zole_arena.records.reader import read_log

__all__ = ["resume_match"]


def resume_match(
    log_path: str | Path,
    *,
    grant: Callable[[MatchSettings], MatchSettings] | None = None,
    transcript: str | None = None,
) -> Match:
    """A :class:`Match` set up from a log's header and brought up to its last whole deal.

    :param grant: what the organizer allows the bots, whatever the header says (a log is
        anyone's text, and an edited header can be chained anew): given the header's
        settings before any bot is set up, it returns those to play with — the sandbox and
        limits — or raises (:meth:`zole_arena.events.resume.Grant.settings` makes one;
        ``zole-arena match --resume`` always gives one). None: as the header says, for
        resuming a log of your own. A finished match, which runs no bot, is not held to it.
    :param transcript: the file for the bots' protocol lines (``--transcript``); None: none.
    :raises RecordError: the file is not a zole-arena log.
    :raises MatchError: the log has no header or does not fit its header.
    """
    records, problems = read_log(log_path)
    header = match_header(log_path, records, problems)
    if any(player.command == ("<human>",) for player in header.players):
        raise MatchError(f"{log_path}: a 'play' session cannot be resumed (a person played it)")
    if any(player.command[:1] == (IN_PROCESS,) for player in header.players):
        raise MatchError(
            f"{log_path}: a match with a bot seated in-process cannot be resumed from its log "
            "(the bot was a Python object, not a command)"
        )
    settings = MatchSettings.from_header(header)
    deals = [r for r in records[1:] if isinstance(r, DealRecord)]
    if grant is not None and len(deals) < settings.total_deals:
        settings = grant(settings)
    for player in header.players:
        if player.cwd is not None and not Path(player.cwd).is_dir():
            raise MatchError(
                f"{log_path}: bot {player.name}'s folder {printable(player.cwd)} "
                "does not exist any more"
            )
    configs = [
        BotConfig(
            command=p.command,
            name=p.name,
            cwd=p.cwd,
            options=dict(p.options),
            startup_ms=settings.startup_ms,
            ping_ms=settings.ping_ms,
            limits=settings.limits,
            stderr_path=stderr_path(Path(log_path), p.name),
            sandbox=settings.sandbox,
            transcript=transcript,
        )
        for p in header.players
    ]
    part_of = header.tournament or header.sprt
    match = Match(configs, settings, log_path, match_id=header.match_id, part_of=part_of)
    match.replay_records(deals)
    match.log_problems = problems
    if match.settles and match.done == settings.total_deals:
        # A table of four's pules are settled after its last deal (a match stopped between
        # the two has its settle record missing: write_settle writes it).
        match.settle(match.done)
        match.settle_missing = match.settled is not None and not any(
            isinstance(r, SettleRecord) for r in records
        )
    return match
