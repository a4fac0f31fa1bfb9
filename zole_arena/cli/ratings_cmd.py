"""``zole-arena ratings``: an Elo rating list from game logs, with 95 % intervals and LOS."""

from __future__ import annotations

import csv
import math
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from zole_arena.cli.console import err, fail, out, print_json
from zole_arena.ratings import DEFAULT_BOOTSTRAP, MIN_BOOTSTRAP, RatingList, rate, read_logs

CSV_COLUMNS = ("rank", "name", "elo", "low", "high", "los_next", "games", "deals")


def parse_anchor(text: str) -> tuple[str, float]:
    """``NAME=ELO`` → (name, rating); a bad one ends the command with a one-line error."""
    name, sep, value = text.rpartition("=")
    try:
        elo = float(value)
    except ValueError:
        elo = math.nan
    if not sep or not name or not math.isfinite(elo):
        fail(f"bad --anchor {text!r}: write NAME=ELO, e.g. rulebot=1500")
    return name, elo


def _table(ratings: RatingList) -> Table:
    table = Table(title=None)
    table.add_column("rank", justify="right")
    table.add_column("name")
    table.add_column("elo", justify="right")
    table.add_column("95% interval", justify="right")
    table.add_column("LOS next", justify="right")
    table.add_column("games", justify="right")
    table.add_column("deals", justify="right")
    for rank, rating in enumerate(ratings.ratings, start=1):
        los = "" if rating.los_next is None else f"{100 * rating.los_next:.1f}%"
        table.add_row(
            str(rank),
            rating.name,
            f"{rating.elo:+.0f}",
            f"{rating.low:+.0f} … {rating.high:+.0f}",
            los,
            str(rating.games),
            str(rating.deals),
        )
    return table


def _csv(ratings: RatingList) -> None:
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for rank, rating in enumerate(ratings.ratings, start=1):
        row = rating.to_dict()
        writer.writerow([rank, *(("" if row[c] is None else row[c]) for c in CSV_COLUMNS[1:])])
    sys.stdout.flush()


def ratings_command(
    logs: Annotated[list[Path], typer.Argument(help="Game logs of any matches, rated together.")],
    anchor: Annotated[
        str | None,
        typer.Option(
            help="NAME=ELO: give this player that rating (default: the average is 0).",
            show_default=False,
        ),
    ] = None,
    bootstrap: Annotated[
        int, typer.Option(help=f"Bootstrap resamples for the intervals (at least {MIN_BOOTSTRAP}).")
    ] = DEFAULT_BOOTSTRAP,
    seed: Annotated[int, typer.Option(help="Seed of the bootstrap's resampling.")] = 0,
    json_output: Annotated[bool, typer.Option("--json", help="Print the list as JSON.")] = False,
    csv_output: Annotated[bool, typer.Option("--csv", help="Print the list as CSV.")] = False,
) -> None:
    """Rate the players of game logs: a Bradley-Terry (Elo) fit of every result at once.

    Each duplicate block (or each deal, outside duplicate matches) gives every pair of its
    players one game, won by the one with more points; 95% intervals and the likelihood of
    superiority (LOS) over the next player come from a bootstrap over blocks. Players are
    told apart by name, across logs.
    """
    if json_output and csv_output:
        fail("give --json or --csv, not both", 2)
    if bootstrap < MIN_BOOTSTRAP:
        fail(f"--bootstrap must be at least {MIN_BOOTSTRAP}, not {bootstrap}")
    pinned = None if anchor is None else parse_anchor(anchor)
    data = read_logs(logs)
    for warning in data.warnings:
        err.print(f"[yellow]warning:[/] {warning}", highlight=False, markup=True)
    if not data.units:
        fail("the logs have no finished deal: nothing to rate")
    ratings = rate(data.units, anchor=pinned, bootstrap=bootstrap, seed=seed)
    if json_output:
        print_json(ratings.to_dict())
    elif csv_output:
        _csv(ratings)
    else:
        out.print(_table(ratings))
        out.print(
            f"{ratings.units} units ({ratings.deals} deals) from {len(logs)} log(s). "
            f"{ratings.method}.",
            markup=False,
        )
