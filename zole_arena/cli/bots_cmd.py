"""``zole-arena bots`` and ``zole-arena check``: the bundled bots, and a bot's conformance."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from zole_arena.arena.check import CheckItem, run_check
from zole_arena.catalogue.bundled import BUNDLED, describe_command, parse_bot_arg
from zole_arena.cli.console import out
from zole_arena.cli.options import sandbox_setting, start_transcript_file, takes_options
from zole_arena.errors import printable
from zole_arena.options.registry import CHECK, MOVETIME, SANDBOX, SANDBOX_READ, TIMEMARGIN
from zole_arena.options.values import OptionValues


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
    if item.skipped:
        mark = "[bold yellow]SKIP[/]"
    else:
        mark = "[bold green]PASS[/]" if item.passed else "[bold red]FAIL[/]"
    out.print(f"{mark} {item.number:2d} {item.name}: {escape(item.detail)}", highlight=False)
    if item.line is not None:
        out.print(f"        offending line: {item.line!r}", highlight=False, markup=False)
    if item.transcript:
        out.print("        the transcript's end (> to the bot, < from it):", highlight=False)
        for line in item.transcript:
            out.print(f"          {line}", highlight=False, markup=False)


def _print_warning(text: str) -> None:
    out.print(f"[bold yellow]WARNING[/] {escape(text)}", highlight=False)


@takes_options(CHECK)
def check_command(
    bot: Annotated[str, typer.Argument(help="A bundled bot's name or a command line, in quotes.")],
    *,
    values: OptionValues,
) -> None:
    """Check a bot against protocol v1: handshake, options, ping, decisions from every phase
    and contract of both presets, a restart mid-deal, deals at a table of four (as a player
    and sitting out), full deals, quit. Exits 1 on any FAIL (a SKIP is none).
    """
    spec = parse_bot_arg(bot)
    start_transcript_file(values)
    config = values.bot_config(
        spec.argv, spec.name, sandbox=sandbox_setting(values[SANDBOX], values[SANDBOX_READ])
    )
    where = " in a sandbox" if config.sandbox is not None else ""
    shown = printable(" ".join(spec.argv))  # the user's own text, but shown as text
    out.print(f"checking {shown}{where}", highlight=False, markup=False)
    items = run_check(
        config,
        time_ms=values[MOVETIME],
        margin_ms=values[TIMEMARGIN],
        report=_print_item,
        warn=_print_warning,
    )
    failed = [item for item in items if not item.passed]
    skipped = [item for item in items if item.skipped]
    if skipped:  # the reason is each skipped item's (they share one: the bot's table sizes)
        reason = escape(skipped[0].detail.removeprefix("skipped: "))
        out.print(f"[bold yellow]{len(skipped)} items skipped[/]: {reason}", highlight=False)
    if failed:
        out.print(f"[bold red]{len(failed)} of {len(items)} items failed[/]")
        raise typer.Exit(1)
    if skipped:
        out.print(f"[bold green]all {len(items) - len(skipped)} items run passed[/]")
    else:
        out.print(f"[bold green]all {len(items)} items passed[/]")
