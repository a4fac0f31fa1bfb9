"""``zole-arena fairplay``: screen the bots of logs for card choices that depend on cards they
could not see (see docs/fairplay.md)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.table import Table

from zole_arena.analysis.fairplay import FAIRPLAY_ERRORS, Screening, ScreenRun, screen_logs
from zole_arena.analysis.fairplay_stats import (
    MIN_DECISIONS,
    MIN_JUDGED_DEALS,
    Estimate,
    FairplayReport,
    PairTest,
    RepeatTest,
    Thresholds,
    fairplay_report,
    set_aside,
)
from zole_arena.cli.console import (
    err,
    fail,
    fit_names,
    out,
    print_json,
    progress_bar,
    stop_on_signals,
)
from zole_arena.errors import ZoleError, printable
from zole_arena.records.reader import check_log_path


def _excess(e: Estimate) -> str:
    return f"{e.mean:+.3f}±{1.96 * e.se:.3f}" if e.decisions else "–"


def _p(p: float) -> str:
    return f"{p:.2g}" if p >= 1e-4 else f"{p:.0e}"


def _players_table(report: FairplayReport, shown: Mapping[str, str]) -> Table:
    t = report.thresholds
    table = Table(
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
        title="Fair play: are its cards and bids best in the true deal more often than in "
        "deals it could not tell from it?",
        caption=f"cards: its card decisions screened; excess: how much more often they are "
        f"best in the true deal than in the drawn deals, 95% interval; bids: its bids screened "
        f"(best for its own contract), their excess and z; flagged: cards' excess above "
        f"{t.allowance} or bids' above {t.bid_allowance}, at p < {t.alpha / 2:g} each; too few: "
        f"under {MIN_JUDGED_DEALS} deals or {MIN_DECISIONS} decisions (p-values, and the shares "
        "best in the true and the drawn deals: --json)",
    )
    columns = ("bot", "deals", "cards", "excess", "z", "bids", "bid excess", "bid z", "flagged")
    for column in columns:
        table.add_column(column, justify="left" if column == "bot" else "right", no_wrap=True)
    for p in report.players:
        judged = p.estimate.usable or p.bids.usable
        table.add_row(
            printable(shown[p.name]),
            str(max(p.estimate.deals, p.bids.deals)),
            str(p.estimate.decisions),
            _excess(p.estimate),
            f"{p.z:+.2f}",
            str(p.bids.decisions),
            _excess(p.bids),
            f"{p.bids_z:+.2f}",
            "[bold red]FLAGGED[/]" if p.flagged else "no" if judged else "too few",
        )
    return table


def _tests_table(title: str, columns: tuple[str, ...], named: int, rows: list[list[str]]) -> Table:
    """A table of flagged tests: the first ``named`` columns are names (left), the rest
    figures (right)."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, title=title)
    for i, column in enumerate(columns):
        table.add_column(column, justify="left" if i < named else "right")
    for row in rows:
        table.add_row(*row)
    return table


def _pairs_table(pairs: list[PairTest]) -> Table:
    rows = [
        [
            printable(r.seen_by),
            printable(r.player),
            str(r.seen.decisions),
            _excess(r.seen),
            str(r.elsewhere.decisions),
            _excess(r.elsewhere),
            f"{r.z:+.2f}",
            _p(r.p_value),
        ]
        for r in pairs
    ]
    return _tests_table(
        "Pairs flagged: the second bot's excess on deals whose cards the first played too",
        ("seen by", "bot", "seen: decisions", "excess", "elsewhere", "excess", "z", "p"),
        2,
        rows,
    )


def _repeats_table(repeats: list[RepeatTest]) -> Table:
    rows = [
        [
            printable(r.name),
            str(r.first.decisions),
            _excess(r.first),
            str(r.later.decisions),
            _excess(r.later),
            f"{r.z:+.2f}",
            _p(r.p_value),
        ]
        for r in repeats
    ]
    return _tests_table(
        "Repeats flagged: later meetings of the same cards against the first",
        ("bot", "first", "excess", "later", "excess", "z", "p"),
        1,
        rows,
    )


def _estimate_json(e: Estimate) -> dict[str, Any]:
    return {"decisions": e.decisions, "deals": e.deals, "excess": e.mean, "se": e.se}


def report_json(report: FairplayReport, run: ScreenRun) -> dict[str, Any]:
    """The report as ``--json`` prints it."""
    return {
        "deals": report.deals,
        "screened_decisions": report.screened_decisions,
        "screened_now": run.solved,
        "skipped_lines": run.skipped_lines,
        "allowance": report.thresholds.allowance,
        "bid_allowance": report.thresholds.bid_allowance,
        "alpha": report.thresholds.alpha,
        "players": [
            {
                "name": p.name,
                "flagged": p.flagged,
                "judged": p.estimate.usable,
                "excess": p.estimate.mean,
                "se": p.estimate.se,
                "z": p.z,
                "p_value": p.p_value,
                "decisions": p.estimate.decisions,
                "deals": p.estimate.deals,
                "best_in_truth": p.best_in_truth,
                "best_in_samples": p.best_in_samples,
                "set_aside": list(p.set_aside),
                "bids": {
                    **_estimate_json(p.bids),
                    "judged": p.bids.usable,
                    "z": p.bids_z,
                    "p_value": p.bids_p_value,
                },
            }
            for p in report.players
        ],
        "repeats": [
            {
                "name": r.name,
                "flagged": r.flagged,
                "difference": r.difference,
                "z": r.z,
                "p_value": r.p_value,
                "first": _estimate_json(r.first),
                "later": _estimate_json(r.later),
            }
            for r in report.repeats
        ],
        "repeat_tests": report.repeat_tests,
        "pairs": [
            {
                "seen_by": r.seen_by,
                "name": r.player,
                "flagged": r.flagged,
                "difference": r.difference,
                "z": r.z,
                "p_value": r.p_value,
                "seen": _estimate_json(r.seen),
                "elsewhere": _estimate_json(r.elsewhere),
            }
            for r in report.pairs
        ],
        "pair_tests": report.pair_tests,
    }


def fairplay_command(
    logs: Annotated[list[Path], typer.Argument(help="Logs of matches, tournaments or tests.")],
    json_output: Annotated[
        bool, typer.Option("--json", help="Print the findings as JSON on stdout.")
    ] = False,
    workers: Annotated[
        int | None,
        typer.Option(
            help="Processes screening deals (default and most: one per CPU).", min=1, max=256
        ),
    ] = None,
    samples: Annotated[
        int, typer.Option(help="Deals drawn for each decision screened.", min=2, max=200)
    ] = Screening().samples,
    allowance: Annotated[
        float, typer.Option(help="Mean excess allowed honest bots.", min=0.0, max=1.0)
    ] = Thresholds().allowance,
    bid_allowance: Annotated[
        float, typer.Option(help="Mean excess of bids allowed honest bots.", min=0.0, max=1.0)
    ] = Thresholds().bid_allowance,
    alpha: Annotated[
        float,
        typer.Option(
            help="One-sided p-value that flags a bot (its cards' and its bids' tests each at "
            "half of it).",
            min=1e-12,
            max=0.5,
        ),
    ] = Thresholds().alpha,
) -> None:
    """Screen every bot of the logs for choices that depend on cards it could not see: at
    each of its cards in tricks 2-7 with a choice (leads: trick 2), is the card best
    (open-card solver) in the true deal more often than in deals drawn from what it saw? And
    at each bid, is it best for its own contract? Per bot, per repeat of the same cards, and
    per pair of bots (the cards one plays played by the other at another table). Cached in
    LOG.fairplay.jsonl beside each log."""
    for log in logs:
        try:
            check_log_path(log)
        except ZoleError as exc:
            fail(str(exc))
    stop_on_signals()
    screening = Screening(samples=samples)
    try:
        run = _screen(logs, screening, workers, live=err.is_terminal and not json_output)
    except KeyboardInterrupt:
        err.print("interrupted: the deals finished so far are kept; run again to go on")
        raise typer.Exit(130) from None
    except FAIRPLAY_ERRORS as exc:
        fail(str(exc))
    report = fairplay_report(run.deals, Thresholds(allowance, alpha, bid_allowance))
    if report.screened_decisions == 0:
        fail(
            f"no decisions to screen in {len(run.deals)} deals of these logs (cards in "
            f"tricks {screening.first_trick}-{screening.last_trick} with a choice, or bids)"
        )
    if json_output:
        print_json(report_json(report, run))
        return
    err.print(
        f"{report.deals} deals, {report.screened_decisions} decisions screened "
        f"({run.solved} deals screened now)",
        highlight=False,
        markup=False,
    )
    names = [p.name for p in report.players]
    out.print(fit_names(names, lambda shown: _players_table(report, shown)))
    for sentence in set_aside(report):
        out.print(f"{printable(sentence)} (docs/fairplay.md)", highlight=False, markup=False)
    pairs = [r for r in report.pairs if r.flagged]
    if pairs:
        out.print(_pairs_table(pairs))
    else:
        out.print(f"no pair flagged ({report.pair_tests} tested)", highlight=False)
    repeats = [r for r in report.repeats if r.flagged]
    if repeats:
        out.print(_repeats_table(repeats))
    elif report.repeats:
        out.print(f"no repeat flagged ({report.repeat_tests} tested)", highlight=False)


def _screen(logs: list[Path], screening: Screening, workers: int | None, live: bool) -> ScreenRun:
    if not live:
        return screen_logs(logs, screening, workers)
    with progress_bar("screening") as show:
        return screen_logs(logs, screening, workers, show)
