"""``zole-arena ratings``: an Elo rating list from game logs, with 95 % intervals and LOS."""

from __future__ import annotations

import csv
import math
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from zole_arena.cli.console import err, fail, fit_names, out, print_json
from zole_arena.cli.tables import interval_text, los_text, not_estimated_note
from zole_arena.stats.ratings import (
    DEFAULT_BOOTSTRAP,
    DEFAULT_POINTS,
    MIN_BOOTSTRAP,
    RatingList,
    rate,
    ratings_over_time,
    read_logs,
)
from zole_arena.stats.ratings_plot import check_plot_path, plot_ratings_over_time

CSV_COLUMNS = ("rank", "name", "elo", "low", "high", "los_next", "games", "deals", "sd")
#: Bootstrap resamples at each checkpoint of the chart unless told otherwise: a chart refits
#: the ratings at every point, so it takes fewer than the table's list.
PLOT_BOOTSTRAP = 50


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
    names = [rating.name for rating in ratings.ratings]
    table = fit_names(names, lambda shown: _build_table(ratings, shown))
    assert isinstance(table, Table)
    return table


def _build_table(ratings: RatingList, shown: Mapping[str, str]) -> Table:
    table = Table(title=None, caption=not_estimated_note(ratings))
    table.add_column("rank", justify="right")
    table.add_column("name")
    table.add_column("elo", justify="right")
    table.add_column("95% interval", justify="right")
    table.add_column("LOS next", justify="right")
    table.add_column("games", justify="right")
    table.add_column("deals", justify="right")
    for rank, rating in enumerate(ratings.ratings, start=1):
        table.add_row(
            str(rank),
            escape(shown[rating.name]),  # a name from a log: never markup
            f"{rating.elo:+.0f}",
            interval_text(rating),
            los_text(ratings, rating),
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
    plot: Annotated[
        Path | None,
        typer.Option(
            help="Also draw the ratings over time to this file (.png, .svg, .pdf, …): each "
            "player's Elo with its 95% band against the deals rated so far, refitted at "
            "--points checkpoints in the order the deals finished. Needs matplotlib: "
            "pip install 'zole-arena[plot]'.",
            show_default=False,
        ),
    ] = None,
    points: Annotated[int, typer.Option(help="Checkpoints of the --plot chart.")] = DEFAULT_POINTS,
    plot_bootstrap: Annotated[
        int,
        typer.Option(
            help="Bootstrap resamples at each checkpoint of the --plot chart (fewer than the "
            f"table's, for speed; at least {MIN_BOOTSTRAP})."
        ),
    ] = PLOT_BOOTSTRAP,
) -> None:
    """Rate the players of game logs: a Bradley-Terry (Elo) fit of every result at once.

    Each deal gives every pair of its players one game, won by the one with more points; 95%
    intervals and the likelihood of superiority (LOS) over the next player come from a
    bootstrap over the duplicate blocks (or deals) with the same cards at every table, and in
    every log of the same seed, resampled together. Players are
    told apart by name, across logs. With --plot, a chart of the ratings over time is drawn as
    well (the table is printed as without it).
    """
    if json_output and csv_output:
        fail("give --json or --csv, not both", 2)
    if bootstrap < MIN_BOOTSTRAP:
        fail(f"--bootstrap must be at least {MIN_BOOTSTRAP}, not {bootstrap}")
    if points < 1:
        fail(f"--points must be at least 1, not {points}")
    if plot_bootstrap < MIN_BOOTSTRAP:
        fail(f"--plot-bootstrap must be at least {MIN_BOOTSTRAP}, not {plot_bootstrap}")
    pinned = None if anchor is None else parse_anchor(anchor)
    if plot is not None:
        check_plot_path(plot)  # before the work: no matplotlib, or nowhere to write it
    data = read_logs(logs)
    for warning in data.warnings:
        err.print(f"[yellow]warning:[/] {escape(warning)}", highlight=False, markup=True)
    if not data.units:
        fail("the logs have no finished deal: nothing to rate")
    ratings = rate(data.units, anchor=pinned, bootstrap=bootstrap, seed=seed)
    if plot is not None:
        checkpoints = ratings_over_time(
            data.units, points=points, anchor=pinned, bootstrap=plot_bootstrap, seed=seed
        )
        named = ", ".join(path.name for path in logs[:3]) + (", …" if len(logs) > 3 else "")
        plot_ratings_over_time(checkpoints, plot, title=f"Ratings over time: {named}")
        sys.stdout.flush()  # the table first, then the message, when both go to one place
        err.print(
            f"Ratings at {len(checkpoints)} checkpoint{'s' if len(checkpoints) != 1 else ''} "
            f"drawn to {plot}.",
            markup=False,
            highlight=False,
        )
    if json_output:
        print_json(ratings.to_dict())
    elif csv_output:
        _csv(ratings)
    else:
        out.print(_table(ratings))
        out.print(
            f"{ratings.units} units in {ratings.clusters} "
            f"cluster{'' if ratings.clusters == 1 else 's'} ({ratings.deals} deals) from "
            f"{len(logs)} log(s). "
            f"{ratings.method}.",
            markup=False,
        )
