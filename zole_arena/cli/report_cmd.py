"""``zole-arena report``: one HTML page of a set of logs, to open in a browser or share."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from zole_arena.cli.console import err, fail
from zole_arena.errors import ZoleError
from zole_arena.records.reader import RecordError, check_log_path
from zole_arena.stats.ratings import DEFAULT_BOOTSTRAP, MIN_BOOTSTRAP

#: More resamples than this add nothing a report shows (intervals to the Elo) but minutes.
MAX_BOOTSTRAP = 10_000


def _target(logs: list[Path], output: Path | None) -> tuple[Path, str]:
    """The report's path, and why the command must refuse (empty: it need not)."""
    for log in logs:
        try:
            check_log_path(log)
        except RecordError as exc:
            return log, str(exc)
    target = output if output is not None else logs[0].with_suffix(".html")
    if target.suffix.lower() not in (".html", ".htm"):
        return target, f"{target}: name the report with .html"
    if target.exists() and any(target.samefile(log) for log in logs):
        return target, f"{target}: is one of the logs; name the report otherwise"
    return target, ""


def report_command(
    logs: Annotated[
        list[Path],
        typer.Argument(help="Logs of matches, tournaments or head-to-head tests (any mix)."),
    ],
    output: Annotated[
        Path | None,
        typer.Option(
            "-o", "--output", metavar="FILE.html",
            help="Write the page here.  [default: the first log's name with .html]",
        ),
    ] = None,
    bootstrap: Annotated[
        int, typer.Option(help="Bootstrap resamples for the ratings' intervals (10 to 10,000).")
    ] = DEFAULT_BOOTSTRAP,
    title: Annotated[str | None, typer.Option(help="The page's title.")] = None,
) -> None:  # fmt: skip
    """A report of the logs as one self-contained HTML page: standings (sortable), head to
    head, ratings over time, each bot's think times, faults and identity, and a viewer of
    every deal (hands, bids, talon, tricks step by step, as seen by any seat). Each log is
    verified first: a deal it finds wrong (an edited log) is left out and listed. The page
    needs no network and no server: open it from disk in any browser (docs/report.md)."""
    if not MIN_BOOTSTRAP <= bootstrap <= MAX_BOOTSTRAP:
        fail(f"--bootstrap must be from {MIN_BOOTSTRAP} to {MAX_BOOTSTRAP:,}, not {bootstrap}")
    try:
        target, refusal = _target(logs, output)
    except OSError as exc:  # a name too long, a loop of links, …
        fail(f"cannot use that path: {exc.strerror or exc}")
    except RuntimeError as exc:  # pathlib's own word for a loop of links
        fail(f"cannot use that path: {exc}")
    if refusal:
        fail(refusal)
    from zole_arena.report import write_report  # the report's code only when one is made

    started = time.perf_counter()
    try:
        written = write_report(logs, target, bootstrap=bootstrap, title=title)
    except ZoleError as exc:
        fail(str(exc))
    size = written.stat().st_size
    err.print(
        f"wrote {written} ({size / 1e6:.1f} MB) in {time.perf_counter() - started:.1f} s",
        highlight=False, markup=False,
    )  # fmt: skip
