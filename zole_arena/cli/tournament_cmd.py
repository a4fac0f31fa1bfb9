"""``zole-arena tournament``: many bots, every table of three or a gauntlet, with live standings."""

from __future__ import annotations

import dataclasses
import os
import shlex
import shutil
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Group
from rich.live import Live
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from zole_arena.arena.settings import unique_names
from zole_arena.arena.stop import StopReason
from zole_arena.catalogue.bundled import BUNDLED, bundled_command, parse_bot_arg
from zole_arena.cli.console import (
    check_new_log,
    err,
    fail,
    out,
    print_json,
    show_logged_bots,
    stop_on_signals,
)
from zole_arena.cli.options import sandbox_setting, start_transcript_file, takes_options
from zole_arena.cli.tables import print_final, standings_table, summary_json
from zole_arena.errors import ZoleError, printable
from zole_arena.events.designs import balance
from zole_arena.events.entrants import check_entrants
from zole_arena.events.formats import FormatRequest, plan_event
from zole_arena.events.ray_backend import RAY_MISSING, cluster_problem, ray_available
from zole_arena.events.resume import Grant, resume_tournament
from zole_arena.events.schedule import Entrant, TournamentError
from zole_arena.events.settings import TournamentSettings
from zole_arena.events.standings import TournamentSummary
from zole_arena.events.tournament import Event, Tournament
from zole_arena.isolation.affinity import allowed_cpus
from zole_arena.isolation.sandbox import (
    Sandbox,
    SandboxUnavailable,
    check_available,
)
from zole_arena.options.config import ConfigBot, TournamentConfig, read_config
from zole_arena.options.registry import (
    AFFINITY,
    BACKEND,
    BLOCKS,
    CONCURRENCY,
    DEALS,
    DUPLICATE,
    FORMAT,
    GAUNTLET,
    KEEP_BOTS,
    LOG,
    MAX_CPU_S,
    MAX_MEMORY_MB,
    MAX_PROCESSES,
    MAX_STDERR_MB,
    MEETINGS,
    MOVEMENT,
    OPTION,
    RAY_ADDRESS,
    ROUNDS,
    SANDBOX,
    SANDBOX_READ,
    TABLES,
    TOURNAMENT,
    TRANSCRIPT,
)
from zole_arena.options.values import OptionValues, Source, assign_bot_options
from zole_arena.players.command import program_name, split_command
from zole_arena.stats.boards import board_groups
from zole_arena.stats.reseating import table_sizes

_BUNDLED_NAMES = {bot.name for bot in BUNDLED}

#: What a resumed tournament may be told anew: how it runs, not what it plays — and what its
#: bots may see and use, which is always the organizer's word (its defaults when not given),
#: never the log's (:class:`~zole_arena.events.resume.Grant`).
_RESUME_OPTIONS = (
    CONCURRENCY, AFFINITY, KEEP_BOTS, BACKEND, RAY_ADDRESS,
    SANDBOX, SANDBOX_READ, MAX_MEMORY_MB, MAX_CPU_S, MAX_PROCESSES, MAX_STDERR_MB, TRANSCRIPT,
)  # fmt: skip


def _ray_address(values: OptionValues) -> str | None:
    """Where the tables play: None on this machine; else the Ray cluster's address."""
    if values[BACKEND] != "ray":
        if values[RAY_ADDRESS] is not None:
            fail("--ray-address is for --backend ray")
        return None
    if values[AFFINITY]:
        fail("--affinity is for the local backend (Ray places the tables)")
    if not ray_available():
        fail(RAY_MISSING)
    return values[RAY_ADDRESS] or os.environ.get("RAY_ADDRESS") or "auto"


def _check_cluster(address: str | None, quiet: bool) -> None:
    """Connect to the Ray cluster once before anything is logged; say what it is."""
    if address is None:
        return
    problem, cluster = cluster_problem(address)
    if problem is not None:
        fail(problem)
    if not quiet:
        out.print(f"{_cluster_name(address)}: {cluster}", highlight=False, markup=False)


def _boards_text(settings: TournamentSettings) -> str:
    """How the tables share their deals, for the banner."""
    if settings.boards == "own":
        return "every table deals of its own"
    groups = board_groups([t.players for t in settings.tables], settings.boards)
    shared = sum(1 for g in groups if groups.count(g) > 1)
    return (
        f"a movement: {len(set(groups))} board groups, {shared} of {len(groups)} tables "
        "share their deals with others; no bot meets a deal twice"
    )


def _balance_text(settings: TournamentSettings) -> str:
    """How even a balanced schedule is: tables per bot, meetings per pair."""
    got = balance(list(settings.schedule or ()), len(settings.entrants))

    def spread(low: int, high: int) -> str:
        return str(low) if low == high else f"{low}-{high}"

    seats = spread(got.appearances_min, got.appearances_max)
    meets = spread(got.meetings_min, got.meetings_max)
    return (
        f"{seats} table{'' if seats == '1' else 's'} per bot, each pair "
        f"meets {'once' if meets == '1' else meets + ' times'}"
        + (" (an exact design)" if got.exact else "")
    )


def _config_bot(bot: ConfigBot, folder: Path) -> tuple[str | None, tuple[str, ...]]:
    """A config's bot as (name, argv): a bundled name, a command line or an argument list.

    A program given as a relative path (``bots/mine``), an argument that starts with ``./`` or
    ``../``, and an argument that names a file in the config's folder (``mine.py``) are taken
    from the config's folder, so a config works from anywhere.
    """
    command = bot.command
    if len(command) == 1 and command[0].strip() in _BUNDLED_NAMES:
        return bot.name or command[0].strip(), bundled_command(command[0].strip())
    argv = split_command(command[0]) if len(command) == 1 else list(command)
    for index, arg in enumerate(argv):
        path = Path(arg).expanduser()
        if path.is_absolute():
            continue
        if arg.startswith(("./", "../")) or (index == 0 and "/" in arg) or (folder / path).exists():
            argv[index] = str(folder / path)
    return bot.name, tuple(argv)


def _check_program(name: str, argv: tuple[str, ...]) -> None:
    """Fail now, not at the first table, when a bot's program does not exist."""
    program = argv[0]
    if "/" in program:
        if not Path(program).is_file():
            fail(f"bot {name}: no program {program!r} (give a path to an existing file)")
    elif shutil.which(program) is None:
        fail(
            f"bot {name}: no bundled bot or program {program!r} ('zole-arena bots' lists the "
            "bundled bots; give a path or a command line for your own)"
        )


@takes_options(TOURNAMENT)
def tournament_command(
    bots: Annotated[
        list[str] | None,
        typer.Argument(
            help="Three or more bots: bundled names (see 'zole-arena bots') or command lines in "
            "quotes, optionally NAME=COMMAND. Or give them in --config.",
            show_default=False,
        ),
    ] = None,
    config: Annotated[
        Path | None,
        typer.Option(
            help="A TOML file with the bots (each with its options table) and any of the "
            "options below but --option; every option given here overrides the file's value.",
            show_default=False,
        ),
    ] = None,
    *,
    values: OptionValues,
    resume: Annotated[
        Path | None,
        typer.Option(
            help="Continue an interrupted tournament from its log; its bots get the sandbox, "
            "--sandbox-read paths and limits of this command line and --config, not the log's "
            "(a header that asks for more is refused)."
        ),
    ] = None,
    bootstrap: Annotated[
        int, typer.Option(help="Bootstrap resamples for the final ratings' intervals.")
    ] = 200,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print a machine-readable summary on stdout.")
    ] = False,
) -> None:
    """Play a tournament: every table of 3 bots (or a gauntlet), live standings, Elo ratings
    with 95% intervals, and one resumable log.

    Sandboxed bots play a movement: tables with no bot in common play the same deals, and no
    bot meets the same cards twice; trusted bots (--no-sandbox) play duplicate blocks, every
    table the same deals. Ratings: see 'zole-arena ratings'. The options given here override
    a --config file's values.
    """
    stop_on_signals()
    if bootstrap < 10:
        fail(f"--bootstrap must be at least 10, not {bootstrap}")
    if resume is not None:
        _resume(resume, config, bots, values, bootstrap, json_output)
        return

    settings_file = read_config(config) if config is not None else None
    if settings_file is not None:
        values = values.with_config(settings_file.values)
    file_bots = settings_file.bots if settings_file is not None else ()
    if bots and file_bots:
        fail(f"give the bots on the command line or in {config}, not both")
    if bots:
        specs = [parse_bot_arg(b) for b in bots]
        pairs = [(s.name, s.argv) for s in specs]
        given_options: list[dict[str, str]] = [{} for _ in specs]
    else:
        folder = settings_file.folder if settings_file is not None else Path(".")
        pairs = [_config_bot(b, folder) for b in file_bots]
        given_options = [dict(b.options) for b in file_bots]
    if len(pairs) < 3:
        where = f" ({config} has {len(pairs)})" if config is not None else ""
        fail(f"a tournament needs at least 3 bots, not {len(pairs)}{where}")
    names = unique_names([name or program_name(argv) for name, argv in pairs])
    cwd = os.getcwd()  # the bots run here, also when the tournament is resumed elsewhere
    entrants = [
        Entrant(name, argv, options, cwd)
        for name, (_, argv), options in zip(names, pairs, given_options, strict=True)
    ]
    for entrant in entrants:
        _check_program(entrant.name, entrant.command)
    extra = assign_bot_options(values[OPTION], [e.name for e in entrants], word="bot")
    entrants = [
        dataclasses.replace(e, options={**e.options, **o})
        for e, o in zip(entrants, extra, strict=True)
    ]

    address = _ray_address(values)  # its mistakes before any bot starts

    def asked(option: Any) -> Any:
        return None if values.source(option) is Source.DEFAULT else values[option]

    try:
        plan = plan_event(
            FormatRequest(
                format=asked(FORMAT),
                first_entrant=entrants[0].name,
                sandboxed=values[SANDBOX],
                gauntlet=values[GAUNTLET],
                duplicate=asked(DUPLICATE),
                movement=asked(MOVEMENT),
                deals=values[DEALS],
                blocks=asked(BLOCKS),
                default_blocks=values[BLOCKS],
                rounds=values[ROUNDS],
            )
        )
    except TournamentError as exc:
        fail(str(exc))
    if plan.note is not None:
        err.print(plan.note, highlight=False, markup=False)
    chosen_format, chosen_gauntlet, rounds = plan.format, plan.gauntlet, plan.rounds
    is_duplicate, boards, per_table = plan.duplicate, plan.boards, plan.deals_per_table
    tournament_id = uuid.uuid4().hex[:12]
    chosen_log = values[LOG]
    log_path = chosen_log if chosen_log is not None else Path(f"tournament-{tournament_id}.jsonl")
    check_new_log(log_path)
    isolation = _isolation(values[SANDBOX], values[SANDBOX_READ], config)
    match_settings = values.match_settings(
        deals=per_table, duplicate=is_duplicate, sandbox=isolation
    )
    settings = TournamentSettings(
        entrants=tuple(entrants),
        match=match_settings,
        format=chosen_format,
        gauntlet=chosen_gauntlet,
        concurrency=values[CONCURRENCY],
        tables_wanted=values[TABLES],
        meetings=values[MEETINGS],
        keep_bots=values[KEEP_BOTS],
        rounds=rounds,
        boards=boards,
    )
    _check_cluster(address, json_output)
    if not json_output:
        out.print(f"bots: {match_settings.isolation()}", highlight=False, markup=False)
        out.print(f"checking that the {len(entrants)} bots start …", highlight=False)
    sizes = table_sizes(len(entrants)) if chosen_format == "lzf" else (3,)
    check_entrants(entrants, match_settings, sizes)
    cpus = allowed_cpus() if values[AFFINITY] else None
    tournament = Tournament(
        settings,
        log_path,
        tournament_id=tournament_id,
        cpus=cpus,
        ray_address=address,
        transcript=start_transcript_file(values),
    )
    if not json_output:
        tables = settings.table_count
        kind = (
            f"{per_table} duplicate block(s) of 6 deals" if is_duplicate else f"{per_table} deals"
        )
        if boards is not None:
            kind += f" ({_boards_text(settings)})"
        what: str = chosen_format
        if chosen_format == "gauntlet":
            what = f"gauntlet of {chosen_gauntlet}"
        elif chosen_format == "balanced":
            what = f"balanced: {_balance_text(settings)}"
        elif chosen_format == "lzf":
            seated = ", ".join(map(str, table_sizes(len(entrants))))
            what = f"lzf: {rounds} rounds at tables of {seated}, reseated by big points"
        out.print(
            f"tournament ({what}): {', '.join(names)} — {tables} table(s) × {kind} = "
            f"{settings.total_deals} deals of {settings.match.rules.name}, "
            f"{match_settings.time_text()}, seed {match_settings.seed}, "
            f"{settings.concurrency} at a time"
            f"{_pinning(cpus, settings.concurrency)}{_where(address)}; log {log_path}",
            highlight=False,
            markup=False,
        )
    _run(tournament, bootstrap, json_output)


def _resume(
    log: Path,
    config: Path | None,
    bots: list[str] | None,
    values: OptionValues,
    bootstrap: int,
    json_output: bool,
) -> None:
    """``--resume LOG``: the tournament of the log, with the sandbox, readable and hidden
    paths and the limits' ceilings of this command line and ``config`` (sandboxed unless
    ``--no-sandbox``), the bots' commands shown before any of them starts."""
    given = [o.flag for o in values.given if o not in _RESUME_OPTIONS]
    if bots:
        given.insert(0, "bots")
    if given:
        fail(
            f"--resume takes how the tournament plays from the log (and may be given "
            f"--config, {', '.join(o.flag for o in _RESUME_OPTIONS)}): give no {', '.join(given)}"
        )
    settings_file = read_config(config) if config is not None else None
    if settings_file is not None:
        kept = {o: v for o, v in settings_file.values.items() if o in _RESUME_OPTIONS}
        values = values.with_config(kept)
    more = values[CONCURRENCY] if values.source(CONCURRENCY) is not Source.DEFAULT else None
    address = _ray_address(values)
    grant = Grant(_isolation(values[SANDBOX], values[SANDBOX_READ], config), values.limits())
    transcript = start_transcript_file(values)
    tournament = resume_tournament(log, more, grant=grant, transcript=transcript)
    if settings_file is not None and settings_file.bots:
        _check_config_bots(settings_file, tournament.settings.entrants, log)
    tournament.cpus = allowed_cpus() if values[AFFINITY] else None
    tournament.settings = dataclasses.replace(tournament.settings, keep_bots=values[KEEP_BOTS])
    tournament.ray_address = address
    concurrency_now = tournament.settings.concurrency
    _check_cluster(address, json_output)
    unfinished = [t for t in tournament.tables if not t.finished]
    if not unfinished and tournament.settles_missing:
        try:
            tournament.write_missing_settles()
        except ZoleError as exc:
            fail(str(exc))
        out.print(f"{log}: the tournament was complete; the pules its last tables left "
                  "standing are now settled", highlight=False, markup=False)  # fmt: skip
        return
    if not unfinished:
        fail(f"{log}: the tournament is already complete ({tournament.standings.deals} deals)")
    logged = [(e.name, e.command, e.cwd) for e in tournament.settings.entrants]
    show_logged_bots(tournament.settings.match.isolation(), logged, json_output)
    entrants = tournament.settings.entrants
    sizes = table_sizes(len(entrants)) if tournament.settings.format == "lzf" else (3,)
    check_entrants(entrants, tournament.settings.match, sizes)
    if not json_output:
        out.print(
            f"resuming {log}: {tournament.standings.deals} of "
            f"{tournament.settings.total_deals} deals already played, "
            f"{len(unfinished)} of {len(tournament.tables)} tables to go, "
            f"{concurrency_now} at a time{_pinning(tournament.cpus, concurrency_now)}"
            f"{_where(tournament.ray_address)}",
            highlight=False,
            markup=False,
        )
    _run(tournament, bootstrap, json_output)


def _same_argv(argv: Sequence[str], cwd: str) -> list[str]:
    """A command's words with each one that names an existing file or folder (from ``cwd``)
    as that file's real path: two commands that run the same files compare equal."""
    words = []
    for word in argv:
        path = os.path.join(cwd, os.path.expanduser(word))
        words.append(os.path.realpath(path) if os.path.exists(path) else word)
    return words


def _check_config_bots(
    settings_file: TournamentConfig, entrants: Sequence[Entrant], log: Path
) -> None:
    """A config given to ``--resume`` that lists bots pins what the log may run: the log's
    entrants must be those bots, by name and command (the files they name compared as they
    really are, so the check holds from any folder)."""
    pairs = [_config_bot(bot, settings_file.folder) for bot in settings_file.bots]
    names = unique_names([name or program_name(argv) for name, argv in pairs])
    logged = [e.name for e in entrants]
    if names != logged:
        fail(
            f"{log}: its bots are {printable(', '.join(logged))}, not those of "
            f"{settings_file.path} ({', '.join(names)})"
        )
    here = os.getcwd()
    for entrant, (_, argv) in zip(entrants, pairs, strict=True):
        if _same_argv(entrant.command, entrant.cwd or here) != _same_argv(argv, here):
            fail(
                f"{log}: bot {entrant.name} runs {printable(shlex.join(entrant.command))} in "
                f"{printable(entrant.cwd or here)}, not {shlex.join(argv)} as "
                f"{settings_file.path} says"
            )


def _isolation(wanted: bool, readable: tuple[str, ...], config: Path | None) -> Sandbox | None:
    """The tournament's sandbox: on unless ``--no-sandbox`` (a machine that cannot build one
    ends the command with one line saying how to install bubblewrap, or to trust the bots).
    It hides the config file (the tournament hides its log and the entrants' programs)."""
    if not wanted:
        return sandbox_setting(False, readable)
    try:
        check_available()
    except SandboxUnavailable as exc:
        fail(f"{exc}; or play with --no-sandbox, trusting the bots with your files and the log")
    # The tournament hides its log and every entrant's program itself; the config file is
    # the command line's to hide.
    hidden = (str(config.absolute()),) if config is not None else ()
    given = sandbox_setting(True, readable)
    assert given is not None
    return Sandbox(readable=given.readable, hidden=hidden)


def _cluster_name(address: str) -> str:
    """A Ray cluster, for people."""
    return "this machine's Ray cluster" if address == "auto" else f"the Ray cluster {address}"


def _where(address: str | None) -> str:
    """Where the tables play, for the header line ("" on this machine)."""
    return "" if address is None else f" on {_cluster_name(address)}"


def _pinning(cpus: Sequence[int] | None, concurrency: int) -> str:
    """What ``--affinity`` does, for the header line ("" without it)."""
    if not cpus:
        return ""
    if concurrency == 1:
        return f", pinned to CPU {cpus[0]}"
    used = [str(cpus[k % len(cpus)]) for k in range(concurrency)]
    shared = " (some share one)" if concurrency > len(cpus) else ""
    return f", each pinned to a CPU: {', '.join(used)}{shared}"


def _run(tournament: Tournament, bootstrap: int, json_output: bool) -> None:
    total = tournament.settings.total_deals
    started = time.monotonic()
    done_before = tournament.standings.deals
    if out.is_terminal and not json_output:
        progress = Progress(
            TextColumn("[bold]deals"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.fields[tables]}"),
            console=out,
        )
        task = progress.add_task("deals", total=total, completed=done_before, tables="")
        # The standings (a rating fit over every block so far) are redrawn at most twice a
        # second, and never taking more than a tenth of the time: a long tournament's parent
        # process must keep up with its workers.
        shown = {"at": 0.0, "gap": 0.5}

        def view() -> Group:
            began = time.monotonic()
            table = standings_table(tournament.summary(), "Standings so far", final=False)
            shown["gap"] = max(0.5, 10 * (time.monotonic() - began))
            return Group(progress, table)

        with Live(view(), console=out, transient=True, refresh_per_second=4) as live:

            def show(event: tuple[str, Any]) -> None:
                done = sum(1 for t in tournament.tables if t.finished)
                progress.update(
                    task,
                    completed=tournament.standings.deals,
                    tables=f"tables {done}/{len(tournament.tables)}",
                )
                now = time.monotonic()
                if now - shown["at"] >= shown["gap"] or event[0] == "table":
                    shown["at"] = now
                    live.update(view())

            summary = _play(tournament, show)
    else:
        step = max(1, total // 20)

        def line(event: tuple[str, Any]) -> None:
            deals = tournament.standings.deals
            if not json_output and event[0] == "deal" and (deals % step == 0 or deals == total):
                done = sum(1 for t in tournament.tables if t.finished)
                elapsed = time.monotonic() - started
                rate = (deals - done_before) / elapsed if elapsed > 0 else 0.0
                left = (
                    f", about {(total - deals) / rate:.0f} s to go"
                    if rate and deals < total
                    else ""
                )
                out.print(
                    f"deal {deals}/{total}, tables {done}/{len(tournament.tables)} done, "
                    f"{elapsed:.0f} s{left}",
                    highlight=False,
                )

        summary = _play(tournament, line)
    elapsed = time.monotonic() - started
    summary.ratings = summary.standings.ratings(bootstrap)
    if json_output:
        print_json(summary_json(tournament, summary))
    else:
        print_final(summary)
        for table in summary.tables:
            if table.stopped and not table.stopped.interrupted:
                err.print(
                    f"[yellow]table {table.table.number} ({escape(', '.join(table.names))}) "
                    f"stopped: {escape(str(table.stopped))}[/]"
                )
        now = summary.deals - done_before
        rate = now / elapsed if elapsed > 0 else 0.0
        out.print(
            f"played {now} deal{'s' if now != 1 else ''} in {elapsed:.1f} s ({rate:.1f} deals/s); "
            f"log: {summary.log}",
            highlight=False,
            markup=False,
        )
        if summary.digest:  # what 'verify --digest' checks the log against
            out.print(f"log {summary.log}  digest {summary.digest}", highlight=False, markup=False)
    interrupted = summary.stopped is not None and summary.stopped.interrupted
    disqualified = [
        t for t in summary.tables if t.stopped and t.stopped.reason is StopReason.DISQUALIFIED
    ]
    if not interrupted and disqualified:
        raise typer.Exit(3)  # as 'match' does: the results stand, but a bot broke the rules
    if interrupted:
        err.print(
            f"[yellow]tournament stopped: interrupted[/]; continue with "
            f"'zole-arena tournament --resume {escape(str(summary.log))}'"
        )
        raise typer.Exit(130)


def _play(tournament: Tournament, on_event: Callable[[Event], None]) -> TournamentSummary:
    """Play the tournament; after Ctrl-C (every table is stopped by then), the summary so far."""
    try:
        return tournament.run(on_event)
    except KeyboardInterrupt:
        return tournament.summary()
