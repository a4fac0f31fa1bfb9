"""``zole-arena warm``: read every file sandboxed bots may read into memory before an event.

See :mod:`zole_arena.isolation.warm` for why: a page of a file left on the disk is a bit one
bot's process can set by reading it and another read by timing its own read.
"""

from __future__ import annotations

import os
from typing import Annotated

import typer

from zole_arena.cli.console import fail, out, print_json
from zole_arena.isolation.sandbox import SYSTEM_DIRS
from zole_arena.isolation.warm import bot_roots, warm


def warm_command(
    paths: Annotated[
        list[str] | None,
        typer.Argument(help="The entries' folders, and any --sandbox-read path of the event."),
    ] = None,
    system: Annotated[
        bool,
        typer.Option(
            "--system/--no-system",
            help="Also the system's folders every sandbox may read "
            f"({', '.join(SYSTEM_DIRS)}) and the arena's Python installation.",
        ),
    ] = True,
    json_output: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Read every file sandboxed bots may read into the page cache (the system's folders,
    the arena's library and installation, and PATHS), so that none is left on the disk for a
    bot to flip and another to time: run it before a competition, on every machine that
    plays tables, and again after the machine restarts (docs/competitions.md). It needs as
    much free memory as the files take."""
    missing = [path for path in paths or () if not os.path.exists(path)]
    if missing:
        fail(f"no such file or folder: {missing[0]}")
    roots = bot_roots((), os.getcwd(), paths or (), system=system)
    result = warm(roots)
    if json_output:
        print_json({"roots": list(result.roots), "files": result.files, "bytes": result.bytes,
                    "seconds": result.seconds, "unreadable": result.unreadable})  # fmt: skip
        return
    out.print(
        f"read {result.files:,} files ({result.bytes / 2**30:.2f} GiB) in "
        f"{result.seconds:.1f} s into memory: {', '.join(result.roots)}"
        + (f"; {result.unreadable:,} could not be read" if result.unreadable else ""),
        markup=False,
    )
