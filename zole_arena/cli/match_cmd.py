"""``zole-arena match``: play a match between three bots (or four at a table of four, the
dealer sitting each deal out), with a live view and a log."""

from __future__ import annotations

import dataclasses
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from zole_arena.arena.match import Match, stderr_path
from zole_arena.arena.resume import resume_match
from zole_arena.arena.settings import MatchError, MatchSettings, unique_names
from zole_arena.arena.summary import DealReport, Summary
from zole_arena.catalogue.bundled import c_compiler, parse_bot_arg
from zole_arena.cli.console import (
    QUOTE_IT,
    check_new_log,
    err,
    fail,
    out,
    print_json,
    print_stray_notes,
    show_logged_bots,
    stop_on_signals,
)
from zole_arena.cli.options import sandbox_setting, start_transcript_file, takes_options
from zole_arena.cli.tables import results_table
from zole_arena.errors import ZoleError
from zole_arena.events.resume import Grant
from zole_arena.events.schedule import TournamentError
from zole_arena.isolation.affinity import pin
from zole_arena.options.registry import (
    CPU,
    DEALS,
    DUPLICATE,
    LOG,
    MATCH,
    MAX_CPU_S,
    MAX_MEMORY_MB,
    MAX_PROCESSES,
    MAX_STDERR_MB,
    OPTION,
    SANDBOX,
    SANDBOX_READ,
    TRANSCRIPT,
)
from zole_arena.options.values import OptionValues, Source, assign_bot_options
from zole_arena.players.command import program_name

DEMO_BOTS = ("random", "rulebot", "cbot")

#: What a resumed match may be told anew: the CPU it runs on, and what its bots may see and
#: use, which is always the organizer's word (the match's defaults when not given: no sandbox,
#: the default limits), never the log's (:class:`~zole_arena.events.resume.Grant`).
_RESUME_OPTIONS = (
    CPU, SANDBOX, SANDBOX_READ, MAX_MEMORY_MB, MAX_CPU_S, MAX_PROCESSES, MAX_STDERR_MB, TRANSCRIPT,
)  # fmt: skip


def _scores_text(summary: Summary) -> str:
    return "  ".join(f"{escape(p.name)} {p.points:+d}" for p in summary.players)


@takes_options(MATCH)
def match_command(
    bots: Annotated[
        list[str] | None,
        typer.Argument(
            help="Three bots (four: a table of four, the dealer sitting each deal out): a "
            "bundled name (see 'zole-arena bots') or a command line in quotes, optionally "
            "NAME=COMMAND. None: a short demo match.",
            show_default=False,
        ),
    ] = None,
    games: Annotated[
        int | None,
        typer.Option(
            help="Games to play, a game being a deal by each player: 3 deals, 4 at a table "
            "of four (default 1; demo: 2)."
        ),
    ] = None,
    *,
    values: OptionValues,
    resume: Annotated[
        Path | None,
        typer.Option(
            help="Continue an interrupted match from its log; its bots get the sandbox "
            "(--sandbox, --no-sandbox), --sandbox-read paths and limits of this command line, "
            "not the log's (a header that asks for more is refused; one that ran sandboxed "
            "needs --sandbox or --no-sandbox)."
        ),
    ] = None,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print a machine-readable summary on stdout.")
    ] = False,
) -> None:
    """Play a match between three bots (or four at a table of four): live scores, a results
    table, a replayable log."""
    stop_on_signals()
    cpu = values[CPU]
    if cpu is not None:
        pin(cpu)  # before any bot starts: they inherit it
    if resume is not None:
        _resume(resume, bots, games, values, json_output)
        return
    demo = not bots
    deals = values[DEALS]
    if demo:
        names = list(DEMO_BOTS) if c_compiler() is not None else ["random", "rulebot", "rulebot"]
        bots = names
        games = games if games is not None or deals is not None else 2
    assert bots is not None
    if len(bots) not in (3, 4):
        quote = QUOTE_IT if len(bots) > 4 else ""
        fail(
            f"a match needs 3 bots, or 4 at a table of four, not {len(bots)} (or none for a "
            f"demo){quote}"
        )
    if games is not None and deals is not None:
        fail("give --games or --deals, not both")
    if len(bots) == 4 and values[DUPLICATE]:
        fail(
            "a table of four plays no duplicate match: its deals cannot be played in every "
            "seating (give --no-duplicate, or play 3 bots)"
        )
    total = deals if deals is not None else len(bots) * (games if games is not None else 1)
    if total < 1:
        fail("the match needs at least one deal")
    isolation = sandbox_setting(values[SANDBOX], values[SANDBOX_READ])
    log = values[LOG]
    if log is not None:
        check_new_log(log)
    settings = values.match_settings(deals=total, duplicate=values[DUPLICATE], sandbox=isolation)
    specs = [parse_bot_arg(b) for b in bots]
    # A bot without a given name goes by its program's name everywhere — banner, options,
    # stderr files, results and log — as in a tournament (told apart: x, x#2). The name it
    # announces is kept in the log as its id_name.
    names = unique_names([s.name or program_name(s.argv) for s in specs])
    options = assign_bot_options(values[OPTION], names)
    start_transcript_file(values)
    configs = [
        values.bot_config(
            spec.argv,
            name,
            options=opts,
            stderr_path=stderr_path(log, name),
            sandbox=isolation,
        )
        for spec, name, opts in zip(specs, names, options, strict=True)
    ]
    match = Match(configs, settings, log)
    if not json_output:
        what = "demo match" if demo else "match"
        copies = " × 6 seatings" if settings.duplicate else ""
        out.print(
            f"{what}: {', '.join(names)} — {total} deal{'s' if total != 1 else ''}{copies} of "
            f"{settings.rules.name}, {settings.time_text()}, seed {settings.seed}"
            + (f", log {log}" if log else "")
            + (f"; arena and bots on CPU {cpu}" if cpu is not None else "")
        )
        out.print(f"bots: {settings.isolation()}", highlight=False, markup=False)
        if demo:
            out.print(
                "(run 'zole-arena match BOT BOT BOT' for your own; 'zole-arena bots' "
                "lists the bundled ones)"
            )
    _run(match, json_output)


def _resume(
    log: Path,
    bots: list[str] | None,
    games: int | None,
    values: OptionValues,
    json_output: bool,
) -> None:
    """``--resume LOG``: the match of the log, with the sandbox, readable paths and limits'
    ceilings of this command line (the hidden paths found anew), the bots' commands shown
    before any of them starts."""
    given = [name for name, value in (("bots", bots), ("--games", games)) if value]
    given += [option.flag for option in values.given if option not in _RESUME_OPTIONS]
    if given:
        fail(
            f"what the bots may use is this command line's to say "
            f"({', '.join(o.flag for o in _RESUME_OPTIONS)}); --resume takes everything from "
            f"the log: give no {', '.join(given)}"
        )
    sandboxed = values[SANDBOX]
    explicit = values.source(SANDBOX) is not Source.DEFAULT
    grant = Grant(sandbox_setting(sandboxed, values[SANDBOX_READ]), values.limits())

    def allowed(logged: MatchSettings) -> MatchSettings:
        """The header's settings held to this command line (before any bot is set up)."""
        if logged.sandbox is not None and not sandboxed:
            if not explicit:  # a match is unsandboxed by default: a sandboxed one is not so
                raise MatchError(
                    f"{log}: its bots ran sandboxed: give --sandbox to go on so, or --no-sandbox "
                    "to trust them with your files and the log"
                )
            logged = dataclasses.replace(logged, sandbox=None)  # the organizer lifts it
        try:
            return grant.settings(logged, log)
        except TournamentError as exc:
            raise MatchError(str(exc)) from None

    match = resume_match(log, grant=allowed, transcript=start_transcript_file(values))
    for problem in match.log_problems:  # verify reports them too, until they are removed
        err.print(f"[yellow]warning:[/] {escape(problem.describe())}")
    if match.done >= match.settings.total_deals and match.settle_missing:
        try:
            match.write_settle()
        except ZoleError as exc:
            fail(str(exc))
        out.print(f"{log}: the match was complete; the pules standing at its end are now settled")
        return
    if match.done >= match.settings.total_deals:
        fail(
            f"{log}: the match is already complete ({match.done} of "
            f"{match.settings.total_deals} deals)"
        )
    cpu = values[CPU]
    if not json_output:
        out.print(
            f"resuming {log}: {match.done} of {match.settings.total_deals} deals already played"
            + (f"; arena and bots on CPU {cpu}" if cpu is not None else ""),
            highlight=False,
            markup=False,
        )
    logged = [(c.name or "?", c.command, c.cwd) for c in match.players]
    show_logged_bots(match.settings.isolation(), logged, json_output)
    _run(match, json_output)


def _run(match: Match, json_output: bool) -> None:
    total = match.settings.total_deals
    live = out.is_terminal and not json_output
    started = time.monotonic()
    done_before = match.done
    if live:
        progress = Progress(
            TextColumn("[bold]deals"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.fields[scores]}"),
            console=out,
            transient=True,
        )
        task = progress.add_task("deals", total=total, completed=match.done, scores="")
        with progress:

            def show(report: DealReport, summary: Summary) -> None:
                progress.update(task, completed=report.number, scores=_scores_text(summary))

            summary = _play(match, show)
    else:
        step = max(1, total // 20)

        def line(report: DealReport, summary: Summary) -> None:
            if not json_output and (report.number % step == 0 or report.number == total):
                out.print(f"deal {report.number}/{total}: {_scores_text(summary)}", highlight=False)

        summary = _play(match, line)
    elapsed = time.monotonic() - started
    if json_output:
        settings = match.settings
        players = match.referee.players
        data = {
            "match_id": match.match_id,
            "seed": settings.seed,
            "rules": settings.rules.name,
            "duplicate": settings.duplicate,
            **summary.to_dict(),
            "disqualified": [players[p].name for p in match.referee.disqualified],
            "seconds": round(elapsed, 3),  # this run's wall time (a resumed one: the rest)
        }
        print_json(data)
    else:
        out.print(results_table(summary))
        for fault in summary.fault_lines:
            out.print(f"[red]fault[/] {escape(fault)}", highlight=False)
        print_stray_notes(summary.players)
        now = summary.deals - done_before
        rate = now / elapsed if elapsed > 0 else 0.0
        out.print(
            f"played {now} deal{'s' if now != 1 else ''} in {elapsed:.1f} s ({rate:.1f} deals/s)"
            + (f"; log: {summary.log}" if summary.log else "")
        )
        if match.settled is not None:
            settled = match.settled
            paid = ", ".join(
                f"{match.names[owner]} pays {settled.payment * (len(match.names) - 1)}"
                for owner in settled.pules.personal
            )
            out.print(f"pules standing at the end, settled: {paid}", highlight=False, markup=False)
        if summary.log and summary.digest:  # what 'verify --digest' checks the log against
            out.print(f"log {summary.log}  digest {summary.digest}", highlight=False, markup=False)
    if summary.stopped:
        interrupted = summary.stopped.interrupted
        err.print(
            f"[yellow]match stopped: {escape(str(summary.stopped))}[/]"
            + (f"; continue with --resume {summary.log}" if summary.log and interrupted else "")
        )
        raise typer.Exit(130 if interrupted else 3)
    sys.stdout.flush()


def _play(match: Match, on_deal: Callable[[DealReport, Summary], None]) -> Summary:
    """Play the match; after Ctrl-C (the bots are stopped by then), the summary so far."""
    try:
        return match.run(on_deal)
    except KeyboardInterrupt:
        return match.summary()
