"""``zole-arena standings``: the summary of a tournament or a match computed again from its log,
finished or cut off — the tables a run prints at its end, or its ``--json``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from zole_arena.arena.match import resume_match
from zole_arena.cli.console import fail, out, print_json
from zole_arena.cli.match_cmd import _results_table
from zole_arena.cli.tournament_cmd import _head_to_head_table, _standings_table
from zole_arena.errors import ZoleError
from zole_arena.events.resume import resume_tournament
from zole_arena.records.reader import last_line_digest, log_type
from zole_arena.stats.ratings import DEFAULT_BOOTSTRAP, MIN_BOOTSTRAP


def standings_command(
    log: Annotated[Path, typer.Argument(help="A tournament's or a match's log.")],
    bootstrap: Annotated[
        int, typer.Option(help="Bootstrap resamples for the ratings' intervals.")
    ] = DEFAULT_BOOTSTRAP,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print what the run's --json printed, on stdout.")
    ] = False,
) -> None:
    """The standings of a tournament or a match, from its log alone: points, solo games,
    faults, Elo with 95% intervals and the head-to-head table, as the run printed them at
    its end (a log cut off: the deals it keeps)."""
    if bootstrap < MIN_BOOTSTRAP:
        fail(f"--bootstrap must be at least {MIN_BOOTSTRAP}, not {bootstrap}")
    if not log.is_file():
        fail(f"{log}: no such file")
    kind = log_type(log)
    try:
        if kind == "tournament":
            _tournament(log, bootstrap, json_output)
        elif kind == "match":
            _match(log, json_output)
        else:
            fail(f"{log}: not a zole-arena log of a match or a tournament")
    except ZoleError as exc:
        fail(str(exc))


def _tournament(log: Path, bootstrap: int, json_output: bool) -> None:
    tournament = resume_tournament(log)
    summary = tournament.summary()
    summary.ratings = summary.standings.ratings(bootstrap)
    summary.log = str(log)
    summary.digest = last_line_digest(log)
    if json_output:
        data = summary.to_dict()
        data["tournament_id"] = tournament.tournament_id
        data["format"] = tournament.settings.format
        print_json(data)
        return
    out.print(_standings_table(summary, f"Standings after {summary.deals} of "
                               f"{summary.planned} deals", final=True))  # fmt: skip
    h2h = _head_to_head_table(summary)
    if h2h is not None:
        out.print(h2h)
    if summary.ratings is not None:
        out.print(f"Elo: {summary.ratings.method}.", markup=False)


def _match(log: Path, json_output: bool) -> None:
    match = resume_match(log)
    summary = match.summary()
    if json_output:
        settings = match.settings
        data: dict[str, Any] = {
            "match_id": match.match_id,
            "seed": settings.seed,
            "rules": settings.rules.name,
            "duplicate": settings.duplicate,
            **summary.to_dict(),
            "digest": last_line_digest(log),
            # Past the fault limit, as the referee counts (the order: by seat, not by event).
            "disqualified": [
                player.name
                for player in match.referee.players
                if player.faults > settings.policy.max_faults
            ],
        }
        print_json(data)
        return
    out.print(_results_table(summary))
