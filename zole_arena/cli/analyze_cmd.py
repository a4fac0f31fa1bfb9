"""``zole-arena analyze``: the open-card value of every decision of logged deals, and where each
bot loses its points (see docs/analysis.md)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.table import Table

from zole_arena.analysis.model import DealAnalysis, Phase, Role, Severity
from zole_arena.analysis.run import ANALYSIS_ERRORS, AnalysisRun, analyse_logs
from zole_arena.analysis.store import AnalysisFileError, analysis_path
from zole_arena.analysis.summary import BotAnalysis, Estimate, summarise
from zole_arena.cli.console import err, fail, out, print_json, progress_bar, stop_on_signals
from zole_arena.errors import ZoleError, printable
from zole_arena.records.reader import check_log_path


def _interval(e: Estimate) -> str:
    if e.count == 0:
        return "–"
    if math.isnan(e.low):
        return f"{e.mean:.2f}"
    return f"{e.mean:.2f} ± {(e.high - e.low) / 2:.2f}"


def _some(actions: tuple[str, ...], most: int = 3) -> str:
    shown = " / ".join(actions[:most])
    return shown + (f" / … ({len(actions)} in all)" if len(actions) > most else "")


def _per(e: Estimate | None) -> str:
    return "–" if e is None or e.count == 0 else f"{e.mean:.2f}"


def _summary_table(bots: list[BotAnalysis]) -> Table:
    table = Table(
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        caption="moves: decisions (more than one legal choice); solo / def / table: by role",
        title="Open-card loss: points given away (lower is better), 95% intervals",
    )
    columns = ("bot", "deals", "moves", "per move", "per deal", "bid", "bury", "play", "solo",
               "def", "table", "?!", "?", "??")  # fmt: skip
    for column in columns:
        table.add_column(column, justify="left" if column == "bot" else "right", no_wrap=True)
    for b in bots:
        table.add_row(
            printable(b.name),
            str(b.deals),
            str(b.decisions),
            _interval(b.per_decision),
            _interval(b.per_deal),
            _per(b.by_phase.get(Phase.BID)),
            _per(b.by_phase.get(Phase.BURY)),
            _per(b.by_phase.get(Phase.PLAY)),
            _per(b.by_role.get(Role.SOLOIST)),
            _per(b.by_role.get(Role.DEFENDER)),
            _per(b.by_role.get(Role.TABLE)),
            str(b.counts[Severity.INACCURACY]),
            str(b.counts[Severity.MISTAKE]),
            str(b.counts[Severity.BLUNDER]),
        )
    return table


def worst_decisions(
    deals: list[DealAnalysis], name: str, count: int
) -> list[tuple[DealAnalysis, int]]:
    """The ``count`` decisions of bot ``name`` with the largest loss (deal, index), largest
    first, earliest first among equals."""
    found = [
        (d.loss, i, n, deal)
        for n, deal in enumerate(deals)
        for i, d in enumerate(deal.decisions)
        if d.player == name and d.loss > 0
    ]
    found.sort(key=lambda x: (-x[0], x[2], x[1]))
    return [(deal, i) for _, i, _, deal in found[:count]]


def analyze_command(
    logs: Annotated[list[Path], typer.Argument(help="Logs of matches, tournaments or tests.")],
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            help="The analysis file (JSON lines; read first as a cache). Default: "
            "LOG.analysis.jsonl beside each log.",
        ),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            help="Processes solving deals (default and most: one per CPU).", min=1, max=256
        ),
    ] = None,
    worst: Annotated[
        int, typer.Option(help="Show each bot's N worst decisions.", min=0, max=1000)
    ] = 3,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print the summaries as JSON on stdout.")
    ] = False,
) -> None:
    """The open-card value of every decision of the logs' deals (every bid, bury and card):
    each legal action's score for the deal with all cards seen and everyone playing best
    from there, the best, the one taken and the loss; then each bot's average loss per
    decision and per deal, by phase and role, with inaccuracies (?!), mistakes (?) and
    blunders (??). Solved on every core; an analysis already in the file is not solved again."""
    for log in logs:
        try:
            check_log_path(log)
        except ZoleError as exc:
            fail(str(exc))
    if (
        output is not None
        and len(logs) > 1
        and any(log.resolve() == output.resolve() for log in logs)
    ):
        fail(f"{output} is one of the logs: give another --output")
    if output is not None and output.exists() and not output.is_file():
        fail(f"{output}: not a regular file (give a file for --output)")
    stop_on_signals()
    if output is not None:
        jobs = [(list(logs), output)]
    else:
        jobs = [([log], analysis_path(log)) for log in logs]
    deals: list[DealAnalysis] = []
    try:
        for paths, target in jobs:
            if target.exists() and not target.is_file():
                fail(f"{target}: not a regular file (give a file with --output)")
            if target.is_symlink() and not target.exists():
                fail(f"{target}: a link to nothing (give a file with --output)")
            try:
                same = any(p.resolve() == target.resolve() for p in paths)
            except (OSError, RuntimeError):  # a loop of links
                fail(f"{target}: cannot be resolved (a loop of links?)")
            if same:
                fail(f"{target} is one of the logs: give another --output")
            run = _analyse(paths, target, workers, live=err.is_terminal and not json_output)
            deals.extend(run.deals)
            if not json_output:
                err.print(
                    f"{target}: {len(run.deals)} deals ({run.solved} solved now"
                    + (f"; {run.skipped_lines} lines skipped" if run.skipped_lines else "")
                    + ")",
                    highlight=False,
                    markup=False,
                )
    except KeyboardInterrupt:
        err.print("interrupted: the deals finished so far are kept; run again to go on")
        raise typer.Exit(130) from None
    except (*ANALYSIS_ERRORS, AnalysisFileError) as exc:
        fail(str(exc))
    bots = summarise(deals)
    if json_output:
        print_json({"deals": len(deals), "bots": [b.to_dict() for b in bots]})
        return
    if not bots:
        out.print("no decisions to analyse in these logs")
        return
    out.print(_summary_table(bots))
    out.print(
        "?! inaccuracy, ? mistake, ?? blunder: losses under one swing, from one, from two "
        "(swing: a take's win minus its loss for one defender: wpt 9, lzf 3)",
        highlight=False,
        markup=False,
    )
    if worst:
        for bot in bots:
            picked = worst_decisions(deals, bot.name, worst)
            if not picked:
                continue
            out.print(f"\n{printable(bot.name)}: worst decisions", highlight=False, markup=False)
            for deal, i in picked:
                d = deal.decisions[i]
                out.print(
                    f"  {printable(deal.match_id)} deal {deal.deal} move {d.move + 1} "
                    f"({d.phase}, {d.role}): {d.action} = {d.value}; best "
                    f"{_some(d.best_actions)} = {d.best}; loss {d.loss}",
                    highlight=False,
                    markup=False,
                )


def _analyse(paths: list[Path], target: Path, workers: int | None, live: bool) -> AnalysisRun:
    if not live:
        return analyse_logs(paths, target, workers)
    with progress_bar("analysing") as show:
        return analyse_logs(paths, target, workers, show)
