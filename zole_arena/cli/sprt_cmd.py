"""``zole-arena sprt``: is NEW better than OLD? Duplicate blocks until a sequential test decides.

The test itself (blocks, statistic, GSPRT) is :mod:`zole_arena.events.sprt`; this module parses the
command line, shows the LLR between its bounds as the test runs, and reports the decision.
"""

from __future__ import annotations

import sys
import time
from typing import Annotated, Final

import typer
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from zole_arena.arena.stop import StopReason
from zole_arena.catalogue.bundled import parse_bot_arg
from zole_arena.cli.console import (
    QUOTE_IT,
    check_new_log,
    err,
    fail,
    out,
    print_json,
    stop_on_signals,
)
from zole_arena.cli.options import sandbox_setting, start_transcript_file, takes_options
from zole_arena.cli.tables import sprt_report, sprt_status
from zole_arena.events.sprt import HeadToHead, SprtResult
from zole_arena.isolation.affinity import pin
from zole_arena.options.registry import CPU, LOG, OPTION, SANDBOX, SANDBOX_READ, SPRT
from zole_arena.options.values import OptionValues, assign_bot_options
from zole_arena.records.reader import last_line_digest
from zole_arena.stats.sprt import (
    DEFAULT_ALPHA,
    DEFAULT_BETA,
    DEFAULT_ELO0,
    DEFAULT_ELO1,
    DEFAULT_MAX_BLOCKS,
    SprtSettings,
)

ROLES: Final = ("new", "old", "third")
#: Exit codes by how the test ended (1: an error, 2: bad usage, as for every command).
EXIT_H1: Final = 0
EXIT_DISQUALIFIED: Final = 3
EXIT_H0: Final = 4
EXIT_INCONCLUSIVE: Final = 5
EXIT_INTERRUPTED: Final = 130


def _names(given: list[str | None]) -> list[str]:
    """Display names by role: the given (or bundled) name, else the role; clashing names
    take their role as a suffix (``rulebot.new``, ``rulebot.old``)."""
    names = [name or role for name, role in zip(given, ROLES, strict=False)]
    return [
        f"{name}.{role}" if names.count(name) > 1 else name
        for name, role in zip(names, ROLES, strict=False)
    ]


@takes_options(SPRT)
def sprt_command(
    bots: Annotated[
        list[str],
        typer.Argument(
            help="NEW OLD [THIRD]: bundled names or command lines in quotes, optionally "
            "NAME=COMMAND.",
            metavar="NEW OLD [THIRD]",
            show_default=False,
        ),
    ],
    elo0: Annotated[
        float, typer.Option("--elo0", help="H0: NEW is this many Elo better than OLD.")
    ] = DEFAULT_ELO0,
    elo1: Annotated[
        float, typer.Option("--elo1", help="H1: NEW is this many Elo better (> elo0).")
    ] = DEFAULT_ELO1,
    alpha: Annotated[
        float, typer.Option(help="Chance of accepting H1 when H0 holds (0 to 1).")
    ] = DEFAULT_ALPHA,
    beta: Annotated[
        float, typer.Option(help="Chance of accepting H0 when H1 holds (0 to 1).")
    ] = DEFAULT_BETA,
    max_blocks: Annotated[
        int, typer.Option(help="Stop undecided after this many blocks (exit 5).")
    ] = DEFAULT_MAX_BLOCKS,
    *,
    values: OptionValues,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print the result as JSON on stdout.")
    ] = False,
) -> None:
    """Test whether NEW is better than OLD: play duplicate blocks until a sequential
    probability ratio test (SPRT) accepts H1 (NEW is elo1 Elo better) or H0 (elo0 better).

    With THIRD, a block is one deal of the seed in all 6 seatings of NEW, OLD, THIRD. Without,
    a block is that deal in all 6 seatings of NEW, OLD, OLD#2 and of OLD, NEW, NEW#2 (12
    deals; a copy is a process of its own). A block's score is NEW's mean result in the
    per-deal games that 'zole-arena ratings' counts, in each deal NEW (or NEW#2) against OLD
    (or OLD#2) at the same table, the larger score winning (win 1, draw 1/2): 2 games a deal
    without THIRD, 1 with it. So Elo means here what it means there. After each block the
    generalized log-likelihood ratio (fishtest's GSPRT) is compared with ln(beta/(1-alpha))
    and ln((1-beta)/alpha).

    Defaults: elo0 0, elo1 10 (about what playing 5% random moves costs rulebot; rulebot is
    some 190 above random), alpha = beta = 0.05, at most 2000 blocks. See docs/sprt.md.

    Exit codes: 0 H1 accepted (NEW is better), 4 H0 accepted, 5 no decision within
    --max-blocks, 3 a bot was disqualified, 130 interrupted (Ctrl-C; the log is kept), 1 a bad
    value or a bot that cannot start, 2 bad usage.
    """
    # Ctrl-C and kill end the test cleanly: the bots are stopped, every finished deal is in
    # the log, and the state of the test so far is reported.
    stop_on_signals()
    cpu = values[CPU]
    if cpu is not None:
        pin(cpu)  # before any bot starts: they inherit it
    if len(bots) not in (2, 3):
        quote = QUOTE_IT if len(bots) > 3 else ""
        fail(f"sprt takes NEW and OLD, and optionally THIRD: 2 or 3 bots, not {len(bots)}{quote}")
    settings = SprtSettings(elo0=elo0, elo1=elo1, alpha=alpha, beta=beta)
    if max_blocks < 1:
        fail("--max-blocks must be at least 1")
    isolation = sandbox_setting(values[SANDBOX], values[SANDBOX_READ])
    log = values[LOG]
    if log is not None:
        check_new_log(log)
    match_settings = values.match_settings(deals=max_blocks, duplicate=True, sandbox=isolation)
    specs = [parse_bot_arg(b) for b in bots]
    names = _names([spec.name for spec in specs])
    roles = ROLES[: len(names)]
    options = assign_bot_options(
        values[OPTION], names, aliases={role: i for i, role in enumerate(roles)}
    )
    start_transcript_file(values)
    configs = [
        values.bot_config(spec.argv, name, options=opts, sandbox=isolation)
        for spec, name, opts in zip(specs, names, options, strict=True)
    ]
    test = HeadToHead(
        configs[0],
        configs[1],
        match_settings,
        settings,
        third=configs[2] if len(configs) == 3 else None,
        log_path=log,
    )
    if not json_output:
        layout = (
            f"with {names[2]}: blocks of 6 deals"
            if len(names) == 3
            else f"blocks of 12 deals ({names[0]} against two {names[1]}, and the reverse)"
        )
        out.print(
            f"sprt: {names[0]} (NEW) against {names[1]} (OLD), {layout}; "
            f"H0 Elo {settings.elo0:g}, H1 Elo {settings.elo1:g}, alpha {settings.alpha:g}, "
            f"beta {settings.beta:g}; {match_settings.rules.name}, {match_settings.time_text()}, "
            f"seed {match_settings.seed}"
            + (f", log {log}" if log else "")
            + (f"; arena and bots on CPU {cpu}" if cpu is not None else ""),
            highlight=False,
        )
    started = time.monotonic()
    try:
        result = _run(test, json_output)
    except KeyboardInterrupt:  # the bots are stopped and the log is closed by then
        result = test.result()
    elapsed = time.monotonic() - started
    digest = last_line_digest(log) if log is not None else None  # the test has closed it
    if json_output:
        print_json({**result.to_dict(), "digest": digest})
    else:
        sprt_report(result, digest, elapsed)
    sys.stdout.flush()
    reason = None if result.stopped is None else result.stopped.reason
    if reason is StopReason.INTERRUPTED:
        err.print("[yellow]test stopped: interrupted[/]")
        raise typer.Exit(EXIT_INTERRUPTED)
    if reason is StopReason.DISQUALIFIED:
        err.print(f"[yellow]test stopped: {escape(str(result.stopped))}[/]")
        raise typer.Exit(EXIT_DISQUALIFIED)
    if result.decision == "H1":
        raise typer.Exit(EXIT_H1)
    raise typer.Exit(EXIT_H0 if result.decision == "H0" else EXIT_INCONCLUSIVE)


def _run(test: HeadToHead, json_output: bool) -> SprtResult:
    """Run the test with a live bar of the LLR between its bounds in a terminal, and plain
    lines otherwise (after blocks 1–9, then every 10th to 90, every 100th to 900, …)."""
    lower, upper = test.sprt.settings.lower, test.sprt.settings.upper
    if out.is_terminal and not json_output:
        progress = Progress(
            TextColumn("[bold]H0"),
            BarColumn(bar_width=20),
            TextColumn("[bold]H1"),
            TextColumn("LLR {task.fields[llr]}  block {task.fields[blocks]}"),
            TextColumn("deals {task.fields[deals]}  {task.fields[score]}"),
            TimeElapsedColumn(),
            console=out,
            transient=True,
        )

        # The bar runs from H0's bound to H1's, in thousandths; it starts at LLR 0.
        def position(llr: float) -> int:
            return round(1000 * (min(max(llr, lower), upper) - lower) / (upper - lower))

        task = progress.add_task(
            "sprt",
            total=1000,
            completed=position(0.0),
            llr="+0.00",
            blocks=0,
            deals=0,
            score="",
        )
        with progress:

            def show(result: SprtResult) -> None:
                progress.update(
                    task,
                    completed=position(result.llr),
                    llr=f"{result.llr:+.2f}",
                    blocks=result.blocks,
                    score=f"{100 * result.score:.1f}% Elo {result.elo:+.0f}",
                )

            def deals(count: int) -> None:
                progress.update(task, deals=count)

            return test.run(show, deals)

    def line(result: SprtResult) -> None:
        step = 10 ** (len(str(result.blocks)) - 1)
        if not json_output and result.blocks % step == 0:
            out.print(sprt_status(result), highlight=False)

    return test.run(line)
