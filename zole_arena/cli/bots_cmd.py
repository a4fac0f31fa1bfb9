"""``zole-arena bots`` and ``zole-arena check``: the bundled bots, and a bot's conformance."""

from __future__ import annotations

import os
from typing import Annotated, NamedTuple

import typer
from rich.markup import escape
from rich.table import Table

from zole_arena.arena.check import CheckItem, run_check
from zole_arena.arena.referee import FaultPolicy
from zole_arena.cli.console import check_times, fail, out
from zole_arena.isolation.sandbox import Sandbox, SandboxUnavailable, check_available
from zole_arena.players.bundled import BUNDLED, describe_command, parse_bot_arg
from zole_arena.players.limits import Limits
from zole_arena.players.session import BotConfig

StartupOption = Annotated[
    int, typer.Option("--startup-ms", help="Time for a bot to start and finish the handshake.")
]
MovetimeOption = Annotated[int, typer.Option("--movetime", help="Milliseconds per decision.")]
MarginOption = Annotated[
    int, typer.Option("--timemargin", help="Milliseconds allowed on top of each decision's time.")
]
PingOption = Annotated[
    int, typer.Option("--ping-ms", help="Time for a bot to answer isready with readyok.")
]
MemoryOption = Annotated[
    int,
    typer.Option(
        "--max-memory-mb",
        help="Memory limit, MiB: the address space of each bot process, and with --sandbox "
        "the memory of the whole bot (all its processes); 0: none.",
    ),
]
CpuOption = Annotated[
    int,
    typer.Option(
        "--max-cpu-s",
        help="CPU-time limit, s: of each bot process, and with --sandbox of the whole bot; "
        "0: none.",
    ),
]
ProcessesOption = Annotated[
    int,
    typer.Option(
        "--max-processes",
        help="With --sandbox: processes and threads a bot may have at once, all together; 0: none.",
    ),
]
StderrOption = Annotated[
    int,
    typer.Option(
        "--max-stderr-mb",
        help="A bot's stderr file is cut at this size (MiB), with a marker line; 0: no limit.",
    ),
]
SandboxOption = Annotated[
    bool,
    typer.Option(
        "--sandbox",
        help="Run every bot in a bubblewrap sandbox: it sees no other process, no network, no "
        "file but the system's and its own program's (read-only) and a private /tmp; limits "
        "hold for the whole bot; nothing it starts outlives it (docs/competitions.md).",
    ),
]
SandboxReadOption = Annotated[
    list[str] | None,
    typer.Option(
        "--sandbox-read",
        help="With --sandbox: a further file or folder every bot may read (repeatable).",
        show_default=False,
    ),
]
OnFaultOption = Annotated[
    str,
    typer.Option(
        help="forfeit: the culprit forfeits the deal; random: a random legal action is played "
        "for it."
    ),
]
PenaltyOption = Annotated[
    int | None,
    typer.Option(
        help="What a forfeiting bot pays each opponent (default: the rules' largest loss)."
    ),
]
PinOption = Annotated[
    int | None,
    typer.Option(
        "--cpu",
        help="Run the arena and its bots on this CPU only (Linux): every wake-up then stays on "
        "one CPU, up to 2x the deals per second with fast C bots on a virtual machine; bots "
        "that think in several threads lose by it.",
        show_default=False,
    ),
]


class Conduct(NamedTuple):
    """The fault policy and the resource limits a command's options ask for."""

    policy: FaultPolicy
    limits: Limits


def make_limits(
    *, max_memory_mb: int, max_cpu_s: int, max_processes: int = 128, max_stderr_mb: int = 10
) -> Limits:
    """The limits the options ask for (0: none); a negative one ends the command with a
    one-line error naming it."""
    for flag, value in (
        ("--max-memory-mb", max_memory_mb),
        ("--max-cpu-s", max_cpu_s),
        ("--max-processes", max_processes),
        ("--max-stderr-mb", max_stderr_mb),
    ):
        if value < 0:
            fail(f"{flag} must not be negative, not {value}")
    return Limits(
        memory_mb=max_memory_mb or None,
        cpu_seconds=max_cpu_s or None,
        processes=max_processes or None,
        stderr_bytes=max_stderr_mb * 1024 * 1024 or None,
    )


def sandbox_setting(enabled: bool, readable: list[str] | None = None) -> Sandbox | None:
    """The sandbox the options ask for, after checking that bubblewrap works here; a machine
    where it cannot ends the command with one line saying what to do."""
    if not enabled:
        if readable:
            fail("--sandbox-read goes with --sandbox")
        return None
    for path in readable or ():
        if not os.path.exists(path):
            fail(f"--sandbox-read {path}: no such file or folder")
    try:
        check_available()
    except SandboxUnavailable as exc:
        fail(str(exc))
    return Sandbox(readable=tuple(os.path.abspath(path) for path in readable or ()))


def conduct(
    *,
    movetime: int,
    timemargin: int,
    startup_ms: int,
    ping_ms: int,
    on_fault: str,
    forfeit_penalty: int | None,
    max_faults: int,
    max_memory_mb: int,
    max_cpu_s: int,
    max_processes: int = 128,
    max_stderr_mb: int = 10,
) -> Conduct:
    """Check the time, fault and limit options that match, tournament and sprt share, and
    build their policy and limits; a bad one ends the command with a one-line error naming it.
    """
    check_times(movetime, timemargin, startup_ms, ping_ms)
    for flag, value in (("--forfeit-penalty", forfeit_penalty), ("--max-faults", max_faults)):
        if value is not None and value < 0:
            fail(f"{flag} must not be negative, not {value}")
    limits = make_limits(
        max_memory_mb=max_memory_mb,
        max_cpu_s=max_cpu_s,
        max_processes=max_processes,
        max_stderr_mb=max_stderr_mb,
    )
    if on_fault not in ("forfeit", "random"):
        fail(f"--on-fault must be forfeit or random, not {on_fault!r}")
    return Conduct(
        FaultPolicy(
            on_fault="random" if on_fault == "random" else "forfeit",
            penalty=forfeit_penalty,
            max_faults=max_faults,
        ),
        limits,
    )


def bot_options(
    values: list[str],
    names: list[str],
    *,
    word: str = "player",
    aliases: dict[str, int] | None = None,
) -> list[dict[str, str]]:
    """The ``--option WHO:NAME=VALUE`` values of a command, per bot (in the order of
    ``names``); WHO is a bot's display name or one of ``aliases`` (sprt's new, old, third).
    A bad one ends the command with a one-line error."""
    aliases = aliases or {}
    per_bot: list[dict[str, str]] = [{} for _ in names]
    for text in values:
        who, sep, rest = text.partition(":")
        key, sep2, value = rest.partition("=")
        if not sep or not sep2 or not key:
            fail(f"bad --option {text!r}: write {word.upper()}:NAME=VALUE, e.g. "
                 f"{names[0]}:Aggression=80")  # fmt: skip
        if who.lower() in aliases:
            index = aliases[who.lower()]
        elif who in names:
            index = names.index(who)
        else:
            known = ", ".join([*aliases, *names])
            fail(f"--option {text!r}: no {word} named {who!r} ({word}s: {known})")
        per_bot[index][key] = value
    return per_bot


def bots_command() -> None:
    """List the bundled bots: the short names every command accepts, and what runs."""
    table = Table(title="Bundled bots (use the name wherever a bot is expected)")
    table.add_column("name", style="bold")
    table.add_column("language")
    table.add_column("what it does")
    for bot in BUNDLED:
        table.add_row(bot.name, bot.language, bot.description)
    out.print(table)
    out.print("Commands behind the names:")
    for bot in BUNDLED:
        out.print(f"  {bot.name}: {describe_command(bot.name)}", markup=False)


def _print_item(item: CheckItem) -> None:
    mark = "[bold green]PASS[/]" if item.passed else "[bold red]FAIL[/]"
    out.print(f"{mark} {item.number:2d} {item.name}: {escape(item.detail)}", highlight=False)
    if item.line is not None:
        out.print(f"        offending line: {item.line!r}", highlight=False, markup=False)


def check_command(
    bot: Annotated[str, typer.Argument(help="A bundled bot's name or a command line, in quotes.")],
    startup_ms: StartupOption = 10_000,
    movetime: MovetimeOption = 2000,
    timemargin: MarginOption = 100,
    ping_ms: PingOption = 5000,
    max_memory_mb: MemoryOption = 2048,
    max_cpu_s: CpuOption = 600,
    max_processes: ProcessesOption = 128,
    sandbox: SandboxOption = False,
    sandbox_read: SandboxReadOption = None,
) -> None:
    """Check a bot against protocol v1: handshake, options, ping, decisions from every phase
    and contract of both presets, a restart mid-deal, full deals, quit. Exits 1 on any FAIL.
    """
    check_times(movetime, timemargin, startup_ms, ping_ms)
    limits = make_limits(
        max_memory_mb=max_memory_mb, max_cpu_s=max_cpu_s, max_processes=max_processes
    )
    spec = parse_bot_arg(bot)
    config = BotConfig(
        command=spec.argv,
        name=spec.name,
        startup_ms=startup_ms,
        ping_ms=ping_ms,
        limits=limits,
        sandbox=sandbox_setting(sandbox, sandbox_read),
    )
    where = " in a sandbox" if config.sandbox is not None else ""
    out.print(f"checking {' '.join(spec.argv)}{where}", highlight=False, markup=False)
    items = run_check(config, time_ms=movetime, margin_ms=timemargin, report=_print_item)
    failed = [item for item in items if not item.passed]
    if failed:
        out.print(f"[bold red]{len(failed)} of {len(items)} items failed[/]")
        raise typer.Exit(1)
    out.print(f"[bold green]all {len(items)} items passed[/]")
