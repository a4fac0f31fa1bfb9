"""``zole-arena new-bot``: a starter bot in a language of one's choice, copied into a new
folder, with the commands that build, check and play it."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Annotated, Final

import typer
from rich.table import Table

from zole_arena.catalogue.starters import StarterError, copy_starter, find_starter, starters
from zole_arena.cli.console import fail, out
from zole_arena.errors import printable

#: What a bot's name may be (it goes into its sources, in a string).
_NAME: Final = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]{0,39}$")


def _list() -> None:
    table = Table(title="Starter bots (zole-arena new-bot LANGUAGE FOLDER)")
    table.add_column("language", style="bold")
    table.add_column("build")
    table.add_column("run")
    table.add_column("here")
    for starter in starters():
        missing = starter.missing
        here = "ready" if not missing else f"needs {', '.join(missing)}"
        table.add_row(starter.key, starter.build or "(nothing)", starter.run, here)
    out.print(table)


def new_bot_command(
    language: Annotated[
        str | None,
        typer.Argument(
            help="python, c, java, javascript, go, rust or csharp; none: list them.",
            show_default=False,
        ),
    ] = None,
    folder: Annotated[
        Path | None,
        typer.Argument(help="A new folder for the bot's files.", show_default=False),
    ] = None,
    name: Annotated[
        str | None,
        typer.Option(help="The bot's name (its 'id name').", show_default="the folder's name"),
    ] = None,
) -> None:
    """Start a bot of your own: copy a starter bot in your language into a new folder, and say
    how to build, check and play it. Each starter is small, keeps the deal's state and plays
    sensible Zole; make it stronger from there."""
    if language is None:
        _list()
        return
    if folder is None:
        fail("give a folder for the bot: zole-arena new-bot LANGUAGE FOLDER")
    try:
        starter = find_starter(language)
    except StarterError as exc:
        fail(str(exc))
    chosen = name or folder.resolve().name
    if not _NAME.match(chosen):
        fail(f"{chosen!r} is no bot name: letters, digits and _.+- (up to 40); give --name")
    try:
        written = copy_starter(starter, folder, chosen)
    except StarterError as exc:
        fail(str(exc))
    where = shlex.quote(str(folder))
    shown = ", ".join(str(p.relative_to(folder)) for p in written)
    made = printable(str(folder))  # the user's own text, but shown as text
    out.print(f"made {made}/: the {starter.language} starter bot {chosen!r} ({shown})",
              highlight=False, markup=False)  # fmt: skip
    steps = [f"cd {where}"]
    if starter.build:
        steps.append(starter.build)
    out.print(f"build:  {' && '.join(steps)}", highlight=False, markup=False)
    run = shlex.quote(starter.run)
    out.print(f"check:  zole-arena check {run}   (and with --sandbox)", highlight=False,
              markup=False)  # fmt: skip
    named = shlex.quote(f"{chosen}={starter.run}")
    out.print(f"play:   zole-arena match {named} rulebot random", highlight=False, markup=False)
    out.print(f"more:   {folder}/README.md and docs/languages.md", highlight=False, markup=False)
    missing = starter.missing
    if missing:
        packages = " ".join(starter.debian)
        out.print(
            f"[yellow]note:[/] {', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not "
            f"installed here (Debian/Ubuntu: apt install {packages})",
            highlight=False,
        )
