"""``zole-arena bots`` and ``zole-arena check``: the bundled bots, and a bot's conformance."""

from __future__ import annotations

from typing import Annotated, NamedTuple

import typer
from rich.markup import escape
from rich.table import Table

from zole_arena.botproc import Limits
from zole_arena.bundled import BUNDLED, describe_command, parse_bot_arg
from zole_arena.check import CheckItem, run_check
from zole_arena.cli.console import check_times, fail, out
from zole_arena.referee import FaultPolicy
from zole_arena.session import BotConfig

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
    int, typer.Option("--max-memory-mb", help="Address-space limit per bot, MiB; 0: none.")
]
CpuOption = Annotated[
    int, typer.Option("--max-cpu-s", help="CPU-time limit per bot process, s; 0: none.")
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
) -> Conduct:
    """Check the time, fault and limit options that match, tournament and sprt share, and
    build their policy and limits; a bad one ends the command with a one-line error naming it.
    """
    check_times(movetime, timemargin, startup_ms, ping_ms)
    for flag, value in (
        ("--forfeit-penalty", forfeit_penalty),
        ("--max-faults", max_faults),
        ("--max-memory-mb", max_memory_mb),
        ("--max-cpu-s", max_cpu_s),
    ):
        if value is not None and value < 0:
            fail(f"{flag} must not be negative, not {value}")
    if on_fault not in ("forfeit", "random"):
        fail(f"--on-fault must be forfeit or random, not {on_fault!r}")
    return Conduct(
        FaultPolicy(
            on_fault="random" if on_fault == "random" else "forfeit",
            penalty=forfeit_penalty,
            max_faults=max_faults,
        ),
        Limits(memory_mb=max_memory_mb or None, cpu_seconds=max_cpu_s or None),
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
) -> None:
    """Check a bot against protocol v1: handshake, options, ping, decisions from every phase
    and contract of both presets, a restart mid-deal, full deals, quit. Exits 1 on any FAIL.
    """
    check_times(movetime, timemargin, startup_ms, ping_ms)
    if max_memory_mb < 0 or max_cpu_s < 0:
        fail("--max-memory-mb and --max-cpu-s must not be negative")
    spec = parse_bot_arg(bot)
    config = BotConfig(
        command=spec.argv,
        name=spec.name,
        startup_ms=startup_ms,
        ping_ms=ping_ms,
        limits=Limits(memory_mb=max_memory_mb or None, cpu_seconds=max_cpu_s or None),
    )
    out.print(f"checking {' '.join(spec.argv)}", highlight=False, markup=False)
    items = run_check(config, time_ms=movetime, margin_ms=timemargin, report=_print_item)
    failed = [item for item in items if not item.passed]
    if failed:
        out.print(f"[bold red]{len(failed)} of {len(items)} items failed[/]")
        raise typer.Exit(1)
    out.print(f"[bold green]all {len(items)} items passed[/]")
