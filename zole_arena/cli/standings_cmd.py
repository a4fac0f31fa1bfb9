"""``zole-arena standings``: the summary of a tournament or a match computed again from its log,
finished or cut off — the tables a run prints at its end with each table's results, its
``--json``, or the standings as CSV or Markdown for a spreadsheet or a page."""

from __future__ import annotations

import csv
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.markup import escape
from rich.table import Table

from zole_arena.arena.results import read_match
from zole_arena.cli.console import err, fail, out, print_json
from zole_arena.cli.tables import print_final, results_table, sprt_report, summary_json
from zole_arena.errors import ZoleError
from zole_arena.events.resume import read_tournament
from zole_arena.events.sprt import result_from_log
from zole_arena.events.state import TournamentState
from zole_arena.records.model import MatchHeader
from zole_arena.records.reader import LogReader, last_line_digest, log_type
from zole_arena.stats.ratings import (
    DEFAULT_BOOTSTRAP,
    MIN_BOOTSTRAP,
    NOT_ESTIMATED,
    RatingError,
    rate,
    read_logs,
)


def rate_log(log: Path, bootstrap: int) -> dict[str, dict[str, Any]]:
    """Each player's rating entry (``elo``, ``low``, ``high``, ``los_next``…) from one log;
    empty when it cannot be rated (too few deals)."""
    try:
        ratings = rate(read_logs([log]).units, bootstrap=bootstrap, seed=0)
    except RatingError:
        return {}
    return {rating.name: rating.to_dict() for rating in ratings.ratings}


def standings_command(
    log: Annotated[
        Path, typer.Argument(help="A tournament's, a match's or a head-to-head test's log.")
    ],
    bootstrap: Annotated[
        int, typer.Option(help="Bootstrap resamples for the ratings' intervals.")
    ] = DEFAULT_BOOTSTRAP,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print what the run's --json printed, on stdout.")
    ] = False,
    csv_output: Annotated[
        bool, typer.Option("--csv", help="Print the standings as CSV, one bot a row.")
    ] = False,
    md_output: Annotated[
        bool,
        typer.Option("--md", help="Print the standings and each table's results as Markdown."),
    ] = False,
) -> None:
    """The standings of a tournament, a match or a head-to-head test, from its log alone:
    points, solo games, faults, Elo with 95% intervals, the head-to-head table and each
    table's results, as the run printed them at its end (a log cut off: the deals it keeps);
    a test's decision and LLR."""
    if bootstrap < MIN_BOOTSTRAP:
        fail(f"--bootstrap must be at least {MIN_BOOTSTRAP}, not {bootstrap}")
    if json_output + csv_output + md_output > 1:
        fail("give at most one of --json, --csv and --md")
    form = "json" if json_output else "csv" if csv_output else "md" if md_output else "text"
    if not log.is_file():
        fail(f"{log}: no such file")
    kind = log_type(log)
    _warn_of_skipped(log)
    try:
        if kind == "tournament":
            _tournament(log, bootstrap, form)
        elif kind == "match" and _is_sprt(log):
            _sprt(log, form)
        elif kind == "match":
            _match(log, bootstrap, form)
        else:
            fail(f"{log}: not a zole-arena log of a match or a tournament")
    except ZoleError as exc:
        fail(str(exc))


#: The standings' columns in CSV and Markdown: (heading, key of a standings entry).
_COLUMNS: tuple[tuple[str, str], ...] = (
    ("name", "name"), ("elo", "elo"), ("elo_low", "low"), ("elo_high", "high"),
    ("los_next", "los_next"), ("deals", "deals"), ("points", "points"),
    ("points_per_deal", "points_per_deal"), ("ci95", "ci95"), ("solo_deals", ""),
    ("solo_won", ""), ("faults", "faults"),
)  # fmt: skip


def _row(entry: dict[str, Any], missing: str = "") -> list[str]:
    """One bot's standings entry as the cells of :data:`_COLUMNS` (``missing`` for what
    cannot be estimated: CSV leaves the cell empty, as ``ratings --csv`` does)."""
    cells = []
    for heading, key in _COLUMNS:
        if heading == "solo_deals":
            value: Any = entry["as_soloist"]["deals"]
        elif heading == "solo_won":
            value = entry["as_soloist"]["won"]
        else:
            value = entry.get(key)
        if isinstance(value, float):
            value = f"{value:.2f}"
        cells.append(missing if value is None else str(value))
    return cells


def _print_csv(standings: Sequence[dict[str, Any]]) -> None:
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow([heading for heading, _ in _COLUMNS])
    for entry in standings:
        writer.writerow(_row(entry))


def _markdown(headings: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"

    return "\n".join([line(headings), line(["---"] * len(headings)), *map(line, rows)])


def _warn_of_skipped(log: Path) -> None:
    """A warning on stderr for each line of the log the standings leave out (a damaged or
    forged record: ``verify`` says more), so that standings of fewer deals never pass for the
    whole."""
    for entry in LogReader(log):
        if entry.problem is not None:
            err.print(
                f"[yellow]warning:[/] {escape(entry.problem.describe())}",
                highlight=False,
            )


def _table_results(
    tournament: TournamentState,
) -> list[tuple[int, list[tuple[str, int]], int, int]]:
    """Each table begun: (number, points by player in seat order, deals played, planned)."""
    return [
        (t.table.number, list(zip(t.names, tournament.points(t), strict=True)), t.deals, t.planned)
        for t in tournament.tables
        if t.started
    ]


def _results_by_table(tournament: TournamentState) -> Table:
    table = Table(
        title="Results by table", box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True
    )
    for heading in ("table", "players and points", "deals"):
        table.add_column(heading, justify="right" if heading != "players and points" else "left")
    for number, points, played, planned in _table_results(tournament):
        players = ", ".join(f"{escape(name)} {score:+d}" for name, score in points)  # not markup
        table.add_row(str(number), players, f"{played}/{planned}")
    return table


def _tournament(log: Path, bootstrap: int, form: str) -> None:
    tournament = read_tournament(log)
    summary = tournament.summary(str(log), last_line_digest(log))
    summary.ratings = summary.standings.ratings(bootstrap)
    data = summary_json(tournament, summary)
    if form == "json":
        print_json(data)
        return
    if form == "csv":
        _print_csv(data["standings"])
        return
    if form == "md":
        headings = ["#", *(heading for heading, _ in _COLUMNS)]
        rows = [
            [str(rank), *_row(entry, NOT_ESTIMATED)]
            for rank, entry in enumerate(data["standings"], 1)
        ]
        by_table = [
            [str(number), ", ".join(f"{name} {score:+d}" for name, score in points),
             f"{played}/{planned}"]
            for number, points, played, planned in _table_results(tournament)
        ]  # fmt: skip
        out.print(
            f"Standings after {summary.deals} of {summary.planned} deals\n\n"
            f"{_markdown(headings, rows)}\n\nResults by table\n\n"
            f"{_markdown(['table', 'players and points', 'deals'], by_table)}",
            markup=False, highlight=False, soft_wrap=True,
        )  # fmt: skip
        return
    print_final(summary)
    out.print(_results_by_table(tournament))


def _is_sprt(log: Path) -> bool:
    """Whether a match log's first header is one of a head-to-head test's."""
    for entry in LogReader(log):
        return isinstance(entry.record, MatchHeader) and entry.record.sprt is not None
    return False


def _sprt(log: Path, form: str) -> None:
    result = result_from_log(log)
    if form == "json":
        print_json({**result.to_dict(), "digest": last_line_digest(log)})
    elif form in ("csv", "md"):
        _bots_of_test(log, form)
    else:
        sprt_report(result, last_line_digest(log))


def _bots_of_test(log: Path, form: str) -> None:
    """A test's bots as a rating list, with each one's figures (the report's, from the log):
    the test's decision is in its --json and its text."""
    from zole_arena.report.collect import collect  # the report's reading, only when asked

    data = collect([log], points=0)  # no chart: the rating list is all it needs
    rated = {r.name: r.to_dict() for r in data.ratings.ratings} if data.ratings else {}
    entries = [{**bot.stats.to_dict(), **rated.get(bot.name, {})} for bot in data.bots]
    if form == "csv":
        _print_csv(entries)
        return
    rows = [[str(rank), *_row(entry, NOT_ESTIMATED)] for rank, entry in enumerate(entries, 1)]
    out.print(
        f"Bots of the test after {len(data.deals)} deals\n\n"
        f"{_markdown(['#', *(h for h, _ in _COLUMNS)], rows)}",
        markup=False, highlight=False, soft_wrap=True,
    )  # fmt: skip


def _match(log: Path, bootstrap: int, form: str) -> None:
    results = read_match(log)
    summary = results.summary(str(log))
    if form in ("csv", "md"):
        entries = [player.to_dict() for player in summary.players]
        ratings = rate_log(log, bootstrap)
        for entry in entries:
            entry.update(ratings.get(entry["name"], {}))
        # Strongest first, as a rating list (the LOS is to the next one down).
        entries.sort(
            key=lambda e: (-(e["elo"] if e.get("elo") is not None else -1e9), -e["points"])
        )
        if form == "csv":
            _print_csv(entries)
        else:
            rows = [
                [str(rank), *_row(entry, NOT_ESTIMATED)] for rank, entry in enumerate(entries, 1)
            ]
            table = _markdown(["#", *(h for h, _ in _COLUMNS)], rows)
            out.print(f"Standings after {summary.deals} of {summary.planned} deals\n\n{table}",
                      markup=False, highlight=False, soft_wrap=True)  # fmt: skip
        return
    if form == "json":
        settings = results.settings
        data: dict[str, Any] = {
            "match_id": results.header.match_id,
            "seed": settings.seed,
            "rules": settings.rules.name,
            "duplicate": settings.duplicate,
            **summary.to_dict(),
            "digest": last_line_digest(log),
            # Past the fault limit (in the order of the players).
            "disqualified": results.disqualified(),
        }
        print_json(data)
        return
    out.print(results_table(summary))
